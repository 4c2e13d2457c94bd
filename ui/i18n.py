"""English / 中文 switch. Each page keeps its strings in ui/strings/<page>.py as EN and ZH dicts;
`translator(module)` returns t(key, **fmt) reading the session's language."""
from __future__ import annotations

from types import ModuleType

import streamlit as st

LANGS = {"en": "English", "zh": "中文"}
KEY = "lang"


def lang() -> str:
    value = st.session_state.get(KEY, "en")
    return value if value in LANGS else "en"


def translator(strings: ModuleType):
    tables = {"en": strings.EN, "zh": strings.ZH}

    def t(key: str, **fmt) -> str:
        text = tables[lang()].get(key) or tables["en"][key]
        return text.format(**fmt) if fmt else text

    return t
