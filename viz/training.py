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
from plotly.subplots import make_subplots

from transformer.train.schedule import curve, noam_lr
from viz import labels as L

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


# What the trainer writes in status.json's "message" (transformer/train.py), in English and with
# internal names ("STOP file"); the page shows the string key's translation instead.
_MESSAGES = [
    (re.compile(r"^STOP file$"), "msg_stopped_by_user"),
    (re.compile(r"^stop requested on another rank$"), "msg_stopped_by_user"),
    (re.compile(r"^stop requested$"), "msg_stopped"),
    (re.compile(r"^signal (?P<sig>SIG[A-Z]+)$"), "msg_signal"),
    (re.compile(r"^done$"), "msg_done"),
    (re.compile(r"^loading data$"), "msg_loading"),
    (re.compile(r"^(?P<pairs>[\d,]+) training pairs \((?P<dropped>[\d,]+) too long dropped\), "
                r"(?P<val>[\d,]+) validation, vocab (?P<vocab>[\d,]+), (?P<params>[\d,]+) "
                r"parameters$"), "msg_data"),
    (re.compile(r"^loss became (?P<value>\S+) at step (?P<step>\d+); stopped"), "msg_loss_nan"),
    (re.compile(r"^weights became NaN or infinite by step (?P<step>\d+); stopped"),
     "msg_weights_nan"),
]


def status_message(message: str | None) -> tuple[str, dict] | None:
    """The trainer's status message as (string key, format values) for the page to translate:
    numbers as ints, so each language formats them; ("msg_raw", {"text": message}) for anything
    else (an exception's text, which is shown as it is). None for no message."""
    if not message or not isinstance(message, str):
        return None
    for pattern, key in _MESSAGES:
        m = pattern.match(message.strip())
        if m:
            fmt = {k: (v if k in ("sig", "value") else int(v.replace(",", "")))
                   for k, v in m.groupdict().items()}
            return key, fmt
    return "msg_raw", {"text": message}


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
                height: int | None = None) -> go.Figure:
    """Training loss (raw, faint; smoothed, dark) in the top panel; validation loss (points) in a
    panel of its own below, on the same steps, so its few points are not drawn over the training
    curve (the two are close once training settles); the checkpoints as small triangles under the
    validation points; optional vertical marker at `marker_step` (e.g. the checkpoint chosen on
    another page) across both panels. Without validation records, one panel.
    `labels`: title, x, y, raw, smoothed, val, marker, checkpoints."""
    lab = {"title": "Loss", "x": "step", "y": "loss", "raw": "training loss",
           "smoothed": "training loss (smoothed)", "val": "validation loss",
           "marker": "chosen checkpoint", "checkpoints": "checkpoints", **(labels or {})}
    steps = [r["step"] for r in train]
    losses = [r.get("loss") for r in train]
    ev = [(r["step"], r.get("val_loss")) for r in evals if r.get("val_loss") is not None]
    rows = 2 if ev else 1
    fig = make_subplots(rows=rows, cols=1, shared_xaxes=True, vertical_spacing=0.08,
                        row_heights=[0.62, 0.38] if rows == 2 else None)
    if steps:
        fig.add_trace(go.Scatter(x=steps, y=losses, mode="lines", name=L.text(lab["raw"]),
                                 line=dict(color=TRAIN_COLOR, width=1)), row=1, col=1)
        fig.add_trace(go.Scatter(x=steps, y=smooth(losses, smoothing), mode="lines",
                                 name=L.text(lab["smoothed"]),
                                 line=dict(color=SMOOTH_COLOR, width=2.5)), row=1, col=1)
    if ev:
        fig.add_trace(go.Scatter(x=[s for s, _ in ev], y=[v for _, v in ev], mode="lines+markers",
                                 name=L.text(lab["val"]), line=dict(color=VAL_COLOR, width=2),
                                 marker=dict(size=8)), row=2, col=1)
    # the triangles sit under the lowest curve of their panel
    below = [v for _, v in ev] if ev else losses
    below = [v for v in below if v is not None and math.isfinite(v) and v > 0]
    if checkpoint_steps and below:
        lo, hi = min(below), max(below)
        y = lo * 0.9 if log_y else lo - 0.12 * ((hi - lo) or lo)
        fig.add_trace(go.Scatter(x=list(checkpoint_steps), y=[y] * len(checkpoint_steps),
                                 mode="markers", name=L.text(lab["checkpoints"]),
                                 marker=dict(symbol="triangle-up", size=10, color=MARK_COLOR)),
                      row=rows, col=1)
    if marker_step is not None:
        fig.add_vline(x=marker_step, line=dict(color=MARK_COLOR, width=2, dash="dash"),
                      row="all", col=1)
        fig.add_annotation(x=marker_step, y=1, yref="paper", yanchor="bottom",
                           text=L.text(lab["marker"]), showarrow=False, xanchor="left")
    _layout(fig, L.text(lab["title"]), "", "", height or (560 if rows == 2 else 420))
    # the legend at the figure's foot, under the step axis: above the plot it covered the chosen
    # checkpoint's label ("step 1200") when that checkpoint is at the right end (issue 23)
    fig.update_layout(legend=dict(orientation="h", yref="container", y=0, yanchor="bottom",
                                  x=0, xanchor="left"), margin=dict(b=80))
    fig.update_xaxes(title=L.text(lab["x"]), row=rows, col=1)
    fig.update_yaxes(title=L.text(lab["y"]), row=1, col=1)  # the unit, once
    if rows == 2:
        fig.update_yaxes(title=L.text(lab["val"]), row=2, col=1)
    if log_y:
        fig.update_yaxes(type="log")
    return L.upright_titles(fig)


def metrics_figure(evals: Sequence[dict], *, labels: dict | None = None,
                   height: int | None = None, columns: int = 3) -> go.Figure | None:
    """The evaluation's scores against the step, one small panel per metric (so lines that all
    end near 1 do not hide each other): accuracies on 0..1, BLEU (0..100) on its own scale, each
    panel titled with its metric and its last value written at its last point. None when there
    is no evaluation yet. `labels`: title, x, y, bleu, and one per metric name (val_acc, ...)."""
    lab = {"title": "Validation scores", "x": "step", "y": "accuracy", "bleu": "BLEU",
           **{k: k for k in ACC_METRICS}, **(labels or {})}
    if not evals:
        return None
    steps = [r["step"] for r in evals]
    series = [(k, [r.get(k) for r in evals]) for k in (*ACC_METRICS, "bleu")]
    series = [(k, ys) for k, ys in series if any(y is not None for y in ys)]
    if not series:
        return None
    cols = max(1, min(columns, len(series)))
    rows = math.ceil(len(series) / cols)
    fig = make_subplots(rows=rows, cols=cols, shared_xaxes="all", horizontal_spacing=0.07,
                        vertical_spacing=0.22 if rows > 1 else 0.1,
                        subplot_titles=L.texts([lab[k] for k, _ in series]))
    palette = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#000000"]
    for i, (k, ys) in enumerate(series):
        r, c = i // cols + 1, i % cols + 1
        known = [(s, y) for s, y in zip(steps, ys) if y is not None]
        last = known[-1][1] if known else None
        fig.add_trace(go.Scatter(
            x=steps, y=ys, mode="lines+markers+text", name=L.text(lab[k]),
            line=dict(color=palette[i % len(palette)], dash="dot" if k == "bleu" else "solid"),
            text=["" if (s, y) != known[-1] else (f"{y:.1f}" if k == "bleu" else f"{y:.3f}")
                  for s, y in zip(steps, ys)],
            textposition="bottom left", cliponaxis=False, showlegend=False,
            hovertemplate="%{x}: %{y:.4f}<extra></extra>"), row=r, col=c)
        if k == "bleu":
            top = max(10.0, max(y for _, y in known) * 1.15) if known else 10.0
            fig.update_yaxes(range=[0, top], title=L.text(lab["bleu"]) if c == 1 else None,
                             row=r, col=c)
        else:
            fig.update_yaxes(range=[0, 1.08], title=L.text(lab["y"]) if c == 1 else None,
                             row=r, col=c)
        fig.update_xaxes(rangemode="tozero", row=r, col=c)
        if last is not None and k != "bleu":
            fig.update_yaxes(tickvals=[0, 0.5, 1], row=r, col=c)
    for c in range(1, cols + 1):
        fig.update_xaxes(title=L.text(lab["x"]), row=rows, col=c)
    fig.update_layout(title=L.text(lab["title"]), height=height or (90 + 230 * rows),
                      margin=dict(l=10, r=10, t=70, b=10), showlegend=False)
    return L.upright_titles(fig)


def lr_figure(total_steps: int, d_model: int, warmup: int, lr_scale: float = 1.0, *,
              current_step: int | None = None, recorded: Sequence[dict] = (),
              labels: dict | None = None, height: int = 300) -> go.Figure:
    """The whole schedule of transformer.train.schedule, drawn before it happens, a marker at the
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
    return L.upright_titles(fig)


# ------------------------------------------------------------------------------------ tables
STEP_NAME = re.compile(r"^step-(\d+)$")


def checkpoint_step(name: str) -> int | None:
    m = STEP_NAME.match(name)
    return int(m.group(1)) if m else None


def checkpoint_table(entries: Sequence[dict], evals: Sequence[dict],
                     ckpt_records: Sequence[dict] = (), *, columns: dict | None = None,
                     missing: str = "–") -> pd.DataFrame:
    """One row per checkpoint directory. `entries`: [{"name", "size_bytes"}, ...] in the order of
    transformer.ops.runs.checkpoints (step-N..., best, last). The step of step-N is in its name; of
    'best' the last evaluation marked best; of 'last' the last checkpoint record. Validation loss
    and the score come from the evaluation at that step. Numbers are written as text (validation
    loss to 4 decimals, BLEU to 1, accuracies to 3, size in MB to 2), `missing` where there is
    none (a checkpoint between evaluations), so no cell shows None. `columns` renames the columns
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

    def shown(v, fmt: str) -> str:
        return missing if v is None or not math.isfinite(v) else format(v, fmt)

    for e, s in zip(entries, steps_named):
        if s is None:
            s = best_step if e["name"] == "best" else last_step if e["name"] == "last" else None
        ev = by_step.get(s) if s is not None else None
        val = None if ev is None else ev.get("val_loss")
        score = None if ev is None or key is None else ev.get(key)
        rows.append({
            col["name"]: e["name"],
            col["step"]: missing if s is None else str(s),
            col["val_loss"]: shown(val, ".4f"),
            col["score"]: shown(score, ".1f" if key == "bleu" else ".3f"),
            col["size_mb"]: shown(e.get("size_bytes", 0) / 1e6, ".2f"),
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


def sample_histories(evals: Sequence[dict], *, columns: dict | None = None,
                     marks: tuple[str, str] | None = None
                     ) -> list[tuple[str, str, pd.DataFrame]]:
    """Per fixed validation sentence (in the order of the first evaluation that decoded it):
    (source, reference, a table of the model's output at each evaluation, newest first, with
    whether it equals the reference: a bool, or marks[0] / marks[1] for right / wrong). The
    outputs are whole, never shortened. `columns` keys: step, hyp, ok."""
    col = {"step": "step", "hyp": "model output", "ok": "correct", **(columns or {})}
    order: list[tuple[str, str]] = []
    rows: dict[tuple[str, str], list[dict]] = {}
    for r in evals:
        for s in r.get("samples") or []:
            k = (s.get("src", ""), s.get("ref", ""))
            if k not in rows:
                order.append(k)
                rows[k] = []
            ok = s.get("hyp", "").strip() == k[1].strip()
            rows[k].append({col["step"]: r["step"], col["hyp"]: s.get("hyp", ""),
                            col["ok"]: ok if marks is None else marks[0 if ok else 1]})
    return [(src, ref, pd.DataFrame(rows[(src, ref)][::-1], columns=list(col.values())))
            for src, ref in order]


def progress(status: dict | None) -> float:
    """Fraction of the run done, in [0, 1]."""
    if not status:
        return 0.0
    step, total = status.get("step") or 0, status.get("total_steps") or 0
    return float(np.clip(step / total, 0, 1)) if total else 0.0
