"""Figures of attention rollout (transformer/probing/rollout.py): every output word rolled back to the
source words, and, for one output word, rollout beside the causal check (the drop in its
probability when a source word is removed)."""
from __future__ import annotations

from typing import Sequence

import numpy as np
import plotly.graph_objects as go

from . import labels as L
from .attention import heatmap


def word_flow(to_source, out_groups: Sequence[Sequence[int]],
              src_groups: Sequence[Sequence[int]]) -> np.ndarray:
    """(output words, source words): a source word's share is the sum over its pieces; an
    output word's row is the mean of the rows that write its pieces (decoder position j writes
    output piece j); rows renormalised to sum to 1. OUT_GROUPS index output pieces."""
    a = np.asarray(to_source.detach().cpu().numpy() if hasattr(to_source, "detach") else to_source,
                   dtype=np.float64)
    cols = np.stack([a[:, list(g)].sum(-1) for g in src_groups], axis=-1)  # (T, Ws)
    rows = np.stack([cols[list(g)].mean(0) for g in out_groups])  # (Wo, Ws)
    s = rows.sum(-1, keepdims=True)
    return np.divide(rows, s, out=np.zeros_like(rows), where=s > 0)


def flow_figure(m, out_words: Sequence[str], src_words: Sequence[str], *, title: str,
                x_title: str, y_title: str, cell_text: bool = True) -> go.Figure:
    """The whole sentence in one picture: rows output words, columns source words (`cell_text`:
    the shares written in the cells, as viz.attention.heatmap)."""
    fig = heatmap(m, list(out_words), list(src_words), title=title, x_title=x_title,
                  y_title=y_title, zmax=None, colorscale="Purples", cell_text=cell_text)
    fig.update_layout(height=max(260, 60 + 24 * len(out_words)))
    return fig


def check_figure(src_words: Sequence[str], share: Sequence[float], drop: Sequence[float], *,
                 share_name: str, drop_name: str, title: str) -> go.Figure:
    """Two bars per source word: rollout's share and the probability drop when it is removed."""
    xs = L.positioned(list(src_words))
    fig = go.Figure([
        go.Bar(x=xs, y=np.round(np.asarray(share, dtype=float), 4), name=L.text(share_name),
               marker_color="#7b61c9", hovertemplate="%{x}: %{y:.3f}<extra></extra>"),
        go.Bar(x=xs, y=np.round(np.asarray(drop, dtype=float), 4), name=L.text(drop_name),
               marker_color="#e08a1e", hovertemplate="%{x}: %{y:.3f}<extra></extra>")])
    fig.update_layout(barmode="group", title=L.text(title), height=340,
                      margin=dict(l=40, r=20, t=60, b=80),
                      legend=dict(orientation="h", yanchor="bottom", y=1.0, x=0))
    return fig


def share_figure(out_words: Sequence[str], source_share: Sequence[float], *, title: str,
                 y_title: str, name: str) -> go.Figure:
    """One bar per output word: the share of what writes it that comes from the source (the rest
    comes from the German words before it), transformer/probing/contributions.py."""
    xs = L.positioned(list(out_words))
    fig = go.Figure([go.Bar(x=xs, y=np.round(np.asarray(source_share, dtype=float), 4),
                            name=L.text(name), marker_color="#2a9d8f",
                            hovertemplate="%{x}: %{y:.3f}<extra></extra>")])
    fig.update_layout(title=L.text(title), height=300,
                      yaxis=dict(range=[0, 1], title=L.text(y_title)),
                      margin=dict(l=40, r=20, t=60, b=80))
    return fig
