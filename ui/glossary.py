"""The glossary: one sidebar expander on every page, so a word met on any page is one click
from its meaning, in the page's language."""
from __future__ import annotations

import streamlit as st

from ui import i18n
from ui.strings import glossary as strings

t = i18n.translator(strings)


def entries() -> list[str]:
    """The entry ids in display order (the order of the EN table)."""
    return [k[len("term_"):] for k in strings.EN if k.startswith("term_")]


def markdown() -> str:
    """The whole glossary as one Markdown block in the session's language."""
    lines = [f"_{t('intro')}_", ""]
    for e in entries():
        term = t(f"term_{e}").replace("<", "&lt;").replace(">", "&gt;")
        lines.append(f"**{term}**: {t(f'def_{e}')}")
        lines.append("")
    return "\n".join(lines)


def sidebar() -> None:
    with st.sidebar.expander(t("title")):
        st.markdown(markdown())
