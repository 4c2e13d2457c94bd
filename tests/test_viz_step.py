"""The step-by-step tables equal an independent recomputation from the model's own trace and
weights."""
from __future__ import annotations

import math

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from helpers import tiny_config
from transformer.core.names import attn_path
from transformer.probing.inspect import inspect_text
from ui import i18n
from viz import step as steps


@pytest.fixture(scope="module")
def model_and_ins(tokenizer):
    from transformer.core.model import Transformer

    torch.manual_seed(3)
    model = Transformer(tiny_config(vocab_size=tokenizer.vocab_size, d_model=32)).eval()
    ins = inspect_text(model, tokenizer, "A dog runs in the park .", "Ein Hund rennt im Park .")
    return model, ins


def _tr(ins, name):
    return ins.trace[name][0].double().numpy()


@pytest.mark.parametrize("kind,layer,head,i", [("encoder_self", 0, 1, 2), ("decoder_self", 1, 3, 4),
                                               ("cross", 1, 2, 1)])
def test_query_steps_match_an_independent_computation(model_and_ins, kind, layer, head, i):
    _, ins = model_and_ins
    p = attn_path(kind, layer)
    q, k, v = (_tr(ins, f"{p}.{x}")[head] for x in "qkv")
    d_k = q.shape[-1]
    by_key = {s.key: s for s in steps.query_steps(ins, kind, layer, head, i)}
    assert list(by_key) == ["q", "k", "dot", "scale", "mask", "exp", "softmax", "v", "weighted", "z"]
    np.testing.assert_allclose(by_key["q"].table.to_numpy()[0], q[i])
    np.testing.assert_allclose(by_key["k"].table.to_numpy(), k)
    dot = k @ q[i]  # q_i . k_j for every j
    np.testing.assert_allclose(by_key["dot"].table[steps.DOT].to_numpy(), dot, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(by_key["scale"].table[steps.SCALED].to_numpy(), dot / math.sqrt(d_k),
                               rtol=1e-5, atol=1e-5)
    assert by_key["scale"].args["d_k"] == d_k == 8
    allowed = np.ones(len(dot), bool) if kind != "decoder_self" else np.arange(len(dot)) <= i
    mask_col = by_key["mask"].table[steps.MASK].to_numpy()
    assert ((mask_col == 0) == allowed).all() and (mask_col[~allowed] == -np.inf).all()
    masked = np.where(allowed, dot / math.sqrt(d_k), -np.inf)
    soft = np.exp(masked - masked.max())
    soft /= soft.sum()
    w = by_key["softmax"].table[steps.WEIGHT].to_numpy()
    np.testing.assert_allclose(w[:-1], soft, atol=1e-6)  # last row is the Σ row
    assert w[-1] == pytest.approx(1.0, abs=1e-6)
    e = by_key["exp"].table[steps.EXP].to_numpy()[:-1]
    np.testing.assert_allclose(e / e.sum(), soft, atol=1e-6)
    assert e.max() == pytest.approx(1.0)  # exp of the max-subtracted score
    np.testing.assert_allclose(by_key["weighted"].table.to_numpy(), soft[:, None] * v, atol=1e-6)
    z = by_key["z"].table.to_numpy()
    np.testing.assert_allclose(z[0], soft @ v, atol=1e-6)
    np.testing.assert_allclose(z[1], _tr(ins, f"{p}.head_out")[head, i], atol=1e-6)


@torch.no_grad()
def test_matrix_combine_norm_ffn_and_logits(model_and_ins):
    model, ins = model_and_ins
    kind, layer, head = "cross", 0, 1
    p = attn_path(kind, layer)
    ms = {s.key: s.table.to_numpy() for s in steps.matrix_steps(ins, kind, layer, head)}
    q, k, v = (_tr(ins, f"{p}.{x}")[head] for x in "qkv")
    np.testing.assert_allclose(ms["m_scores"], q @ k.T, atol=1e-5)
    np.testing.assert_allclose(ms["m_weights"].sum(1), 1.0, atol=1e-6)
    np.testing.assert_allclose(ms["m_out"], ms["m_weights"] @ v, atol=1e-5)

    concat, w_o = (s.table for s in steps.combine_steps(ins, kind, layer))
    heads_out = _tr(ins, f"{p}.head_out")  # (H,T,dk)
    np.testing.assert_allclose(concat.to_numpy(), np.concatenate(list(heads_out), axis=-1), atol=1e-6)
    assert list(concat.columns[:2]) == ["h0.0", "h0.1"]
    proj = model.decoder.layers[layer].cross_attn.out_proj
    expect = F.linear(torch.tensor(concat.to_numpy()).float(), proj.weight, proj.bias).double().numpy()
    np.testing.assert_allclose(w_o.to_numpy(), expect, atol=1e-5)

    s = steps.add_norm(ins, kind, layer)
    d = model.cfg.d_model
    table = s.table.to_numpy()
    res, mean, std, out = table[:, :d], table[:, d], table[:, d + 1], table[:, d + 2:]
    np.testing.assert_allclose(mean, res.mean(1), atol=1e-5)
    np.testing.assert_allclose(std, np.sqrt(res.var(1) + model.cfg.layer_norm_eps), atol=1e-5)
    ln = model.decoder.layers[layer].sublayers[1].norm
    np.testing.assert_allclose(out, F.layer_norm(torch.tensor(res).float(), (d,), ln.weight, ln.bias,
                                                 ln.eps).double().numpy(), atol=1e-5)
    assert s.args == {"n": 2, "pre_ln": False, "d_model": d}
    assert steps.add_norm(ins, kind, layer, 2, norm_first=True).args["pre_ln"] is True

    f = steps.ffn(ins, kind, layer, 2).table.to_numpy()
    np.testing.assert_allclose(f[1], np.maximum(f[0], 0))

    top = steps.top_k(ins, lambda ids: [str(i) for i in ids], 1, k=5)
    logits = torch.tensor(_tr(ins, "logits")[1])
    probs = torch.softmax(logits, -1)
    assert top["id"].tolist() == torch.topk(probs, 5).indices.tolist()
    np.testing.assert_allclose(top["p"], torch.topk(probs, 5).values.numpy(), atol=1e-9)
    fig = steps.top_k_figure(top, "next")
    assert len(fig.data[0].y) == 5


def test_bad_query_position(model_and_ins):
    _, ins = model_and_ins
    with pytest.raises(IndexError):
        steps.query_steps(ins, "encoder_self", 0, 0, 99)
    assert steps.n_layers(ins, "cross") == 2


def test_query_summary_is_steps_3_to_7_in_one_table(model_and_ins):
    _, ins = model_and_ins
    by_key = {s.key: s for s in steps.query_steps(ins, "decoder_self", 1, 3, 4)}
    s = steps.query_summary(ins, "decoder_self", 1, 3, 4)
    df = s.table
    assert list(df.columns) == [steps.DOT, steps.SCALED, steps.MASK, steps.EXP, steps.WEIGHT]
    keys = list(by_key["k"].table.index)
    assert list(df.index) == keys + [steps.SUM]
    np.testing.assert_allclose(df[steps.DOT].to_numpy()[:-1], by_key["dot"].table[steps.DOT])
    np.testing.assert_allclose(df[steps.WEIGHT].to_numpy(), by_key["softmax"].table[steps.WEIGHT])
    assert np.isnan(df[steps.DOT].iloc[-1]) and df[steps.WEIGHT].iloc[-1] == pytest.approx(1.0)
    assert (df[steps.MASK].to_numpy()[5:-1] == -np.inf).all()  # the future is masked
    assert s.args["n_masked"] == len(keys) - 5 and s.args["d_k"] == 8


def test_cell_text_never_shows_none_or_nan():
    assert steps.cell_text(float("nan")) == "" and steps.cell_text(None) == ""
    assert steps.cell_text(-np.inf) == "−∞" and steps.cell_text(np.inf) == "∞"
    assert steps.cell_text(np.float32(0.123456)) == "0.1235" and steps.cell_text(np.int64(7)) == "7"
    assert steps.cell_text("because") == "because"


def test_shade_css_weight_and_signed():
    w = steps.shade_css([[0.0, 0.5, 1.0, np.nan]], "weight")[0]
    assert "0.000)" in w[0] and "0.425)" in w[1] and "0.850)" in w[2] and "white" in w[2]
    assert w[3] == ""
    sg = steps.shade_css([2.0, -4.0, 0.0, -np.inf], "signed")
    assert "rgba(31, 119, 180, 0.400)" in sg[0] and "rgba(214, 39, 40, 0.800)" in sg[1]
    assert sg[3] == ""  # a masked −∞ is not coloured
    with pytest.raises(ValueError):
        steps.shade_css([1.0], "rainbow")


def test_shaded_styler_formats_and_shades_without_matplotlib():
    import pandas as pd

    df = pd.DataFrame({"s": [1.0, -2.0, np.nan], "α": [0.25, 0.75, 1.0]},
                      index=["0: The", "1: because", steps.SUM])
    sty = steps.shaded(df, {"signed": ["s"], "weight": ["α"]})
    html = sty.to_html()
    assert "None" not in html and "nan" not in html
    assert "1: because" in html and "0.2500" in html
    ctx = sty._compute().ctx  # (row, col) -> [(prop, value)]
    assert ("background-color", "rgba(214, 39, 40, 0.800)") in ctx[(1, 0)]
    assert (2, 1) not in ctx or not ctx[(2, 1)]  # the Σ row is a check: not shaded


def test_column_widths_fit_the_longest_text():
    import pandas as pd

    df = pd.DataFrame({"10: because": [0.5, -12.25]}, index=["0: a", "10: understandable"])
    w = steps.column_widths(df)
    assert w["10: because"] >= 8 * len("10: because") and w["_index"] >= 8 * len("10: understandable")
    assert w["10: because"] >= 8 * len("-12.2500")


def test_split_sum_takes_the_half_empty_sigma_row_out(model_and_ins):
    _, ins = model_and_ins
    s = steps.query_summary(ins, "cross", 1, 2, 1)
    body, sums = steps.split_sum(s.table)
    assert steps.SUM not in body.index and not body.isna().any().any()
    assert set(sums) == {steps.EXP, steps.WEIGHT}
    assert sums[steps.WEIGHT] == pytest.approx(body[steps.WEIGHT].sum(), abs=1e-9)
    assert sums[steps.EXP] == pytest.approx(body[steps.EXP].sum(), abs=1e-9)
    same, none = steps.split_sum(body)
    assert same is body and none == {}


def test_a_tiny_negative_number_is_shown_as_zero_not_minus_zero():
    """Issue 23: cells read "-0.0000". A number that rounds to zero has no sign."""
    for v in (-0.0, -1e-9, np.float32(-4e-5), np.float64(-0.00004999)):
        assert steps.cell_text(v) == "0.0000", v
    assert steps.cell_text(-5e-5) == "-0.0001" and steps.cell_text(-0.5) == "-0.5000"
    assert steps.cell_text(-1e-7, digits=6) == "0.000000"
    import pandas as pd

    html = steps.shaded(pd.DataFrame({"x": [-1e-6, 0.25]}, index=["a", "b"])).to_html()
    assert "-0.0000" not in html and "0.0000" in html


@pytest.mark.parametrize("activation,name", [("relu", "ReLU"), ("gelu", "GELU"), ("silu", "swish")])
def test_ffn_shows_the_models_own_activation(tokenizer, activation, name):
    """The Step page always described ReLU, wrong for converted swish (SiLU) models: the table's
    row, its key (title and help) and its numbers follow the model's activation."""
    from transformer.core.model import ACTIVATION_FNS, Transformer
    from ui.strings import step as S

    torch.manual_seed(4)
    model = Transformer(tiny_config(vocab_size=tokenizer.vocab_size, d_model=32,
                                    activation=activation)).eval()
    ins = inspect_text(model, tokenizer, "A dog runs .", "Ein Hund rennt .")
    s = steps.ffn(ins, "encoder_self", 0, 1, activation=activation)
    assert s.key == f"ffn_{activation}" and list(s.table.index)[1] == f"{name}(·)"
    pre, post = s.table.to_numpy()
    fn = ACTIVATION_FNS[activation]
    np.testing.assert_allclose(post, fn(torch.tensor(pre)).numpy(), atol=1e-6)
    assert s.args["negative"] == int((post < 0).sum()) and s.args["zeroed"] == int((post == 0).sum())
    if activation != "relu":
        assert s.args["negative"] > 0 and s.args["zeroed"] == 0  # nothing is cut off at 0
    for table in (i18n.sentences(S, lang) for lang in i18n.LANGS):
        title, help_ = table[s.key], table[s.key + "_help"]
        assert name in title and ("ReLU" in title) == (activation == "relu")
        help_.format(**{k: v for k, v in s.args.items() if not hasattr(v, "columns")})
    with pytest.raises(ValueError):
        steps.ffn(ins, "encoder_self", 0, 1, activation="tanh")


@pytest.mark.parametrize("n,focus,want", [(10, 3, (0, 10)), (48, 47, (0, 48)), (512, 0, (0, 48)),
                                          (512, 263, (239, 287)), (512, 511, (464, 512)),
                                          (49, 30, (1, 49)), (512, 900, (464, 512))])
def test_row_window_keeps_the_query_in_view(n, focus, want):
    start, stop = steps.row_window(n, focus)
    assert (start, stop) == want
    assert stop - start == min(n, steps.MAX_ROWS) and 0 <= start and stop <= n
    assert start <= min(focus, n - 1) < stop


def test_a_window_of_rows_keeps_the_whole_tables_colour_scale():
    """Rows shown of a long table are shaded as in the whole table: the window's own largest
    |v| (here 1.0) is not painted as dark as the table's (-4.0 elsewhere)."""
    import pandas as pd

    whole = pd.DataFrame({"s": [1.0, 0.5, -4.0, 2.0]}, index=[f"{j}: w" for j in range(4)])
    part = whole.iloc[:2]
    ctx = steps.shaded(part, "signed", scale_from=whole)._compute().ctx
    assert ("background-color", "rgba(31, 119, 180, 0.200)") in ctx[(0, 0)]  # 1/4 of 0.8
    assert ("background-color", "rgba(31, 119, 180, 0.100)") in ctx[(1, 0)]
    alone = steps.shaded(part, "signed")._compute().ctx  # without: the window's own scale
    assert ("background-color", "rgba(31, 119, 180, 0.800)") in alone[(0, 0)]
