"""Training and evolution figures against independent computations (no Streamlit)."""
from __future__ import annotations

import math

import numpy as np
import pytest

from transformer.train.schedule import noam_lr
from viz import evolution as ve
from viz import training as vt


def test_smoothing_is_the_debiased_ema():
    rng = np.random.default_rng(0)
    x = rng.random(50) * 3
    w = 0.9
    # independent: EMA with zero start, divided by the total weight of the seen points
    ema, want = 0.0, []
    for i, v in enumerate(x, start=1):
        ema = w * ema + (1 - w) * v
        want.append(ema / sum((1 - w) * w ** k for k in range(i)))
    assert np.allclose(vt.smooth(list(x), w), want)
    assert vt.smooth([2.0, 5.0], 0.0) == [2.0, 5.0]
    assert vt.smooth([4.0, 4.0, 4.0], 0.95) == pytest.approx([4.0] * 3)  # no pull towards 0
    out = vt.smooth([1.0, float("nan"), 3.0], 0.5)
    assert math.isnan(out[1]) and out[2] == pytest.approx((0.25 * 1 + 0.5 * 3) / 0.75)
    with pytest.raises(ValueError, match="weight"):
        vt.smooth([1.0], 1.0)


def test_lr_figure_draws_transformer_schedule_and_marks_now():
    fig = vt.lr_figure(1200, 64, 400, 0.5, current_step=250,
                       recorded=[{"step": 10, "lr": noam_lr(10, 64, 400, 0.5)}])
    sched, rec, peak, now = fig.data
    assert len(sched.x) >= 200 and sched.x[0] == 1 and sched.x[-1] == 1200 and 400 in sched.x
    for s, y in zip(sched.x, sched.y):
        assert y == pytest.approx(0.5 * 64 ** -0.5 * min(s ** -0.5, s * 400 ** -1.5))
    assert peak.x == (400,) and peak.y[0] == pytest.approx(0.5 * (64 * 400) ** -0.5)
    assert now.x == (250,) and now.y[0] == pytest.approx(noam_lr(250, 64, 400, 0.5))
    assert rec.x == (10,)


def test_loss_figure_raw_smoothed_val_marker_and_log_scale():
    train = [{"type": "train", "step": s, "loss": 5.0 / s} for s in range(10, 101, 10)]
    evals = [{"type": "eval", "step": 50, "val_loss": 0.2}, {"type": "eval", "step": 100,
                                                           "val_loss": 0.1}]
    fig = vt.loss_figure(train, evals, smoothing=0.5, log_y=True, marker_step=50,
                         checkpoint_steps=[50, 100])
    raw, sm, val, ck = fig.data
    assert list(raw.y) == [r["loss"] for r in train]
    assert list(sm.y) == pytest.approx(vt.smooth([r["loss"] for r in train], 0.5))
    assert list(val.x) == [50, 100] and list(ck.x) == [50, 100]
    assert fig.layout.yaxis.type == "log"
    assert fig.layout.shapes[0].x0 == 50


def test_records_checkpoints_and_samples():
    recs = [{"type": "train", "step": 10, "loss": 3.0}, {"type": "train", "step": 20, "loss": 2.0},
            {"type": "eval", "step": 20, "val_loss": 1.5, "exact_match": 0.25, "best": True,
             "samples": [{"src": "a b", "ref": "a b", "hyp": "a a"}]},
            {"type": "checkpoint", "step": 20, "name": "step-000020"},
            {"type": "train", "step": 20, "loss": 1.9},  # logged again after a resume
            {"type": "eval", "step": 40, "val_loss": 1.0, "exact_match": 0.5, "best": True,
             "samples": [{"src": "a b", "ref": "a b", "hyp": "a b"}]},
            {"type": "checkpoint", "step": 40, "name": "step-000040"}]
    train, evals, cks = vt.split_records(recs)
    assert [(r["step"], r["loss"]) for r in train] == [(10, 3.0), (20, 1.9)]
    assert [r["step"] for r in evals] == [20, 40] and len(cks) == 2
    assert vt.score_name(evals) == "exact_match"
    entries = [{"name": "step-000020", "size_bytes": 2_000_000},
               {"name": "step-000040", "size_bytes": 2_000_000},
               {"name": "best", "size_bytes": 1_000_000}, {"name": "last", "size_bytes": 3e6}]
    df = vt.checkpoint_table(entries, evals, cks)
    assert list(df["step"]) == ["20", "40", "40", "40"]  # text: a missing one is "–", not None
    assert list(df["score"]) == ["0.250", "0.500", "0.500", "0.500"]
    assert list(df["best"]) == [False, True, True, True]
    assert list(df["size (MB)"]) == ["2.00", "2.00", "1.00", "3.00"]
    s = vt.samples_table(evals)
    assert list(s["step"]) == [40, 20] and list(s["correct"]) == [True, False]
    [(src, ref, hist)] = vt.sample_histories(evals)
    assert (src, ref) == ("a b", "a b") and list(hist["step"]) == [40, 20]
    assert list(hist["model output"]) == ["a b", "a a"] and list(hist["correct"]) == [True, False]
    assert vt.progress({"step": 30, "total_steps": 120}) == 0.25 and vt.progress(None) == 0
    assert vt.format_duration(75) == "1 min 15 s" and vt.format_duration(None) == "–"
    assert vt.metrics_figure([]) is None
    assert [tr.name for tr in vt.metrics_figure(evals).data] == ["exact_match"]


def test_evolution_distance_entropy_and_strip():
    final = np.array([[1.0, 0.0], [0.0, 1.0]])
    uniform = np.full((2, 2), 0.5)
    mats = [uniform, final]
    assert ve.distance_to_final(mats) == pytest.approx([0.5, 0.0])  # TV(uniform, one-hot) = 0.5
    assert ve.entropy(mats) == pytest.approx([1.0, 0.0])  # bits
    fig = ve.strip(mats, ["x", "y"], ["x", "x"], titles=["step 10", "step 20"], selected=1)
    heat = [tr for tr in fig.data if tr.type == "heatmap"]
    assert len(heat) == 2 and list(heat[1].x) != ["x", "x"]  # repeated tokens kept apart
    assert "▶" in fig.layout.annotations[1].text and fig.layout.shapes  # the chosen one framed
    with pytest.raises(ValueError, match="shape"):
        ve.strip([uniform, np.ones((3, 2))], ["x", "y"], ["x", "y"], titles=["a", "b"])
    em = ve.emergence_figure([10, 20], mats, selected=0)
    assert list(em.data[0].y) == pytest.approx([0.5, 0.0])


def test_metrics_figure_axes_say_what_they_hold():
    evals = [{"step": 500, "val_acc": 0.42, "bleu": 13.5}, {"step": 1000, "val_acc": 0.53,
                                                            "bleu": 26.4}]
    fig = vt.metrics_figure(evals, labels={"y": "accuracy", "bleu": "BLEU"})
    assert fig.layout.yaxis.title.text == "accuracy" and list(fig.layout.yaxis.range) == [0, 1.08]
    assert fig.layout.yaxis2.title.text is None  # a panel of its own, titled above (subplot title)
    assert fig.layout.annotations[1].text == "BLEU"
    assert fig.layout.yaxis2.range[0] == 0 and fig.layout.yaxis2.range[1] >= 26.4
    bleu = [tr for tr in fig.data if tr.yaxis == "y2"]
    assert len(bleu) == 1 and list(bleu[0].y) == [13.5, 26.4]


def test_the_legend_does_not_cover_the_chosen_checkpoints_label():
    """Issue 23: the legend sat above the plot at the right, where the label of the chosen
    checkpoint ("step 1200", the last) is drawn: it covered it. The legend is at the figure's
    foot now, under the step axis; the label stays above the plot."""
    train = [{"type": "train", "step": s, "loss": 5.0 / s} for s in range(100, 1201, 100)]
    evals = [{"type": "eval", "step": 1200, "val_loss": 0.1}]
    fig = vt.loss_figure(train, evals, marker_step=1200, checkpoint_steps=[600, 1200],
                         labels={"marker": "step 1200"})
    [label] = [a for a in fig.layout.annotations if a.text == "step 1200"]
    assert label.yref == "paper" and label.y == 1 and label.yanchor == "bottom"  # above the plot
    lg = fig.layout.legend
    assert lg.yref == "container" and lg.y == 0 and lg.yanchor == "bottom"  # at the foot
    assert fig.layout.margin.b >= 70  # room for the step axis above the legend
