"""Training figures and tables: pure functions of the run directory's records (no Streamlit, no
files read here), so they are tested against independent computations.

Records are metrics.jsonl lines (transformer.train.RunWriter):
    {"type": "train", "step", "loss", "lr", "tokens_per_s", "epoch", "time"}
    {"type": "eval", "step", "val_loss", "val_acc", "score", "best", "samples": [{src, ref, hyp}],
     task metrics: "bleu" | "exact_match" | "pronoun_acc", "heldout_pronoun_acc", ...}
    {"type": "checkpoint", "step", "name"}
"""
from __future__ import annotations

import math
import re
from typing import Iterable, Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from transformer.schedule import curve, noam_lr

TRAIN_COLOR, SMOOTH_COLOR, VAL_COLOR, MARK_COLOR = "#9ecae1", "#08519c", "#e6550d", "#31a354"
# Metrics between 0 and 1 that an evaluation may report, in the order they are drawn.
ACC_METRICS = ("val_acc", "exact_match", "pronoun_acc", "heldout_pronoun_acc",
               "heldout_exact_match")


# ------------------------------------------------------------------------------------ records
def split_records(records: Iterable[dict]) -> tuple[list[dict], list[dict], list[dict]]:
    """(train, eval, checkpoint) records, each sorted by step; a later record for the same step
    replaces an earlier one (a resumed run logs the steps after its last checkpoint again)."""
    out: dict[str, dict[int, dict]] = {"train": {}, "eval": {}, "checkpoint": {}}
    for r in records:
        kind = r.get("type")
        if kind in out and isinstance(r.get("step"), (int, float)):
            out[kind][int(r["step"])] = r
    return tuple([v for _, v in sorted(d.items())] for d in out.values())  # type: ignore[return-value]


def smooth(values: Sequence[float], weight: float) -> list[float]:
    """TensorBoard's debiased exponential moving average: s_t = w*s_{t-1} + (1-w)*x_t with s_0 = 0,
    divided by (1 - w^t) so the first points are not pulled towards zero. weight 0: unchanged.
    None/NaN values are skipped (they give NaN at their place and do not enter the average)."""
    if not 0 <= weight < 1:
        raise ValueError(f"weight: must be in [0, 1) (got {weight!r})")
    out, acc, n = [], 0.0, 0
    for x in values:
        if x is None or not math.isfinite(x):
            out.append(float("nan"))
            continue
        n += 1
        acc = weight * acc + (1 - weight) * x
        out.append(acc / (1 - weight ** n))
    return out


def score_name(evals: Sequence[dict]) -> str | None:
    """The metric that picks the best checkpoint: 'bleu', 'pronoun_acc' or 'exact_match'."""
    for r in reversed(evals):
        for k in ("bleu", "pronoun_acc", "exact_match"):
            if r.get(k) is not None:
                return k
    return None


def format_duration(seconds: float | None) -> str:
    """4 -> '4 s', 75 -> '1 min 15 s', 4000 -> '1 h 06 min'; None -> '–'."""
    if seconds is None or not math.isfinite(seconds) or seconds < 0:
        return "–"
    s = int(round(seconds))
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min {s % 60:02d} s"
    return f"{s // 3600} h {(s % 3600) // 60:02d} min"


# ------------------------------------------------------------------------------------ figures
def _layout(fig: go.Figure, title: str, x_title: str, y_title: str, height: int) -> go.Figure:
    fig.update_layout(title=title, height=height, margin=dict(l=10, r=10, t=50, b=10),
                      legend=dict(orientation="h", yanchor="bottom", y=1.0, x=1, xanchor="right"),
                      hovermode="x unified")
    fig.update_xaxes(title=x_title, rangemode="tozero")
    fig.update_yaxes(title=y_title)
    return fig


def loss_figure(train: Sequence[dict], evals: Sequence[dict], *, smoothing: float = 0.8,
                log_y: bool = False, marker_step: int | None = None,
                checkpoint_steps: Sequence[int] = (), labels: dict | None = None,
                height: int = 380) -> go.Figure:
    """Training loss (raw, faint; smoothed, dark), validation loss (points), optional vertical
    marker at `marker_step` (e.g. the checkpoint chosen on another page) and small ticks at the
    checkpoints. `labels`: title, x, y, raw, smoothed, val, marker, checkpoints."""
    lab = {"title": "Loss", "x": "step", "y": "loss", "raw": "training loss",
           "smoothed": "training loss (smoothed)", "val": "validation loss",
           "marker": "chosen checkpoint", "checkpoints": "checkpoints", **(labels or {})}
    fig = go.Figure()
    steps = [r["step"] for r in train]
    losses = [r.get("loss") for r in train]
    if steps:
        fig.add_trace(go.Scatter(x=steps, y=losses, mode="lines", name=lab["raw"],
                                 line=dict(color=TRAIN_COLOR, width=1)))
        fig.add_trace(go.Scatter(x=steps, y=smooth(losses, smoothing), mode="lines",
                                 name=lab["smoothed"], line=dict(color=SMOOTH_COLOR, width=2.5)))
    ev = [(r["step"], r.get("val_loss")) for r in evals if r.get("val_loss") is not None]
    if ev:
        fig.add_trace(go.Scatter(x=[s for s, _ in ev], y=[v for _, v in ev], mode="lines+markers",
                                 name=lab["val"], line=dict(color=VAL_COLOR, width=2),
                                 marker=dict(size=8)))
    all_y = [v for v in losses + [v for _, v in ev] if v is not None and math.isfinite(v) and v > 0]
    if checkpoint_steps and all_y:
        lo = min(all_y)
        fig.add_trace(go.Scatter(x=list(checkpoint_steps), y=[lo] * len(checkpoint_steps),
                                 mode="markers", name=lab["checkpoints"],
                                 marker=dict(symbol="triangle-up", size=11, color=MARK_COLOR)))
    if marker_step is not None:
        fig.add_vline(x=marker_step, line=dict(color=MARK_COLOR, width=2, dash="dash"),
                      annotation_text=lab["marker"], annotation_position="top left")
    _layout(fig, lab["title"], lab["x"], lab["y"], height)
    if log_y:
        fig.update_yaxes(type="log")
    return fig


def metrics_figure(evals: Sequence[dict], *, labels: dict | None = None,
                   height: int = 320) -> go.Figure | None:
    """The evaluation's accuracies (0..1) against the step, and BLEU (0..100) on a second axis
    when the task reports it. None when there is no evaluation yet. `labels`: title, x, y, bleu,
    and one per metric name (val_acc, exact_match, ...)."""
    lab = {"title": "Validation scores", "x": "step", "y": "accuracy", "bleu": "BLEU",
           **{k: k for k in ACC_METRICS}, **(labels or {})}
    if not evals:
        return None
    fig = go.Figure()
    steps = [r["step"] for r in evals]
    for k in ACC_METRICS:
        ys = [r.get(k) for r in evals]
        if any(y is not None for y in ys):
            fig.add_trace(go.Scatter(x=steps, y=ys, mode="lines+markers", name=lab[k]))
    bleu = [r.get("bleu") for r in evals]
    bleu_known = [b for b in bleu if b is not None]
    if bleu_known:
        fig.add_trace(go.Scatter(x=steps, y=bleu, mode="lines+markers", name=lab["bleu"],
                                 yaxis="y2", line=dict(dash="dot", color="black")))
    _layout(fig, lab["title"], lab["x"], lab["y"], height)
    # Set after _layout, which titles every y axis: accuracy on the left (0..1), BLEU on the right.
    fig.update_layout(yaxis=dict(title=lab["y"], range=[0, 1.02]))
    if bleu_known:
        fig.update_layout(yaxis2=dict(title=lab["bleu"], overlaying="y", side="right",
                                      range=[0, max(10.0, max(bleu_known) * 1.1)],
                                      showgrid=False))
    return fig


def lr_figure(total_steps: int, d_model: int, warmup: int, lr_scale: float = 1.0, *,
              current_step: int | None = None, recorded: Sequence[dict] = (),
              labels: dict | None = None, height: int = 300) -> go.Figure:
    """The whole schedule of transformer.schedule, drawn before it happens, a marker at the
    current step, the warmup peak named, and (optionally) the rates the run actually logged.
    `labels`: title, x, y, schedule, now, peak, recorded."""
    lab = {"title": "Learning-rate schedule", "x": "step", "y": "learning rate",
           "schedule": "schedule", "now": "now", "peak": "peak", "recorded": "logged by the run",
           **(labels or {})}
    steps, rates = curve(total_steps, d_model, warmup, lr_scale, points=300)
    fig = go.Figure(go.Scatter(x=steps, y=rates, mode="lines", name=lab["schedule"],
                               line=dict(color=SMOOTH_COLOR, width=2)))
    rec = [(r["step"], r["lr"]) for r in recorded if r.get("lr") is not None]
    if rec:
        fig.add_trace(go.Scatter(x=[s for s, _ in rec], y=[v for _, v in rec], mode="markers",
                                 name=lab["recorded"], marker=dict(size=4, color=TRAIN_COLOR)))
    peak_step = min(warmup, max(int(total_steps), 1))
    fig.add_trace(go.Scatter(x=[peak_step], y=[noam_lr(peak_step, d_model, warmup, lr_scale)],
                             mode="markers+text", name=lab["peak"], text=[lab["peak"]],
                             textposition="top right", cliponaxis=False,
                             marker=dict(size=9, color=SMOOTH_COLOR, symbol="diamond")))
    if current_step is not None and current_step > 0:
        s = min(int(current_step), max(int(total_steps), 1))
        fig.add_trace(go.Scatter(x=[s], y=[noam_lr(s, d_model, warmup, lr_scale)],
                                 mode="markers+text", name=lab["now"], text=[lab["now"]],
                                 textposition="middle right", cliponaxis=False,
                                 marker=dict(size=14, color=VAL_COLOR, symbol="circle")))
    _layout(fig, lab["title"], lab["x"], lab["y"], height)
    fig.update_yaxes(exponentformat="e", rangemode="tozero")
    return fig


# ------------------------------------------------------------------------------------ tables
STEP_NAME = re.compile(r"^step-(\d+)$")


def checkpoint_step(name: str) -> int | None:
    m = STEP_NAME.match(name)
    return int(m.group(1)) if m else None


def checkpoint_table(entries: Sequence[dict], evals: Sequence[dict],
                     ckpt_records: Sequence[dict] = (), *, columns: dict | None = None
                     ) -> pd.DataFrame:
    """One row per checkpoint directory. `entries`: [{"name", "size_bytes"}, ...] in the order of
    transformer.runs.checkpoints (step-N..., best, last). The step of step-N is in its name; of
    'best' the last evaluation marked best; of 'last' the last checkpoint record. Validation loss
    and the score come from the evaluation at that step. `columns` renames the columns
    (keys: name, step, val_loss, score, size_mb, best)."""
    col = {"name": "checkpoint", "step": "step", "val_loss": "validation loss",
           "score": "score", "size_mb": "size (MB)", "best": "best", **(columns or {})}
    by_step = {int(r["step"]): r for r in evals}
    best_steps = [int(r["step"]) for r in evals if r.get("best")]
    best_step = best_steps[-1] if best_steps else None
    key = score_name(evals)
    steps_named = [checkpoint_step(e["name"]) for e in entries]
    last_step = (int(ckpt_records[-1]["step"]) if ckpt_records else
                 max([s for s in steps_named if s is not None], default=None))
    rows = []
    for e, s in zip(entries, steps_named):
        if s is None:
            s = best_step if e["name"] == "best" else last_step if e["name"] == "last" else None
        ev = by_step.get(s) if s is not None else None
        rows.append({
            col["name"]: e["name"],
            col["step"]: s,
            col["val_loss"]: None if ev is None else ev.get("val_loss"),
            col["score"]: None if ev is None or key is None else ev.get(key),
            col["size_mb"]: round(e.get("size_bytes", 0) / 1e6, 2),
            col["best"]: e["name"] == "best" or (s is not None and s == best_step),
        })
    return pd.DataFrame(rows, columns=list(col.values()))


def samples_table(evals: Sequence[dict], *, columns: dict | None = None) -> pd.DataFrame:
    """The fixed validation sentences the run decodes at every evaluation: one row per
    (evaluation, sentence), newest evaluation first, with the hypothesis and whether it equals
    the reference. `columns` keys: step, src, ref, hyp, ok."""
    col = {"step": "step", "src": "source", "ref": "reference", "hyp": "model output",
           "ok": "correct", **(columns or {})}
    rows = []
    for r in reversed(list(evals)):
        for s in r.get("samples") or []:
            rows.append({col["step"]: r["step"], col["src"]: s.get("src", ""),
                         col["ref"]: s.get("ref", ""), col["hyp"]: s.get("hyp", ""),
                         col["ok"]: s.get("hyp", "").strip() == s.get("ref", "").strip()})
    return pd.DataFrame(rows, columns=list(col.values()))


def sample_histories(evals: Sequence[dict], *, columns: dict | None = None
                     ) -> list[tuple[str, str, pd.DataFrame]]:
    """Per fixed validation sentence (in the order of the first evaluation that decoded it):
    (source, reference, a table of the model's output at each evaluation, newest first, with
    whether it equals the reference). `columns` keys: step, hyp, ok."""
    col = {"step": "step", "hyp": "model output", "ok": "correct", **(columns or {})}
    order: list[tuple[str, str]] = []
    rows: dict[tuple[str, str], list[dict]] = {}
    for r in evals:
        for s in r.get("samples") or []:
            k = (s.get("src", ""), s.get("ref", ""))
            if k not in rows:
                order.append(k)
                rows[k] = []
            rows[k].append({col["step"]: r["step"], col["hyp"]: s.get("hyp", ""),
                            col["ok"]: s.get("hyp", "").strip() == k[1].strip()})
    return [(src, ref, pd.DataFrame(rows[(src, ref)][::-1], columns=list(col.values())))
            for src, ref in order]


def progress(status: dict | None) -> float:
    """Fraction of the run done, in [0, 1]."""
    if not status:
        return 0.0
    step, total = status.get("step") or 0, status.get("total_steps") or 0
    return float(np.clip(step / total, 0, 1)) if total else 0.0
