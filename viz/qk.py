"""The Q-K map on screen (transformer/probing/qk.py computes it): one head's queries and keys from
many sentences as one scatter, queries and keys told apart, hover naming the token and its
sentence. Pure: the map's JSON in, a plotly figure out; every word comes in `words`."""
from __future__ import annotations

import plotly.graph_objects as go

MAX_HOVER_CHARS = 90


def _short(s: str) -> str:
    return s if len(s) <= MAX_HOVER_CHARS else s[:MAX_HOVER_CHARS - 1] + "…"


def map_figure(res: dict, words: dict) -> go.Figure:
    """Two WebGL scatter traces, queries (circles) and keys (squares). words: "query", "key",
    "x", "y"."""
    fig = go.Figure()
    sentences = res["sentences"]
    for role, symbol, color in (("query", "circle", "#1f77b4"), ("key", "square", "#ff7f0e")):
        pts = [p for p in res["points"] if p["role"] == role]
        fig.add_trace(go.Scattergl(
            x=[p["x"] for p in pts], y=[p["y"] for p in pts], mode="markers", name=words[role],
            marker={"symbol": symbol, "size": 6, "opacity": 0.6, "color": color},
            customdata=[[p["token"], _short(sentences[p["sentence"]]), p["position"]] for p in pts],
            hovertemplate=(f"{words[role]} %{{customdata[2]}}: <b>%{{customdata[0]}}</b><br>"
                           "%{customdata[1]}<extra></extra>")))
    fig.update_layout(height=520, xaxis_title=words["x"], yaxis_title=words["y"],
                      margin={"l": 50, "r": 20, "t": 30, "b": 50}, legend={"orientation": "h"},
                      yaxis={"scaleanchor": "x"})
    return fig
