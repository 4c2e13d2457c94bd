"""The beam-search tree of the Decode page: a plotly figure and a table of the finished
hypotheses, from a transformer.core.beam_trace.BeamTree (recorded from the real beam search).

Steps run left to right (step 0 is <s>); at each step the candidates the search looked at are
stacked by rank, the most probable on top. Kept ones are blue, pruned ones grey, hypotheses that
ended with </s> green (pale when </s> was ranked too low to count); the hypothesis beam search
returned is drawn in red from <s> to its end. Each node shows its token, its log-probability
log P and its length-normalised score log P / lp. No Streamlit here; every drawn string goes
through viz.labels.
"""
from __future__ import annotations

from typing import Callable

import pandas as pd
import plotly.graph_objects as go

from transformer.core.beam_trace import STATUSES, BeamTree
from transformer.core.decode import length_penalty
from viz import labels as L

COLORS = {"root": "#444444", "kept": "#1f77b4", "pruned": "#b0b0b0", "finished": "#2ca02c",
          "eos_pruned": "#a6dba0"}
SYMBOLS = {"root": "circle", "kept": "circle", "pruned": "x", "finished": "square",
           "eos_pruned": "square-open"}
BEST_COLOR = "#d62728"
LABELS = {"title": "Beam search, step by step", "x": "step (tokens written)",
          "root": "<s>", "kept": "kept in the beam", "pruned": "pruned (beam full)",
          "finished": "finished (</s>)", "eos_pruned": "</s> ranked too low",
          "best": "the output (best score)", "logp": "log P", "score": "score",
          "token_logp": "log P(token)", "rank": "rank",
          "key": "each node: token, then log P, then score = log P / lp"}
MAX_TEXT = 12  # candidates per step above which the numbers move to the hover text only
WINDOW = 8  # steps drawn at once with their numbers (a longer window: tokens only)
BIG_WINDOW = 6  # steps at once in the enlarged (projector) view
# a node's token is cut to this many characters (the hover has it whole), so that a long word
# ("Straßenrand") does not run into the next step's column at 1280 px
MAX_CHARS, BIG_MAX_CHARS = 10, 8
# Text sizes in px, legible on a projector at 1280 px wide (issue 23): the token, its numbers,
# the axis and legend, the key; the enlarged view multiplies them by BIG_SCALE.
SIZES = {"token": 15, "numbers": 13, "axis": 14, "legend": 14, "key": 13, "title": 18}
BIG_SCALE = 1.35


def short(token: str, n: int = MAX_CHARS) -> str:
    """A node's token as drawn: at most `n` characters, "…" marking a cut."""
    return token if len(token) <= n else token[: n - 1] + "…"


def _y(tree: BeamTree) -> dict[int, float]:
    """Node id -> vertical position: minus its rank, so the best candidate is on top."""
    return {n.id: -float(n.rank) for n in tree.nodes}


def windows(tree: BeamTree, size: int = WINDOW) -> list[tuple[int, int]]:
    """Step windows of `size` steps covering the whole search: (0, 10), (10, 20), ... (each
    starts at the previous one's last step, so its hypotheses are seen growing)."""
    last = tree.steps
    out, a = [], 0
    while True:
        out.append((a, min(a + size, last)))
        if a + size >= last:
            return out
        a += size


def figure(tree: BeamTree, display: Callable[[list[int]], list[str]], *,
           steps: tuple[int, int] | None = None, labels: dict | None = None,
           height: int | None = None, big: bool = False) -> go.Figure:
    """The tree, steps[0]..steps[1] (default: all). Node text: token, then log P and score when
    the window has at most WINDOW steps and MAX_TEXT candidates a step; the hover always has
    the hypothesis, both numbers, the token's own log-probability and the rank. Text sizes are
    SIZES (legible on a projector); `big` multiplies them by BIG_SCALE and spaces rows further
    apart, for the enlarged view. Drag a box to zoom in; a double click zooms out."""
    lab = {**LABELS, **(labels or {})}
    k = BIG_SCALE if big else 1.0
    px = {name: round(v * k) for name, v in SIZES.items()}
    a, b = steps if steps is not None else (0, tree.steps)
    a, b = max(0, int(a)), min(tree.steps, int(b))
    if a > b:
        raise ValueError(f"steps: empty window {steps} (the search has {tree.steps} steps)")
    inside = [n for n in tree.nodes if a <= n.step <= b]
    y = _y(tree)
    per_step = max((len(tree.at_step(s)) for s in range(max(a, 1), b + 1)), default=1)
    numbers = per_step <= MAX_TEXT and b - a <= WINDOW
    fig = go.Figure()

    # edges: parent -> child, grey for candidates that went nowhere
    for dead, color, width, dash in ((True, "#d0d0d0", 1, "dot"), (False, "#7f9fbf", 1.5, None)):
        xs, ys = [], []
        for n in inside:
            if n.parent is not None and n.step > a and \
                    (n.status in ("pruned", "eos_pruned")) == dead:
                p = tree.nodes[n.parent]
                xs += [p.step, n.step, None]
                ys += [y[p.id], y[n.id], None]
        if xs:
            fig.add_trace(go.Scatter(x=xs, y=ys, mode="lines", hoverinfo="skip",
                                     showlegend=False, line=dict(color=color, width=width,
                                                                 dash=dash)))
    best = [n for n in tree.path() if a <= n.step <= b] if tree.best is not None else []
    if best:
        fig.add_trace(go.Scatter(x=[n.step for n in best], y=[y[n.id] for n in best],
                                 mode="lines", name=L.text(lab["best"]), hoverinfo="skip",
                                 line=dict(color=BEST_COLOR, width=4)))

    # nodes, one trace per status (so the legend names them)
    for status in ("root", *STATUSES):
        nodes = [n for n in inside if n.status == status]
        if not nodes:
            continue
        tokens = [lab["root"] if n.token is None else display([n.token])[0] for n in nodes]
        hyps = [" ".join(display(n.tokens)) or lab["root"] for n in nodes]
        text = []
        for n, tok in zip(nodes, tokens):
            t = f"<b>{L.text(short(tok, BIG_MAX_CHARS if big else MAX_CHARS))}</b>"
            if numbers and n.status != "root":
                # the numbers a size smaller than the token (plotly: one font per trace)
                t += (f"<br><span style='font-size:{px['numbers']}px'>{n.logp:.2f}<br>"
                      f"{n.score:.2f}</span>")
            text.append(t)
        fig.add_trace(go.Scatter(
            x=[n.step for n in nodes], y=[y[n.id] for n in nodes], mode="markers+text",
            name=L.text(lab[status]), text=text, textposition="bottom right", cliponaxis=False,
            textfont=dict(size=px["token"], color="#222222" if status != "pruned" else "#777777"),
            marker=dict(symbol=SYMBOLS[status], size=round(11 * k) if status != "root" else round(13 * k),
                        color=COLORS[status], line=dict(width=1, color=COLORS[status])),
            customdata=[[h, n.logp, n.score, n.token_logp, n.rank + 1]
                        for h, n in zip(L.texts(hyps), nodes)],
            hovertemplate="%{customdata[0]}<br>" + L.text(lab["logp"]) + " = %{customdata[1]:.4f}"
                          "<br>" + L.text(lab["score"]) + " = %{customdata[2]:.4f}<br>"
                          + L.text(lab["token_logp"]) + " = %{customdata[3]:.4f}<br>"
                          + L.text(lab["rank"]) + " %{customdata[4]}<extra></extra>"))
    if best and best[-1].id == tree.best:
        end = best[-1]
        fig.add_trace(go.Scatter(x=[end.step], y=[y[end.id]], mode="markers",
                                 marker=dict(symbol="star", size=round(22 * k), color=BEST_COLOR),
                                 showlegend=False, hoverinfo="skip"))

    if numbers:
        fig.add_annotation(x=1, y=1, xref="paper", yref="paper", xanchor="right",
                           yanchor="bottom", showarrow=False, text=L.text(lab["key"]),
                           font=dict(size=px["key"], color="#555555"))
    # a row holds a token and (with numbers) two more lines under it
    row_px = (px["token"] + 2 * px["numbers"] + 34) if numbers else px["token"] + 20
    height = height or int(220 * k + row_px * max(per_step, 1))
    top, bottom = round(70 * k), round(110 * k)
    fig.update_layout(title=dict(text=L.text(lab["title"]), font=dict(size=px["title"])),
                      height=height, font=dict(size=px["axis"]),
                      margin=dict(l=10, r=round(90 * k), t=top, b=bottom), plot_bgcolor="white",
                      # the legend under the axis title: 70 px below the plot area
                      legend=dict(orientation="h", yanchor="top", x=0, font=dict(size=px["legend"]),
                                  y=-70 * k / max(height - top - bottom, 60)),
                      hoverlabel=dict(font=dict(size=px["numbers"] + 1)), dragmode="zoom")
    fig.update_xaxes(title=dict(text=L.text(lab["x"]), font=dict(size=px["axis"])),
                     range=[a - 0.3, b + 0.9], dtick=1, tickfont=dict(size=px["axis"]),
                     showgrid=True, gridcolor="#eeeeee", zeroline=False)
    # room under the last row for its text (token and two numbers)
    fig.update_yaxes(visible=False, range=[-(per_step - 1) - (0.95 if numbers else 0.6), 0.4])
    return fig


def finished_table(tree: BeamTree, decode: Callable[[list[int]], str], *,
                   columns: dict | None = None) -> pd.DataFrame:
    """The finished hypotheses, best score first: text, length |Y| (</s> counted), log P,
    lp(|Y|), score = log P / lp, and whether beam search returned it."""
    col = {"hyp": "hypothesis", "length": "|Y|", "logp": "log P", "lp": "lp", "score": "score",
           "chosen": "returned", **(columns or {})}
    rows = []
    for n in tree.finished():
        ended = n.status == "finished"
        words = n.tokens[:-1] if ended else n.tokens
        rows.append({col["hyp"]: decode(words), col["length"]: len(n.tokens),
                     col["logp"]: n.logp,
                     col["lp"]: length_penalty(len(n.tokens), tree.alpha, tree.lp),
                     col["score"]: n.score, col["chosen"]: n.id == tree.best})
    return pd.DataFrame(rows, columns=list(col.values()))
