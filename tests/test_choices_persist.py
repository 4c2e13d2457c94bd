"""Choices are state, not widgets (issue 50, 1; ui/choices.py): every page's choices survive the
language switch (the widget then shows the Chinese label of the same value) and leaving the page
and coming back; `?lang=zh` is kept in the address; /tour answers its own address; derived choices
follow what they derive from.

The language switch is what the shell's switch does: session_state["lang"] = "zh", then a run.
open_pinned pins ui.i18n.lang for AppTest (see tests/app_helpers.py); `switch_language` moves
that pin as well."""
from __future__ import annotations

import pytest

from app_helpers import no_errors, open_pinned, rerun
from ui import i18n


def open_page(monkeypatch, ck_dir, tmp_path, page, query=None):
    at = open_pinned(monkeypatch, ck_dir, tmp_path, page, query=query)
    at._langbox = {"v": "en"}
    monkeypatch.setattr(i18n, "lang", lambda: at._langbox["v"])
    return at


def switch_language(at, lang="zh"):
    """The shell's switch: the session's language, then a run."""
    at._langbox["v"] = lang
    at._lang = lang
    rerun(at)
    no_errors(at)
    return at


def round_trip(at, page, via="pages/why-sqrt-dk.py"):
    """Leave the page for another and come back."""
    at.switch_page(via)
    rerun(at)
    no_errors(at)
    at.switch_page(page)
    rerun(at)
    no_errors(at)
    return at


def zh(module: str, key: str) -> str:
    return i18n.locale("zh")[module][key]


# -- Attention ---------------------------------------------------------------------------------
ATT = "pages/attention.py"


def _attention_choose(at):
    at.text_input(key="attention_text").input("The cat sat on the mat .")
    rerun(at)
    at.radio(key="attention_kind").set_value("cross")
    rerun(at)
    at.selectbox(key="attention_layer").set_value(1)
    at.selectbox(key="attention_head").set_value(2)
    rerun(at)
    at.radio(key="attention_decoding").set_value("greedy")
    rerun(at)
    no_errors(at)


def _attention_chosen(at):
    assert at.text_input(key="attention_text").value == "The cat sat on the mat ."
    assert at.radio(key="attention_kind").value == "cross"
    assert at.selectbox(key="attention_layer").value == 1
    assert at.selectbox(key="attention_head").value == 2
    assert at.radio(key="attention_decoding").value == "greedy"


def test_attention_choices_survive_the_language_switch(monkeypatch, tmp_path, ck_dir):
    at = open_page(monkeypatch, ck_dir, tmp_path, ATT)
    _attention_choose(at)
    switch_language(at)
    _attention_chosen(at)
    radio = at.radio(key="attention_kind")
    assert radio.options[radio.index] == zh("attention", "kind_cross")  # the label of the same value
    rerun(at)  # the next click: nothing jumps back to a default
    no_errors(at)
    _attention_chosen(at)


def test_attention_choices_survive_leaving_the_page(monkeypatch, tmp_path, ck_dir):
    at = open_page(monkeypatch, ck_dir, tmp_path, ATT)
    _attention_choose(at)
    round_trip(at, ATT)
    _attention_chosen(at)


def sent_label(el, label: str) -> None:
    """The server sent the widget its value again (set_value), as `label`: the browser, which
    still holds the label of the old language, shows and sends back the same value."""
    assert el.proto.set_value, el.proto.id
    got = list(el.proto.raw_values) if hasattr(el.proto, "raw_values") and not hasattr(
        el.proto, "raw_value") else el.proto.raw_value
    assert got == label, (got, label)


def test_attention_switch_sends_the_chinese_label(monkeypatch, tmp_path, ck_dir):
    at = open_page(monkeypatch, ck_dir, tmp_path, ATT)
    _attention_choose(at)
    switch_language(at)
    sent_label(at.radio(key="attention_kind"), zh("attention", "kind_cross"))


# -- every page: a choice set, the language switched, the page left and opened again ----------
CASES = [
    # page, [(widget kind, key, value)], (widget kind, key, strings module, key of its zh label)
    ("pages/step.py", [("radio", "step_kind", "cross"), ("selectbox", "step_layer", 1),
                       ("radio", "step_decoding", "greedy")],
     ("radio", "step_kind", "step", "kind_cross")),
    ("pages/pair.py", [("selectbox", "pair_kind", "cross"), ("text_input", "pair_text", "The dog ate .")],
     ("selectbox", "pair_kind", "pair", "kind_cross")),
    ("pages/decode.py", [("radio", "decode_method", "beam"), ("text_input", "decode_text", "A cat .")],
     ("radio", "decode_method", "decode", "method_beam")),
    ("pages/masks.py", [("text_area", "masks_text", "a b c\nd e\nf"), ("selectbox", "masks_choice", 2),
                        ("number_input", "masks_seed", 7)], None),
    ("pages/positional-encoding.py", [("slider", "positional_encoding_d_model", 64),
                                      ("multiselect", "positional_encoding_dims", [10, 11]),
                                      ("slider", "positional_encoding_k", 9)], None),
    ("pages/worked-examples.py", [("segmented_control", "worked_examples_mode", "statements")],
     ("button_group", "worked_examples_mode", "worked_examples", "tab_statements")),
]


def _set(at, kind, key, value):
    el = getattr(at, kind)(key=key)
    (el.input(value) if kind in ("text_input", "text_area") else el.set_value(value))
    rerun(at)
    no_errors(at)


def _get(at, kind, key):
    return getattr(at, kind)(key=key).value


@pytest.mark.parametrize("page,chosen,labelled", CASES, ids=[c[0] for c in CASES])
def test_choices_survive_the_switch_and_the_round_trip(monkeypatch, tmp_path, ck_dir, page,
                                                       chosen, labelled):
    at = open_page(monkeypatch, ck_dir, tmp_path, page)
    no_errors(at)
    for kind, key, value in chosen:
        _set(at, kind, key, value)
    switch_language(at)
    for kind, key, value in chosen:
        assert _get(at, kind, key) == value, key
    if labelled:
        kind, key, module, zh_key = labelled
        el = next(e for e in at.get(kind) if e.proto.id.endswith(key))
        if kind == "button_group":
            assert el.proto.set_value and list(el.proto.raw_values) == [zh(module, zh_key)]
        else:
            sent_label(el, zh(module, zh_key))
    rerun(at)  # the next run keeps them
    round_trip(at, page)
    for kind, key, value in chosen:
        assert _get(at, kind, key) == value, key


def test_heads_open_sentence_and_head_survive_the_round_trip(monkeypatch, tmp_path, ck_dir):
    at = open_page(monkeypatch, ck_dir, tmp_path, "pages/heads.py")
    no_errors(at)
    at.selectbox(key="heads_open_layer").set_value(1)
    at.text_input(key="heads_open_text").input("The cat sat .")
    rerun(at)
    no_errors(at)
    round_trip(at, "pages/heads.py")
    assert at.selectbox(key="heads_open_layer").value == 1
    assert at.text_input(key="heads_open_text").value == "The cat sat ."
    switch_language(at)
    assert at.selectbox(key="heads_open_layer").value == 1


# -- derived choices ---------------------------------------------------------------------------
def test_masks_sentence_list_follows_an_edited_line(monkeypatch, tmp_path):
    at = open_page(monkeypatch, None, tmp_path, "pages/masks.py")
    _set(at, "text_area", "masks_text", "a b c\nd e")
    _set(at, "selectbox", "masks_choice", 0)
    _set(at, "text_area", "masks_text", "x y z w\nd e")
    box = at.selectbox(key="masks_choice")
    assert box.value == 0
    sent_label(box, "1: x y z w")  # the browser is told the new name of the same sentence


def test_positional_encoding_dims_are_clamped_with_a_note(monkeypatch, tmp_path):
    at = open_page(monkeypatch, None, tmp_path, "pages/positional-encoding.py")
    _set(at, "slider", "positional_encoding_d_model", 512)
    _set(at, "multiselect", "positional_encoding_dims", [2, 300])
    _set(at, "slider", "positional_encoding_d_model", 4)
    assert at.multiselect(key="positional_encoding_dims").value == [2]
    assert any("300" in c.value for c in at.caption)
    _set(at, "slider", "positional_encoding_d_model", 512)  # the pick comes back
    assert at.multiselect(key="positional_encoding_dims").value == [2, 300]
    _set(at, "multiselect", "positional_encoding_dims", [300])
    _set(at, "slider", "positional_encoding_d_model", 4)  # none left: never a blank chart
    assert at.multiselect(key="positional_encoding_dims").value == [0]


def test_worked_example_survives_the_notes_and_back(monkeypatch, tmp_path):
    from ui import lesson_cache as LC

    at = open_page(monkeypatch, None, tmp_path, "pages/worked-examples.py")
    other = list(LC.worked_titles())[-1]
    _set(at, "selectbox", "worked_examples_example", other)
    _set(at, "segmented_control", "worked_examples_mode", "statements")
    _set(at, "segmented_control", "worked_examples_mode", "examples")
    assert at.selectbox(key="worked_examples_example").value == other


# -- the address ---------------------------------------------------------------------------------
def test_the_language_is_in_the_address(monkeypatch, tmp_path, ck_dir):
    at = open_page(monkeypatch, ck_dir, tmp_path, ATT)
    assert "lang" not in at.query_params
    switch_language(at)
    assert at.query_params["lang"] == ["zh"] or at.query_params["lang"] == "zh"
    at.switch_page("pages/step.py")
    at.query_params.clear() if hasattr(at.query_params, "clear") else None  # a page switch drops it
    rerun(at)
    assert at.query_params["lang"] in ("zh", ["zh"])


def test_tour_answers_its_own_address():
    import streamlit as st  # noqa: F401 - st.Page needs no run
    from ui import navigation

    assert navigation.HOME_ALIAS != navigation.HOME
    assert all(p.url != navigation.HOME_ALIAS for p in navigation.PAGES)
