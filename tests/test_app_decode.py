"""The Decode page through AppTest, on a small trained anaphora checkpoint, in both languages."""
from __future__ import annotations

import numpy as np
import pytest
import torch

from app_helpers import figure, no_errors, open_app, open_pinned, rerun
from helpers import plotly_array
from ui.strings import decode as S
from ui import i18n

PAGE = "pages/decode.py"
from ui.page_kit import EXAMPLES

TEXT = EXAMPLES["anaphora"]  # what the page offers for an anaphora checkpoint


def open_page(monkeypatch, ck_dir, tmp_path, lang="en", page=PAGE):
    return open_pinned(monkeypatch, ck_dir, tmp_path, page, lang=lang)


def _independent(ck_path, tokens_text=None, method="greedy", **kw):
    from transformer.core import decode as D
    from transformer.core.checkpoint import load_checkpoint
    from transformer.core.text import source_ids

    ck = load_checkpoint(ck_path)
    src = source_ids(ck.tokenizer, TEXT, ck.model.cfg.max_len)[0]
    res = (D.beam_search(ck.model, src, **kw) if method == "beam" else D.greedy(ck.model, src))
    with torch.inference_mode():
        logits = ck.model(torch.tensor([src]), torch.tensor([[1] + res.tokens]))[0]  # (T,V)
    return ck, res, torch.softmax(logits.double(), -1).numpy()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_greedy_decoding_step_by_step(monkeypatch, tmp_path, trained_dir, trained_checkpoint, lang):
    at = open_page(monkeypatch, trained_dir, tmp_path, lang=lang)
    no_errors(at)
    assert at.text_input(key="decode_text").value == TEXT  # the anaphora task's example
    ck, res, probs = _independent(trained_checkpoint)
    assert at.code[0].value == ck.tokenizer.decode(res.tokens)
    last = len(res.tokens) if res.finished else len(res.tokens) - 1
    for step in (0, last):
        if step:
            at.slider(key="decode_step").set_value(step)
            rerun(at)
            no_errors(at)
        fig = figure(at, "decode_topk")["data"][0]
        p, ids = plotly_array(fig["x"]), plotly_array(fig["customdata"])[:, 0]
        assert p.sum() <= 1 + 1e-9 and len(p) == 10
        assert np.allclose(p, probs[step, ids], atol=1e-5)  # an independent softmax
        assert np.allclose(p, np.sort(probs[step])[::-1][:10], atol=1e-5)  # and the top 10
        cross = plotly_array(figure(at, "decode_cross")["data"][0]["z"])
        assert cross.shape[0] == ck.model_config.n_heads + 1
        assert np.allclose(cross.sum(-1), 1, atol=1e-3)
        selfw = plotly_array(figure(at, "decode_self")["data"][0]["z"])
        assert selfw.shape[1] == step + 1
    # teacher forcing: the anaphora example comes with its German reference
    assert at.text_input(key="decode_target").value
    assert figure(at, "decode_tf_fig")["data"]


def test_beam_search_shows_score_and_formula(monkeypatch, tmp_path, trained_dir, trained_checkpoint):
    at = open_page(monkeypatch, trained_dir, tmp_path)
    at.radio(key="decode_method").set_value("beam")
    rerun(at)
    at.number_input(key="decode_beam").set_value(3)
    rerun(at)
    no_errors(at)
    ck, res, probs = _independent(trained_checkpoint, method="beam", beam=3, alpha=0.6)
    assert at.code[0].value == ck.tokenizer.decode(res.tokens)
    assert at.get("latex") and "lp(Y)" in at.get("latex")[0].proto.body
    assert any(f"{res.score:.4f}" in m.value for m in at.markdown)
    fig = figure(at, "decode_topk")["data"][0]
    p, ids = plotly_array(fig["x"]), plotly_array(fig["customdata"])[:, 0]
    assert p.sum() <= 1 + 1e-9
    assert np.allclose(p, probs[0, ids], atol=1e-5)  # step 0 along the beam's hypothesis


def test_sampling_and_bad_input(monkeypatch, tmp_path, trained_dir):
    at = open_page(monkeypatch, trained_dir, tmp_path, lang="zh")
    at.radio(key="decode_method").set_value("sample")
    rerun(at)
    at.number_input(key="decode_temperature").set_value(0.7)
    rerun(at)
    at.number_input(key="decode_top_k").set_value(5)
    rerun(at)
    no_errors(at)
    fig = figure(at, "decode_topk_sample")["data"][0]
    p = plotly_array(fig["x"])
    assert np.isclose(p[:5].sum(), 1, atol=1e-6) and (p[5:] == 0).all()  # top-5 renormalised
    # temperature 0 set behind the widget's back: a message, not an exception
    at.session_state["decode_temperature"] = 0.0
    rerun(at)
    assert not at.exception
    # empty and huge text
    at.text_input(key="decode_text").set_value("   ")
    rerun(at)
    no_errors(at)
    assert [i.value for i in at.info] == [i18n.text(S, "empty", "zh")]  # the page stops at the message
    at.text_input(key="decode_text").set_value("The dog saw it . " * 400)
    rerun(at)
    assert not at.exception
    at.text_input(key="decode_text").set_value("word " * 300)
    rerun(at)  # over the model's max_len
    no_errors(at)
    assert at.warning  # truncated to the model's limit


def test_no_checkpoint(monkeypatch, tmp_path):
    at = open_app(monkeypatch, None, tmp_path, PAGE)
    no_errors(at)
    assert at.title[0].value.startswith("Decode")
    assert S.EN["no_checkpoint"] in [i.value for i in at.info]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_space_piece_is_named_and_explained(monkeypatch, tmp_path, lang):
    """Issue 23: a blank "▁" candidate appeared without explanation. classroom-en-de writes the
    lone space piece "▁" in this sentence (step 8, before a word it has no whole piece for): the
    table names it "(space)" and a caption says what it is; no "▁" is drawn anywhere."""
    from app_helpers import ROOT

    monkeypatch.setenv("ATTENTION_LAB_DEFAULT", "classroom-en-de")  # it writes a lone space here
    at = open_page(monkeypatch, ROOT / "checkpoints", tmp_path, lang=lang)
    assert at.session_state["ckpt_path"].endswith("classroom-en-de")
    at.text_input(key="decode_text").input("The animal didn't cross the street because it was too tired .")
    rerun(at)
    no_errors(at)
    table = i18n.sentences(S, lang)
    [steps] = [d.value for d in at.dataframe if table["col_runners"] in d.value.columns]
    shown = list(steps[table["col_token"]]) + list(steps[table["col_runners"]])
    assert table["space"] in shown, shown
    assert not any("\u2581" in str(x) for x in shown)
    note = table["space_note"].format(space=table["space"])
    assert note in [c.value for c in at.caption]
    at.slider(key="decode_step").set_value(8)
    rerun(at)
    no_errors(at)
    ys = figure(at, "decode_topk")["data"][0]["y"]
    assert ys[0] == table["space"].replace("<", "&lt;")  # the written token, top of the chart
    assert not any("\u2581" in str(y) for y in ys)


def test_a_few_short_key_labels_are_level_not_turned():
    """Issue 23: the decoder's first step has one key, <s>, turned 45 degrees: it looked like an
    icon. Labels that fit side by side are drawn level; many long ones still turn."""
    from viz import decode as V

    fig = V.heads_keys_figure(np.ones((2, 1)), ["head 0", "mean"], ["<s>"])
    assert fig.layout.xaxis.tickangle == 0
    long = [f"word{i}-long-label" for i in range(20)]
    assert V.heads_keys_figure(np.ones((1, 20)) / 20, ["h"], long).layout.xaxis.tickangle == -45
    assert V.name_space(["▁", "Hund", "▁▁"], "(space)") == ["(space)", "Hund", "▁▁"]
