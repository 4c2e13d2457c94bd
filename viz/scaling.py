"""Why divide by √d_k: with q and k of unit-variance entries, q·k is a sum of d_k terms of variance
1, so Var(q·k) = d_k. Large scores saturate the softmax (one weight near 1, entropy near 0) and
its Jacobian diag(p) − ppᵀ, which carries the gradient, shrinks towards 0. Dividing by √d_k
brings the variance back to 1 for every d_k."""
from __future__ import annotations

from typing import Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from transformer.core.numeric import softmax
from plotly.subplots import make_subplots

from viz import labels as L
from viz.worked import fmt, style

D_KS = (1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024)
MAX_SAMPLES = 20000


def _rng(seed: int) -> np.random.Generator:
    return np.random.default_rng(int(seed))


def dot_samples(d_k: int, n: int, seed: int) -> np.ndarray:
    """n values of q·k with q, k ~ N(0, I_{d_k}) (seeded)."""
    if d_k < 1 or n < 1 or n > MAX_SAMPLES:
        raise ValueError(f"need d_k >= 1 and 1 <= n <= {MAX_SAMPLES}")
    r = _rng(seed)
    q = r.standard_normal((n, d_k))
    k = r.standard_normal((n, d_k))
    return (q * k).sum(axis=1)


def variance_table(d_ks: Sequence[int], n: int, seed: int) -> pd.DataFrame:
    """Per d_k: empirical Var(q·k), the theory d_k, Var(q·k/√d_k) (theory 1), and the standard
    error of a sample variance (≈ d_k·√(2/(n−1)) for normal-ish sums; exact: Var of q·k is
    d_k and its 4th moment is 3d_k² + 6d_k, so SE = √((3d_k² + 6d_k − d_k²)/n))."""
    rows = []
    for i, d in enumerate(d_ks):
        x = dot_samples(int(d), n, seed + i)
        v = float(x.var(ddof=1))
        se = float(np.sqrt((2 * d * d + 6 * d) / n))
        rows.append({"d_k": int(d), "var_raw": v, "theory": float(d), "var_scaled": v / d, "se": se})
    return pd.DataFrame(rows)


def variance_figure(df: pd.DataFrame, *, title: str | None = None, raw: str = "Var(q·k), measured",
                    theory: str = "theory: d_k", scaled: str = "Var(q·k/√d_k), measured",
                    y_title: str = "variance") -> go.Figure:
    """Measured Var(q·k) with ±2 standard-error bars against the theory d_k, and the scaled
    variance, on log-log axes ticked at every measured d_k."""
    raw, theory, scaled = L.text(raw), L.text(theory), L.text(scaled)
    fig = go.Figure([
        go.Scatter(x=df["d_k"], y=df["theory"], mode="lines", name=theory, line=dict(dash="dash", color="#555"),
                   hovertemplate="d_k %{x}<br>" + theory + ": %{y}<extra></extra>"),
        go.Scatter(x=df["d_k"], y=df["var_raw"], mode="markers+lines", name=raw,
                   error_y=dict(type="data", array=2 * df["se"], visible=True),
                   hovertemplate="d_k %{x}<br>" + raw + ": %{y:.4f}<extra></extra>"),
        go.Scatter(x=df["d_k"], y=df["var_scaled"], mode="markers+lines", name=scaled,
                   hovertemplate="d_k %{x}<br>" + scaled + ": %{y:.4f}<extra></extra>"),
    ])
    fig.update_xaxes(type="log", title="d_k", tickvals=list(df["d_k"]))
    fig.update_yaxes(type="log", title=L.text(y_title))
    fig.update_layout(legend=dict(orientation="h", y=-0.25))
    return style(fig, title, 380)


def histogram_figure(samples: np.ndarray, d_k: int, *, title: str | None = None,
                     raw: str = "q·k", scaled: str = "q·k/√d_k", x_title: str = "value",
                     y_title: str = "count", samples_word: str = "samples") -> go.Figure:
    """The samples of q·k and of q·k/√d_k, overlaid."""
    raw, scaled, samples_word = L.text(raw), L.text(scaled), L.text(samples_word)
    fig = go.Figure([
        go.Histogram(x=samples, name=raw, opacity=0.6, nbinsx=60,
                     hovertemplate=raw + " ∈ [%{x}]: %{y} " + samples_word + "<extra></extra>"),
        go.Histogram(x=samples / np.sqrt(d_k), name=scaled, opacity=0.6, nbinsx=60,
                     hovertemplate=scaled + " ∈ [%{x}]: %{y} " + samples_word + "<extra></extra>"),
    ])
    fig.update_layout(barmode="overlay")
    fig.update_xaxes(title=L.text(x_title))
    fig.update_yaxes(title=L.text(y_title))
    return style(fig, title, 340)


def softmax_stats(scores: np.ndarray) -> dict[str, float]:
    """For one row: max weight, entropy in bits (log₂, the unit of every entropy the pages show)
    and the Frobenius norm of diag(p) − ppᵀ."""
    p = softmax(scores)
    with np.errstate(divide="ignore", invalid="ignore"):
        ent = float(-np.sum(np.where(p > 0, p * np.log2(p), 0.0)))
    J = np.diag(p) - np.outer(p, p)
    return {"max_weight": float(p.max()), "entropy": ent, "jacobian_norm": float(np.linalg.norm(J))}


def score_row(d_k: int, n_keys: int, seed: int) -> np.ndarray:
    """q·k_j for one random q and n_keys random keys of dimension d_k (seeded)."""
    r = _rng(seed)
    q = r.standard_normal(d_k)
    K = r.standard_normal((n_keys, d_k))
    return K @ q


def saturation_table(d_ks: Sequence[int], n_keys: int, trials: int, seed: int) -> pd.DataFrame:
    """Per d_k, averaged over `trials` random rows: max weight, entropy and Jacobian norm, for
    the raw scores and for the scores divided by √d_k. Entropy (bits) of a uniform row is
    log₂(n_keys)."""
    rows = []
    for i, d in enumerate(d_ks):
        r = _rng(seed + 1000 * i)
        q = r.standard_normal((trials, 1, d))
        K = r.standard_normal((trials, n_keys, d))
        s = (q * K).sum(axis=-1)  # (trials, n_keys)
        out = {"d_k": int(d)}
        for tag, x in (("raw", s), ("scaled", s / np.sqrt(d))):
            st = [softmax_stats(row) for row in x]
            for key in ("max_weight", "entropy", "jacobian_norm"):
                out[f"{key}_{tag}"] = float(np.mean([v[key] for v in st]))
        rows.append(out)
    return pd.DataFrame(rows)


def saturation_figure(df: pd.DataFrame, d_k: int | None = None, *,
                      titles: Sequence[str] = ("largest weight", "entropy (bits)", "‖diag(p) − ppᵀ‖"),
                      raw: str = "without scaling", scaled: str = "divided by √d_k") -> go.Figure:
    """Three panels against d_k on log axes (ticked at every d_k of the table), without and with
    the scaling; a dotted line at the chosen d_k.

    The line is placed at x = d_k itself, not log10(d_k): plotly.js places shapes on a log axis
    in data coordinates (its shapePositionToRange converts with d2r, i.e. takes the log itself),
    unlike axis ranges and annotations, which take log10 values. log10(64) = 1.8 drew the line
    near d_k = 2 (tests/test_viz_foundations.py and the browser test check where it lands)."""
    titles = L.texts(titles)
    raw, scaled = L.text(raw), L.text(scaled)
    fig = make_subplots(rows=1, cols=3, subplot_titles=titles, horizontal_spacing=0.07)
    for c, key in enumerate(("max_weight", "entropy", "jacobian_norm"), start=1):
        for tag, name, colour in (("raw", raw, "#c0392b"), ("scaled", scaled, "#2a7ab9")):
            fig.add_trace(go.Scatter(x=df["d_k"], y=df[f"{key}_{tag}"], mode="lines+markers", name=name,
                                     legendgroup=tag, showlegend=(c == 1), line=dict(color=colour),
                                     hovertemplate=f"{name}<br>d_k %{{x}}<br>{titles[c - 1]}: %{{y:.6f}}<extra></extra>"),
                          row=1, col=c)
        fig.update_xaxes(type="log", title="d_k", tickvals=list(df["d_k"]), row=1, col=c)
        if d_k:
            fig.add_vline(x=d_k, line_dash="dot", line_color="#555", row=1, col=c)
    fig.update_layout(legend=dict(orientation="h", y=-0.25))
    return style(fig, None, 380)


def row_figure(scores: np.ndarray, d_k: int, *, titles: Sequence[str] = ("softmax(q·k)", "softmax(q·k/√d_k)"),
               key_word: str = "key", score_word: str = "score", weight_word: str = "weight") -> go.Figure:
    """The softmax of one row with and without the scaling, bars labelled with their values."""
    raw, scaled = softmax(scores), softmax(scores / np.sqrt(d_k))
    x = [f"{L.text(key_word)} {j}" for j in range(len(scores))]
    fig = make_subplots(rows=1, cols=2, subplot_titles=L.texts(titles), horizontal_spacing=0.08)
    hover = ("%{x}<br>" + L.text(score_word) + " %{customdata[0]}<br>" + L.text(weight_word)
             + " %{customdata[1]}<extra></extra>")
    for c, (p, s, colour) in enumerate(((raw, scores, "#c0392b"), (scaled, scores / np.sqrt(d_k), "#2a7ab9")), start=1):
        fig.add_trace(go.Bar(x=x, y=p, marker_color=colour, showlegend=False, customdata=np.stack([
            [fmt(v, 6) for v in s], [fmt(v, 6) for v in p]], axis=1), text=[fmt(v, 2) for v in p],
            textposition="outside", cliponaxis=False, hovertemplate=hover), row=1, col=c)
        fig.update_yaxes(range=[0, 1.12], row=1, col=c)
    return style(fig, None, 340)
