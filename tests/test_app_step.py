"""The Step-by-step page through AppTest: its tables equal a recomputation from an independent
trace of the same checkpoint, in both languages; bad input gives messages."""
from __future__ import annotations

import math

import numpy as np
import pytest

from test_app_attention import ck_dir, no_errors, open_page, reference, rerun  # noqa: F401

PAGE = "pages/step_by_step.py"
TEXT, TARGET = "A dog runs in the park .", "Ein Hund rennt im Park ."


def frame(at, column: str):
    """The first table shown that has this column."""
    for df in at.dataframe:
        if column in df.value.columns:
            return df.value
    raise AssertionError(f"no table with column {column!r}")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_step_tables_equal_an_independent_computation(monkeypatch, tmp_path, ck_dir, lang):
    at = open_page(monkeypatch, ck_dir, tmp_path, lang, page=PAGE)
    no_errors(at)
    at.text_input(key="step_target").input(TARGET)
    at.radio(key="step_kind").set_value("cross")
    at.selectbox(key="step_layer").set_value(1)
    at.selectbox(key="step_head").set_value(2)
    at.selectbox(key="step_query").set_value(3)
    rerun(at)
    no_errors(at)
    assert at.title[0].value == ("One attention step, by the numbers" if lang == "en"
                                 else "一步注意力，逐个数字")
    assert any("d_model / h = 8" in i.value for i in at.info)  # d_model 32 / 4 heads, stated

    ref = reference(at._ck, TEXT, TARGET)
    p = "decoder.layers.1.cross_attn"
    q = ref.trace[f"{p}.q"][0, 2].double().numpy()  # (T, dk)
    k = ref.trace[f"{p}.k"][0, 2].double().numpy()  # (S, dk)
    v = ref.trace[f"{p}.v"][0, 2].double().numpy()
    dots = k @ q[3]
    np.testing.assert_allclose(frame(at, "q_i·k_j")["q_i·k_j"].to_numpy(), dots, atol=1e-5)
    scaled = frame(at, "q_i·k_j / √d_k")["q_i·k_j / √d_k"].to_numpy()
    np.testing.assert_allclose(scaled, dots / math.sqrt(8), atol=1e-5)
    w = frame(at, "α_ij")["α_ij"].to_numpy()
    assert w[-1] == pytest.approx(1.0, abs=1e-6)  # the Σ row: the weights sum to 1
    soft = np.exp(scaled - scaled.max())
    np.testing.assert_allclose(w[:-1], soft / soft.sum(), atol=1e-6)
    z = at.dataframe[9].value.to_numpy()  # step 10: Σ α v, then the trace's head_out
    np.testing.assert_allclose(z[0], (soft / soft.sum()) @ v, atol=1e-5)
    np.testing.assert_allclose(z[0], z[1], atol=1e-5)
    topk = frame(at, "p")
    assert topk["p"].is_monotonic_decreasing and 0 < topk["p"].sum() <= 1 + 1e-9
    assert len(at.get("plotly_chart")) == 2  # the head's weights and the top-k bars


def test_decoder_self_attention_masks_the_future(monkeypatch, tmp_path, ck_dir):
    at = open_page(monkeypatch, ck_dir, tmp_path, page=PAGE,
                   query={"kind": "decoder_self", "query": "2", "target": TARGET})
    no_errors(at)
    mask = frame(at, "M_ij")["M_ij"].to_numpy()
    assert (mask[:3] == 0).all() and (mask[3:] == -np.inf).all()
    w = frame(at, "α_ij")["α_ij"].to_numpy()[:-1]
    assert (w[3:] == 0).all() and w.sum() == pytest.approx(1.0, abs=1e-6)


def test_bad_inputs_give_messages(monkeypatch, tmp_path, ck_dir):
    at = open_page(monkeypatch, ck_dir, tmp_path, "zh", page=PAGE)
    for text in ["", "  "]:
        at.text_input(key="step_text").input(text)
        rerun(at)
        no_errors(at)
        assert at.info and not at.dataframe
    for text in ["<script>alert(1)</script>", "word " * 600, "😀 مرحبا 你好"]:
        at.text_input(key="step_text").input(text)
        rerun(at)
        no_errors(at)
        assert at.dataframe
    at.text_input(key="step_text").input("word " * 600)
    rerun(at)
    assert at.warning
