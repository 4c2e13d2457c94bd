"""Notes are data (transformer/core/notes.py): a code with its numbers; the UI renders each code in
English and Chinese (ui/notes.py), the CLI in English, all from ui/strings/notes.py."""
from __future__ import annotations

import re

import pytest

from transformer.core import notes as N
from ui import i18n
from ui.strings import notes as strings

EXAMPLES = {N.SOURCE_CUT: N.source_cut(128), N.TARGET_CUT: N.target_cut(127),
            N.SOURCE_CUT_WORDS: N.source_cut_words(128, 90, 400)}


def test_every_code_has_an_example():
    assert set(EXAMPLES) == set(N.CODES)


@pytest.mark.parametrize("code", N.CODES)
def test_each_code_renders_in_both_languages_and_the_cli(code, monkeypatch):
    import streamlit as st

    from transformer.probing.inspect import CLI_NOTES, cli_text
    from ui import notes as notes_ui

    note = EXAMPLES[code]
    assert set(strings.EN) == set(i18n.sentences(strings, "zh")) == set(N.CODES)
    assert set(CLI_NOTES) == set(N.CODES)
    state = {}
    monkeypatch.setattr(st, "session_state", state)
    state["lang"] = "en"
    en = notes_ui.text(note)
    state["lang"] = "zh"
    zh = notes_ui.text(note)
    for text in (en, zh, cli_text(note)):
        assert str(note.params["n"]) in text and "{" not in text
    assert re.search(r"[A-Za-z]{3}", zh.replace("</s>", "")) is None  # no English in Chinese
    assert re.search(r"[\u4e00-\u9fff]", en) is None


def test_unknown_code_is_refused():
    with pytest.raises(AssertionError):
        N.Note("source truncated to 12 tokens")


def test_json_carries_the_code():
    assert N.source_cut(12).to_dict() == {"code": "source_cut", "params": {"n": 12}}
