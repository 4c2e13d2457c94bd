"""How much text one box takes: checked before anything is tokenised or computed (issue 48).

A sentence box had no limit: a pasted 10 MB "sentence" was tokenised, truncated to the model's 512
tokens and traced, 35-65 s of server work for one keystroke. Every box that feeds a model now draws
with `max_chars` (the browser stops typing there) and its page checks the value it got (a forged
websocket message, or a `?text=` link, skips the browser): over the limit the page says so in its
language and stops, in microseconds, with nothing computed and nothing the student made lost.

    SENTENCE_CHARS  a sentence box (Attention, Step, Two sentences, Decode, Heads, Positional
                    encoding, Across training): $ATTENTION_LAB_MAX_TEXT_CHARS, default 3,000
                    (some 600 words: past the 512 tokens any shipped model reads)
    LIST_CHARS      a box of several sentences, one a line (Masks, the Heads page's list): 50,000
"""
from __future__ import annotations

import os

import streamlit as st

from ui import i18n
from ui.strings import shell as strings


def _env_int(name: str, default: int) -> int:
    raw = os.environ.get(name, "").strip()
    return int(raw) if raw.isdigit() and int(raw) > 0 else default


SENTENCE_CHARS = _env_int("ATTENTION_LAB_MAX_TEXT_CHARS", 3_000)
LIST_CHARS = _env_int("ATTENTION_LAB_MAX_LIST_CHARS", 50_000)


def too_long(text, limit: int = SENTENCE_CHARS) -> bool:
    return isinstance(text, str) and len(text) > limit


def stop_if_too_long(*texts, limit: int = SENTENCE_CHARS) -> None:
    """End the page with a note in its language when any of `texts` is over `limit`."""
    for text in texts:
        if too_long(text, limit):
            st.warning(i18n.translator(strings)("too_long", n=len(text), limit=limit))
            st.stop()
