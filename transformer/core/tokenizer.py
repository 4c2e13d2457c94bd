"""One shared SentencePiece vocabulary for source and target (paper, section 3.4).

Choices, and why:

* **BPE by default.** On the tiny corpora of the synthetic tasks SentencePiece's unigram trainer
  learns almost nothing (it kept "▁" and single letters apart), while BPE merges every frequent
  word into one piece ("▁dog"), which is what a student wants to see on an attention chart.
  On Multi30k both work; ``model_type="unigram"`` is available.
* **Fixed special ids** pad=0, bos=1, eos=2, unk=3, the same in every model this module trains,
  so the model, masks and decoders can hard-code them (docs/INTERFACES.md).
* **Exact round trip** ``decode(encode(s)) == s`` for any Unicode string: ``byte_fallback`` turns
  every character outside the vocabulary (Chinese, emoji, tabs, NUL) into its UTF-8 bytes, the
  ``identity`` normalization rule keeps ligatures and combining accents as typed (``nmt_nfkc``
  would rewrite them), and ``remove_extra_whitespaces=False`` keeps runs of spaces. SentencePiece's
  own dummy prefix is switched off: this class prepends the one space itself, so that a literal
  "▁" (U+2581, SentencePiece's space marker) in the input can be written as its three bytes and
  come back as "▁" rather than as a space.
* **Tiny corpora:** byte fallback needs 256 byte pieces, the specials 4, and every character of
  the corpus one (the "minimum"). A ``vocab_size`` below that minimum is read as "this many
  learned pieces on top of the minimum" (so ``vocab_size=40`` on a 20-symbol task still learns
  every symbol as one piece), and ``hard_vocab_limit`` is off, so a corpus that cannot fill the
  vocabulary gives a smaller one. The size actually built is ``.vocab_size``;
  ``.requested_vocab_size`` is what was asked for.
"""

from __future__ import annotations

import io
import os
import tempfile
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path

import sentencepiece as spm

PAD_ID, BOS_ID, EOS_ID, UNK_ID = 0, 1, 2, 3
SPECIAL_DISPLAY = {PAD_ID: "<pad>", BOS_ID: "<s>", EOS_ID: "</s>", UNK_ID: "<unk>"}
WORD_MARK = "\u2581"  # "▁": SentencePiece's marker for "a space was here"
_N_BYTE_PIECES = 256
_MARK_BYTES = WORD_MARK.encode("utf-8")
_CONTROL_ESCAPES = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}


def _check_text(text: object, what: str = "text") -> str:
    """Reject None and non-strings early, with a message that says what was passed."""
    if not isinstance(text, str):
        raise TypeError(f"{what} must be a str, got {type(text).__name__}: {text!r:.60}")
    if any("\ud800" <= c <= "\udfff" for c in text):  # lone surrogates cannot be UTF-8 encoded
        text = "".join("\ufffd" if "\ud800" <= c <= "\udfff" else c for c in text)
    return text


def check_ids(ids: Iterable[int], check_id: Callable[[object], int]) -> list[int]:
    """`ids` (a sequence, a numpy array or a torch tensor) as a list of ints, each passed through
    `check_id`; a string, bytes or None is refused."""
    if ids is None or isinstance(ids, (str, bytes)):
        raise TypeError(f"ids must be a sequence of ints, got {type(ids).__name__}")
    if hasattr(ids, "tolist"):  # torch / numpy
        ids = ids.tolist()
    return [check_id(i) for i in ids]


def group_words(ids: list[int], is_special: Callable[[int], bool],
                piece: Callable[[int], str]) -> list[list[int]]:
    """Positions of `ids` grouped into words: a word starts at a piece that begins with "▁" and
    at the first piece after a special; every special token is a group of its own."""
    groups: list[list[int]] = []
    prev_special = True
    for pos, i in enumerate(ids):
        special = is_special(i)
        if special or prev_special or piece(i).startswith(WORD_MARK):
            groups.append([pos])
        else:
            groups[-1].append(pos)
        prev_special = special
    return groups


class Tokenizer:
    """A trained SentencePiece model with the project's fixed specials and display helpers.

    Immutable after construction and safe to share between threads (the app shares one per
    checkpoint across browser sessions).
    """

    def __init__(self, model_proto: bytes, requested_vocab_size: int | None = None):
        if not isinstance(model_proto, (bytes, bytearray)) or not model_proto:
            raise ValueError("model_proto must be the non-empty bytes of a SentencePiece model")
        self._proto = bytes(model_proto)
        sp = spm.SentencePieceProcessor()
        try:
            sp.LoadFromSerializedProto(self._proto)
        except (RuntimeError, OSError) as exc:
            raise ValueError(f"not a valid SentencePiece model: {exc}") from None
        self._sp = sp
        self._check_specials()
        # Models trained here have SentencePiece's dummy prefix off and we add the space;
        # a model trained elsewhere may add it itself, and then we must not add a second one.
        self._manual_prefix = not sp.encode("a", out_type=str)[0].startswith(WORD_MARK)
        self._mark_byte_ids = self._byte_ids(_MARK_BYTES)
        self.requested_vocab_size = requested_vocab_size or sp.get_piece_size()

    # ----------------------------------------------------------------- training and loading
    @classmethod
    def train(
        cls,
        texts: Iterable[str],
        vocab_size: int = 8000,
        model_type: str = "bpe",
        character_coverage: float = 1.0,
        byte_fallback: bool = True,
        user_defined_symbols: Sequence[str] = (),
        max_sentence_length: int = 16384,
        num_threads: int = 1,
    ) -> Tokenizer:
        """Train in memory on ``texts`` (one sentence per item; items with newlines are split).

        Nothing is written to disk. ``vocab_size`` is raised to the minimum the corpus needs
        (see the module docstring) and is a soft limit. ``num_threads=1`` keeps training
        deterministic and off the other users' cores.
        """
        if model_type not in ("bpe", "unigram"):
            raise ValueError(f"model_type must be 'bpe' or 'unigram', got {model_type!r}")
        if not isinstance(vocab_size, int) or vocab_size < 1:
            raise ValueError(f"vocab_size must be a positive int, got {vocab_size!r}")
        lines = list(_training_lines(texts))
        if not lines:
            raise ValueError("no training text: every text was empty")
        chars = {c for line in lines for c in line} - {" "}
        needed = 4 + len(chars) + 1 + len(user_defined_symbols)  # +1 for "▁"
        needed += _N_BYTE_PIECES if byte_fallback else 0
        writer = io.BytesIO()
        spm.SentencePieceTrainer.train(
            sentence_iterator=iter(lines),
            model_writer=writer,
            vocab_size=vocab_size if vocab_size >= needed else needed + vocab_size,
            model_type=model_type,
            character_coverage=character_coverage,
            byte_fallback=byte_fallback,
            pad_id=PAD_ID, bos_id=BOS_ID, eos_id=EOS_ID, unk_id=UNK_ID,
            normalization_rule_name="identity",
            remove_extra_whitespaces=False,
            add_dummy_prefix=False,
            hard_vocab_limit=False,
            user_defined_symbols=list(user_defined_symbols),
            max_sentence_length=max_sentence_length,
            num_threads=num_threads,
            minloglevel=2,
        )
        return cls(writer.getvalue(), requested_vocab_size=vocab_size)

    @classmethod
    def train_files(cls, paths: Iterable[str | os.PathLike], vocab_size: int = 8000, **kwargs) -> Tokenizer:
        """Train on the lines of UTF-8 text files (e.g. train.en and train.de together)."""
        return cls.train(_file_lines([Path(p) for p in paths]), vocab_size, **kwargs)

    @classmethod
    def load(cls, path: str | os.PathLike) -> Tokenizer:
        """Load a ``.model`` file written by :meth:`save` (or any SentencePiece model)."""
        path = Path(path)
        if not path.is_file():
            raise FileNotFoundError(f"tokenizer model not found: {path}")
        return cls(path.read_bytes())

    @classmethod
    def from_bytes(cls, data: bytes) -> Tokenizer:
        return cls(data)

    def to_bytes(self) -> bytes:
        return self._proto

    def save(self, path: str | os.PathLike) -> Path:
        """Write the model atomically (temp file in the same directory, then rename)."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(self._proto)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        return path

    def __reduce__(self):  # pickling (DataLoader workers) goes through the model bytes
        return (Tokenizer.from_bytes, (self._proto,))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Tokenizer) and other._proto == self._proto

    def __hash__(self) -> int:
        return hash(self._proto)

    def __repr__(self) -> str:
        return f"Tokenizer(vocab_size={self.vocab_size})"

    # ------------------------------------------------------------------------- properties
    @property
    def vocab_size(self) -> int:
        return self._sp.get_piece_size()

    pad_id, bos_id, eos_id, unk_id = PAD_ID, BOS_ID, EOS_ID, UNK_ID

    def is_special(self, token_id: int) -> bool:
        return token_id in SPECIAL_DISPLAY

    def id_to_piece(self, token_id: int) -> str:
        return self._sp.id_to_piece(self._check_id(token_id))

    def piece_to_id(self, piece: str) -> int:
        return self._sp.piece_to_id(_check_text(piece, "piece"))

    # ------------------------------------------------------------------ encode and decode
    def encode(self, text: str) -> list[int]:
        """Token ids of ``text``, without bos/eos; ``""`` gives ``[]``."""
        _check_text(text)
        if not text:
            return []
        if not self._manual_prefix:
            return list(self._sp.encode(text))
        if WORD_MARK not in text or not self._mark_byte_ids:
            return list(self._sp.encode(" " + text))
        parts = (" " + text).split(WORD_MARK)
        ids: list[int] = list(self._sp.encode(parts[0])) if parts[0] else []
        for part in parts[1:]:  # a literal "▁" is written as its bytes (see module docstring)
            ids += self._mark_byte_ids
            ids += self._sp.encode(part) if part else []
        return ids

    def encode_batch(self, texts: Iterable[str]) -> list[list[int]]:
        return [self.encode(t) for t in texts]

    def decode(self, ids: Iterable[int]) -> str:
        """Text of ``ids``; pad, bos and eos are skipped, unk shows as " ⁇ "."""
        ids = [i for i in self._check_ids(ids) if i not in (PAD_ID, BOS_ID, EOS_ID)]
        text = self._sp.decode(ids)
        if self._manual_prefix and text.startswith(" "):
            text = text[1:]
        return text

    # --------------------------------------------------------------- pieces, for display
    def pieces(self, ids: Iterable[int]) -> list[str]:
        """Raw SentencePiece pieces, e.g. ``['▁Der', '▁Hund', '<0xE4>']``."""
        return [self._sp.id_to_piece(i) for i in self._check_ids(ids)]

    def display(self, ids: Iterable[int]) -> list[str]:
        """One readable label per position, for chart axes.

        * specials: ``<pad>``, ``<s>``, ``</s>``, ``<unk>``;
        * the word-start marker is dropped ("▁Hund" -> "Hund"; a continuation piece such as
          "e" in "Hund"+"e" stays as is, so the pieces of a word read as the word); a piece
          that is only the marker (a space before a byte-fallback character) shows as "▁";
        * byte-fallback pieces that together make a character show that character, and when
          it took several bytes, which of them: "中 1/3", "中 2/3", "中 3/3"; a byte that
          belongs to no complete character shows as its hex, "0xE4"; control characters show
          escaped ("\\t").
        """
        ids = self._check_ids(ids)
        labels: list[str] = []
        pos = 0
        while pos < len(ids):
            run_end = pos
            while run_end < len(ids) and self._sp.is_byte(ids[run_end]):
                run_end += 1
            if run_end > pos:
                labels += self._display_bytes(ids[pos:run_end])
                pos = run_end
            else:
                labels.append(self._display_piece(ids[pos]))
                pos += 1
        return labels

    def words(self, ids: Iterable[int]) -> list[list[int]]:
        """Positions of ``ids`` grouped into words.

        A word starts at a piece that begins with "▁" and at the first piece after a special;
        every special token (pad, bos, eos, unk) is a group of its own.
        """
        return group_words(self._check_ids(ids), SPECIAL_DISPLAY.__contains__, self._sp.id_to_piece)

    def word_strings(self, ids: Iterable[int]) -> list[str]:
        """The text of each group of :meth:`words` (specials as ``<s>`` etc.)."""
        ids = self._check_ids(ids)
        out = []
        for group in self.words(ids):
            first = ids[group[0]]
            if first in SPECIAL_DISPLAY:
                out.append(SPECIAL_DISPLAY[first])
            else:
                out.append(self._sp.decode([ids[p] for p in group]).removeprefix(" ") or WORD_MARK)
        return out

    # -------------------------------------------------------------------------- helpers
    def _check_specials(self) -> None:
        sp = self._sp
        got = (sp.pad_id(), sp.bos_id(), sp.eos_id(), sp.unk_id())
        if got != (PAD_ID, BOS_ID, EOS_ID, UNK_ID):
            raise ValueError(f"model has special ids pad,bos,eos,unk={got}; this project needs (0, 1, 2, 3)")

    def _check_id(self, token_id: object) -> int:
        if isinstance(token_id, bool) or not hasattr(token_id, "__index__"):
            raise TypeError(f"token ids must be ints, got {type(token_id).__name__}: {token_id!r:.40}")
        token_id = int(token_id)  # accepts numpy and 0-d torch ints
        if not 0 <= token_id < self.vocab_size:
            raise ValueError(f"token id {token_id} outside the vocabulary [0, {self.vocab_size})")
        return token_id

    def _check_ids(self, ids: Iterable[int]) -> list[int]:
        return check_ids(ids, self._check_id)

    def _byte_ids(self, data: bytes) -> list[int]:
        ids = [self._sp.piece_to_id(f"<0x{b:02X}>") for b in data]
        return [] if any(i == UNK_ID for i in ids) else ids

    def _display_piece(self, token_id: int) -> str:
        if token_id in SPECIAL_DISPLAY:
            return SPECIAL_DISPLAY[token_id]
        piece = self._sp.id_to_piece(token_id)
        return piece.lstrip(WORD_MARK) or WORD_MARK

    def _display_bytes(self, ids: list[int]) -> list[str]:
        """Labels for a run of byte pieces, grouped into the UTF-8 characters they make."""
        data = bytes(int(self._sp.id_to_piece(i)[3:5], 16) for i in ids)
        labels: list[str] = []
        pos = 0
        while pos < len(data):
            size = _utf8_length(data[pos])
            chunk = data[pos:pos + size]
            try:
                char = chunk.decode("utf-8") if size and len(chunk) == size else None
            except UnicodeDecodeError:
                char = None
            if char is None:
                labels.append(f"0x{data[pos]:02X}")
                pos += 1
                continue
            shown = _CONTROL_ESCAPES.get(char) or (char if char.isprintable() else f"U+{ord(char):04X}")
            labels += [shown] if size == 1 else [f"{shown} {k}/{size}" for k in range(1, size + 1)]
            pos += size
        return labels


def _utf8_length(lead: int) -> int:
    """Bytes in the UTF-8 sequence that starts with ``lead`` (0 if it cannot start one)."""
    if lead < 0x80:
        return 1
    for size, (lo, hi) in ((2, (0xC2, 0xDF)), (3, (0xE0, 0xEF)), (4, (0xF0, 0xF4))):
        if lo <= lead <= hi:
            return size
    return 0


def _training_lines(texts: Iterable[str]) -> Iterator[str]:
    """Non-empty lines with the leading space this class adds at encode time."""
    if isinstance(texts, str):
        raise TypeError("texts must be an iterable of strings, not one string")
    for n, text in enumerate(texts):
        for line in _check_text(text, f"texts[{n}]").split("\n"):
            if line.strip():
                yield " " + line


def _file_lines(paths: list[Path]) -> Iterator[str]:
    for path in paths:
        if not path.is_file():
            raise FileNotFoundError(f"training file not found: {path}")
        with open(path, encoding="utf-8") as fh:
            yield from (line.rstrip("\n") for line in fh)
