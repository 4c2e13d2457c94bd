"""Masks: a padded batch, its padding / causal / combined masks (from transformer.core.masks), and one
row of scores before and after the softmax, masked with −inf (right) and with 0 (the notes'
step-12 mistake: e^0 = 1, so the "hidden" tokens still get weight).

A batch holds each sentence twice, as the model reads it: the encoder's side (pieces + </s>) and
the decoder's side under teacher forcing (<s> + pieces; the decoder never reads the </s> it is
trained to write). The padding mask of the encoder is built on the first, the combined
causal-and-padding mask of the decoder's self-attention on the second, so each mask is labelled
with the tokens it actually applies to. Every label drawn goes through viz.labels."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import torch
from plotly.subplots import make_subplots

from transformer.core import masks as M
from transformer.core.numeric import softmax
from transformer.core.text import TextError, clean_text, source_ids, target_ids
from viz import labels as L
from viz.worked import fmt, matrix_frame, matrix_heatmap, style

PAD_ID = 0
BOS_ID = 1
PAD_LABEL = "<pad>"
BOS_LABEL = "<s>"
MAX_SENTENCES = 8
MAX_TOKENS = 48


@dataclass
class Batch:
    ids: torch.Tensor  # (B,S) long: the encoder's input, pad_id after each sentence
    labels: list[list[str]]  # B lists of S labels, "<pad>" where padded
    lengths: list[int]  # real tokens per sentence (encoder side)
    truncated: list[int]  # indexes of sentences cut to MAX_TOKENS / the model's limit
    sentences: list[str]
    dec_ids: torch.Tensor  # (B,T) long: the decoder's input, <s> + pieces, then pad_id
    dec_labels: list[list[str]]  # B lists of T labels
    dec_lengths: list[int]
    pad_id: int = PAD_ID
    bos_id: int = BOS_ID


def _pad(rows: list[list[int]], labels: list[list[str]], pad_id: int):
    n = max(len(r) for r in rows)
    ids = torch.full((len(rows), n), pad_id, dtype=torch.long)
    for b, r in enumerate(rows):
        ids[b, : len(r)] = torch.tensor(r, dtype=torch.long)
    return ids, [lab + [PAD_LABEL] * (n - len(lab)) for lab in labels], [len(r) for r in rows]


def make_batch(text: str, tokenizer=None, max_len: int = MAX_TOKENS, *, pad_id: int = PAD_ID,
               bos_id: int = BOS_ID) -> Batch:
    """One sentence per line -> a padded batch, both sides. With a tokenizer: the encoder reads
    its pieces + </s> (transformer.core.text.source_ids), the decoder <s> + the target pieces
    (target_ids), labelled by tokenizer.display; without one: whitespace-split words, and the
    decoder reads "<s>" + the words. pad_id / bos_id are the model's (a converted Marian model
    starts decoding from <pad>). ValueError on no sentence at all."""
    lines = [ln for ln in str(text or "").splitlines() if ln.strip()]
    if not lines:
        raise ValueError("no sentence: type one sentence per line")
    if len(lines) > MAX_SENTENCES:
        raise ValueError(f"{len(lines)} sentences: at most {MAX_SENTENCES} here")
    limit = min(max_len, MAX_TOKENS)
    rows, labels, dec_rows, dec_labels, truncated, sentences = [], [], [], [], [], []
    for n, line in enumerate(lines):
        try:
            clean = clean_text(line)
        except TextError as e:
            raise ValueError(str(e)) from None
        sentences.append(clean)
        if tokenizer is not None:
            ids, cut = source_ids(tokenizer, clean, limit)
            labs = tokenizer.display(ids)
            tgt, cut_t = target_ids(tokenizer, clean, limit)
            dec = [bos_id] + list(tgt)
            dec_labs = tokenizer.display(dec)
        else:
            words = clean.split()
            cut = len(words) > limit
            words = words[:limit]
            vocab: dict[str, int] = {}
            base = max(pad_id, bos_id, 3) + 1  # any ids but pad and bos
            ids = [vocab.setdefault(w, base + len(vocab)) for w in words]
            labs = words
            cut_t = len(words) + 1 > limit
            dec = [bos_id] + ids[: limit - 1]
            dec_labs = [BOS_LABEL] + words[: limit - 1]
        if cut or cut_t:
            truncated.append(n)
        rows.append(list(ids))
        labels.append(list(labs))
        dec_rows.append(dec)
        dec_labels.append(list(dec_labs))
    ids, labels, lengths = _pad(rows, labels, pad_id)
    dec_ids, dec_labels, dec_lengths = _pad(dec_rows, dec_labels, pad_id)
    return Batch(ids, labels, lengths, truncated, sentences, dec_ids, dec_labels, dec_lengths,
                 pad_id, bos_id)


def padding_keep(batch: Batch) -> np.ndarray:
    """(B,S) True = real token (may be attended to), from transformer.core.masks.padding_mask."""
    return M.padding_mask(batch.ids, batch.pad_id)[:, 0, 0, :].numpy()


def causal_keep(length: int) -> np.ndarray:
    """(T,T) True on and below the diagonal."""
    return M.causal_mask(length)[0, 0].numpy()


def combined_keep(batch: Batch, b: int) -> np.ndarray:
    """(T,T) for sentence b on the decoder's side (<s> + pieces): causal AND padding, exactly
    transformer.core.masks.decoder_mask as the model calls it (with its start token)."""
    return M.decoder_mask(batch.dec_ids, batch.pad_id, batch.bos_id)[b, 0].numpy()


def padding_square(batch: Batch, b: int) -> np.ndarray:
    """(S,S) for sentence b on the encoder's side: the padding mask broadcast over queries
    (every row the same)."""
    keep = M.padding_mask(batch.ids, batch.pad_id)[b, 0]  # (1,S)
    return keep.expand(batch.ids.size(1), -1).numpy()


def mask_figure(keep: np.ndarray, row_labels: Sequence[str], col_labels: Sequence[str], *,
                title: str | None = None, x_title: str = "key", y_title: str = "query",
                keep_word: str = "may attend", masked_word: str = "masked",
                cell_text: Sequence[Sequence[str]] | None = None) -> go.Figure:
    """Two-colour matrix; hover names both tokens and says keep / masked. `cell_text` (optional,
    rows x columns) is written in the cells. Numeric axes with the tokens as tick text
    (matrix_heatmap), so a repeated token keeps its own row."""
    keep = np.asarray(keep, dtype=bool)
    fig = matrix_heatmap(keep.astype(float), col_labels, row_labels, title=title, x_title=x_title,
                         y_title=y_title, value_name="1 = " + keep_word,
                         height=max(260, 28 * keep.shape[0] + 140))
    rows, cols = L.texts(row_labels), L.texts(col_labels)
    words = np.where(keep, L.text(keep_word), L.text(masked_word))
    custom = np.empty(keep.shape + (3,), dtype=object)
    for i in range(keep.shape[0]):
        for j in range(keep.shape[1]):
            custom[i, j] = (rows[i], cols[j], words[i, j])
    fig.update_traces(customdata=custom, colorscale=[[0, "#d9d9d9"], [1, "#2a7ab9"]], zmin=0, zmax=1,
                      showscale=False, xgap=1, ygap=1,
                      hovertemplate=f"{L.text(y_title)}: %{{customdata[0]}}<br>{L.text(x_title)}: "
                                    f"%{{customdata[1]}}<br>%{{customdata[2]}}<extra></extra>")
    if cell_text is not None:
        fig.update_traces(text=[L.texts(r) for r in cell_text], texttemplate="%{text}")
    return fig


def padding_figure(batch: Batch, sentence_names: Sequence[str], *, x_title: str = "token",
                   y_title: str = "sentence", keep_word: str = "may attend",
                   masked_word: str = "masked") -> go.Figure:
    """The batch's padding mask, one row per sentence, each cell showing its token; hover:
    the sentence, 'position: token' and keep / masked."""
    pad = padding_keep(batch)
    B, S = pad.shape
    grid = [[f"{j}: {tok}" for j, tok in enumerate(row)] for row in batch.labels]
    fig = mask_figure(pad, [str(b + 1) for b in range(B)], [str(j) for j in range(S)],
                      x_title=x_title, y_title=y_title, keep_word=keep_word,
                      masked_word=masked_word, cell_text=batch.labels)
    names = L.texts(sentence_names)
    custom = np.empty(pad.shape + (3,), dtype=object)
    for b in range(B):
        for j in range(S):
            custom[b, j] = (names[b], L.text(grid[b][j]), L.text(keep_word if pad[b, j] else masked_word))
    fig.update_traces(customdata=custom)
    return fig


def frame(keep: np.ndarray, row_labels: Sequence[str], col_labels: Sequence[str]) -> pd.DataFrame:
    return matrix_frame(np.asarray(keep).astype(int), row_labels, col_labels)


def random_scores(n: int, seed: int, scale: float = 2.0) -> np.ndarray:
    """A seeded row of n scores (normal, std `scale`): stands in for q·k/√d_k."""
    return np.random.default_rng(seed).normal(0.0, scale, size=n)


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
    weight (right). Each bar is labelled with its exact value. Bars sit on numeric positions with
    the (escaped) tokens as tick text, so repeated tokens stay apart."""
    x = list(range(len(row)))
    keep = row["keep"].to_numpy()
    ticks = L.texts(labels)
    state = [L.text(keep_word) if k else L.text(masked_word) for k in keep]
    fig = make_subplots(rows=1, cols=3, subplot_titles=L.texts(titles), horizontal_spacing=0.06)
    cols = [("score", "#7f7f7f"), ("weight_inf", "#2a7ab9"), ("weight_zero", "#2a7ab9")]
    for c, (name, base) in enumerate(cols, start=1):
        y = row[name].to_numpy()
        colours = [base if k else ("#c0392b" if (c == 3 and v > 0) else "#bdbdbd") for k, v in zip(keep, y)]
        custom = np.stack([ticks, state, [fmt(v, 6) for v in y]], axis=1)
        fig.add_trace(go.Bar(x=x, y=y, marker_color=colours, customdata=custom, showlegend=False,
                             text=[fmt(v, 3) for v in y], textposition="outside", cliponaxis=False,
                             hovertemplate="%{customdata[0]} (%{customdata[1]})<br>%{customdata[2]}<extra></extra>"),
                      row=1, col=c)
        fig.update_xaxes(tickmode="array", tickvals=x, ticktext=ticks, row=1, col=c)
    fig.update_yaxes(range=[0, 1.12], row=1, col=2)
    fig.update_yaxes(range=[0, 1.12], row=1, col=3)
    return style(fig, None, 380)
