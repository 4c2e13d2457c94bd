"""One head across a run's checkpoints: a strip of small heatmaps (one per checkpoint, the chosen one
framed) and how far each checkpoint's pattern is from the final one. Pure functions; matrices are
(queries, keys) attention weights, all of the same shape (the same sentence and target through
every checkpoint of one run, which share one tokenizer)."""
from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Sequence

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from . import labels as L
from .tokens import unique_labels

COLORSCALE = "Blues"
FRAME = "#e6550d"


def _labels(labels: Sequence[str]) -> list[str]:
    return unique_labels([html.escape(str(x), quote=False) for x in labels])


def _stack(mats: Sequence) -> np.ndarray:
    arrs = [np.asarray(m.detach().cpu().numpy() if hasattr(m, "detach") else m, dtype=np.float64)
            for m in mats]
    if not arrs:
        raise ValueError("no checkpoint to show")
    shapes = {a.shape for a in arrs}
    if len(shapes) != 1 or arrs[0].ndim != 2:
        raise ValueError(f"every checkpoint's matrix must have one (queries, keys) shape, got "
                         f"{sorted(shapes)}")
    return np.stack(arrs)  # (N, Q, K)


def strip(mats: Sequence, q_labels: Sequence[str], k_labels: Sequence[str], *,
          titles: Sequence[str], selected: int | None = None, per_row: int = 6,
          cell_px: int = 170, digits: int = 3) -> go.Figure:
    """Small multiples: the same head at every checkpoint, one shared 0..1 colour scale, in rows of
    `per_row`; the `selected` panel is framed. Hover names the checkpoint, query and key."""
    a = _stack(mats)
    n = a.shape[0]
    if len(titles) != n:
        raise ValueError(f"{len(titles)} titles for {n} checkpoints")
    cols = min(per_row, n)
    rows = -(-n // cols)
    ys, xs = _labels(q_labels), _labels(k_labels)
    if len(ys) != a.shape[1] or len(xs) != a.shape[2]:
        raise ValueError(f"labels ({len(ys)}, {len(xs)}) do not match matrices {a.shape[1:]}")
    shown = [f"<b>▶ {html.escape(t)}</b>" if i == selected else html.escape(t)
             for i, t in enumerate(titles)]
    fig = make_subplots(rows=rows, cols=cols, subplot_titles=shown + [""] * (rows * cols - n),
                        horizontal_spacing=0.02, vertical_spacing=0.08 if rows > 1 else 0.0)
    z = np.round(a, digits)
    for i in range(n):
        fig.add_trace(go.Heatmap(
            z=z[i], x=xs, y=ys, coloraxis="coloraxis",
            hovertemplate=html.escape(titles[i]) + "<br>%{y} → %{x}: %{z:." + str(digits)
            + "f}<extra></extra>"), row=i // cols + 1, col=i % cols + 1)
    fig.update_xaxes(showticklabels=False, ticks="", type="category")
    fig.update_yaxes(showticklabels=False, ticks="", type="category", autorange="reversed")
    if selected is not None and 0 <= selected < n:
        r, c = selected // cols + 1, selected % cols + 1
        ref = fig.get_subplot(r, c)
        xd, yd = ref.xaxis.domain, ref.yaxis.domain
        fig.add_shape(type="rect", xref="paper", yref="paper", x0=xd[0] - 0.004, x1=xd[1] + 0.004,
                      y0=yd[0] - 0.01, y1=yd[1] + 0.01, line=dict(color=FRAME, width=3))
    fig.update_layout(coloraxis=dict(colorscale=COLORSCALE, cmin=0.0, cmax=1.0,
                                     colorbar=dict(thickness=10, len=0.8)),
                      height=int(rows * cell_px + 60), margin=dict(l=10, r=30, t=40, b=10))
    return fig


def distance_to_final(mats: Sequence) -> np.ndarray:
    """Per checkpoint: the mean over query rows of the total-variation distance
    0.5 * sum_k |p_k - q_k| between its attention row and the final checkpoint's (0 = the same
    pattern, 1 = disjoint). Rows that are all zero in both (fully masked) count as 0."""
    a = _stack(mats)
    d = 0.5 * np.abs(a - a[-1]).sum(-1)  # (N, Q)
    return d.mean(-1)


def entropy(mats: Sequence) -> np.ndarray:
    """Per checkpoint: the mean row entropy in bits (log2 of the number of keys when uniform, 0
    when every query looks at one key). Zero weights contribute 0."""
    a = _stack(mats)
    with np.errstate(divide="ignore", invalid="ignore"):
        h = -np.where(a > 0, a * np.log2(a), 0.0).sum(-1)  # (N, Q)
    return h.mean(-1)


SETTLED = 0.1  # within this distance of the final pattern (mean total variation), a pattern has settled


@dataclass(frozen=True)
class RowStory:
    """One query row of the head across the checkpoints: the row whose final pattern is the
    sharpest (ties: the one that changed most), where its strongest weight lands first and last."""
    query: int  # the row (query position)
    first_key: int  # where its strongest weight lands at the first checkpoint
    first_weight: float  # that weight
    final_key: int  # where its strongest weight lands at the last checkpoint
    final_weight: float
    first_on_final: float  # at the first checkpoint, the weight already on final_key
    since_step: int  # the first saved step from which its strongest key stays final_key


@dataclass(frozen=True)
class Emergence:
    """Whether and when a head's pattern emerges over a run's saved steps, read from the distance
    to the final pattern (`distance_to_final`); a code and its numbers, phrased by the page.

    code: "already" (the first saved step is within SETTLED of the final pattern: it formed
    before the first save), "emerges" (it settles, within SETTLED from some saved step before the
    last on), "still_changing" (the step before the last is still further than SETTLED: the run
    ends before the pattern settles)."""
    code: str
    steps: tuple[int, ...]
    distances: tuple[float, ...]
    settled_step: int | None  # the first saved step from which every later one is within SETTLED
    fall: tuple[int, int, float, float] | None  # the steepest fall: (step a, step b, d_a, d_b)
    row: RowStory | None

    @property
    def first_step(self) -> int:
        return self.steps[0]

    @property
    def first_distance(self) -> float:
        return self.distances[0]

    @property
    def settled_distance(self) -> float | None:
        if self.settled_step is None:
            return None
        return self.distances[self.steps.index(self.settled_step)]


def _row_story(a: np.ndarray, steps: Sequence[int], skip_rows: Sequence[int]) -> RowStory | None:
    """The sharpest final row (its largest weight, to 2 decimals; ties: the row that changed most,
    then the first) and where its strongest weight went (a: (N, Q, K))."""
    rows = [q for q in range(a.shape[1]) if q not in set(skip_rows) and a[-1, q].sum() > 0]
    if not rows:
        return None
    change = 0.5 * np.abs(a[0] - a[-1]).sum(-1)  # (Q,)
    q = max(rows, key=lambda r: (round(float(a[-1, r].max()), 2), round(float(change[r]), 2), -r))
    top = a[:, q].argmax(-1)  # (N,) the strongest key at each checkpoint
    kf = int(top[-1])
    since = len(steps) - 1
    while since > 0 and int(top[since - 1]) == kf:
        since -= 1
    return RowStory(query=q, first_key=int(top[0]), first_weight=float(a[0, q, top[0]]),
                    final_key=kf, final_weight=float(a[-1, q, kf]),
                    first_on_final=float(a[0, q, kf]), since_step=int(steps[since]))


def emergence(steps: Sequence[int], mats: Sequence, *, skip_rows: Sequence[int] = (),
              settled: float = SETTLED) -> Emergence:
    """What the distance curve of `emergence_figure` shows, for the page to say in words (see
    Emergence). `skip_rows`: rows that tell nothing (the first row of decoder self-attention,
    which can only look at itself), left out of the row story."""
    a = _stack(mats)
    if len(steps) != a.shape[0]:
        raise ValueError(f"{len(steps)} steps for {a.shape[0]} checkpoints")
    d = [float(x) for x in distance_to_final(a)]
    steps = tuple(int(s) for s in steps)
    n = len(steps)
    i = n - 1
    while i > 0 and d[i - 1] <= settled:
        i -= 1
    if d[0] <= settled:
        code = "already"
    elif i < n - 1:
        code = "emerges"
    else:
        code = "still_changing"
    fall = None
    if n >= 2:
        j = max(range(n - 1), key=lambda k: (d[k] - d[k + 1], -k))
        if d[j] - d[j + 1] > 0:
            fall = (steps[j], steps[j + 1], d[j], d[j + 1])
    return Emergence(code=code, steps=steps, distances=tuple(d),
                     settled_step=steps[i] if code != "still_changing" else None, fall=fall,
                     row=_row_story(a, steps, skip_rows))


def emergence_figure(steps: Sequence[int], mats: Sequence, *, selected: int | None = None,
                     labels: dict | None = None, height: int = 340) -> go.Figure:
    """Distance to the final pattern (left axis, 0..1) and mean entropy (right axis, bits) against
    the checkpoint's step; a dashed line at the selected checkpoint. `labels`: title, x,
    distance, entropy."""
    lab = {"title": "How the pattern settles", "x": "step", "distance": "distance to final pattern",
           "entropy": "entropy (bits)", **(labels or {})}
    dist, ent = distance_to_final(mats), entropy(mats)
    fig = go.Figure()
    fig.add_trace(go.Scatter(x=list(steps), y=dist, mode="lines+markers", name=lab["distance"],
                             line=dict(color="#08519c", width=2)))
    fig.add_trace(go.Scatter(x=list(steps), y=ent, mode="lines+markers", name=lab["entropy"],
                             yaxis="y2", line=dict(color="#756bb1", dash="dot")))
    if selected is not None and 0 <= selected < len(steps):
        fig.add_vline(x=steps[selected], line=dict(color=FRAME, dash="dash", width=2))
    fig.update_layout(title=lab["title"], height=height, margin=dict(l=10, r=10, t=50, b=70),
                      legend=dict(orientation="h", yanchor="top", y=-0.25, x=0, xanchor="left"),
                      yaxis=dict(title=lab["distance"], range=[0, 1.02]),
                      yaxis2=dict(title=lab["entropy"], overlaying="y", side="right",
                                  rangemode="tozero"),
                      xaxis=dict(title=lab["x"]))
    return L.upright_titles(fig)
