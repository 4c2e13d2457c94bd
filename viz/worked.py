"""Worked examples as tables and figures, plus the small matrix helpers the foundation pages share.

Everything numeric comes from :mod:`transformer.worked`; this module only lays numbers out:
step -> DataFrame, notes' claim -> DataFrame with the disagreeing cells coloured (CSS strings
through ``Styler.apply``: no matplotlib), example inputs <-> editable tables, and a parser for
the matrices a student types in free mode.
"""
from __future__ import annotations

import copy
import math
import re
from typing import Any, Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from transformer import worked as W

# Fonts that carry Chinese, German and English glyphs, in order of preference (the browser picks
# the first it has); plotly's default (Open Sans) has no CJK glyphs.
FONT = ('"Noto Sans CJK SC", "Noto Sans SC", "Source Han Sans SC", "PingFang SC", '
        '"Microsoft YaHei", "WenQuanYi Micro Hei", "Open Sans", Arial, sans-serif')
BAD_CSS = "background-color: #f8d0d0; color: #8a0000; font-weight: bold"
GOOD_CSS = "background-color: #d8f0d8; color: #0b4d0b"
DIFF_CSS = "background-color: #fff1c2; font-weight: bold"  # a correct number the notes got wrong
MAX_FREE_SIZE = 12  # rows/columns a student may type in free mode


def style(fig: go.Figure, title: str | None = None, height: int | None = None) -> go.Figure:
    """Common layout: CJK-capable font, compact margins, PNG export kept in the modebar."""
    fig.update_layout(font=dict(family=FONT), margin=dict(l=10, r=10, t=50 if title else 20, b=10),
                      title=title, hoverlabel=dict(font=dict(family=FONT)))
    if height:
        fig.update_layout(height=height)
    return fig


def fmt(x: float, digits: int = 4) -> str:
    """A number for a cell or a hover: -inf/inf spelled out, otherwise `digits` significant."""
    if isinstance(x, (bool, np.bool_)):
        return str(bool(x))
    x = float(x)
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "−inf" if x < 0 else "inf"
    return f"{x:.{digits}g}"


def matrix_heatmap(z: np.ndarray, x_labels: Sequence[str] | None = None, y_labels: Sequence[str] | None = None,
                   *, title: str | None = None, x_title: str = "", y_title: str = "", value_name: str = "value",
                   colorscale: str = "Viridis", zmid: float | None = None, text: bool = False,
                   height: int | None = None, digits: int = 6) -> go.Figure:
    """A heatmap on numeric axes with the labels as tick text, so repeated tokens ("the", "the")
    stay separate columns. Hover: row label, column label and the exact value. -inf cells are
    drawn empty and hover as "−inf"."""
    z = np.atleast_2d(np.asarray(z, dtype=np.float64))
    n_rows, n_cols = z.shape
    xl = list(x_labels) if x_labels is not None else [str(j) for j in range(n_cols)]
    yl = list(y_labels) if y_labels is not None else [str(i) for i in range(n_rows)]
    shown = np.where(np.isfinite(z), z, np.nan)
    custom = np.empty((n_rows, n_cols, 3), dtype=object)
    for i in range(n_rows):
        for j in range(n_cols):
            custom[i, j] = (yl[i], xl[j], fmt(z[i, j], digits))
    fig = go.Figure(go.Heatmap(
        z=shown, x=list(range(n_cols)), y=list(range(n_rows)), customdata=custom, colorscale=colorscale,
        zmid=zmid, colorbar=dict(title=value_name),
        text=[[fmt(v, 3) for v in row] for row in z] if text else None,
        texttemplate="%{text}" if text else None,
        hovertemplate=f"{y_title or 'row'}: %{{customdata[0]}}<br>{x_title or 'column'}: %{{customdata[1]}}"
                      f"<br>{value_name}: %{{customdata[2]}}<extra></extra>"))
    # up to 60 labels are written out; beyond that plotly picks numeric ticks (the index)
    if n_cols <= 60:
        fig.update_xaxes(tickmode="array", tickvals=list(range(n_cols)), ticktext=xl)
    if n_rows <= 60:
        fig.update_yaxes(tickmode="array", tickvals=list(range(n_rows)), ticktext=yl)
    fig.update_xaxes(title=x_title, side="top")
    fig.update_yaxes(title=y_title, autorange="reversed")
    return style(fig, title, height)


def matrix_frame(a: np.ndarray, row_labels: Sequence[str] | None = None,
                 col_labels: Sequence[str] | None = None) -> pd.DataFrame:
    """A 1-D or 2-D array as a DataFrame (1-D becomes one row); labels made unique."""
    a2 = np.atleast_2d(np.asarray(a))
    rows = _unique(row_labels, a2.shape[0])
    cols = _unique(col_labels, a2.shape[1])
    return pd.DataFrame(a2, index=rows, columns=cols)


def _unique(labels: Sequence[str] | None, n: int) -> list[str]:
    if labels is None or len(labels) != n:
        return [str(i) for i in range(n)]
    seen: dict[str, int] = {}
    out = []
    for lab in labels:
        lab = str(lab)
        k = seen.get(lab, 0)
        seen[lab] = k + 1
        out.append(lab if k == 0 else f"{lab} ({k + 1})")
    return out


def csv_bytes(df: pd.DataFrame) -> bytes:
    """UTF-8 CSV with a BOM so spreadsheet programs read Chinese tokens correctly."""
    return df.to_csv().encode("utf-8-sig")


# --------------------------------------------------------------------------------------------
# Steps of a worked example


_KEY_COLUMNS = ("QK_T", "scaled", "mask", "masked", "exp", "weights")


def base_name(step_name: str) -> str:
    """"head2.weights" -> "weights", "scaled.row0.hand" -> "scaled", "addnorm.std" -> "addnorm"."""
    return re.sub(r"^head\d+\.", "", step_name).split(".")[0]


def step_labels(step: W.Step, tokens: Sequence[str]) -> tuple[list[str] | None, list[str] | None]:
    """Row and column labels for a step's table: tokens for queries (rows) and keys (columns)."""
    a = np.atleast_2d(step.value)
    n_rows, n_cols = a.shape
    tokens = list(tokens or [])
    rows = tokens if tokens and np.ndim(step.value) == 2 and len(tokens) == n_rows else None
    cols = tokens if tokens and base_name(step.name) in _KEY_COLUMNS and len(tokens) == n_cols else None
    return rows, cols


def value_frame(step: W.Step, tokens: Sequence[str] = ()) -> pd.DataFrame:
    rows, cols = step_labels(step, tokens)
    return matrix_frame(step.value, rows, cols)


def claim_frame(step: W.Step, tokens: Sequence[str] = ()) -> pd.DataFrame | None:
    if step.claimed is None:
        return None
    rows, cols = step_labels(step, tokens)
    return matrix_frame(step.claimed, rows, cols)


def flag_mask(step: W.Step) -> np.ndarray | None:
    """True where the notes' number disagrees with the correct one (2-D, like the tables)."""
    if step.agrees is None:
        return None
    return ~np.atleast_2d(step.agrees)


def styled(df: pd.DataFrame, bad: np.ndarray | None, digits: int = 4, good_css: str = "",
           bad_css: str = BAD_CSS) -> Any:
    """A Styler: cells where ``bad`` is True coloured red (CSS, no matplotlib), others ``good_css``."""
    sty = df.style.format(lambda v: fmt(v, digits) if not isinstance(v, str) else v)
    if bad is None:
        return sty
    bad = np.asarray(bad, dtype=bool).reshape(df.shape)

    def colour(_frame: pd.DataFrame) -> pd.DataFrame:
        return pd.DataFrame(np.where(bad, bad_css, good_css), index=df.index, columns=df.columns)
    return sty.apply(colour, axis=None)


def comparison_frame(step: W.Step, tokens: Sequence[str] = (), digits: int = 4) -> pd.DataFrame | None:
    """One table with both numbers per cell: "0.36" where the notes agree, "0.36 ≠ notes 0.32"
    where they do not (readable without colour too, e.g. on a projector)."""
    if step.claimed is None:
        return None
    val = np.atleast_2d(step.value)
    cl = np.atleast_2d(step.claimed)
    ok = np.atleast_2d(step.agrees)
    cells = [[fmt(val[i, j], digits) if ok[i, j] else f"{fmt(val[i, j], digits)} ≠ {fmt(cl[i, j], digits)}"
              for j in range(val.shape[1])] for i in range(val.shape[0])]
    rows, cols = step_labels(step, tokens)
    return pd.DataFrame(cells, index=_unique(rows, val.shape[0]), columns=_unique(cols, val.shape[1]))


def summary_frame(res: W.WorkedResult, lang: str = "en") -> pd.DataFrame:
    """One row per step the notes print: verdict, wrong entries, where the error began."""
    rows = []
    for s in res.steps:
        if s.claimed is None:
            continue
        rows.append({"step": s.label_zh if lang == "zh" else s.label_en, "name": s.name,
                     "verdict": s.verdict, "wrong": s.n_disagree, "entries": int(s.agrees.size),
                     "origin": s.origin or ""})
    return pd.DataFrame(rows, columns=["step", "name", "verdict", "wrong", "entries", "origin"])


# --------------------------------------------------------------------------------------------
# Editable inputs of a shipped example


def example_dict(example_id: str) -> dict:
    for e in W.load_examples()["examples"]:
        if e["id"] == example_id:
            return copy.deepcopy(e)
    raise ValueError(f"unknown example {example_id!r}")


def editable_inputs(ex: dict) -> dict[str, pd.DataFrame]:
    """The example's input matrices (those given as tables of numbers), as float DataFrames."""
    out: dict[str, pd.DataFrame] = {}
    for key in INPUT_KEYS:
        v = ex.get(key)
        if isinstance(v, list):
            a = np.asarray(v, dtype=np.float64)
            out[key] = matrix_frame(a)
    return out


INPUT_KEYS = ("scores", "X", "Q", "K", "V", "W_Q", "W_K", "W_V", "word_embeddings_rows_are_tokens",
              "W_query", "W_key", "W_value")


def frame_to_matrix(df: Any, name: str) -> np.ndarray:
    """An edited table -> float matrix; ValueError with a plain message on blanks or text."""
    try:
        frame = pd.DataFrame(df)
    except (TypeError, ValueError):
        raise ValueError(f"{name}: not a table") from None
    if frame.size == 0:
        raise ValueError(f"{name}: the table is empty")
    num = frame.apply(pd.to_numeric, errors="coerce")
    bad = num.isna() & frame.notna()
    if bad.to_numpy().any():
        i, j = np.argwhere(bad.to_numpy())[0]
        raise ValueError(f"{name}: row {i}, column {j} is not a number ({frame.iat[i, j]!r})")
    if num.isna().to_numpy().any():
        i, j = np.argwhere(num.isna().to_numpy())[0]
        raise ValueError(f"{name}: row {i}, column {j} is empty")
    a = num.to_numpy(dtype=np.float64)
    if not np.isfinite(a).all():
        raise ValueError(f"{name}: only finite numbers are allowed")
    return a


def with_inputs(ex: dict, edited: dict[str, Any]) -> dict:
    """A copy of the example with edited input tables put back (1-D inputs stay 1-D)."""
    new = copy.deepcopy(ex)
    for key, df in edited.items():
        a = frame_to_matrix(df, key)
        orig = np.asarray(ex[key], dtype=np.float64)
        if orig.ndim == 1:
            a = a.reshape(-1)
        new[key] = a.tolist()
    return new


def inputs_changed(ex: dict, edited: dict[str, Any]) -> bool:
    try:
        new = with_inputs(ex, edited)
    except ValueError:
        return True
    return any(not np.array_equal(np.asarray(new[k], float), np.asarray(ex[k], float)) for k in edited)


# --------------------------------------------------------------------------------------------
# Free mode: matrices typed as text

_NUM = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$")
_INF = {"-inf", "−inf", "-∞", "−∞"}


def parse_matrix(text: str, name: str, allow_neg_inf: bool = False) -> np.ndarray:
    """Rows on separate lines (or separated by ';'), numbers by spaces or commas.

    ValueError messages name the matrix, the row and the offending entry."""
    if text is None or not str(text).strip():
        raise ValueError(f"{name} is empty: type one row per line, numbers separated by spaces")
    lines = [ln for ln in re.split(r"[;\n]", str(text).replace("[", " ").replace("]", " ")) if ln.strip()]
    rows: list[list[float]] = []
    for r, line in enumerate(lines):
        vals = []
        for tok in re.split(r"[,\s]+", line.strip()):
            if not tok:
                continue
            if allow_neg_inf and tok.lower() in _INF:
                vals.append(-math.inf)
            elif _NUM.match(tok):
                vals.append(float(tok))
            else:
                raise ValueError(f"{name}, row {r + 1}: {tok!r} is not a number")
        rows.append(vals)
    widths = {len(r) for r in rows}
    if len(widths) != 1:
        raise ValueError(f"{name}: every row needs the same number of entries, got {sorted(widths)}")
    a = np.asarray(rows, dtype=np.float64)
    if max(a.shape) > MAX_FREE_SIZE:
        raise ValueError(f"{name} is {a.shape[0]}×{a.shape[1]}; at most {MAX_FREE_SIZE} rows and columns here")
    if not np.isfinite(a[~np.isneginf(a)]).all():
        raise ValueError(f"{name}: numbers too large")
    return a


def parse_mask(text: str, t: int, s: int) -> np.ndarray:
    """A typed mask: 1/True = may attend, 0/False = masked, or an additive 0 / -inf matrix."""
    if text is None or not str(text).strip():
        raise ValueError("the mask is empty: one row per query, 1 = may attend, 0 = masked")
    words = str(text).replace("True", "1").replace("False", "0").replace("true", "1").replace("false", "0")
    a = parse_matrix(words, "mask", allow_neg_inf=True)
    if a.shape != (t, s):
        raise ValueError(f"the mask must be {t}×{s} (queries × keys), got {a.shape[0]}×{a.shape[1]}")
    if np.isneginf(a).any():
        if not np.all((a == 0) | np.isneginf(a)):
            raise ValueError("an additive mask may only hold 0 (keep) and -inf (masked)")
        return a == 0
    if not np.all((a == 0) | (a == 1)):
        raise ValueError("the mask may only hold 1 (may attend) and 0 (masked)")
    return a == 1


def matrix_text(a: Any) -> str:
    """The inverse of parse_matrix, for pre-filling text areas."""
    a2 = np.atleast_2d(np.asarray(a, dtype=np.float64))
    return "\n".join(" ".join(fmt(v, 6) for v in row) for row in a2)


def free_steps(mode: str, texts: dict[str, str], mask_kind: str, mask_text: str, d_k: int | None,
               heads: int = 1) -> list[W.Step]:
    """Parse the free-mode inputs and run transformer.worked.attention_steps (ValueError on bad input).

    mode: "qkv" (Q, K, V) or "x" (X with W_Q, W_K, W_V; a blank W means identity)."""
    if mode == "qkv":
        Q, K, V = (parse_matrix(texts.get(n, ""), n) for n in ("Q", "K", "V"))
        t, s = Q.shape[0], K.shape[0]
        kwargs = dict(Q=Q, K=K, V=V)
    else:
        X = parse_matrix(texts.get("X", ""), "X")
        ws = {n: (parse_matrix(texts[n], n) if texts.get(n, "").strip() else None) for n in ("W_Q", "W_K", "W_V")}
        t = s = X.shape[0]
        kwargs = dict(X=X, **ws)
    mask: Any = None
    if mask_kind == "causal":
        mask = "causal"
    elif mask_kind == "custom":
        mask = parse_mask(mask_text, t, s)
    return W.attention_steps(heads=heads, d_k=d_k or None, mask=mask, **kwargs)
