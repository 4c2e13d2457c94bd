"""The faithfulness map on screen (transformer/probing/faithfulness.py computes it): every head a
dot, x where it looks, y what patching it does. Pure: the map's head rows in, a plotly figure out;
every word on the figure comes in `words` (the page's language)."""
from __future__ import annotations

from typing import Sequence

import plotly.graph_objects as go

from transformer.core.names import KINDS, Head

SYMBOLS = {"encoder_self": "circle", "decoder_self": "square", "cross": "diamond"}


def map_figure(heads: Sequence[dict], words: dict, thresholds: dict | None = None) -> go.Figure:
    """One scatter trace per attention kind (legend: words["kind_<kind>"]), the taught heads
    drawn again as large open stars (words["taught"]), dashed lines at the thresholds. Hover: the
    head's label and both numbers (words["looks"], words["effect"])."""
    fig = go.Figure()
    hover = (f"%{{customdata[0]}}<br>{words['looks']}: %{{x:.3f}}<br>"
             f"{words['effect']}: %{{y:.3f}}<extra></extra>")
    for kind in KINDS:
        rows = [h for h in heads if h["kind"] == kind]
        if not rows:
            continue
        fig.add_trace(go.Scatter(
            x=[h["looks"] for h in rows], y=[h["effect"] for h in rows], mode="markers",
            name=words[f"kind_{kind}"], marker={"symbol": SYMBOLS[kind], "size": 9, "opacity": 0.8},
            customdata=[[Head(h["kind"], h["layer"], h["head"]).label] for h in rows],
            hovertemplate=hover))
    taught = [h for h in heads if h.get("taught")]
    if taught:
        fig.add_trace(go.Scatter(
            x=[h["looks"] for h in taught], y=[h["effect"] for h in taught], mode="markers+text",
            name=words["taught"], text=[Head(h["kind"], h["layer"], h["head"]).label for h in taught],
            textposition="top center",
            marker={"symbol": "star-open", "size": 20, "line": {"width": 2}, "color": "#d62728"},
            customdata=[[Head(h["kind"], h["layer"], h["head"]).label] for h in taught],
            hovertemplate=hover))
    for axis, value in ((("x", (thresholds or {}).get("looks"))), ("y", (thresholds or {}).get("effect"))):
        if value is not None:
            line = {"dash": "dash", "color": "gray", "width": 1}
            (fig.add_vline if axis == "x" else fig.add_hline)(value, line=line)
    fig.update_layout(xaxis_title=words["looks"], yaxis_title=words["effect"], height=460,
                      margin={"l": 50, "r": 20, "t": 30, "b": 50}, legend={"orientation": "h"})
    return fig
