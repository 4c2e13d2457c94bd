"""Positional encoding: the table, its waves, the similarity of positions, the rotation that moves
PE(pos) to PE(pos + k), its size against scaled embeddings, and the notes' "I love AI" example.

The table is :func:`transformer.worked.positional_encoding` (float64, the paper's formula with the
pair index i: dimensions 2i and 2i+1 share the frequency 1/10000^(2i/d)); the model's
``sinusoidal_table`` is the same formula in float32 (a test holds them equal).
"""
from __future__ import annotations

import math
from typing import Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from transformer.worked.examples import load_examples, run_example
from transformer.worked.graph import WorkedResult
from transformer.worked.maths import positional_encoding, rounding_tolerance
from viz import labels as L
from viz.worked import fmt, matrix_frame, matrix_heatmap, style

MAX_D_MODEL = 4096
MAX_POSITIONS = 2048


def check_sizes(n_positions: int, d_model: int) -> None:
    """ValueError with a message a student can act on."""
    if isinstance(d_model, bool) or not isinstance(d_model, (int, np.integer)) or d_model < 2:
        raise ValueError(f"d_model must be a whole number of at least 2, got {d_model!r}")
    if d_model > MAX_D_MODEL:
        raise ValueError(f"d_model = {d_model} is too large to draw here (at most {MAX_D_MODEL})")
    if isinstance(n_positions, bool) or not isinstance(n_positions, (int, np.integer)) or n_positions < 1:
        raise ValueError(f"the number of positions must be a whole number of at least 1, got {n_positions!r}")
    if n_positions > MAX_POSITIONS:
        raise ValueError(f"{n_positions} positions are too many to draw here (at most {MAX_POSITIONS})")


def pe_table(n_positions: int, d_model: int) -> np.ndarray:
    """(n_positions, d_model) float64: positions 0..n-1."""
    check_sizes(n_positions, d_model)
    return positional_encoding(int(n_positions), int(d_model))


def frequencies(d_model: int) -> np.ndarray:
    """omega per dimension: 1/10000^(2i/d) with i = dim // 2."""
    i = np.arange(d_model) // 2
    return 1.0 / 10000.0 ** (2 * i / d_model)


def waves_figure(pe: np.ndarray, dims: Sequence[int], title: str | None = None,
                 x_title: str = "position", y_title: str = "PE value", dim_word: str = "dim",
                 period_word: str = "period") -> go.Figure:
    """One line per chosen dimension over positions; the legend says sin or cos and the period
    (every word comes from the caller, in the page's language)."""
    fig = go.Figure()
    d = pe.shape[1]
    omega = frequencies(d)
    pos = np.arange(pe.shape[0])
    dim_word, period_word = L.text(dim_word), L.text(period_word)
    x_title, y_title = L.text(x_title), L.text(y_title)
    for k in dims:
        if not 0 <= k < d:
            continue
        fn = "sin" if k % 2 == 0 else "cos"
        period = 2 * math.pi / omega[k]
        fig.add_trace(go.Scatter(
            x=pos, y=pe[:, k], mode="lines", line_shape="spline",
            name=f"{dim_word} {k} ({fn}, {period_word} {period:.4g})",
            hovertemplate=f"{dim_word} {k}<br>{x_title}: %{{x}}<br>{y_title}: %{{y:.6f}}<extra></extra>"))
    fig.update_xaxes(title=x_title)
    fig.update_yaxes(title=y_title, range=[-1.1, 1.1])
    fig.update_layout(legend=dict(orientation="h", y=-0.2))
    return style(fig, title, 380)


def heatmap_figure(pe: np.ndarray, title: str | None = None, x_title: str = "dimension",
                   y_title: str = "position") -> go.Figure:
    return matrix_heatmap(pe, title=title, x_title=x_title, y_title=y_title, value_name="PE",
                          colorscale="RdBu", zmid=0.0, height=420)


def similarity(pe: np.ndarray) -> np.ndarray:
    """S[p, q] = PE(p)·PE(q) = sum_i cos((p - q) * omega_i) for each sin/cos pair."""
    return pe @ pe.T


def diagonal_spread(sim: np.ndarray) -> float:
    """Largest (max − min) along any diagonal p − q = const: 0 when S depends on p − q alone."""
    n = sim.shape[0]
    return float(max(np.ptp(np.diagonal(sim, off)) for off in range(-(n - 1), n)))


def similarity_figure(sim: np.ndarray, title: str | None = None, p_title: str = "position p",
                      q_title: str = "position q") -> go.Figure:
    return matrix_heatmap(sim, title=title, x_title=q_title, y_title=p_title, value_name="PE(p)·PE(q)",
                          colorscale="Viridis", height=420)


def offset_curves(pe: np.ndarray, starts: Sequence[int], max_k: int) -> pd.DataFrame:
    """PE(p)·PE(p+k) for k = 0..max_k, one column per start p (only where p+k is in the table).
    The columns coincide: the product depends on k alone."""
    n = pe.shape[0]
    ks = np.arange(max_k + 1)
    data = {}
    for p in starts:
        col = np.full(len(ks), np.nan)
        ok = p + ks < n
        col[ok] = (pe[p] * pe[p + ks[ok]]).sum(axis=1)
        data[f"p={p}"] = col
    return pd.DataFrame(data, index=pd.Index(ks, name="k"))


def offset_figure(curves: pd.DataFrame, title: str | None = None, x_title: str = "offset k",
                  y_title: str = "PE(p)·PE(p+k)") -> go.Figure:
    """One curve per start position p (a column of offset_curves): they lie on top of each other."""
    fig = go.Figure()
    dashes = ["solid", "dash", "dot", "dashdot"]
    x_title, y_title = L.text(x_title), L.text(y_title)
    for n, col in enumerate(curves.columns):
        name = L.text(col)
        fig.add_trace(go.Scatter(
            x=curves.index, y=curves[col], mode="lines", name=name, line=dict(dash=dashes[n % 4], width=3 - n * 0.5),
            hovertemplate=f"{name}<br>k: %{{x}}<br>{y_title}: %{{y:.6f}}<extra></extra>"))
    fig.update_xaxes(title=x_title)
    fig.update_yaxes(title=y_title)
    return style(fig, title, 360)


def rotation_matrix(k: int, d_model: int) -> np.ndarray:
    """M_k with PE(pos + k) = M_k PE(pos) for every pos: one 2×2 rotation per (sin, cos) pair,
    [[cos kω, sin kω], [−sin kω, cos kω]] (from sin(a+b) and cos(a+b)). Needs an even d_model:
    with an odd one the last sine has no cosine partner and no such matrix exists."""
    if d_model % 2:
        raise ValueError(f"d_model must be even for the rotation check (got {d_model}): "
                         "the last sine dimension would have no cosine partner")
    omega = frequencies(d_model)[0::2]
    M = np.zeros((d_model, d_model))
    for i, w in enumerate(omega):
        c, s = math.cos(k * w), math.sin(k * w)
        M[2 * i:2 * i + 2, 2 * i:2 * i + 2] = [[c, s], [-s, c]]
    return M


def rotation_check(pe: np.ndarray, k: int) -> tuple[np.ndarray, float]:
    """(M_k, max |PE(pos+k) − M_k PE(pos)|) over every pos with pos + k in the table."""
    n, d = pe.shape
    if not 0 <= k < n:
        raise ValueError(f"k must be between 0 and {n - 1}")
    M = rotation_matrix(k, d)
    pred = pe[: n - k] @ M.T  # row-wise M·PE(pos)
    err = float(np.abs(pe[k:] - pred).max()) if n - k else 0.0
    return M, err


def rotation_figure(M: np.ndarray, title: str | None = None, x_title: str = "column",
                    y_title: str = "row") -> go.Figure:
    """M_k as a heatmap: 2×2 rotation blocks on the diagonal."""
    return matrix_heatmap(M, title=title, x_title=x_title, y_title=y_title, value_name="M_k",
                          colorscale="RdBu", zmid=0.0, height=380)


def norm_frame(tokens: Sequence[str], scaled_embeddings: np.ndarray, pe_rows: np.ndarray) -> pd.DataFrame:
    """Per position: ||embedding·√d||, ||PE||, and their ratio. ||PE|| = √(d/2) for sinusoidal PE."""
    e = np.linalg.norm(np.asarray(scaled_embeddings, dtype=np.float64), axis=1)
    p = np.linalg.norm(np.asarray(pe_rows, dtype=np.float64), axis=1)
    return pd.DataFrame({"position": np.arange(len(e)), "token": list(tokens), "embedding_norm": e,
                         "pe_norm": p, "ratio": e / np.where(p > 0, p, np.nan)})


def norm_figure(df: pd.DataFrame, title: str | None = None, emb_name: str = "‖embedding·√d‖",
                pe_name: str = "‖PE‖", x_title: str = "token", ratio_word: str = "ratio") -> go.Figure:
    """Per token of the sentence: the scaled embedding's length next to PE's. Bars sit on numeric
    positions with the (escaped) tokens as tick text, so repeated tokens stay apart."""
    x = list(range(len(df)))
    tokens = L.texts(df["token"])
    emb_name, pe_name, ratio_word = L.text(emb_name), L.text(pe_name), L.text(ratio_word)
    custom = np.stack([tokens, df["ratio"].map(lambda v: fmt(v, 4))], axis=1)
    fig = go.Figure([
        go.Bar(x=x, y=df["embedding_norm"], name=emb_name, customdata=custom,
               hovertemplate=f"%{{customdata[0]}}<br>{emb_name}: %{{y:.6f}}<br>{ratio_word}: "
                             f"%{{customdata[1]}}<extra></extra>"),
        go.Bar(x=x, y=df["pe_norm"], name=pe_name, customdata=custom,
               hovertemplate=f"%{{customdata[0]}}<br>{pe_name}: %{{y:.6f}}<extra></extra>"),
    ])
    fig.update_xaxes(tickmode="array", tickvals=x, ticktext=tokens, title=L.text(x_title))
    fig.update_layout(barmode="group")
    return style(fig, title, 360)


def love_terms(pos: float, d_model: int, claimed: Sequence[float] | None = None) -> pd.DataFrame:
    """Every term of PE(pos) for a small d_model: the pair index i, 2i/d, 10000^(2i/d), the angle
    pos/10000^(2i/d), sin or cos, and the value; with the notes' number and whether it agrees."""
    check_sizes(1, d_model)
    if d_model > 64:
        raise ValueError("the term-by-term table is for a small d_model (at most 64)")
    value = positional_encoding([pos], d_model)[0]
    rows = []
    for dim in range(d_model):
        i = dim // 2
        expo = 2 * i / d_model
        denom = 10000.0 ** expo
        fn = "sin" if dim % 2 == 0 else "cos"
        rows.append({"dimension": dim, "i": i, "2i/d": expo, "10000^(2i/d)": denom,
                     "angle": pos / denom, "function": fn,
                     "formula": f"{fn}({fmt(pos, 6)}/{fmt(denom, 6)})", "value": value[dim]})
    df = pd.DataFrame(rows)
    if claimed is not None and len(claimed) == d_model:
        tol = rounding_tolerance(claimed)
        df["notes"] = list(claimed)
        df["agrees"] = np.abs(df["value"].to_numpy() - np.asarray(claimed, float)) <= tol + 1e-12
    return df


def love_example() -> tuple[WorkedResult, dict]:
    """The notes' example (pos 2, d_model 4) as transformer.worked checks it, plus its raw dict."""
    res = run_example("positional_encoding_love")
    ex = next(e for e in load_examples()["examples"] if e["id"] == "positional_encoding_love")
    return res, ex


__all__ = ["pe_table", "frequencies", "waves_figure", "heatmap_figure", "similarity", "similarity_figure",
           "offset_curves", "offset_figure", "rotation_matrix", "rotation_check", "rotation_figure",
           "norm_frame", "norm_figure", "love_terms", "love_example", "matrix_frame", "check_sizes"]
