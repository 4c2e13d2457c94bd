"""English / 中文: the app's one translation mechanism.

Every sentence lives in ui/strings/<page or topic>.py as an EN and a ZH dict. The core
(transformer/) never holds a sentence: it says things as a code with parameters (a note, a
verdict, an input error), and `text(strings, code, lang, **params)` renders one code in a
language. The rest are ways to call it:

    t = translator(strings)              t(key, **fmt) in the session's language, read at each call
    t = translator(strings, frozen=True)  the same, with the language read once, now (for a
                                          format_func, which Streamlit may call outside the script
                                          run, where the session's language is not visible)
    pick({"en": ..., "zh": ...})         a value that is data in both languages (the examples file,
                                          a checkpoint's history.json) in the session's language

A strings module may name, in SKIP, keys that a language leaves out (rendered as "").
"""
from __future__ import annotations

from types import ModuleType
from typing import Any

LANGS = {"en": "English", "zh": "中文"}
KEY = "lang"


def lang() -> str:
    """The session's language ("en" outside a Streamlit run)."""
    # deferred: streamlit is heavy, and the command-line tools render English without it
    import streamlit as st

    value = st.session_state.get(KEY, "en")
    return value if value in LANGS else "en"


def text(strings: ModuleType, key: str, lang: str = "en", /, **params: Any) -> str:
    """The one renderer: ``key`` of ``strings`` in ``lang`` with ``params`` filled in (English
    where the language lacks the key; tests/test_zh_complete.py fails on any such gap). ``lang``
    is positional only, so a sentence may have a ``{lang}`` parameter of its own."""
    if key in getattr(strings, "SKIP", {}).get(lang, ()):
        return ""
    table = strings.ZH if lang == "zh" else strings.EN
    out = table.get(key) or strings.EN[key]
    return out.format(**params) if params else out


def translator(strings: ModuleType, frozen: bool = False):
    """t(key, **fmt): ``text`` in the session's language (``frozen``: the language of now)."""
    fixed = lang() if frozen else None

    def t(key: str, **fmt) -> str:
        return text(strings, key, fixed or lang(), **fmt)

    return t


def pick(value: Any, language: str | None = None) -> Any:
    """A bilingual data value ({"en": ..., "zh": ...}) in ``language`` (default: the session's),
    English where that language is missing or empty; any other value as it is."""
    if isinstance(value, dict) and "en" in value:
        return value.get(language or lang()) or value["en"]
    return value
