"""The head finder and head ablation on screen: grids, head names and uploaded probe files.

Nothing here runs a model or imports Streamlit. The causal test (pronoun accuracy with chosen
heads switched off) lives in transformer.probing.pronouns (`pronoun_accuracy`, `translate_ids`):
it decodes under `transformer.core.trace.ablation`, a context that lives in this thread only, so
the shared model object is never touched.
"""
from __future__ import annotations

import html
import tempfile
import unicodedata
from pathlib import Path

import numpy as np
import plotly.graph_objects as go

from transformer.core.names import KINDS, Head, model_heads
from transformer.probing.probe_items import read_probe_file

MAX_PROBE_BYTES = 1_000_000
# the baselines of transformer.probing.heads.baselines, in the order the Heads page shows them
BASELINE_ORDER = ("nearest_noun", "first_noun", "random_noun", "random_word")


# -- head names (a head is transformer.core.names.Head; on screen, its label) -------------------
def head_label(kind: str, layer: int, head: int) -> str:
    """('cross', 1, 2) -> 'cross L1 H2': Head(kind, layer, head).label (layers and heads counted
    from 0, as everywhere here)."""
    return Head(kind, layer, head).label


def all_heads(cfg) -> list[str]:
    """The label of every head of a model (a ModelConfig), kind by kind, layer, head."""
    return [h.label for h in model_heads(cfg)]


# -- scores -------------------------------------------------------------------------------------
def best_cell(grids: dict[str, np.ndarray]) -> tuple[str, int, int, float] | None:
    """The highest cell over every kind's (layers, heads) grid; ties go to the first kind in
    KINDS order, then the lowest layer and head. None when there is no finite value."""
    best = None
    for kind in KINDS:
        if kind not in grids:
            continue
        g = np.asarray(grids[kind], dtype=np.float64)
        if not np.isfinite(g).any():
            continue
        flat = int(np.nanargmax(np.where(np.isfinite(g), g, -np.inf)))
        layer, head = divmod(flat, g.shape[1])
        cand = (kind, layer, head, float(g[layer, head]))
        if best is None or cand[3] > best[3]:
            best = cand
    return best


def hit_split(on_article: float, on_noun: float, n: int) -> dict:
    """One head's anaphora hits split by the word they land on, as counts over `n` probe
    sentences and shares (transformer.probing.heads.HeadScores.on_article / on_noun at that head): the
    Heads page says "on the article 200 times, on the noun 0 times" from these, never from prose.
    """
    if n < 0 or not (0 <= on_article <= 1 and 0 <= on_noun <= 1):
        raise ValueError(f"shares must lie in 0..1 and n >= 0 (got {on_article}, {on_noun}, {n})")
    article, noun = int(round(on_article * n)), int(round(on_noun * n))
    return {"n": n, "article": article, "noun": noun, "other": max(n - article - noun, 0),
            "article_pct": article / n if n else 0.0, "noun_pct": noun / n if n else 0.0}


def grid_figure(values, *, title: str = "", layer_name: str = "layer {n}",
                head_name: str = "head {n}", value_name: str = "score",
                extra=None, extra_name: str = "", best: tuple[int, int] | None = None,
                digits: int = 2) -> go.Figure:
    """A layers x heads heatmap on a 0..1 scale with the value written in each cell, a hover that
    names layer, head, value (and `extra`, e.g. the mean attention weight), and a box around
    `best` (layer, head)."""
    a = np.asarray(values, dtype=np.float64)
    if a.ndim != 2:
        raise ValueError(f"a (layers, heads) grid is needed, got shape {a.shape}")
    n_l, n_h = a.shape
    xs = [head_name.format(n=h) for h in range(n_h)]
    ys = [layer_name.format(n=layer) for layer in range(n_l)]
    hover = "%{y}, %{x}<br>" + html.escape(value_name) + ": %{z:.3f}"
    custom = None
    if extra is not None:
        custom = np.asarray(extra, dtype=np.float64)
        if custom.shape != a.shape:
            raise ValueError(f"extra grid {custom.shape} does not match {a.shape}")
        hover += "<br>" + html.escape(extra_name) + ": %{customdata:.3f}"
    fig = go.Figure(go.Heatmap(
        z=np.round(a, 4), x=xs, y=ys, customdata=custom, colorscale="Viridis", zmin=0, zmax=1,
        xgap=2, ygap=2, texttemplate="%{z:." + str(digits) + "f}", textfont={"size": 13},
        hovertemplate=hover + "<extra></extra>", showscale=False))
    if best is not None:
        bl, bh = best
        fig.add_shape(type="rect", x0=bh - 0.5, x1=bh + 0.5, y0=bl - 0.5, y1=bl + 0.5,
                      line=dict(color="red", width=3))
    fig.update_layout(title=title, height=int(110 + 70 * n_l),
                      margin=dict(l=10, r=10, t=50 if title else 20, b=10))
    fig.update_xaxes(type="category", side="bottom", tickangle=0)
    if n_h > 4:  # "head 0head 1..." would overlap in a narrow column: numbers under one title
        fig.update_xaxes(tickmode="array", tickvals=xs, ticktext=[str(h) for h in range(n_h)],
                         title=head_name.replace("{n}", "").strip())
    fig.update_yaxes(type="category", autorange="reversed")
    return fig


# -- probe files --------------------------------------------------------------------------------
def read_probe_upload(data: bytes, name: str = "probe.jsonl", max_bytes: int = MAX_PROBE_BYTES):
    """An uploaded JSONL probe file -> list of transformer.probing.heads.ProbeItem. Raises ValueError with
    the file name and line number for anything wrong (too big, not UTF-8, bad JSON, positions out
    of range)."""
    name = shown_file_name(name, "probe.jsonl")
    if len(data) > max_bytes:
        raise ValueError(f"{name}: {len(data):,} bytes is over the limit of {max_bytes:,} bytes")
    with tempfile.TemporaryDirectory() as d:
        p = Path(d) / "probe.jsonl"  # never the browser's name: any name is a valid upload
        p.write_bytes(data)
        try:
            return read_probe_file(p)
        except ValueError as e:
            msg = str(e)
            raise ValueError(name + msg[len(p.name):] if msg.startswith(p.name) else msg) \
                from None


def shown_file_name(name, default: str, max_chars: int = 80) -> str:
    """An uploaded file's name as messages show it: its last part, control characters dropped,
    at most `max_chars` characters (the end kept: the extension). Issue 22, N: a 300-character
    name was used as a path and failed with an OSError."""
    text = str(name or "").replace("\\", "/").rsplit("/", 1)[-1]
    text = "".join(c for c in text if unicodedata.category(c)[0] != "C").strip()
    if len(text) > max_chars:
        text = "…" + text[-(max_chars - 1):]
    return text or default
