"""The two-sentence (minimal pair) view: two sentences one word apart, one head's row from the
pronoun in each, and whether the head's strongest word moved.

Pure functions (no Streamlit): word lists and (queries, keys) matrices in, plain values and plotly
figures out. The page (pages/pair.py, ui/pair_view.py) builds the matrices with viz.tokens.view
(pieces merged into words) and passes them here.

* `diff_words`: a word-level diff of two word lists (difflib), the changed positions on each side,
  the aligned unchanged ones, and whether the two are a minimal pair (one word replaced, nothing
  else);
* `pronoun_row`: the row a pronoun lesson reads (viz.tokens.lesson_query): the English pronoun
  ("it", "its") for encoder self-attention, the word before the German pronoun (er / sie / es) for
  the decoder kinds; None when there is no pronoun (never a guessed row). For masked decoder
  self-attention the keys after the row (weight exactly 0, masked) are dropped;
* `verdict`: did the strongest word move between the two rows ("moves"), stay on the same word
  ("same"), or sit on the changed word in both ("changed")?
* `row_figure`: one row as horizontal bars over the key words, the strongest bar dark, the words
  that differ between the two sentences orange and marked ◆ in their labels.
"""
from __future__ import annotations

import difflib
from typing import NamedTuple, Sequence

import numpy as np
import plotly.graph_objects as go

from . import labels as L
from .tokens import PRONOUNS_DE, PRONOUNS_EN, lesson_query, unique_labels

MARK = "◆"  # marks a changed word in labels (the sentence display uses the same sign)
BAR = "#9ecae1"  # a plain key word
STRONGEST = "#08519c"  # the strongest key word
CHANGED = "#fd8d3c"  # a word that differs between the two sentences
CHANGED_STRONGEST = "#d94801"  # ... and is the strongest


class WordDiff(NamedTuple):
    a: list[int]  # positions in `a` of words that are not in `b` (replaced or deleted)
    b: list[int]  # positions in `b` of words that are not in `a` (replaced or inserted)
    pairs: dict[int, int]  # unchanged words: position in a -> position in b
    minimal: bool  # exactly one word replaced by one other, nothing else changed
    same: bool  # the two word lists are equal


def diff_words(a: Sequence[str], b: Sequence[str]) -> WordDiff:
    """Word-level diff of two word lists (compared exactly, case included)."""
    a, b = [str(w) for w in a], [str(w) for w in b]
    sm = difflib.SequenceMatcher(None, a, b, autojunk=False)
    ca: list[int] = []
    cb: list[int] = []
    pairs: dict[int, int] = {}
    changes = []
    for op, i1, i2, j1, j2 in sm.get_opcodes():
        if op == "equal":
            pairs.update({i1 + k: j1 + k for k in range(i2 - i1)})
        else:
            changes.append((i2 - i1, j2 - j1))
            ca += range(i1, i2)
            cb += range(j1, j2)
    return WordDiff(ca, cb, pairs, changes == [(1, 1)], not changes)


def sentence_words(text: str) -> list[str]:
    """The words of a typed sentence as the pair display shows them (split on whitespace)."""
    return str(text).split()


class Row(NamedTuple):
    query: int  # the row's position among the (merged) query words
    query_word: str  # its label: "it", or the German word before the pronoun
    pronoun: str  # the pronoun that makes it the lesson's row: "it" / "its", or "er" / "sie" / "es"
    weights: np.ndarray  # (keys,) the row's weights over the key words shown
    labels: list[str]  # the key words shown (for masked decoder self: up to the row itself)
    strongest: int  # position (in labels) of the largest weight


def pronoun_row(matrix, q_labels: Sequence[str], k_labels: Sequence[str], kind: str,
                q_special: Sequence[bool] | None = None) -> Row | None:
    """The pronoun lesson's row of one head's (queries, keys) matrix, or None when the sentence
    (encoder self: the English source; decoder kinds: the model's German output) has no pronoun.
    The strongest word is the first largest weight (argmax)."""
    m = np.asarray(matrix.detach().cpu().numpy() if hasattr(matrix, "detach") else matrix,
                   dtype=np.float64)
    if m.ndim != 2 or m.shape != (len(q_labels), len(k_labels)):
        raise ValueError(f"matrix {m.shape} does not match labels "
                         f"({len(q_labels)}, {len(k_labels)})")
    if not len(q_labels) or not len(k_labels):
        return None
    low = [str(w).strip().lower() for w in q_labels]
    row = lesson_query(q_labels, kind, q_special)
    if kind == "encoder_self":
        if low[row] not in PRONOUNS_EN:
            return None
        pronoun = str(q_labels[row]).strip()
    else:
        if row + 1 >= len(low) or low[row + 1] not in PRONOUNS_DE:
            return None
        pronoun = str(q_labels[row + 1]).strip()
    n_keys = row + 1 if kind == "decoder_self" else len(k_labels)  # masked keys dropped
    w = m[row, :n_keys].copy()
    return Row(row, str(q_labels[row]), pronoun, w, [str(k) for k in k_labels[:n_keys]],
               int(np.argmax(w)))


class Verdict(NamedTuple):
    code: str  # "same": one word in both; "changed": the changed word in both; "moves"
    a: str  # the strongest word in A
    b: str  # ... in B


ARTICLES = frozenset({"the", "a", "an", "der", "die", "das", "den", "dem", "des", "ein", "eine",
                      "einen", "einem", "einer"})


def phrase(labels: Sequence[str], i: int) -> str:
    """The strongest word as a reader names it: an article with the word after it ("The animal"),
    because a head that lands on the article has found the noun phrase."""
    w = str(labels[i])
    if w.strip().lower() in ARTICLES and i + 1 < len(labels):
        return f"{w} {labels[i + 1]}"
    return w


def verdict(row_a: Row, row_b: Row) -> Verdict:
    """Did the head's strongest word move? Words are matched through the word-level diff of the
    two rows' key words, so a word at another position (a sentence one word longer) is still the
    same word, and two equal words at different places ("the" ... "the") are not. An article is
    named with its noun ("The animal -> the street")."""
    d = diff_words(row_a.labels, row_b.labels)
    i, j = row_a.strongest, row_b.strongest
    wa, wb = phrase(row_a.labels, i), phrase(row_b.labels, j)
    if d.pairs.get(i) == j:
        return Verdict("same", wa, wb)
    if i in d.a and j in d.b:
        return Verdict("changed", wa, wb)
    return Verdict("moves", wa, wb)


def marked(labels: Sequence[str], changed: Sequence[int]) -> list[str]:
    """Labels with the changed ones marked: 'tired' -> '◆ tired' (not escaped)."""
    ch = set(changed)
    return [f"{MARK} {w}" if i in ch else str(w) for i, w in enumerate(labels)]


def row_figure(weights, labels: Sequence[str], *, changed: Sequence[int] = (),
               strongest: int | None = None, title: str = "", x_title: str = "",
               query: str = "", x_max: float | None = None, digits: int = 4,
               height: int | None = None) -> go.Figure:
    """One attention row as horizontal bars, one per key word, top to bottom in sentence order.
    Labels '3 animal' (position and word, escaped); a changed word '10 ◆ tired', its bar orange;
    the strongest bar dark and its label bold. Hover: 'it → 1 animal: 0.43'. `x_max` lets two
    figures share one scale."""
    w = np.asarray(weights.detach().cpu().numpy() if hasattr(weights, "detach") else weights,
                   dtype=np.float64).reshape(-1)
    if len(labels) != w.size:
        raise ValueError(f"{len(labels)} labels for {w.size} weights")
    if strongest is None and w.size:
        strongest = int(np.argmax(w))
    ch = set(changed)
    ys = unique_labels(L.positioned(marked(labels, ch)))  # escaped once
    colours = [(CHANGED_STRONGEST if i == strongest else CHANGED) if i in ch else
               (STRONGEST if i == strongest else BAR) for i in range(w.size)]
    tick = [f"<b>{y}</b>" if i == strongest else y for i, y in enumerate(ys)]
    q = L.text(query) + " → " if query else ""
    fig = go.Figure(go.Bar(
        x=np.round(w, digits), y=ys, orientation="h", marker=dict(color=colours),
        texttemplate="%{x:.2f}", textposition="outside", cliponaxis=False,
        hovertemplate=q + "%{y}: %{x:.3f}<extra></extra>"))
    top = float(x_max if x_max is not None else (w.max() if w.size else 1.0))
    fig.update_xaxes(title=L.text(x_title), range=[0, max(top, 1e-6) * 1.18], zeroline=True)
    fig.update_yaxes(type="category", autorange="reversed", tickmode="array", tickvals=ys,
                     ticktext=tick, automargin=True)
    fig.update_layout(title=L.text(title), showlegend=False, bargap=0.25,
                      height=height or int(min(900, max(260, 26 * w.size + 130))),
                      margin=dict(l=10, r=20, t=50 if title else 20, b=10))
    return fig
