"""The core's notes (transformer.notes.Note: a code and its numbers) in the UI's language."""
from __future__ import annotations

import streamlit as st

from transformer.notes import Note
from ui import i18n
from ui.strings import notes as strings

_t = i18n.translator(strings)


def text(note: Note) -> str:
    """The note in the session's language (strings in ui/strings/notes.py)."""
    return _t(note.code, **note.params)


def warn(notes) -> None:
    """Each note as a warning box."""
    for note in notes:
        st.warning(text(note))
