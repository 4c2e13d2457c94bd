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
from typing import Any, Callable, Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from transformer.worked.examples import load_examples
from transformer.worked.graph import Step, WorkedResult
from transformer.worked.steps import attention_steps
from transformer.worked.wording import InputError
from viz import labels as L

# Fonts that carry Chinese, German and English glyphs, in order of preference (the browser picks
# the first it has); plotly's default (Open Sans) has no CJK glyphs.
FONT = ('"Noto Sans CJK SC", "Noto Sans SC", "Source Han Sans SC", "PingFang SC", '
        '"Microsoft YaHei", "WenQuanYi Micro Hei", "Open Sans", Arial, sans-serif')
BAD_CSS = "background-color: #f8d0d0; color: #8a0000; font-weight: bold"
GOOD_CSS = "background-color: #d8f0d8; color: #0b4d0b"
DIFF_CSS = "background-color: #fff1c2; font-weight: bold"  # a correct number the notes got wrong
MAX_FREE_SIZE = 12  # rows/columns a student may type in free mode


def style(fig: go.Figure, title: str | None = None, height: int | None = None) -> go.Figure:
    """Common layout: CJK-capable font, compact margins, PNG export kept in the modebar. The title
    is escaped (viz.labels): it may quote a token."""
    fig.update_layout(font=dict(family=FONT), margin=dict(l=10, r=10, t=50 if title else 20, b=10),
                      title=L.text(title) if title else None, hoverlabel=dict(font=dict(family=FONT)))
    if height:
        fig.update_layout(height=height)
    return L.upright_titles(fig)  # a Chinese vertical axis title stands upright


def fmt(x: float, digits: int = 4) -> str:
    """A number for a cell or a hover: -inf/inf spelled out, otherwise `digits` significant."""
    if isinstance(x, (bool, np.bool_)):
        return str(bool(x))
    x = float(x)
    special = L.special_number(x, nan="nan", inf="inf")
    return f"{x:.{digits}g}" if special is None else special


def matrix_heatmap(z: np.ndarray, x_labels: Sequence[str] | None = None, y_labels: Sequence[str] | None = None,
                   *, title: str | None = None, x_title: str = "", y_title: str = "", value_name: str = "value",
                   colorscale: str = "Viridis", zmid: float | None = None, text: bool = False,
                   height: int | None = None, digits: int = 6) -> go.Figure:
    """A heatmap on numeric axes with the labels as tick text, so repeated tokens ("the", "the")
    stay separate columns. Hover: row label, column label and the exact value. -inf cells are
    drawn empty and hover as "−inf". Labels and titles are escaped (viz.labels): a token "</s>"
    read as a tag would squeeze the plot into a sliver."""
    z = np.atleast_2d(np.asarray(z, dtype=np.float64))
    n_rows, n_cols = z.shape
    xl = L.texts(x_labels) if x_labels is not None else [str(j) for j in range(n_cols)]
    yl = L.texts(y_labels) if y_labels is not None else [str(i) for i in range(n_rows)]
    xt, yt, vn = L.text(x_title), L.text(y_title), L.text(value_name)
    shown = np.where(np.isfinite(z), z, np.nan)
    custom = np.empty((n_rows, n_cols, 3), dtype=object)
    for i in range(n_rows):
        for j in range(n_cols):
            custom[i, j] = (yl[i], xl[j], fmt(z[i, j], digits))
    fig = go.Figure(go.Heatmap(
        z=shown, x=list(range(n_cols)), y=list(range(n_rows)), customdata=custom, colorscale=colorscale,
        zmid=zmid, colorbar=dict(title=vn),
        text=[[fmt(v, 3) for v in row] for row in z] if text else None,
        texttemplate="%{text}" if text else None,
        hovertemplate=f"{yt or 'row'}: %{{customdata[0]}}<br>{xt or 'column'}: %{{customdata[1]}}"
                      f"<br>{vn}: %{{customdata[2]}}<extra></extra>"))
    # up to 60 labels are written out; beyond that plotly picks numeric ticks (the index)
    if n_cols <= 60:
        fig.update_xaxes(tickmode="array", tickvals=list(range(n_cols)), ticktext=xl)
    if n_rows <= 60:
        fig.update_yaxes(tickmode="array", tickvals=list(range(n_rows)), ticktext=yl)
    fig.update_xaxes(title=xt, side="top")
    fig.update_yaxes(title=yt, autorange="reversed")
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


def step_labels(step: Step, tokens: Sequence[str]) -> tuple[list[str] | None, list[str] | None]:
    """Row and column labels for a step's table: tokens for queries (rows) and keys (columns)."""
    a = np.atleast_2d(step.value)
    n_rows, n_cols = a.shape
    tokens = list(tokens or [])
    rows = tokens if tokens and np.ndim(step.value) == 2 and len(tokens) == n_rows else None
    cols = tokens if tokens and base_name(step.name) in _KEY_COLUMNS and len(tokens) == n_cols else None
    return rows, cols


def value_frame(step: Step, tokens: Sequence[str] = ()) -> pd.DataFrame:
    """A step's numbers as a table; a mask shows 1 (may attend) and 0 (masked), as typed in free
    mode, rather than True/False."""
    rows, cols = step_labels(step, tokens)
    value = step.value.astype(int) if step.value.dtype == bool else step.value
    return matrix_frame(value, rows, cols)


def claim_frame(step: Step, tokens: Sequence[str] = ()) -> pd.DataFrame | None:
    if step.claimed is None:
        return None
    rows, cols = step_labels(step, tokens)
    return matrix_frame(step.claimed, rows, cols)


def flag_mask(step: Step) -> np.ndarray | None:
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


def comparison_frame(step: Step, tokens: Sequence[str] = (), digits: int = 4) -> pd.DataFrame | None:
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


def summary_frame(res: WorkedResult, label: Callable[[Any], str], origin: Callable[[str | None], str],
                  title: Callable[[dict], str]) -> pd.DataFrame:
    """One row per step the notes print: verdict, wrong entries, where the error began (in words:
    no internal step names), then one row per other printed number checked. The words come from
    the caller: ``label(verdict)``, ``origin(step names)``, ``title({"en", "zh"})``."""
    rows = []
    for s in res.steps:
        if s.claimed is None:
            continue
        rows.append({"step": label(s.label), "verdict": s.verdict, "wrong": s.n_disagree,
                     "entries": int(s.agrees.size), "origin": origin(s.origin)})
    titles = {c.id: title(c.title) for c in res.checks}
    for c in res.checks:
        rows.append({"step": titles[c.id], "verdict": c.verdict, "wrong": c.n_disagree,
                     "entries": int(c.agrees.size), "origin": titles.get(c.origin, "") if c.origin else ""})
    return pd.DataFrame(rows, columns=["step", "verdict", "wrong", "entries", "origin"])


# --------------------------------------------------------------------------------------------
# Checks of the other printed numbers, statements, the notes' passage


def check_frames(check: Any, tokens: Sequence[str] = (), labels: Sequence[str] | None = None) -> dict[str, Any]:
    """A check laid out for the page (``labels``: its entries' labels in words, if it has any).

    A list (one entry per labelled claim) becomes one table: what is claimed, the notes' text,
    the recomputed number, and ``bad`` marks the wrong rows. A table (2-D) becomes the computed
    and the notes' tables with tokens on the axes the check names, plus the one-table comparison;
    ``bad`` marks the wrong cells."""
    value, claimed, ok = np.asarray(check.value), np.asarray(check.claimed), np.asarray(check.agrees)
    if value.ndim == 1:
        labels = list(labels or []) or [str(i) for i in range(value.size)]
        printed = check.printed
        shown = [str(printed[i]) if printed is not None else fmt(claimed[i], 6) for i in range(value.size)]
        df = pd.DataFrame({"what": labels, "notes": shown, "value": [fmt(v, 6) for v in value],
                           "ok": ["✅" if o else "❌" for o in ok]})
        bad = np.zeros(df.shape, dtype=bool)
        bad[:, 1] = ~ok
        return {"kind": "list", "frame": df, "bad": bad}
    tokens = list(tokens or [])
    rows = tokens if check.axes in ("tokens", "rows") and len(tokens) == value.shape[0] else None
    cols = tokens if check.axes == "tokens" and len(tokens) == value.shape[1] else None
    cells = [[fmt(value[i, j], 6) if ok[i, j] else f"{fmt(value[i, j], 6)} ≠ {fmt(claimed[i, j], 6)}"
              for j in range(value.shape[1])] for i in range(value.shape[0])]
    return {"kind": "table", "value": matrix_frame(value, rows, cols), "claimed": matrix_frame(claimed, rows, cols),
            "both": pd.DataFrame(cells, index=_unique(rows, value.shape[0]), columns=_unique(cols, value.shape[1])),
            "bad": ~ok}


def evidence_frame(ev: Any, names: dict[str, str]) -> pd.DataFrame:
    """A statement's computed evidence as a table, columns named in the page's language."""
    df = pd.DataFrame(ev.rows, columns=[names.get(c, c) for c in ev.columns])
    for col in df.columns:
        if (df[col] == df[col].round()).all() and df[col].abs().max() < 1e6:
            df[col] = df[col].astype(int)
    return df


def passage_text(excerpts: Sequence[str]) -> str:
    """The notes' own text of an example: its verbatim excerpts, separated by an ellipsis line."""
    return "\n\n……\n\n".join(excerpts)


# --------------------------------------------------------------------------------------------
# Editable inputs of a shipped example


def example_dict(example_id: str) -> dict:
    for e in load_examples()["examples"]:
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
        raise InputError("err_not_table", n=name) from None
    if frame.size == 0:
        raise InputError("err_table_empty", n=name)
    num = frame.apply(pd.to_numeric, errors="coerce")
    bad = num.isna() & frame.notna()
    if bad.to_numpy().any():
        i, j = np.argwhere(bad.to_numpy())[0]
        raise InputError("err_cell_not_number", n=name, i=i, j=j, v=repr(frame.iat[i, j]))
    if num.isna().to_numpy().any():
        i, j = np.argwhere(num.isna().to_numpy())[0]
        raise InputError("err_cell_empty", n=name, i=i, j=j)
    a = num.to_numpy(dtype=np.float64)
    if not np.isfinite(a).all():
        raise InputError("err_cells_not_finite", n=name)
    return a


def with_inputs(ex: dict, edited: dict[str, Any], name: Callable[[str], str] = str) -> dict:
    """A copy of the example with edited input tables put back (1-D inputs stay 1-D). Messages
    name an input as the page does (``name(key)``), never by its key in the examples file."""
    new = copy.deepcopy(ex)
    for key, df in edited.items():
        a = frame_to_matrix(df, name(key))
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
        raise InputError("err_text_empty", n=name)
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
                raise InputError("err_token_not_number", n=name, i=r + 1, v=repr(tok))
        rows.append(vals)
    widths = {len(r) for r in rows}
    if len(widths) != 1:
        raise InputError("err_ragged", n=name, v=str(sorted(widths)))
    a = np.asarray(rows, dtype=np.float64)
    if max(a.shape) > MAX_FREE_SIZE:
        raise InputError("err_too_big", n=name, a=a.shape[0], b=a.shape[1], m=MAX_FREE_SIZE)
    if not np.isfinite(a[~np.isneginf(a)]).all():
        raise InputError("err_numbers_too_large", n=name)
    return a


def parse_mask(text: str, t: int, s: int) -> np.ndarray:
    """A typed mask: 1/True = may attend, 0/False = masked, or an additive 0 / -inf matrix."""
    if text is None or not str(text).strip():
        raise InputError("err_mask_empty")
    words = str(text).replace("True", "1").replace("False", "0").replace("true", "1").replace("false", "0")
    a = parse_matrix(words, "mask", allow_neg_inf=True)
    if a.shape != (t, s):
        raise InputError("err_mask_shape", t=t, s=s, a=a.shape[0], b=a.shape[1])
    if np.isneginf(a).any():
        if not np.all((a == 0) | np.isneginf(a)):
            raise InputError("err_additive_mask")
        return a == 0
    if not np.all((a == 0) | (a == 1)):
        raise InputError("err_binary_mask")
    return a == 1


def free_steps(mode: str, texts: dict[str, str], mask_kind: str, mask_text: str, d_k: int | None,
               heads: int = 1) -> list[Step]:
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
    return attention_steps(heads=heads, d_k=d_k or None, mask=mask, **kwargs)
