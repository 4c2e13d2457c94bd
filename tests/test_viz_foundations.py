"""Figure/table builders of the foundation pages, checked against independent computations."""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import pytest
from viz import masks as Mk
from viz import positional as P
from viz import scaling as S
from transformer.core.numeric import softmax
from viz import worked as V
from ui.worked_text import error_text, origin_text, render


def _pe_by_hand(n, d):
    pe = np.zeros((n, d))
    for pos in range(n):
        for i in range(0, d, 2):
            w = 1.0 / 10000 ** (i / d)
            pe[pos, i] = math.sin(pos * w)
            if i + 1 < d:
                pe[pos, i + 1] = math.cos(pos * w)
    return pe


def test_pe_table_matches_formula_and_model():
    from transformer.core.model import sinusoidal_table

    pe = P.pe_table(101, 20)
    assert np.abs(pe - _pe_by_hand(101, 20)).max() < 1e-12
    assert np.abs(pe - sinusoidal_table(101, 20).double().numpy()).max() < 1e-6


def test_similarity_depends_only_on_distance():
    pe = P.pe_table(101, 32)
    sim = P.similarity(pe)
    for p in range(0, 101, 7):
        for q in range(0, 101, 11):
            k = abs(p - q)
            assert abs(sim[p, q] - sim[0, k]) < 1e-9
    assert P.diagonal_spread(sim) < 1e-9
    curves = P.offset_curves(pe, [0, 20, 50], 50)
    assert np.abs(curves["p=0"] - curves["p=50"]).max() < 1e-9
    assert curves.loc[0, "p=20"] == pytest.approx(16.0)  # d/2


@pytest.mark.parametrize("k", [0, 1, 5, 37])
def test_rotation_maps_pe_pos_to_pe_pos_plus_k(k):
    d = 16
    pe = _pe_by_hand(101, d)
    M, err = P.rotation_check(pe, k)
    assert err < 1e-9
    # independent: apply M to one position and compare
    assert np.abs(M @ pe[3] - pe[3 + k]).max() < 1e-9
    assert np.allclose(M @ M.T, np.eye(d))  # a rotation
    with pytest.raises(ValueError, match="even"):
        P.rotation_matrix(k, 15)


def test_sizes_are_checked():
    for bad in (10**6, 0, 1):
        with pytest.raises(ValueError):
            P.pe_table(10, bad)
    with pytest.raises(ValueError):
        P.pe_table(10**6, 8)


def test_love_example_terms_and_verdict():
    df = P.love_terms(2, 4, [0.9093, 0.9998, 0.02, 0.9999])
    assert df["value"].tolist() == pytest.approx([math.sin(2), math.cos(2), math.sin(0.02), math.cos(0.02)])
    assert df["agrees"].tolist() == [True, False, True, False]
    res, _ = P.love_example()
    assert res.step("PE").agrees.tolist() == [True, False, True, False]


def test_norm_frame():
    emb = np.array([[3.0, 4.0], [0.0, 1.0]])
    pe = np.array([[0.0, 1.0], [1.0, 0.0]])
    df = P.norm_frame(["a", "b"], emb, pe)
    assert df["embedding_norm"].tolist() == [5.0, 1.0]
    assert df["ratio"].tolist() == [5.0, 1.0]
    assert isinstance(P.norm_figure(df), go.Figure)


def test_figures_carry_exact_values_in_hover():
    pe = P.pe_table(101, 8)
    fig = P.waves_figure(pe, [4, 5, 6, 7])
    assert len(fig.data) == 4 and "%{y:.6f}" in fig.data[0].hovertemplate
    h = P.heatmap_figure(pe)
    assert h.data[0].customdata[3][5][2] == V.fmt(pe[3, 5], 6)


def test_batch_and_masks_against_hand_masks():
    b = Mk.make_batch("A dog runs .\n猫 在\nEin Hund rennt schnell heute", None)
    assert b.lengths == [4, 2, 5] and b.ids.shape == (3, 5)
    assert b.labels[1] == ["猫", "在", "<pad>", "<pad>", "<pad>"]
    pad = Mk.padding_keep(b)
    assert pad.tolist()[1] == [True, True, False, False, False]
    causal = Mk.causal_keep(5)
    assert (causal == np.tril(np.ones((5, 5), bool))).all()
    # the decoder's side: <s> + words (one longer), its combined mask causal AND padding
    assert b.dec_labels[1] == ["<s>", "猫", "在", "<pad>", "<pad>", "<pad>"] and b.dec_lengths == [5, 3, 6]
    both = Mk.combined_keep(b, 1)
    dec_pad = np.array([True, True, True, False, False, False])
    assert (both == (np.tril(np.ones((6, 6), bool)) & dec_pad[None, :])).all()
    for text in ("", "   \n \t ", "\n".join(["x"] * 20)):
        with pytest.raises(ValueError):
            Mk.make_batch(text, None)


def test_masked_softmax_zeros_exactly_and_zero_fill_leaks():
    scores = Mk.random_scores(6, 3)
    keep = np.array([True, True, True, False, False, False])
    row = Mk.masked_row(scores, keep)
    assert (row.loc[~keep, "weight_inf"] == 0.0).all()
    e = np.exp(scores[:3] - scores[:3].max())
    assert np.allclose(row.loc[keep, "weight_inf"], e / e.sum())
    ez = np.exp(np.where(keep, scores, 0.0))
    assert np.allclose(row["weight_zero"], ez / ez.sum())
    assert Mk.leak(row) == pytest.approx(float((ez / ez.sum())[~keep].sum())) and Mk.leak(row) > 0
    fig = Mk.row_figure(row, list("abcdef"))
    assert len(fig.data) == 3


def test_variance_of_qk_is_d_k():
    df = S.variance_table([1, 16, 256], 4000, seed=0)
    for _, r in df.iterrows():
        assert abs(r["var_raw"] - r["theory"]) < 4 * r["se"], r
        assert abs(r["var_scaled"] - 1) < 4 * r["se"] / r["d_k"]
    # independent computation of one sample
    rng = np.random.default_rng(5)
    q, k = rng.standard_normal((3, 16)), rng.standard_normal((3, 16))
    assert np.allclose(S.dot_samples(16, 3, 5), (q * k).sum(1))


def test_softmax_stats_against_hand_jacobian():
    s = np.array([1.0, 2.0, 0.5])
    p = np.exp(s) / np.exp(s).sum()
    J = np.diag(p) - np.outer(p, p)
    # the Jacobian of softmax by finite differences
    eps = 1e-6
    fd = np.stack([(softmax(s + eps * np.eye(3)[j]) - softmax(s - eps * np.eye(3)[j])) / (2 * eps)
                   for j in range(3)], axis=1)
    assert np.allclose(fd, J, atol=1e-8)
    st = S.softmax_stats(s)
    assert st["jacobian_norm"] == pytest.approx(np.linalg.norm(J))
    assert st["entropy"] == pytest.approx(-(p * np.log2(p)).sum())  # bits
    assert st["max_weight"] == pytest.approx(p.max())


def test_saturation_grows_without_scaling():
    df = S.saturation_table([1, 64, 1024], 8, 50, seed=0)
    assert df["max_weight_raw"].is_monotonic_increasing
    assert df["jacobian_norm_raw"].iloc[-1] < 0.5 * df["jacobian_norm_scaled"].iloc[-1]
    assert df["entropy_scaled"].std() < 0.3  # scaling keeps the spread about the same


def test_worked_tables_flag_the_notes_slips():
    from transformer.worked.examples import run_example

    res = run_example("scaled_dot_product_2_queries_3_keys")
    step = res.step("scaled")
    comp = V.comparison_frame(step)
    assert comp.iloc[0, 0] == V.fmt(17 / math.sqrt(2))  # right: plain number
    assert "≠" in comp.iloc[1, 0] and "27.56" in comp.iloc[1, 0]  # 39/√2 = 27.58, notes 27.56
    html = V.styled(V.claim_frame(step), V.flag_mask(step)).to_html()
    assert html.count("#f8d0d0") >= 1
    summ = V.summary_frame(res, render, origin_text, lambda title: title["en"])
    assert set(summ["verdict"]) >= {"agrees", "slip"}


def test_editable_inputs_round_trip_and_validation():
    ex = V.example_dict("masked_self_attention_4_tokens")
    frames = V.editable_inputs(ex)
    assert set(frames) == {"X", "W_K"}
    assert not V.inputs_changed(ex, frames)
    frames["X"].iloc[0, 0] = 1.5
    new = V.with_inputs(ex, frames)
    assert new["X"][0][0] == 1.5 and V.inputs_changed(ex, frames)
    frames["X"].iloc[0, 0] = np.nan
    with pytest.raises(ValueError) as info:
        V.with_inputs(ex, frames)
    assert "empty" in error_text(info.value)
    bad = frames["X"].astype(object)
    bad.iloc[0, 0] = "abc"
    with pytest.raises(ValueError) as info:
        V.frame_to_matrix(bad, "X")
    assert "not a number" in error_text(info.value)


def test_free_mode_parsing_and_errors():
    steps = V.free_steps("qkv", {"Q": "1 0\n0 1", "K": "1 0; 0 1", "V": "1, 2\n3, 4"}, "custom", "1 0\n1 1", 2)
    w = next(s for s in steps if s.name == "weights").value
    assert w[0].tolist() == [1.0, 0.0]
    e = math.exp(1 / math.sqrt(2))
    assert w[1] == pytest.approx([1 / (1 + e), e / (1 + e)])
    steps = V.free_steps("x", {"X": "1 0\n0 1", "W_Q": "", "W_K": "", "W_V": ""}, "causal", "", 0)
    assert any(s.name == "masked" for s in steps)
    for texts, msg in [({"Q": "1 x", "K": "1", "V": "1"}, "not a number"),
                       ({"Q": "1 2\n3", "K": "1", "V": "1"}, "same number"),
                       ({"Q": "", "K": "1", "V": "1"}, "empty"),
                       ({"Q": "1 2", "K": "1 2 3", "V": "1"}, "columns")]:
        with pytest.raises(ValueError) as info:
            V.free_steps("qkv", texts, "none", "", 0)
        assert msg in error_text(info.value)
    with pytest.raises(ValueError) as info:
        V.free_steps("qkv", {"Q": "1", "K": "1", "V": "1"}, "custom", "1 0", 0)
    assert "mask" in error_text(info.value)
    with pytest.raises(ValueError) as info:
        V.free_steps("qkv", {"Q": "1 2", "K": "1 2", "V": "1"}, "none", "", 3)
    assert "d_k" in error_text(info.value)
    assert V.parse_mask("0 -inf\n0 0", 2, 2).tolist() == [[True, False], [True, True]]


def test_heatmap_keeps_repeated_tokens_apart():
    fig = V.matrix_heatmap(np.eye(3), ["the", "the", "猫"], ["the", "the", "猫"])
    assert list(fig.layout.xaxis.ticktext) == ["the", "the", "猫"]
    assert list(fig.data[0].x) == [0, 1, 2]
    df = V.matrix_frame(np.eye(2), ["a", "a"], ["b", "b"])
    assert list(df.index) == ["a", "a (2)"]
    assert V.csv_bytes(pd.DataFrame({"猫": [1]})).decode("utf-8-sig").startswith(",猫")


def test_batch_with_real_tokenizer(tokenizer):
    b = Mk.make_batch("A dog runs .\nEin Hund", tokenizer, max_len=64)
    assert b.labels[0][-1] != "<pad>" and b.labels[1][-1] == "<pad>"
    assert int(b.ids[0, b.lengths[0] - 1]) == 2  # </s> ends each sentence
    assert (Mk.padding_keep(b)[1] == (b.ids[1] != 0).numpy()).all()
