"""One attention step as numbered tables, like the notes' worked examples, every number read from
the trace of a real forward pass (transformer.probing.inspect.Inspected; names in docs/INTERFACES.md).

`query_steps` follows one query i of one head: q_i, every k_j, q_i·k_j, ÷√d_k, + mask, exp, the
softmax weight, each v_j times its weight, the sum z_i. `matrix_steps` is the same for the whole
head at once; `combine_steps` the concatenation over heads and W_O; `add_norm` and `ffn` the rest
of the layer; `top_k` the decoder's next-token probabilities. Column names are mathematical
symbols (the same in every UI language); the pages supply the words.

The exp column is exp(s_ij − max_j s_ij): subtracting the row's largest score changes no weight
(it cancels in the softmax's ratio) and keeps exp from overflowing. The weights themselves are
the trace's `weights`, not recomputed.
"""
from __future__ import annotations

import html
import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from transformer.core.names import Trace, stack_of
from transformer.core.numeric import softmax
from viz import labels as L
from viz.tokens import unique_labels

DOT, SCALED, MASK, MASKED, SHIFTED, EXP, WEIGHT = (
    "q_i·k_j", "q_i·k_j / √d_k", "M_ij", "s_ij", "s_ij − max", "exp(s_ij − max)", "α_ij")
SUM = "Σ"


@dataclass
class StepTable:
    """One shown step of the Step-by-step page: a table and the key of its title and explanation
    (not transformer.worked's Step, one computed step of a worked example)."""

    key: str  # names the step's title/explanation in ui/strings/step.py
    table: pd.DataFrame
    args: dict = field(default_factory=dict)  # numbers quoted in the explanation (d_k, max, ...)


def labels(tokens) -> list[str]:
    """'3: the': position and token, so repeated words stay distinct rows."""
    return [f"{j}: {t}" for j, t in enumerate(tokens)]


def _trace(ins) -> Trace:
    tr = ins.trace
    return tr if isinstance(tr, Trace) else Trace(tr)


def _np(x) -> np.ndarray:
    return x[0].detach().cpu().double().numpy()  # drop the batch dimension


def _read(ins, accessor: str, *args):
    """`Trace.<accessor>(*args)` of the inspection's trace; a missing key says which."""
    try:
        return getattr(_trace(ins), accessor)(*args)
    except KeyError as e:
        name = e.args[0] if e.args else ""
        raise KeyError(f"the trace has no '{name}' (is this layer/kind in the model?)") from None


def _t(ins, kind: str, layer: int, name: str) -> np.ndarray:
    """One attention's recorded tensor (Trace.get), batch dimension dropped, as float64."""
    return _np(_read(ins, "get", kind, layer, name))


def _l(ins, stack: str, layer: int, name: str) -> np.ndarray:
    """What a layer records outside its attention (Trace.layer), batch dropped, as float64."""
    return _np(_read(ins, "layer", stack, layer, name))


def _dims(n: int, prefix: str = "") -> list[str]:
    return [f"{prefix}{c}" for c in range(n)]


def n_layers(ins, kind: str) -> int:
    return _trace(ins).n_layers(kind)


def _head(ins, kind: str, layer: int, head: int) -> dict[str, np.ndarray]:
    out = {name: _t(ins, kind, layer, name)[head]
           for name in ("q", "k", "v", "scores", "scaled", "masked", "weights", "head_out")}
    out["mask"] = _t(ins, kind, layer, "mask")[head].astype(bool)
    return out


def query_steps(ins, kind: str, layer: int, head: int, i: int) -> list[StepTable]:
    """The ten numbered steps for query position i (rows of every table but the first and the
    last are the keys j)."""
    h = _head(ins, kind, layer, head)
    q_tokens, k_tokens = ins.queries_keys(kind)
    if not 0 <= i < len(q_tokens):
        raise IndexError(f"query position {i} outside 0..{len(q_tokens) - 1}")
    qi_label = labels(q_tokens)[i]
    keys = labels(k_tokens)
    d_k = h["q"].shape[-1]
    q_i = h["q"][i]
    mask_val = np.where(h["mask"][i], 0.0, -np.inf)
    masked = h["masked"][i]
    finite = np.isfinite(masked)
    row_max = float(masked[finite].max()) if finite.any() else float("nan")
    shifted = np.where(finite, masked - (row_max if finite.any() else 0.0), -np.inf)
    e = np.where(finite, np.exp(np.where(finite, shifted, 0.0)), 0.0)
    w = h["weights"][i]
    weighted = w[:, None] * h["v"]  # (S,1) * (S,dk)
    z_sum = weighted.sum(0)

    def col(values: dict, total: str | None = None) -> pd.DataFrame:
        df = pd.DataFrame(values, index=keys)
        if total:
            df.loc[SUM] = [np.nan] * (len(df.columns) - 1) + [df[total].sum()]
        return df

    return [
        StepTable("q", pd.DataFrame([q_i], index=[qi_label], columns=_dims(d_k)),
             {"d_k": d_k, "query": qi_label}),
        StepTable("k", pd.DataFrame(h["k"], index=keys, columns=_dims(d_k)), {"n": len(keys)}),
        StepTable("dot", col({DOT: h["scores"][i]})),
        StepTable("scale", col({DOT: h["scores"][i], SCALED: h["scaled"][i]}),
             {"d_k": d_k, "sqrt_d_k": math.sqrt(d_k)}),
        StepTable("mask", col({SCALED: h["scaled"][i], MASK: mask_val, MASKED: masked}),
             {"n_masked": int((~h["mask"][i]).sum())}),
        StepTable("exp", col({MASKED: masked, SHIFTED: shifted, EXP: e}, total=EXP),
             {"max": row_max, "sum_exp": float(e.sum())}),
        StepTable("softmax", col({EXP: e, WEIGHT: w}, total=WEIGHT), {"sum": float(w.sum())}),
        StepTable("v", pd.DataFrame(h["v"], index=keys, columns=_dims(d_k))),
        StepTable("weighted", pd.DataFrame(weighted, index=[f"α·v  {k}" for k in keys],
                                      columns=_dims(d_k))),
        StepTable("z", pd.DataFrame([z_sum, h["head_out"][i]],
                               index=["Σ_j α_ij v_j", "z_i = head_out"], columns=_dims(d_k)),
             {"max_diff": float(np.abs(z_sum - h["head_out"][i]).max())}),
    ]


def query_summary(ins, kind: str, layer: int, head: int, i: int) -> StepTable:
    """Steps 3 to 7 of `query_steps` in ONE table, the page's short default: one row per key j
    with q_i·k_j, ÷√d_k, the mask, exp(s_ij − max) and the weight α_ij, and a Σ row for the last
    two. Numbers are the same as the numbered steps' (computed by `query_steps`)."""
    by_key = {s.key: s for s in query_steps(ins, kind, layer, head, i)}
    mask, exp, soft = by_key["mask"].table, by_key["exp"].table, by_key["softmax"].table
    rows = list(exp.index)  # the keys, then Σ
    df = pd.DataFrame({DOT: by_key["dot"].table[DOT], SCALED: mask[SCALED], MASK: mask[MASK],
                       EXP: exp[EXP], WEIGHT: soft[WEIGHT]}).reindex(rows)  # Σ: exp and α
    z = by_key["z"]
    return StepTable("summary", df, {**by_key["scale"].args, **by_key["exp"].args,
                                "n_masked": by_key["mask"].args["n_masked"],
                                "sum": by_key["softmax"].args["sum"], "z": z.table,
                                "max_diff": z.args["max_diff"]})


# -- how tables look: full labels, 4 decimals, shaded by value --------------------------------
WEIGHT_RGB = (31, 119, 180)  # blue: a weight (0..1) or a positive number
NEG_RGB = (214, 39, 40)  # red: a negative number


def cell_text(v, digits: int = 4) -> str:
    """A table cell as shown: 4 decimals; an empty cell (NaN, None) blank, never 'None' or
    'nan'; the mask's −∞ as the symbol."""
    if v is None:
        return ""
    if isinstance(v, (int, np.integer)) and not isinstance(v, bool):
        return str(int(v))
    if isinstance(v, (float, np.floating)):
        f = float(v)
        special = L.special_number(f, nan="", inf="∞")
        if special is not None:
            return special
        text = f"{f:.{digits}f}"
        # a tiny negative number rounds to "-0.0000": show it as 0 (the sign of nothing)
        return text[1:] if text.startswith("-") and not text.strip("-0.") else text
    return str(v)


def shade_css(values, mode: str, scale: float | None = None) -> np.ndarray:
    """CSS per cell. mode 'weight': blue with opacity = the value (0..1), for weights and exp;
    'signed': blue for positive, red for negative, opacity |v| / `scale` (default: the block's
    largest |v|), for scores and vectors. Blank for NaN and ±∞; white text on dark cells."""
    a = np.asarray(values, dtype=np.float64)
    out = np.full(a.shape, "", dtype=object)
    fin = np.isfinite(a)
    if mode == "weight":
        alpha = np.clip(np.where(fin, a, 0.0), 0.0, 1.0) * 0.85
    elif mode == "signed":
        if scale is None:
            scale = float(np.abs(a[fin]).max()) if fin.any() else 0.0
        alpha = np.abs(np.where(fin, a, 0.0)) / scale * 0.8 if scale > 0 else np.zeros(a.shape)
    else:
        raise ValueError(f"mode must be 'weight' or 'signed', got {mode!r}")
    for idx in zip(*np.nonzero(fin)):
        r, g, b = NEG_RGB if (mode == "signed" and a[idx] < 0) else WEIGHT_RGB
        al = float(alpha[idx])
        out[idx] = (f"background-color: rgba({r}, {g}, {b}, {al:.3f})"
                    + ("; color: white" if al > 0.5 else ""))
    return out


def _largest_abs(df: pd.DataFrame, cols) -> float:
    """The largest finite |v| of these columns, Σ row left out (the 'signed' colour scale)."""
    a = df.drop(index=SUM, errors="ignore")[cols].to_numpy(dtype=np.float64)
    fin = np.isfinite(a)
    return float(np.abs(a[fin]).max()) if fin.any() else 0.0


def shaded(df: pd.DataFrame, modes: dict | str = "signed", digits: int = 4,
           per_column: bool = False, scale_from: pd.DataFrame | None = None):
    """A pandas Styler of `df`: every number through `cell_text`, cells shaded by `shade_css`.
    `modes` is one mode for every numeric column or {mode: [columns]}; columns not named are not
    shaded. Columns of a mode share one colour scale (a matrix reads as a whole), or each has its
    own with `per_column` (a table whose columns are different quantities, like q·k and q·k/√d_k).
    `scale_from`: the whole table when `df` is a window of its rows (`row_window`), so that a
    cell's shade is the one it has in the whole matrix, not in the rows shown.
    Styler.background_gradient is not used: it needs matplotlib, which is not installed."""
    num = [c for c in df.columns if pd.api.types.is_numeric_dtype(df[c])]
    groups = {modes: num} if isinstance(modes, str) else modes
    rows = [r for r in df.index if r != SUM]  # a Σ row is a check, not a value: unshaded
    whole = df if scale_from is None else scale_from
    sty = df.style.format(lambda v: cell_text(v, digits), subset=num or None, na_rep="")
    for mode, cols in groups.items():
        cols = [c for c in cols if c in num]
        for block_cols in ([[c] for c in cols] if per_column else [cols] if cols else []):
            scale = _largest_abs(whole, block_cols) if mode == "signed" else None
            sty = sty.apply(lambda block, m=mode, sc=scale: pd.DataFrame(
                shade_css(block.to_numpy(dtype=np.float64), m, sc), index=block.index,
                columns=block.columns), axis=None, subset=(rows, block_cols))
    return sty


MAX_ROWS = 48  # rows shown of a table whose rows are the queries (a long sentence's whole head)


def row_window(n: int, focus: int, max_rows: int | None = None) -> tuple[int, int]:
    """The rows [start, stop) shown of an n-row table: all when n <= max_rows, else max_rows rows
    around `focus` (the query followed), moved inward at either end. Why: a 512-token sentence's
    Add & Norm table has 512 x 514 cells, over pandas Styler's limit (262,144: Streamlit refuses
    it) and tens of seconds to shade; the page's heatmap still draws every row. `max_rows`
    defaults to MAX_ROWS, read at each call (bench/step_page.py times the page without a window)."""
    max_rows = MAX_ROWS if max_rows is None else max_rows
    if n <= max_rows:
        return 0, n
    focus = min(max(focus, 0), n - 1)
    start = min(max(focus - max_rows // 2, 0), n - max_rows)
    return start, start + max_rows


def split_sum(df: pd.DataFrame) -> tuple[pd.DataFrame, dict[str, float]]:
    """A table without its Σ row, and the Σ row's values (only the summed columns). Why: a Σ row
    has numbers only under the summed columns, and st.dataframe draws an empty number cell as
    'None' whatever the Styler says; the page shows the sums as a line under the table."""
    if SUM not in df.index:
        return df, {}
    row = df.loc[SUM]
    sums = {str(c): float(v) for c, v in row.items()
            if isinstance(v, (int, float, np.floating, np.integer)) and not math.isnan(float(v))}
    return df.drop(index=SUM), sums


def column_widths(df: pd.DataFrame, digits: int = 4, px_per_char: int = 8,
                  pad: int = 28) -> dict[str, int]:
    """Pixel widths so that no header, row label or number is cut ('10: because', not
    '10: becau'): each column as wide as its longest header or cell text; '_index' for the row
    labels (Streamlit's name for the index column)."""
    out = {"_index": pad + px_per_char * max([len(str(x)) for x in df.index] + [1])}
    for c in df.columns:
        texts = [cell_text(v, digits) for v in df[c].tolist()] + [str(c)]
        out[str(c)] = pad + px_per_char * max(len(x) for x in texts)
    return out


def matrix_steps(ins, kind: str, layer: int, head: int) -> list[StepTable]:
    """The same head for all queries at once: QK^T, ÷√d_k, + mask, softmax, × V."""
    h = _head(ins, kind, layer, head)
    q_tokens, k_tokens = ins.queries_keys(kind)
    rows, cols = labels(q_tokens), labels(k_tokens)
    d_k = h["q"].shape[-1]
    return [
        StepTable("m_scores", pd.DataFrame(h["scores"], index=rows, columns=cols)),
        StepTable("m_scaled", pd.DataFrame(h["scaled"], index=rows, columns=cols),
             {"d_k": d_k, "sqrt_d_k": math.sqrt(d_k)}),
        StepTable("m_masked", pd.DataFrame(h["masked"], index=rows, columns=cols)),
        StepTable("m_weights", pd.DataFrame(h["weights"], index=rows, columns=cols)),
        StepTable("m_out", pd.DataFrame(h["head_out"], index=rows, columns=_dims(d_k))),
    ]


def combine_steps(ins, kind: str, layer: int) -> list[StepTable]:
    """Concat over heads (columns 'h{head}.{dim}') and the W_O projection."""
    concat, out = _t(ins, kind, layer, "concat"), _t(ins, kind, layer, "output")
    n_heads = _t(ins, kind, layer, "weights").shape[0]
    d_k = concat.shape[-1] // n_heads
    rows = labels(ins.queries_keys(kind)[0])
    cols = [f"h{h}.{c}" for h in range(n_heads) for c in range(d_k)]
    return [StepTable("concat", pd.DataFrame(concat, index=rows, columns=cols),
                 {"heads": n_heads, "d_k": d_k, "d_model": concat.shape[-1]}),
            StepTable("w_o", pd.DataFrame(out, index=rows, columns=_dims(out.shape[-1])),
                 {"d_model": out.shape[-1]})]


def sublayer_index(kind: str) -> int:
    """residual{n}/norm{n} of the attention kind: 1 self-attention, 2 the decoder's cross."""
    return 2 if kind == "cross" else 1


def add_norm(ins, kind: str, layer: int, n: int | None = None, *,
             norm_first: bool = False) -> StepTable:
    """Add & Norm of sublayer n (default: the attention's): residual x + sublayer(x), and the
    LayerNorm's row mean, std (sqrt(var + eps), population variance) and result. `norm_first` is
    the model config's (pre-LN normalises the sublayer's input, not the residual sum); it is read
    from the config, never guessed from the numbers."""
    stack = stack_of(kind)
    n = sublayer_index(kind) if n is None else n
    res = _np(_read(ins, "residual", stack, layer, n))
    stats = _read(ins, "norm_stats", stack, layer, n)
    mean, std, out = (_np(stats[x]) for x in ("mean", "std", "output"))
    pre_ln = bool(norm_first)
    rows = labels(ins.queries_keys(kind)[0])
    d = res.shape[-1]
    df = pd.DataFrame(np.concatenate([res, mean[:, None], std[:, None], out], axis=1), index=rows,
                      columns=[f"x+f(x) {c}" for c in range(d)] + ["μ", "σ"] +
                      [f"LN {c}" for c in range(d)])
    return StepTable("add_norm", df, {"n": n, "pre_ln": pre_ln, "d_model": d})


ACTIVATION_NAMES = {"relu": "ReLU", "gelu": "GELU", "silu": "swish"}  # the model config's names


def ffn(ins, kind: str, layer: int, i: int, activation: str = "relu") -> StepTable:
    """The layer's feed-forward network at position i: hidden before and after its activation
    (the model config's: ReLU, the paper's; GELU; or swish = SiLU, Marian's), output. The key is
    "ffn_<activation>", so the page describes the function the model really uses."""
    if activation not in ACTIVATION_NAMES:
        raise ValueError(f"unknown activation {activation!r}")
    pre, post, out = (_l(ins, stack_of(kind), layer, f"ffn.{x}")[i]
                      for x in ("hidden_pre", "hidden", "output"))
    df = pd.DataFrame([pre, post], index=["W_1 x + b_1", f"{ACTIVATION_NAMES[activation]}(·)"],
                      columns=_dims(pre.shape[-1]))
    return StepTable(f"ffn_{activation}", df, {
        "d_ff": pre.shape[-1], "zeroed": int((post == 0).sum()), "negative": int((post < 0).sum()),
        "out": pd.DataFrame([out], index=["W_2 h + b_2"], columns=_dims(out.shape[-1]))})


def top_k(ins, display, i: int, k: int = 10) -> pd.DataFrame:
    """The decoder's next-token distribution at target position i: top k by probability.
    `display(ids) -> labels` (Tokenizer.display)."""
    logits = _np(_read(ins, "__getitem__", "logits"))[i]
    probs = softmax(logits)
    top = np.argsort(-probs, kind="stable")[:k]
    return pd.DataFrame({"token": display([int(t) for t in top]), "id": top.astype(int),
                         "logit": logits[top], "p": probs[top]})


def top_k_figure(df: pd.DataFrame, title: str = "", x_title: str = "p"):
    """Horizontal bars of a `top_k` table, most likely on top; hover gives the exact value."""

    names = unique_labels([html.escape(str(s), quote=False) for s in df["token"]])
    fig = go.Figure(go.Bar(x=df["p"], y=names, orientation="h", marker_color="#1f77b4",
                           text=[f"{p:.3f}" for p in df["p"]], textposition="auto",
                           hovertemplate="%{y}: %{x:.4f}<extra></extra>"))
    fig.update_yaxes(autorange="reversed", type="category", automargin=True)
    fig.update_xaxes(range=[0, 1], title=x_title)
    fig.update_layout(title=html.escape(title), height=int(80 + 28 * len(df)),
                      margin=dict(l=10, r=10, t=40, b=10))
    return fig
