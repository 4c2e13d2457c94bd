"""Masks: a padded batch, its padding / causal / combined masks (from transformer.masks), and one
row of scores before and after the softmax, masked with −inf (right) and with 0 (the notes'
step-12 mistake: e^0 = 1, so the "hidden" tokens still get weight)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import torch
from plotly.subplots import make_subplots

from transformer import masks as M
from transformer.text import TextError, clean_text, source_ids
from viz.worked import fmt, matrix_heatmap, style

PAD_ID = 0
PAD_LABEL = "<pad>"
MAX_SENTENCES = 8
MAX_TOKENS = 48


@dataclass
class Batch:
    ids: torch.Tensor  # (B,S) long, PAD_ID after each sentence
    labels: list[list[str]]  # B lists of S labels, "<pad>" where padded
    lengths: list[int]  # real tokens per sentence
    truncated: list[int]  # indexes of sentences cut to MAX_TOKENS / the model's limit
    sentences: list[str]


def make_batch(text: str, tokenizer=None, max_len: int = MAX_TOKENS) -> Batch:
    """One sentence per line -> a padded batch. With a tokenizer: its pieces + </s> (as the
    encoder sees them); without: whitespace-split words. ValueError on no sentence at all."""
    lines = [ln for ln in str(text or "").splitlines() if ln.strip()]
    if not lines:
        raise ValueError("no sentence: type one sentence per line")
    if len(lines) > MAX_SENTENCES:
        raise ValueError(f"{len(lines)} sentences: at most {MAX_SENTENCES} here")
    limit = min(max_len, MAX_TOKENS)
    rows, labels, truncated, sentences = [], [], [], []
    for n, line in enumerate(lines):
        try:
            clean = clean_text(line)
        except TextError as e:
            raise ValueError(str(e)) from None
        sentences.append(clean)
        if tokenizer is not None:
            ids, cut = source_ids(tokenizer, clean, limit)
            labs = tokenizer.display(ids)
        else:
            words = clean.split()
            cut = len(words) > limit
            words = words[:limit]
            vocab: dict[str, int] = {}
            ids = [vocab.setdefault(w, 4 + len(vocab)) for w in words]  # any ids but PAD_ID
            labs = words
        if cut:
            truncated.append(n)
        rows.append(list(ids))
        labels.append(list(labs))
    S = max(len(r) for r in rows)
    ids = torch.full((len(rows), S), PAD_ID, dtype=torch.long)
    for b, r in enumerate(rows):
        ids[b, : len(r)] = torch.tensor(r, dtype=torch.long)
    lengths = [len(r) for r in rows]
    labels = [lab + [PAD_LABEL] * (S - len(lab)) for lab in labels]
    return Batch(ids, labels, lengths, truncated, sentences)


def padding_keep(batch: Batch) -> np.ndarray:
    """(B,S) True = real token (may be attended to), from transformer.masks.padding_mask."""
    return M.padding_mask(batch.ids, PAD_ID)[:, 0, 0, :].numpy()


def causal_keep(length: int) -> np.ndarray:
    """(T,T) True on and below the diagonal."""
    return M.causal_mask(length)[0, 0].numpy()


def combined_keep(batch: Batch, b: int) -> np.ndarray:
    """(T,T) for sentence b: causal AND padding (transformer.masks.decoder_mask)."""
    return M.decoder_mask(batch.ids, PAD_ID)[b, 0].numpy()


def padding_square(batch: Batch, b: int) -> np.ndarray:
    """(S,S) for sentence b: the padding mask broadcast over queries (every row the same)."""
    keep = M.padding_mask(batch.ids, PAD_ID)[b, 0]  # (1,S)
    return keep.expand(batch.ids.size(1), -1).numpy()


def mask_figure(keep: np.ndarray, row_labels: Sequence[str], col_labels: Sequence[str], *,
                title: str | None = None, x_title: str = "key", y_title: str = "query",
                keep_word: str = "may attend", masked_word: str = "masked") -> go.Figure:
    """Two-colour matrix; hover names both tokens and says keep / masked."""
    keep = np.asarray(keep, dtype=bool)
    fig = matrix_heatmap(keep.astype(float), col_labels, row_labels, title=title, x_title=x_title,
                         y_title=y_title, value_name="1 = " + keep_word,
                         height=max(260, 28 * keep.shape[0] + 140))
    words = np.where(keep, keep_word, masked_word)
    custom = np.empty(keep.shape + (3,), dtype=object)
    for i in range(keep.shape[0]):
        for j in range(keep.shape[1]):
            custom[i, j] = (row_labels[i], col_labels[j], words[i, j])
    fig.update_traces(customdata=custom, colorscale=[[0, "#d9d9d9"], [1, "#2a7ab9"]], zmin=0, zmax=1,
                      showscale=False, xgap=1, ygap=1,
                      hovertemplate=f"{y_title}: %{{customdata[0]}}<br>{x_title}: %{{customdata[1]}}"
                                    f"<br>%{{customdata[2]}}<extra></extra>")
    return fig


def frame(keep: np.ndarray, row_labels: Sequence[str], col_labels: Sequence[str]) -> pd.DataFrame:
    from viz.worked import matrix_frame

    return matrix_frame(np.asarray(keep).astype(int), row_labels, col_labels)


def random_scores(n: int, seed: int, scale: float = 2.0) -> np.ndarray:
    """A seeded row of n scores (normal, std `scale`): stands in for q·k/√d_k."""
    return np.random.default_rng(seed).normal(0.0, scale, size=n)


def softmax(x: np.ndarray) -> np.ndarray:
    x = np.asarray(x, dtype=np.float64)
    m = np.max(x)
    if not np.isfinite(m):
        return np.zeros_like(x)
    e = np.where(np.isneginf(x), 0.0, np.exp(x - m))
    return e / e.sum()


def masked_row(scores: np.ndarray, keep: np.ndarray) -> pd.DataFrame:
    """The row masked both ways and softmaxed. Columns: score, keep, masked_inf, weight_inf,
    masked_zero, weight_zero. weight_inf is exactly 0 where keep is False; weight_zero is not."""
    s = np.asarray(scores, dtype=np.float64)
    keep = np.asarray(keep, dtype=bool)
    m_inf = np.where(keep, s, -np.inf)
    m_zero = np.where(keep, s, 0.0)
    return pd.DataFrame({"score": s, "keep": keep, "masked_inf": m_inf, "weight_inf": softmax(m_inf),
                         "masked_zero": m_zero, "weight_zero": softmax(m_zero)})


def leak(row: pd.DataFrame) -> float:
    """Total weight the 0-masked softmax puts on tokens that should be hidden."""
    return float(row.loc[~row["keep"], "weight_zero"].sum())


def row_figure(row: pd.DataFrame, labels: Sequence[str], *, titles: Sequence[str] = (
        "scores (before softmax)", "masked with −inf → softmax", "masked with 0 → softmax"),
        keep_word: str = "may attend", masked_word: str = "masked") -> go.Figure:
    """Three bar charts side by side; masked positions drawn grey (left) or red when they get
    weight (right). Each bar is labelled with its exact value."""
    x = list(range(len(row)))
    keep = row["keep"].to_numpy()
    state = [keep_word if k else masked_word for k in keep]
    fig = make_subplots(rows=1, cols=3, subplot_titles=list(titles), horizontal_spacing=0.06)
    cols = [("score", "#7f7f7f"), ("weight_inf", "#2a7ab9"), ("weight_zero", "#2a7ab9")]
    for c, (name, base) in enumerate(cols, start=1):
        y = row[name].to_numpy()
        colours = [base if k else ("#c0392b" if (c == 3 and v > 0) else "#bdbdbd") for k, v in zip(keep, y)]
        custom = np.stack([list(labels), state, [fmt(v, 6) for v in y]], axis=1)
        fig.add_trace(go.Bar(x=x, y=y, marker_color=colours, customdata=custom, showlegend=False,
                             text=[fmt(v, 3) for v in y], textposition="outside", cliponaxis=False,
                             hovertemplate="%{customdata[0]} (%{customdata[1]})<br>%{customdata[2]}<extra></extra>"),
                      row=1, col=c)
        fig.update_xaxes(tickmode="array", tickvals=x, ticktext=list(labels), row=1, col=c)
    fig.update_yaxes(range=[0, 1.12], row=1, col=2)
    fig.update_yaxes(range=[0, 1.12], row=1, col=3)
    return style(fig, None, 380)
