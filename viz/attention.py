"""Attention figures: one head as a heatmap, every layer x head as a grid (the model view), and
a bertviz-style head view (two token columns joined by lines whose opacity is the weight).

Matrices are (queries, keys) with rows = queries. Axis labels carry each token's position
("3 dog"), so repeated words keep their own row and a hover reads like a sentence a teacher can
say: "3 dog → 1 the: 0.41". Every drawn string goes through viz.labels (plotly reads a subset of
HTML in text: a token "<s>" would otherwise turn on strikethrough). Figures stay light: one figure for the whole
grid, values rounded to 4 decimals, cell text only on small matrices.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np
import plotly.graph_objects as go
from plotly.colors import qualitative

from . import labels as L

COLORSCALE = "Blues"
HEAD_COLORS = qualitative.Plotly + qualitative.D3 + qualitative.Dark24
MAX_CELL_TEXT = 14  # write the value in each cell only up to this many rows/columns


def position_labels(labels: Sequence[str]) -> list[str]:
    """'dog' at position 3 -> '3 dog', escaped (viz.labels.positioned)."""
    return L.positioned(labels)


def _np(m) -> np.ndarray:
    if hasattr(m, "detach"):
        m = m.detach().cpu().numpy()
    return np.asarray(m, dtype=np.float64)


def _tick_width(labels: Sequence[str], size: float = 12) -> float:
    """About how wide the widest of these (escaped) tick labels is drawn, in px, with room."""
    return max((L.text_width(x, size) for x in labels), default=0.0) * 1.1 + 8


def heatmap_margins(ys: Sequence[str], xs: Sequence[str], *, x_title: str = "",
                    y_title: str = "", title: str = "") -> dict:
    """The margins a heatmap's tick labels (x turned -45 degrees) and axis titles need, worked
    out here rather than by plotly's automargin, which lays the figure out twice in the browser
    (about two thirds of a small heatmap's drawing time)."""
    slant = 0.71  # sin 45 degrees: a label turned -45 degrees is this much of its width tall
    xs_w = _tick_width(xs) - 8
    left = _tick_width(ys) + (30 if y_title else 6)
    left = max(left, xs_w * slant + 6)  # the first column's label leans left, under the y labels
    bottom = xs_w * slant + 20 + (30 if x_title else 0)
    return dict(l=int(left), r=10, t=50 if title else 20, b=int(bottom))


def heatmap(m, q_labels: Sequence[str], k_labels: Sequence[str], *, title: str = "",
            x_title: str = "", y_title: str = "", zmin: float = 0.0, zmax: float | None = 1.0,
            colorscale: str = COLORSCALE, digits: int = 4, hover_digits: int = 2,
            height: int | None = None, cell_text: bool = True) -> go.Figure:
    """One (queries, keys) matrix. Axes '3 dog'; hover '3 dog → 1 the: 0.41'. zmax=None: the
    data's range (for scores, which are not in 0..1); -inf cells (masked scores) are left blank.
    With `cell_text`, cells carry their value as text on small matrices (up to MAX_CELL_TEXT rows
    and columns); a browser measures every such text, so a page may leave them to be asked for."""
    a = _np(m)
    nq, nk = a.shape
    if len(q_labels) != nq or len(k_labels) != nk:
        raise ValueError(f"labels ({len(q_labels)}, {len(k_labels)}) do not match matrix {a.shape}")
    z = np.where(np.isfinite(a), np.round(a, digits), np.nan)
    ys, xs = position_labels(q_labels), position_labels(k_labels)
    trace = go.Heatmap(
        z=z, x=xs, y=ys, colorscale=colorscale, zmin=zmin if zmax is not None else None,
        zmax=zmax, hoverongaps=False, xgap=1, ygap=1,
        hovertemplate="%{y} → %{x}: %{z:." + str(hover_digits) + "f}<extra></extra>")
    if cell_text and max(nq, nk) <= MAX_CELL_TEXT:
        trace.update(texttemplate="%{z:.2f}", textfont={"size": 10})
    fig = go.Figure(trace)
    margin = heatmap_margins(ys, xs, x_title=x_title, y_title=y_title, title=title)
    h = height or int(min(900, max(320, 24 * nq + 170)))
    fig.update_layout(title=L.text(title), height=max(h, 24 * nq + margin["t"] + margin["b"]),
                      margin=margin)
    fig.update_xaxes(title=L.text(x_title), tickangle=-45, side="bottom", type="category",
                     automargin=False)
    fig.update_yaxes(title=L.text(y_title), autorange="reversed", type="category",
                     automargin=False)
    return L.upright_titles(fig)


def model_view(stack, q_labels: Sequence[str], k_labels: Sequence[str], *,
               row_titles: Sequence[str], col_titles: Sequence[str], digits: int = 3,
               hover_digits: int = 2, cell_px: int = 120) -> go.Figure:
    """Every layer x head of one attention kind as ONE heatmap trace on one pair of axes: the
    (queries, keys) maps tiled, rows layers and columns heads, a blank row and column between
    tiles, one colour scale 0..1. `stack` is (layers, heads, queries, keys). A tile's rows are
    categories named '<layer> · <query>' and its columns '<head> · <key>', so the hover reads
    'layer 1 · 3 dog → head 2 · 1 the: 0.41' from names sent once per row and column, not per
    cell. One trace, not one subplot per head: a browser draws it in a fraction of the time."""
    a = _np(stack)
    if a.ndim != 4:
        raise ValueError(f"model view needs (layers, heads, queries, keys), got {a.shape}")
    n_layers, n_heads, nq, nk = a.shape
    if len(row_titles) != n_layers or len(col_titles) != n_heads:
        raise ValueError(f"{len(row_titles)} row and {len(col_titles)} column titles for "
                         f"{n_layers} layers x {n_heads} heads")
    ys, xs = model_view_labels(q_labels, k_labels, row_titles, col_titles)
    z = np.full((n_layers * (nq + 1) - 1, n_heads * (nk + 1) - 1), np.nan)
    for li in range(n_layers):
        for hi in range(n_heads):
            z[li * (nq + 1): li * (nq + 1) + nq, hi * (nk + 1): hi * (nk + 1) + nk] = a[li, hi]
    fig = go.Figure(go.Heatmap(
        z=np.round(z, digits), x=xs, y=ys, coloraxis="coloraxis", hoverongaps=False,
        hovertemplate="%{y} → %{x}: %{z:." + str(hover_digits) + "f}<extra></extra>"))
    def centres(n: int, size: int) -> list[float]:  # the middle of each tile, in cells
        return [i * (size + 1) + (size - 1) / 2 for i in range(n)]

    fig.update_xaxes(type="category", side="top", tickvals=centres(n_heads, nk),
                     ticktext=L.texts(col_titles), ticks="", showgrid=False, zeroline=False,
                     automargin=False)
    fig.update_yaxes(type="category", autorange="reversed", tickvals=centres(n_layers, nq),
                     ticktext=L.texts(row_titles), ticks="", showgrid=False, zeroline=False,
                     automargin=False)
    fig.update_layout(coloraxis=dict(colorscale=COLORSCALE, cmin=0.0, cmax=1.0,
                                     colorbar=dict(thickness=10, len=0.8)),
                      height=int(max(220, cell_px * n_layers + 60)),
                      plot_bgcolor="rgba(0,0,0,0)",
                      margin=dict(l=int(_tick_width(L.texts(row_titles)) + 4), r=30, t=30, b=10))
    return fig


def model_view_labels(q_labels: Sequence[str], k_labels: Sequence[str],
                      row_titles: Sequence[str], col_titles: Sequence[str]):
    """The model view's row and column category names: '<layer> · 3 dog' per query of each
    layer and '<head> · 1 the' per key of each head, with one blank name between tiles; escaped
    and distinct (viz.labels.categories)."""
    rows: list[str] = []
    for li, title in enumerate(row_titles):
        rows += [f"{title} · {i} {q}" for i, q in enumerate(q_labels)]
        if li + 1 < len(row_titles):
            rows.append("")
    cols: list[str] = []
    for hi, title in enumerate(col_titles):
        cols += [f"{title} · {j} {k}" for j, k in enumerate(k_labels)]
        if hi + 1 < len(col_titles):
            cols.append("")
    return L.categories(rows), L.categories(cols)


def head_view(weights, q_labels: Sequence[str], k_labels: Sequence[str], *,
              heads: Sequence[int] | None = None, head_names: Sequence[str] | None = None,
              selected: int | None = None, min_weight: float | None = None, bins: int = 10,
              left_title: str = "", right_title: str = "", hover_digits: int = 2) -> go.Figure:
    """bertviz-style lines from each query (left) to each key (right); a line's opacity is its
    weight, each head drawn has its own colour. `heads` chooses which heads are drawn (the page
    offers a chooser, so eight heads need not overlap). `selected` shows only that query's
    lines, and then each line has a hover point in its middle: '3 it → 1 dog: 0.41 · head 1'.
    Lines are grouped into `bins` opacity levels per head so the figure has about heads x bins
    traces, however long the sentence. Lines under `min_weight` are not drawn (default 0.02 for
    one token, 0.1 for all tokens, where faint lines would bury the rest)."""
    w = _np(weights)
    if w.ndim != 3:
        raise ValueError(f"head view needs (heads, queries, keys), got {w.shape}")
    n_heads, nq, nk = w.shape
    if len(q_labels) != nq or len(k_labels) != nk:
        raise ValueError(f"labels ({len(q_labels)}, {len(k_labels)}) do not match ({nq}, {nk})")
    heads = list(range(n_heads)) if heads is None else [h for h in heads if 0 <= h < n_heads]
    names = list(head_names) if head_names else [f"head {h}" for h in range(n_heads)]
    one = selected is not None and 0 <= selected < nq
    rows = [selected] if one else list(range(nq))
    if min_weight is None:
        min_weight = 0.02 if one else 0.1
    yq = -np.arange(nq, dtype=float)
    yk = -np.arange(nk, dtype=float)
    if nq != nk:  # centre the shorter column
        yq = yq - (max(nq, nk) - nq) / 2
        yk = yk - (max(nq, nk) - nk) / 2
    qa, ka = position_labels(q_labels), position_labels(k_labels)
    fig = go.Figure()
    x0, x1 = 0.0, 1.0
    gap = 0.03  # lines stop short of the labels
    for n_drawn, h in enumerate(heads):
        colour = HEAD_COLORS[h % len(HEAD_COLORS)]
        name = L.text(names[h])
        fig.add_trace(go.Scatter(x=[None], y=[None], mode="lines", name=name,
                                 line=dict(color=colour, width=4), legendgroup=f"h{h}"))
        sub = w[h][rows]  # (rows, K)
        level = np.ceil(np.clip(sub, 0, 1) * bins)  # 1..bins; 0 = nothing
        for b in range(1, bins + 1):
            ii, jj = np.nonzero((level == b) & (sub >= min_weight))
            if ii.size == 0:
                continue
            xs: list = []
            ys: list = []
            for i, j in zip(ii.tolist(), jj.tolist()):
                xs += [x0 + gap, x1 - gap, None]
                ys += [yq[rows[i]], yk[j], None]
            fig.add_trace(go.Scatter(
                x=xs, y=ys, mode="lines", line=dict(color=colour, width=2.5),
                opacity=max(0.08, (b - 0.5) / bins), hoverinfo="skip", name=name,
                legendgroup=f"h{h}", showlegend=False))
        if one:  # hover points, one per drawn line, spread a little per head
            jj = np.nonzero(sub[0] >= min_weight)[0]
            if jj.size:
                f = 0.5 + 0.06 * (n_drawn - (len(heads) - 1) / 2)
                fmt = "{:." + str(hover_digits) + "f}"
                fig.add_trace(go.Scatter(
                    x=[x0 + f * (x1 - x0)] * jj.size,
                    y=[yq[selected] + f * (yk[j] - yq[selected]) for j in jj.tolist()],
                    mode="markers", marker=dict(color=colour, size=7, opacity=0.6),
                    hovertext=[f"{qa[selected]} → {ka[j]}: {fmt.format(sub[0, j])} · {name}"
                               for j in jj.tolist()],
                    hoverinfo="text", name=name, legendgroup=f"h{h}", showlegend=False))
    q_text = [f"<b>{q}</b>" if one and i == selected else q for i, q in enumerate(qa)]
    fig.add_trace(go.Scatter(x=[x0] * nq, y=yq, mode="text", text=q_text,
                             textposition="middle left", showlegend=False, hoverinfo="skip"))
    fig.add_trace(go.Scatter(x=[x1] * nk, y=yk, mode="text", text=ka,
                             textposition="middle right", showlegend=False, hoverinfo="skip"))
    n = max(nq, nk)
    fig.update_xaxes(visible=False, range=[-0.45, 1.45])
    fig.update_yaxes(visible=False, range=[-n + 0.3, 0.8])
    ann = []
    if left_title:
        ann.append(dict(x=x0, y=0.9, text=L.text(left_title), showarrow=False, xanchor="right",
                        font=dict(size=12, color="gray")))
    if right_title:
        ann.append(dict(x=x1, y=0.9, text=L.text(right_title), showarrow=False, xanchor="left",
                        font=dict(size=12, color="gray")))
    fig.update_layout(height=int(min(1400, max(300, 24 * n + 90))), annotations=ann,
                      margin=dict(l=10, r=10, t=30, b=10), plot_bgcolor="rgba(0,0,0,0)",
                      legend=dict(orientation="h", y=1.06, x=0), hovermode="closest")
    return fig


def head_average(weights) -> np.ndarray:
    """(heads, queries, keys) -> (queries, keys): the plain mean over heads (an average, not a
    head of the model: the pages label it so)."""
    return _np(weights).mean(0)
