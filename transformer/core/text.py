"""From typed text to model ids, the same way in training, decoding, the CLIs and the app.

Source ids are the pieces followed by EOS; target input is BOS + pieces; target output is
pieces + EOS. Text is cleaned first: control characters (NUL, escapes, ...) become spaces, since
a student pasting from a PDF should get a translation, not an error.
"""
from __future__ import annotations

import unicodedata


class TextError(ValueError):
    """Input text that cannot be used; the message is shown to the user as is."""


def clean_text(text: object, what: str = "text") -> str:
    if text is None:
        raise TextError(f"{what}: nothing was typed")
    if not isinstance(text, str):
        raise TextError(f"{what}: expected text, got {type(text).__name__}")
    # Control characters become spaces; lone surrogates (what Python makes of invalid UTF-8 in
    # argv or JSON) become U+FFFD, since no tokenizer or browser can encode them.
    chars = [" " if cat == "Cc" else "\ufffd" if cat == "Cs" else c
             for c, cat in ((c, unicodedata.category(c)) for c in text)]
    out = " ".join("".join(chars).split())
    if not out:
        raise TextError(f"{what}: the text is empty (type a sentence)")
    return out


def source_ids(tokenizer, text: str, max_len: int) -> tuple[list[int], bool]:
    """Pieces + EOS, truncated to max_len tokens. Returns (ids, truncated)."""
    ids = tokenizer.encode(clean_text(text, "source"))
    truncated = len(ids) + 1 > max_len
    ids = ids[:max_len - 1]
    return ids + [tokenizer.eos_id if hasattr(tokenizer, "eos_id") else 2], truncated


def target_ids(tokenizer, text: str, max_len: int) -> tuple[list[int], bool]:
    """Pieces of a target sentence (no BOS/EOS), truncated so BOS + pieces fits max_len. A
    tokenizer with its own target model (PairTokenizer) cuts targets with it."""
    encode = getattr(tokenizer, "encode_target", tokenizer.encode)
    ids = encode(clean_text(text, "target"))
    truncated = len(ids) + 1 > max_len
    return ids[:max_len - 1], truncated
