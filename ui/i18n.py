"""English / 中文: the app's one translation mechanism.

English lives in ui/strings/<page or topic>.py as its EN dict (the source: every key is there);
every other language lives in one data file, ui/locales/<code>.json, which holds, per strings
module name, that module's sentences in the language ({"attention": {"title": "...", ...}, ...}).
LANGS names the languages the switch offers. The core (transformer/) says things as a code with
parameters (a note, a verdict, an input error); its one table of sentences is the worked examples'
English (transformer/worked/english.py, for its command line), which ui/strings/worked_examples.py
takes in whole. `text(strings, code, lang, **params)` renders one code in a language. The rest are
ways to call it:

    t = translator(strings)              t(key, **fmt) in the session's language, read at each call
    t = translator(strings, frozen=True)  the same, with the language read once, now (for a
                                          format_func, which Streamlit may call outside the script
                                          run, where the session's language is not visible)
    pick({"en": ..., "zh": ...})         a value that is data in both languages (the examples file,
                                          a checkpoint's history.json) in the session's language
    sentences(strings, lang)             a module's whole table in a language (for tests and checks)

A strings module may name, in SKIP, keys a language leaves out (rendered as ""); a language SKIP
does not name leaves out what English leaves out.

Adding a language: write ui/locales/<code>.json (every key of every strings module, the same
{placeholders}: tests/test_zh_complete.py fails on a gap) and add "<code>": "<its own name>" to
LANGS.
"""
from __future__ import annotations

import functools
import json
from pathlib import Path
from types import ModuleType
from typing import Any

LANGS = {"en": "English", "zh": "中文"}
KEY = "lang"
LOCALES = Path(__file__).with_name("locales")  # <code>.json for every language but English


LAST_KEY = "_lang_last"  # the last language the session used (not a widget's key: never lost)


def lang() -> str:
    """The session's language ("en" outside a Streamlit run)."""
    # deferred: streamlit is heavy, and the command-line tools render English without it
    import streamlit as st

    value = st.session_state.get(KEY, "en")
    if value not in LANGS:  # the switch deselected, or its state lost: the last language chosen
        value = st.session_state.get(LAST_KEY, "en")
    return value if value in LANGS else "en"


@functools.cache
def locale(lang: str) -> dict[str, dict[str, str]]:
    """Every sentence of a language other than English, by strings module name (its file)."""
    return json.loads((LOCALES / f"{lang}.json").read_text(encoding="utf-8"))


def sentences(strings: ModuleType, lang: str) -> dict[str, str]:
    """The sentences of ``strings`` in ``lang``: its EN dict for English, else the module's table in
    the language's file (empty where the file has none; ``text`` falls back to English)."""
    if lang == "en":
        return strings.EN
    return locale(lang).get(strings.__name__.rsplit(".", 1)[-1], {})


def text(strings: ModuleType, key: str, lang: str = "en", /, **params: Any) -> str:
    """The one renderer: ``key`` of ``strings`` in ``lang`` with ``params`` filled in (English
    where the language lacks the key; tests/test_zh_complete.py fails on any such gap). ``lang``
    is positional only, so a sentence may have a ``{lang}`` parameter of its own."""
    skip = getattr(strings, "SKIP", {})
    if key in skip.get(lang, skip.get("en", ())):
        return ""
    out = sentences(strings, lang).get(key) or strings.EN[key]
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


def in_address(params: dict | None = None) -> dict:
    """A link's query parameters with the session's language added (``lang``, left out for
    English), so a link to another page (st.page_link, st.switch_page) keeps the language."""
    out = dict(params or {})
    if lang() != "en":
        out[KEY] = lang()
    return out


def sync_address() -> None:
    """Write the session's language into the address (``?lang=zh``; none for English) on every
    run: a page switch drops the query string, and a refresh reads the language back from it."""
    import streamlit as st

    want = lang()
    have = st.query_params.get(KEY)
    if want == "en":
        if have is not None:
            del st.query_params[KEY]
    elif have != want:
        st.query_params[KEY] = want
