"""Two SentencePiece models over one vocabulary: how Marian (OPUS-MT) models cut text.

Source text is cut into pieces by ``source.spm``, target text by ``target.spm``, and both sets of
pieces are numbered by one ``vocab.json`` (piece -> id), the rows of the model's one embedding
table. The special tokens are the vocabulary's: ``</s>`` (eos), ``<unk>`` and ``<pad>``; Marian
starts decoding from ``<pad>``, so ``bos_id`` is the pad id. The rules are those of
transformers' ``MarianTokenizer`` (a test holds them equal):

* ``encode(text)``: a leading ``>>lang<<`` code is one token, the rest is
  ``source.spm.encode(text, out_type=str)``; each piece maps through vocab.json (unknown -> unk).
* ``encode_target(text)``: the same with ``target.spm``.
* ``decode(ids)``: eos, pad and unk are skipped (``skip_special_tokens=True``), the pieces are
  joined by ``target.spm`` and "▁" becomes a space.

The interface is :class:`transformer.core.tokenizer.Tokenizer`'s, so every page and CLI uses it as is.
"""
from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

import sentencepiece as spm

from transformer.core.tokenizer import check_ids, group_words

WORD_MARK = "\u2581"
SOURCE, TARGET, VOCAB = "source.spm", "target.spm", "vocab.json"
FILES = (SOURCE, TARGET, VOCAB)
MAX_FILE_BYTES = 64 << 20


def _load_spm(data: bytes, name: str) -> spm.SentencePieceProcessor:
    sp = spm.SentencePieceProcessor()
    try:
        sp.LoadFromSerializedProto(bytes(data))
    except (RuntimeError, OSError, TypeError) as e:
        raise ValueError(f"{name}: not a SentencePiece model ({type(e).__name__})") from None
    return sp


def _parse_vocab(data: bytes) -> dict[str, int]:
    try:
        vocab = json.loads(bytes(data).decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as e:
        raise ValueError(f"{VOCAB}: not valid JSON ({type(e).__name__})") from None
    if not isinstance(vocab, dict) or not vocab:
        raise ValueError(f"{VOCAB}: must be a non-empty object piece -> id")
    ids = list(vocab.values())
    if not all(isinstance(i, int) and not isinstance(i, bool) for i in ids):
        raise ValueError(f"{VOCAB}: every id must be an integer")
    if sorted(ids) != list(range(len(ids))):
        raise ValueError(f"{VOCAB}: ids must be 0..{len(ids) - 1}, each once")
    return vocab


class PairTokenizer:
    """Source and target SentencePiece models numbered by one vocabulary. Immutable; shared by
    every browser session like :class:`Tokenizer`."""

    kind = "sentencepiece-pair"  # the value of config.json's "tokenizer" field

    def __init__(self, source_spm: bytes, target_spm: bytes, vocab_json: bytes, *,
                 eos: str = "</s>", unk: str = "<unk>", pad: str = "<pad>"):
        self._files = {SOURCE: bytes(source_spm), TARGET: bytes(target_spm),
                       VOCAB: bytes(vocab_json)}
        self._src = _load_spm(source_spm, SOURCE)
        self._tgt = _load_spm(target_spm, TARGET)
        self._vocab = _parse_vocab(vocab_json)
        self._pieces = [""] * len(self._vocab)
        for piece, i in self._vocab.items():
            self._pieces[i] = piece
        for name, piece in (("eos", eos), ("unk", unk), ("pad", pad)):
            if piece not in self._vocab:
                raise ValueError(f"{VOCAB}: has no {name} token {piece!r}")
        self.eos_id, self.unk_id, self.pad_id = self._vocab[eos], self._vocab[unk], self._vocab[pad]
        self.bos_id = self.pad_id  # Marian's decoder_start_token_id
        self._special = {self.eos_id: eos, self.unk_id: unk, self.pad_id: pad}
        self.requested_vocab_size = self.vocab_size

    # ----------------------------------------------------------------------------- files
    @classmethod
    def load(cls, directory: str | Path) -> PairTokenizer:
        """Read source.spm, target.spm and vocab.json from a directory (ValueError names the
        file that is missing or wrong)."""
        d = Path(directory)
        blobs = []
        for name in FILES:
            p = d / name
            if not p.is_file():
                raise ValueError(f"{name}: missing")
            if p.stat().st_size > MAX_FILE_BYTES:
                raise ValueError(f"{name}: larger than {MAX_FILE_BYTES >> 20} MiB")
            blobs.append(p.read_bytes())
        return cls(*blobs)

    def files(self) -> dict[str, bytes]:
        """File name -> bytes, as a checkpoint stores them."""
        return dict(self._files)

    def to_bytes(self) -> bytes:
        """One byte string for identity checks (length-prefixed files, in a fixed order)."""
        return b"".join(len(self._files[n]).to_bytes(8, "big") + self._files[n] for n in FILES)

    def __reduce__(self):
        return (PairTokenizer, (self._files[SOURCE], self._files[TARGET], self._files[VOCAB]))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PairTokenizer) and other._files == self._files

    def __hash__(self) -> int:
        return hash(self.to_bytes())

    def __repr__(self) -> str:
        return f"PairTokenizer(vocab_size={self.vocab_size})"

    # ------------------------------------------------------------------------ vocabulary
    @property
    def vocab_size(self) -> int:
        return len(self._pieces)

    def is_special(self, token_id: int) -> bool:
        return token_id in self._special

    def id_to_piece(self, token_id: int) -> str:
        return self._pieces[self._check_id(token_id)]

    def piece_to_id(self, piece: str) -> int:
        return self._vocab.get(piece, self.unk_id)

    # ------------------------------------------------------------------- encode, decode
    def _encode(self, sp: spm.SentencePieceProcessor, text: str) -> list[int]:
        if not isinstance(text, str):
            raise TypeError(f"text must be a str, got {type(text).__name__}")
        code: list[str] = []
        if text.startswith(">>") and (end := text.find("<<")) != -1:  # >>fra<< picks a language
            code, text = [text[: end + 2]], text[end + 2:]
        pieces = code + (sp.encode(text, out_type=str) if text else [])
        return [self._vocab.get(p, self.unk_id) for p in pieces]

    def encode(self, text: str) -> list[int]:
        """Source pieces' ids (source.spm), without eos."""
        return self._encode(self._src, text)

    def encode_target(self, text: str) -> list[int]:
        """Target pieces' ids (target.spm), for teacher forcing; without eos."""
        return self._encode(self._tgt, text)

    def encode_batch(self, texts: Iterable[str]) -> list[list[int]]:
        return [self.encode(t) for t in texts]

    def decode(self, ids: Iterable[int]) -> str:
        pieces = [self._pieces[i] for i in self._check_ids(ids) if i not in self._special]
        return self._tgt.decode_pieces(pieces).replace(WORD_MARK, " ").strip()

    # ------------------------------------------------------------------- for display
    def pieces(self, ids: Iterable[int]) -> list[str]:
        return [self._pieces[i] for i in self._check_ids(ids)]

    def display(self, ids: Iterable[int]) -> list[str]:
        """One label per position: specials as they are named, pieces without the word mark."""
        return [self._special.get(i) or self._pieces[i].lstrip(WORD_MARK) or WORD_MARK
                for i in self._check_ids(ids)]

    def words(self, ids: Iterable[int]) -> list[list[int]]:
        """Positions grouped into words (a word starts at "▁" or after a special; each special
        is a group of its own), as Tokenizer.words."""
        return group_words(self._check_ids(ids), self._special.__contains__, self._pieces.__getitem__)

    def word_strings(self, ids: Iterable[int]) -> list[str]:
        ids = self._check_ids(ids)
        out = []
        for group in self.words(ids):
            first = ids[group[0]]
            if first in self._special:
                out.append(self._special[first])
            else:
                out.append("".join(self._pieces[ids[p]] for p in group).replace(WORD_MARK, " ")
                           .strip() or WORD_MARK)
        return out

    # ------------------------------------------------------------------------- checks
    def _check_id(self, token_id: object) -> int:
        if isinstance(token_id, bool) or not hasattr(token_id, "__index__"):
            raise TypeError(f"token ids must be ints, got {type(token_id).__name__}")
        token_id = int(token_id)
        if not 0 <= token_id < self.vocab_size:
            raise ValueError(f"token id {token_id} outside the vocabulary [0, {self.vocab_size})")
        return token_id

    def _check_ids(self, ids: Iterable[int]) -> list[int]:
        return check_ids(ids, self._check_id)
