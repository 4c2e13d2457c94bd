"""Decoding, step by step: the tables and figures of the Decode page.

Pure functions over numbers the core already computed (logits, attention weights, token ids);
nothing here runs a model or imports Streamlit.

Step t of a decoded output is position t of the final teacher-forced pass over [BOS] + tokens
(`DecodeResult.trace`): row t of `logits` is the next-token distribution the decoder had when it
chose token t, row t of the decoder's self-attention weights is what that step looked at among
[BOS] + tokens[:t], row t of the cross-attention weights what it looked at in the source (the
cached, incremental computation gives the same numbers: tests/test_decode.py holds it).
"""
from __future__ import annotations

import html
import inspect
import math
from typing import Callable, Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from transformer.core import numeric
from transformer.core.names import Trace
from transformer.data import tasks as data

from . import labels as L

CHOSEN_COLOR = "#d62728"
OTHER_COLOR = "#1f77b4"
OK_COLOR = "#2ca02c"
MAX_TOPK = 50
METHODS = ("greedy", "beam", "sample")


# -- numbers ------------------------------------------------------------------------------------
def _np(a) -> np.ndarray:
    if hasattr(a, "detach"):
        a = a.detach().cpu().numpy()
    return np.asarray(a, dtype=np.float64)


def softmax(logits) -> np.ndarray:
    """Softmax over the last axis in float64, stable (max subtracted); -inf entries get 0.
    Takes torch tensors too."""
    return numeric.softmax(_np(logits))


def sampling_probs(logits, temperature: float, top_k: int = 0) -> np.ndarray:
    """The distribution `transformer.core.decode.sample` draws from: softmax(logits / T) over the
    top_k largest logits (ties at the k-th value kept), zero elsewhere."""
    check_sampling(temperature, top_k)
    z = _np(logits) / temperature
    if top_k:
        kth = np.sort(z)[::-1][min(top_k, z.size) - 1]
        z = np.where(z < kth, -np.inf, z)
    return softmax(z)


def check_sampling(temperature: float, top_k: int) -> None:
    if not (isinstance(temperature, (int, float)) and math.isfinite(temperature)
            and temperature > 0):
        raise ValueError(f"temperature must be > 0 (got {temperature})")
    if not isinstance(top_k, (int, np.integer)) or top_k < 0:
        raise ValueError(f"top-k must be an integer >= 0 (got {top_k})")


def validate(method: str, *, beam: int = 4, alpha: float = 0.6, temperature: float = 1.0,
             top_k: int = 0, shown_k: int = 10) -> list[tuple[str, dict]]:
    """Problems with the decoding settings as (string key, format values) for the page to
    translate; empty when the settings can run. Widgets already bound these; a link or a stale
    session state might not."""
    out: list[tuple[str, dict]] = []
    if method not in METHODS:
        out.append(("bad_method", {"m": method}))
    if method == "beam":
        if not isinstance(beam, (int, np.integer)) or beam < 1:
            out.append(("bad_beam", {"v": beam}))
        if not (isinstance(alpha, (int, float)) and math.isfinite(alpha) and alpha >= 0):
            out.append(("bad_alpha", {"v": alpha}))
    if method == "sample":
        if not (isinstance(temperature, (int, float)) and math.isfinite(temperature)
                and temperature > 0):
            out.append(("bad_temperature", {"v": temperature}))
        if not isinstance(top_k, (int, np.integer)) or top_k < 0:
            out.append(("bad_top_k", {"v": top_k}))
    if not isinstance(shown_k, (int, np.integer)) or not 1 <= shown_k <= MAX_TOPK:
        out.append(("bad_shown_k", {"v": shown_k, "max": MAX_TOPK}))
    return out


def length_penalty(length: int, alpha: float) -> float:
    """GNMT's lp(Y) = ((5 + |Y|) / 6)^alpha (the same rule as transformer.core.decode)."""
    return ((5.0 + length) / 6.0) ** alpha


def beam_score_parts(n_tokens: int, normalised: float, alpha: float, finished: bool) -> dict:
    """Undo the normalisation of a beam result: |Y| counts the final </s> when the hypothesis
    ended with it; raw = log P(Y|X) = normalised * lp(|Y|)."""
    length = n_tokens + (1 if finished else 0)
    lp = length_penalty(length, alpha)
    return {"length": length, "lp": lp, "raw": normalised * lp, "normalised": normalised,
            "alpha": alpha}


# -- references ---------------------------------------------------------------------------------
SYMBOL_TASKS = ("copy", "reverse", "sort")


def task_alphabet(task: str, task_opts: dict | None = None) -> list[str]:
    """The symbols a copy/reverse/sort checkpoint was trained on, in the task's order
    (transformer.data.tasks.symbols of the run's `vocab` option, else the generator's default)."""

    default = inspect.signature(data.TASKS[task]).parameters["vocab"].default
    vocab = (task_opts or {}).get("vocab", default)
    try:
        return data.symbols(vocab)
    except ValueError:  # a hand-edited or uploaded config: the task would not have run with it
        return data.symbols(default)


def task_options(train_config: dict | None) -> dict:
    """The run's --task-opt values (config.json "train" -> "extra" -> "task_opts"), {} when absent
    or malformed."""
    extra = (train_config or {}).get("extra") if isinstance(train_config, dict) else None
    opts = extra.get("task_opts") if isinstance(extra, dict) else None
    return opts if isinstance(opts, dict) else {}


def task_reference(task: str | None, text: str, task_opts: dict | None = None) -> str | None:
    """The correct output of a synthetic symbol task for `text`, by the task's own definition
    (transformer.data.tasks.TASKS): copy repeats the words, reverse reverses them, sort orders them by
    their index in the task's alphabet (a..z, then aa, ab, ...: not alphabetical once the
    vocabulary passes 26). Words outside the alphabet, which the task never produces, keep their
    order after the known ones. None for other tasks (no rule to compute a reference from)."""
    words = text.split()
    if task == "copy":
        return " ".join(words)
    if task == "reverse":
        return " ".join(reversed(words))
    if task == "sort":
        order = {w: i for i, w in enumerate(task_alphabet(task, task_opts))}
        return " ".join(sorted(words, key=lambda w: order.get(w, len(order))))  # stable
    return None


# -- tables -------------------------------------------------------------------------------------
SPACE_PIECE = "\u2581"  # "▁": a piece that is only SentencePiece's space mark (Tokenizer.display)


def name_space(labels: Sequence[str], space: str = "(space)") -> list[str]:
    """Display labels with the lone space mark "▁" written as `space`: drawn as itself it is a
    thin line at the baseline, a blank bar or cell that a reader cannot make out."""
    return [space if lab == SPACE_PIECE else lab for lab in labels]


def tick_angle(labels: Sequence[str], room: float = 380.0, size: float = 12.0) -> int:
    """0 (level) when the labels fit side by side in about `room` px, else -45. A single short
    label such as <s> turned 45 degrees looks like an icon."""
    width = sum(L.text_width(str(x), size) + 14 for x in labels)
    return 0 if width <= room else -45


def topk_table(logits_row, display: Callable[[list[int]], list[str]], k: int,
               chosen: int | None = None, probs=None) -> pd.DataFrame:
    """The k most probable next tokens of one step: rank, token, id, probability, chosen.
    `probs` overrides softmax(logits_row) (e.g. the sampling distribution)."""
    p = softmax(logits_row) if probs is None else _np(probs)
    k = max(1, min(int(k), p.size))
    top = np.argsort(-p, kind="stable")[:k]
    ids = [int(i) for i in top]
    return pd.DataFrame({"rank": np.arange(1, k + 1), "token": display(ids), "id": ids,
                         "p": p[top], "chosen": [i == chosen for i in ids]})


def format_p(p: float) -> str:
    """A probability that stays readable however small: 3 decimals from 0.01 up (0.412),
    scientific notation with 2 significant digits below (3.2e-05), "0" for exactly 0. A trained
    model gives its runners-up tiny probabilities, which 2 decimals all wrote as 0.00."""
    p = float(p)
    if p == 0:
        return "0"
    return f"{p:.3f}" if p >= 0.01 else f"{p:.1e}"


def steps_table(logits, out_ids: Sequence[int], display: Callable[[list[int]], list[str]],
                alternatives: int = 3) -> pd.DataFrame:
    """One row per decoding step: the token written, its probability, and the runners-up with
    their probabilities (format_p). `out_ids` are the tokens written at each step (the generated
    tokens, then </s> if the output ended with it); logits (>= len(out_ids), V)."""
    p = softmax(logits)
    rows = []
    for t, tok in enumerate(out_ids):
        order = [int(i) for i in np.argsort(-p[t], kind="stable")[:alternatives + 1]]
        others = [i for i in order if i != tok][:alternatives]
        labels = display(others)
        rows.append({"step": t, "token": display([int(tok)])[0], "p": float(p[t, tok]),
                     "rank": int((p[t] > p[t, tok]).sum()) + 1,
                     "runners_up": ", ".join(f"{lab} {format_p(p[t, i])}"
                                             for lab, i in zip(labels, others))})
    return pd.DataFrame(rows, columns=["step", "token", "p", "rank", "runners_up"])


def step_attention(trace: dict, kind: str, layer: int, t: int) -> np.ndarray:
    """Row t of one decoder attention, every head: (H, keys). kind "cross": keys are the source
    tokens; "decoder_self": keys are [BOS] + tokens[:t] (the later ones are masked)."""
    if kind not in ("cross", "decoder_self"):
        raise KeyError(kind)
    w = _np(_as_trace(trace).get(kind, layer, "weights"))[0]  # (B,H,T,S) -> (H,T,S)
    if not 0 <= t < w.shape[1]:
        raise ValueError(f"step {t} outside 0..{w.shape[1] - 1}")
    row = w[:, t, :]  # (H,S)
    return row[:, :t + 1] if kind == "decoder_self" else row


def _as_trace(trace: dict) -> Trace:
    """The page's plain dict of numpy arrays (ui/decode_compute) read through Trace's accessors."""
    return trace if isinstance(trace, Trace) else Trace(trace)


def n_decoder_layers(trace: dict) -> int:
    return _as_trace(trace).n_layers("cross")


def teacher_forcing_table(tf_logits, target_out: Sequence[int], free_out: Sequence[int],
                          display: Callable[[list[int]], list[str]]) -> pd.DataFrame:
    """Teacher forcing versus free generation, position by position.

    tf_logits (T, V): a pass over [BOS] + target pieces; row i predicts target_out[i]
    (target_out = target pieces + </s>). free_out: what free generation wrote (+ </s> if it ended).
    Columns: position, target, tf_top (the teacher-forced top prediction), tf_top_p, p_target
    (probability given to the correct token), tf_ok, free (free generation's token at i, '' past
    its end), free_ok, diverged (True from the first position where free generation left the
    target: after that its prefix differs, so its later tokens answer a different question)."""
    p = softmax(tf_logits)
    n = max(len(target_out), len(free_out))
    rows, gone = [], False
    for i in range(n):
        tgt = int(target_out[i]) if i < len(target_out) else None
        row = {"position": i, "target": display([tgt])[0] if tgt is not None else ""}
        if tgt is not None:
            top = int(np.argmax(p[i]))
            row.update(tf_top=display([top])[0], tf_top_p=float(p[i, top]),
                       p_target=float(p[i, tgt]), tf_ok=top == tgt)
        else:
            row.update(tf_top="", tf_top_p=np.nan, p_target=np.nan, tf_ok=False)
        fr = int(free_out[i]) if i < len(free_out) else None
        row["free"] = display([fr])[0] if fr is not None else ""
        row["free_ok"] = fr is not None and fr == tgt
        gone = gone or not row["free_ok"]
        row["diverged"] = gone
        rows.append(row)
    cols = ["position", "target", "tf_top", "tf_top_p", "p_target", "tf_ok", "free", "free_ok",
            "diverged"]
    return pd.DataFrame(rows, columns=cols)


def first_divergence(table: pd.DataFrame) -> int | None:
    d = table.index[table["diverged"]].tolist()
    return int(table.loc[d[0], "position"]) if d else None


def highlight_rows(table: pd.DataFrame, columns: dict[str, str] | None = None):
    """A pandas Styler (no matplotlib needed) that colours free generation's cells red where it
    differs from the target and teacher forcing's cells where its top guess is wrong."""
    shown = table.rename(columns=columns) if columns else table
    names = columns or {c: c for c in table.columns}
    bad = "background-color: rgba(214, 39, 40, 0.25)"
    good = "background-color: rgba(44, 160, 44, 0.18)"

    def colour(row):
        i = row.name
        out = []
        for c in table.columns:
            if c in ("free",):
                out.append(good if table.loc[i, "free_ok"] else bad)
            elif c in ("tf_top",):
                out.append(good if table.loc[i, "tf_ok"] else bad)
            else:
                out.append("")
        return out

    sty = shown.style.apply(colour, axis=1)
    fmt = {names[c]: "{:.3f}" for c in ("tf_top_p", "p_target") if c in names}
    return sty.format(fmt, na_rep="")


# -- figures ------------------------------------------------------------------------------------
def _labels(labels: Sequence[str]) -> list[str]:
    """Escaped for plotly, made unique (plotly merges equal category names)."""
    used: set[str] = set()
    out = []
    for lab in labels:
        cand = html.escape(str(lab), quote=False) or " "
        while cand in used:
            cand += "\u200b"
        used.add(cand)
        out.append(cand)
    return out


def topk_figure(table: pd.DataFrame, *, title: str = "", x_title: str = "p",
                height: int | None = None, rank_word: str = "rank") -> go.Figure:
    """Horizontal bars, most probable at the top, the chosen token in red, p written on each."""
    ys = _labels([f"{t}" for t in table["token"]])
    colors = [CHOSEN_COLOR if c else OTHER_COLOR for c in table["chosen"]]
    fig = go.Figure(go.Bar(
        x=table["p"], y=ys, orientation="h", marker_color=colors,
        text=[f"{p:.3f}" for p in table["p"]], textposition="outside", cliponaxis=False,
        customdata=np.stack([table["id"], table["rank"]], -1),
        hovertemplate="%{y} (id %{customdata[0]}, " + L.text(rank_word) + " %{customdata[1]}): p = %{x:.4f}"
                      "<extra></extra>"))
    xmax = float(min(1.0, max(table["p"].max() * 1.25, 0.05)))
    fig.update_layout(title=title, height=height or int(120 + 26 * len(table)),
                      margin=dict(l=10, r=30, t=50 if title else 20, b=10), showlegend=False)
    fig.update_xaxes(title=x_title, range=[0, xmax])
    fig.update_yaxes(autorange="reversed", type="category", automargin=True)
    return fig


def heads_keys_figure(m, head_labels: Sequence[str], key_labels: Sequence[str], *,
                      title: str = "", x_title: str = "", y_title: str = "",
                      digits: int = 2, max_text: int = 24) -> go.Figure:
    """One decoding step's attention: rows are heads (and maybe their mean), columns the keys,
    the weight written in each cell. m (H, K)."""
    a = _np(m)
    if a.shape != (len(head_labels), len(key_labels)):
        raise ValueError(f"labels ({len(head_labels)}, {len(key_labels)}) do not match {a.shape}")
    xs, ys = _labels(key_labels), _labels(head_labels)
    tr = go.Heatmap(z=np.round(a, 4), x=xs, y=ys, colorscale="Blues", zmin=0, zmax=1, xgap=1,
                    ygap=1, hovertemplate="%{y} → %{x}: %{z:.4f}<extra></extra>")
    if len(key_labels) <= max_text:
        tr.update(texttemplate="%{z:." + str(digits) + "f}", textfont={"size": 10})
    fig = go.Figure(tr)
    fig.update_layout(title=title, height=int(150 + 34 * len(head_labels)),
                      margin=dict(l=10, r=10, t=50 if title else 20, b=10))
    fig.update_xaxes(title=x_title, type="category", tickangle=tick_angle(key_labels),
                     automargin=True, tickmode="array", tickvals=xs, ticktext=xs)
    fig.update_yaxes(title=y_title, type="category", autorange="reversed", automargin=True)
    return L.upright_titles(fig)


def teacher_forcing_figure(table: pd.DataFrame, *, title: str = "", y_title: str = "",
                           ok_name: str = "top guess = target",
                           bad_name: str = "top guess ≠ target",
                           free_name: str = "free generation differs", top_word: str = "top",
                           wrote_word: str = "free generation wrote") -> go.Figure:
    """p(target token) at each position under teacher forcing: green where the model's top
    guess is the target, red where not; an x above the positions where free generation wrote
    something else."""
    t = table[table["target"] != ""]
    xs = _labels([f"{i}: {w}" for i, w in zip(t["position"], t["target"])])
    fig = go.Figure()
    for ok, name, color in ((True, ok_name, OK_COLOR), (False, bad_name, CHOSEN_COLOR)):
        sel = (t["tf_ok"] == ok).to_numpy()
        fig.add_bar(x=[x for x, s in zip(xs, sel) if s], y=t["p_target"][sel], name=name,
                    marker_color=color,
                    customdata=np.stack([L.texts(t["tf_top"][sel]), t["tf_top_p"][sel]], -1)
                    if sel.any() else None,
                    hovertemplate="%{x}: p = %{y:.3f}<br>" + L.text(top_word) + ": %{customdata[0]} "
                                  "(%{customdata[1]:.3f})<extra></extra>")
    miss = ~t["free_ok"].to_numpy()
    if miss.any():
        fig.add_scatter(x=[x for x, s in zip(xs, miss) if s], y=[1.06] * int(miss.sum()),
                        mode="markers", marker=dict(symbol="x", size=11, color="black"),
                        name=free_name, text=L.texts(t["free"][miss]),
                        hovertemplate="%{x}: " + L.text(wrote_word) + " %{text}<extra></extra>")
    fig.update_layout(title=title, barmode="overlay", height=360,
                      margin=dict(l=10, r=10, t=50 if title else 20, b=10),
                      legend=dict(orientation="h", y=-0.35))
    fig.update_xaxes(type="category", categoryorder="array", categoryarray=xs, tickangle=-45)
    fig.update_yaxes(title=y_title, range=[0, 1.12])
    return L.upright_titles(fig)


GUESS_COLOR = "#ff7f0e"
MIDDLE_COLOR = "#9e9e9e"  # not sure, not guessing


def certainty_figure(words: Sequence[str], probs: Sequence[float], *, unsure: float,
                     sure: float | None = None, y_title: str = "p", sure_name: str = "sure",
                     middle_name: str = "not sure", guess_name: str = "guess") -> go.Figure:
    """One bar per output word, as high as the probability the model gave it (the product of its
    pieces'), orange under `unsure` (a guess); with `sure`, blue at or above it and grey in
    between (`middle_name`), else blue at or above `unsure`; a dashed line at each threshold.
    The probability is written on each bar, so the chart reads without hovering."""
    if len(words) != len(probs):
        raise ValueError(f"{len(words)} words but {len(probs)} probabilities")
    xs = _labels(words)
    top = unsure if sure is None else sure
    bands = [(lambda p: p >= top, sure_name, OTHER_COLOR)]
    if sure is not None:
        bands.append((lambda p: unsure <= p < sure, middle_name, MIDDLE_COLOR))
    bands.append((lambda p: p < unsure, guess_name, GUESS_COLOR))
    fig = go.Figure()
    for inside, name, color in bands:
        sel = [inside(p) for p in probs]
        fig.add_bar(x=[x for x, s in zip(xs, sel) if s], y=[p for p, s in zip(probs, sel) if s],
                    name=name, marker_color=color,
                    text=[f"{p:.2f}" for p, s in zip(probs, sel) if s], textposition="outside",
                    cliponaxis=False, hovertemplate="%{x}: p = %{y:.3f}<extra></extra>")
    for y in (unsure,) if sure is None else (unsure, sure):
        fig.add_hline(y=y, line_dash="dash", line_color="#888")
    fig.update_layout(barmode="overlay", height=260, margin=dict(l=10, r=10, t=20, b=10),
                      legend=dict(orientation="h", y=-0.45), bargap=0.3)
    fig.update_xaxes(type="category", categoryorder="array", categoryarray=xs, tickangle=-45)
    fig.update_yaxes(title=y_title, range=[0, 1.15])
    return L.upright_titles(fig)
