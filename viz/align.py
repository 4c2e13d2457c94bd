"""The alignment leaderboard on screen (transformer/probing/align.py computes it): a layer x head
grid of alignment error rates, and one head's word alignment of one sentence drawn over the gold
links. Pure: numbers in, plotly figures out; every word on a figure comes in `words`."""
from __future__ import annotations

from typing import Sequence

import numpy as np
import plotly.graph_objects as go


def aer_grid(heads: Sequence[dict], key: str, n_layers: int, n_heads: int) -> np.ndarray:
    """(layers, heads) array of the leaderboard's `key` ("aer" or "aer_shifted")."""
    g = np.full((n_layers, n_heads), np.nan)
    for h in heads:
        g[h["layer"], h["head"]] = h[key]
    return g


def grid_figure(grid: np.ndarray, words: dict, best: tuple[int, int] | None = None) -> go.Figure:
    """A heatmap of AER (rows layers, columns heads; low = dark = good), the value written in
    each cell, the best cell outlined. words: "title", "layer", "head"."""
    n_l, n_h = grid.shape
    fig = go.Figure(go.Heatmap(
        z=grid, x=[f"H{h}" for h in range(n_h)], y=[f"L{l}" for l in range(n_l)],
        zmin=0, zmax=1, colorscale="Viridis", text=np.round(grid, 2), texttemplate="%{text:.2f}",
        hovertemplate=f"{words['layer']} %{{y}}, {words['head']} %{{x}}: %{{z:.3f}}<extra></extra>"))
    if best is not None:
        l, h = best
        fig.add_shape(type="rect", x0=h - 0.5, x1=h + 0.5, y0=l - 0.5, y1=l + 0.5,
                      line={"color": "#d62728", "width": 3})
    fig.update_layout(title=words["title"], height=120 + 50 * n_l,
                      margin={"l": 50, "r": 20, "t": 40, "b": 30},
                      yaxis={"autorange": "reversed"}, xaxis={"side": "top"})
    return fig


def alignment_figure(sent: dict, words: dict) -> go.Figure:
    """One sentence: W (German rows x English columns) as a heatmap, with markers for hits
    (filled circles), misses (open squares: gold links the head missed) and extra links (crosses).
    `sent`: transformer.probing.align.sentence_alignment's dict. words: "title", "hit", "miss",
    "extra", "weight", "english", "german"."""
    src, tgt = sent["src"], sent["tgt"]
    xs = [f"{i}: {w}" for i, w in enumerate(src)]
    ys = [f"{j}: {w}" for j, w in enumerate(tgt)]
    fig = go.Figure(go.Heatmap(
        z=np.asarray(sent["w"]), x=xs, y=ys, colorscale="Blues", zmin=0, showscale=False,
        hovertemplate=f"%{{y}} → %{{x}}<br>{words['weight']}: %{{z:.3f}}<extra></extra>"))
    marks = (("hits", words["hit"], {"symbol": "circle", "size": 14, "color": "#2ca02c"}),
             ("misses", words["miss"], {"symbol": "square-open", "size": 18, "color": "#d62728",
                                        "line": {"width": 3}}),
             ("extra", words["extra"], {"symbol": "x", "size": 13, "color": "#ff7f0e"}))
    for key, name, marker in marks:
        links = sent[key]
        fig.add_trace(go.Scatter(x=[xs[i] for i, _ in links], y=[ys[j] for _, j in links],
                                 mode="markers", name=name, marker=marker,
                                 hovertemplate=f"{name}: %{{y}} → %{{x}}<extra></extra>"))
    fig.update_layout(title=words["title"], height=max(300, 60 + 28 * len(tgt)),
                      xaxis={"title": words["english"], "side": "top", "type": "category"},
                      yaxis={"title": words["german"], "autorange": "reversed", "type": "category"},
                      margin={"l": 60, "r": 20, "t": 90, "b": 30}, legend={"orientation": "h"})
    return fig
