"""Every box that feeds a model has a length limit, checked before anything is tokenised, and a
page that the admission gate turns away says so (issue 48, 2): a 10 MB paste costs microseconds
and a note in the page's language, and nothing is computed."""
from __future__ import annotations

import time

import pytest
from streamlit.testing.v1 import AppTest

from app_helpers import open_pinned, rerun
from ui import inspect_cache as IC
from ui.serving import text_limits

HUGE = "the dog runs . " * 40_000  # 600 kB: larger messages close the websocket (test_session_state_ws)


@pytest.mark.parametrize("page,key", [("pages/attention.py", "attention_text"),
                                      ("pages/step.py", "step_text"),
                                      ("pages/pair.py", "pair_text"),
                                      ("pages/decode.py", "decode_text")])
def test_a_paste_reaches_the_model_cut_to_the_limit(monkeypatch, ck_dir, tmp_path, page, key):
    """A 600 kB value for a box (what a forged widget value or a long link delivers; a message
    over 1 MB is refused by the server before it is parsed) is cut to the box's limit before any
    work: the page computes on at most SENTENCE_CHARS characters."""
    at = open_pinned(monkeypatch, ck_dir, tmp_path, page)
    IC.clear()
    at.session_state[key] = HUGE
    t0 = time.perf_counter()
    rerun(at)
    took = time.perf_counter() - t0
    assert not at.exception
    texts = [a for k in list(IC.CACHE._entries) for a in k[3] if isinstance(a, str)]
    assert texts and max(len(a) for a in texts) <= text_limits.SENTENCE_CHARS, \
        [len(a) for a in texts]
    assert took < 30  # a run of the page, not 35-65 s of tokenising and tracing


@pytest.mark.parametrize("lang,words", [("en", "characters long"), ("zh", "个字符")])
def test_a_value_over_the_limit_is_refused_with_a_note(lang, words):
    at = AppTest.from_function(_too_long_page)
    at.session_state["lang"] = lang
    at.run()
    shown = " ".join(w.value for w in at.warning)
    assert words in shown and "3,001" in shown and "computed" not in [e.value for e in at.text]
    assert not at.exception


def _too_long_page():
    import streamlit as st

    from ui.serving import text_limits

    text_limits.stop_if_too_long("ok", "x" * 3_001, limit=3_000)
    st.text("computed")


def test_the_boxes_draw_with_the_limit(monkeypatch, ck_dir, tmp_path):
    at = open_pinned(monkeypatch, ck_dir, tmp_path, "pages/attention.py")
    boxes = {b.key: b for b in at.text_input}
    assert boxes["attention_text"].max_chars == text_limits.SENTENCE_CHARS
    assert boxes["attention_target"].max_chars == text_limits.SENTENCE_CHARS


def test_a_text_at_the_limit_is_taken():
    assert not text_limits.too_long("x" * text_limits.SENTENCE_CHARS)
    assert text_limits.too_long("x" * (text_limits.SENTENCE_CHARS + 1))
    assert not text_limits.too_long(None)


def _busy_page():
    from ui import deeplink
    from ui.serving.admission import Busy

    class Page:
        def run(self):
            raise Busy("no slot", 120)

    deeplink.run_page(Page())


@pytest.mark.parametrize("lang,words", [("en", "busy"), ("zh", "服务器正在处理")])
def test_a_page_turned_away_by_the_gate_says_so(lang, words):
    at = AppTest.from_function(_busy_page)
    at.session_state["lang"] = lang
    at.run()
    assert not at.exception
    assert any(words in w.value for w in at.warning), [w.value for w in at.warning]
