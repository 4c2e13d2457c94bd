"""Say what the chosen model knows, beside every sentence box: its domain, the words of the typed
sentence it never saw or cuts into many pieces, and sentences it handles to choose from."""
from __future__ import annotations

import streamlit as st

from transformer.probing import knowledge
from ui import i18n
from ui.strings import knowledge as strings

t = i18n.translator(strings)
SYMBOL_TASKS = ("copy", "reverse", "sort")  # letters, not a language: any text is fair


def record(ck) -> dict:
    return (ck.history or {}).get(knowledge.KEY) or {}


def domain_text(ck) -> str | None:
    """The checkpoint's domain (history.json: {"en", "zh"}, data) in the session's language."""
    dom = record(ck).get("domain") or {}
    return i18n.pick(dom) if dom.get("en") else dom.get(i18n.lang())


def marked_words(ck, text: str) -> list[knowledge.WordMark]:
    return [m for m in knowledge.mark(ck.tokenizer, record(ck), text) if m.marked]


def describe(marks: list[knowledge.WordMark]) -> str:
    """`street` (never seen), `because` (3 pieces): the reason for each marked word."""
    parts = []
    for m in marks:
        why = t("never_seen") if m.seen is False else t("pieces", n=m.pieces)
        word = m.word.replace("`", "'")
        parts.append(f"`{word}` ({why})")
    return ", ".join(dict.fromkeys(parts))


def reads_language(ck) -> str | None:
    """The language a translation model reads ("en", ...), None for a synthetic task."""
    tc = ck.train_config or {}
    if tc.get("task") in SYMBOL_TASKS:
        return None
    return (tc.get("extra") or {}).get("src_lang") or "en"


def notice(ck, text: str) -> None:
    """One line under the sentence box; a warning only when words are marked, or when the text
    is in a script the model cannot read (Chinese typed into an English model: say so, rather
    than show word salad)."""
    lang = reads_language(ck)
    script = knowledge.foreign_script(text) if lang else None
    if script:
        st.warning(t(f"script_{script}", lang=t(f"lang_{lang}") if f"lang_{lang}" in strings.EN
                     else lang), icon="🔤")
        return
    dom = domain_text(ck)
    marks = marked_words(ck, text)
    if marks and dom:
        st.warning(t("marked", domain=dom, words=describe(marks)), icon="🔎")
    elif marks:
        st.warning(describe(marks), icon="🔎")
    elif dom:
        st.caption(t("domain", domain=dom))


def offer(ck, key: str) -> None:
    """Sentences the model handles, as pills that fill the box with key `key`."""
    examples = [e for e in record(ck).get("examples") or [] if isinstance(e, str)][:6]
    if not examples:
        return
    pick_key = f"{key}__offer"

    def fill() -> None:
        chosen = st.session_state.get(pick_key)
        if chosen:
            st.session_state[key] = chosen
        st.session_state[pick_key] = None

    st.pills(t("offer"), examples, key=pick_key, on_change=fill, help=t("offer_help"))
