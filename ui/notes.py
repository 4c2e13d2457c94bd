"""The core's notes (transformer.core.notes.Note: a code and its numbers) in the app's words, in the
session's language (strings in ui/strings/notes.py, rendered by ui.i18n). The command line has its
own terse English (transformer.probing.inspect.CLI_NOTES)."""
from __future__ import annotations

import streamlit as st

from transformer.core.notes import Note
from ui import i18n
from ui.strings import notes as strings


def text(note: Note, lang: str | None = None) -> str:
    """The note as the app says it, in ``lang`` (default: the session's language)."""
    return i18n.text(strings, note.code, lang or i18n.lang(), **note.params)


def warn(notes) -> None:
    """Each note as a warning box."""
    for note in notes:
        st.warning(text(note))
