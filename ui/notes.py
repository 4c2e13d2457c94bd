"""The core's notes (transformer.core.notes.Note: a code and its numbers) in words: the app's in the
session's language, the CLI's in English (strings in ui/strings/notes.py, rendered by ui.i18n)."""
from __future__ import annotations

from transformer.core.notes import Note
from ui import i18n
from ui.strings import notes as strings


def text(note: Note, lang: str | None = None) -> str:
    """The note as the app says it, in ``lang`` (default: the session's language)."""
    return i18n.text(strings, note.code, lang or i18n.lang(), **note.params)


def cli_text(note: Note) -> str:
    """The note as `python -m transformer.inspect` prints it (English, terse)."""
    return i18n.text(strings, "cli_" + note.code, "en", **note.params)


def warn(notes) -> None:
    """Each note as a warning box."""
    # deferred: the CLI renders notes (cli_text) without streamlit
    import streamlit as st

    for note in notes:
        st.warning(text(note))
