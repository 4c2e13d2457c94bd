"""Attention over tokens, re-viewed: subword pieces merged into words, special tokens hidden.

Both views are pure functions over a (..., queries, keys) matrix (a single head, or a whole
(layers, heads, queries, keys) stack) and the token labels of its two axes; they return a new
matrix and new labels and never modify their inputs.

Rules (stated on the pages too):
* merge: a word's weight as a key is the SUM of its pieces' weights (what a query gives to the
  word); a word's row as a query is the MEAN of its pieces' rows (so each row still sums to 1),
  except the rows named in ``last_piece_rows``: on the decoder side, the word just before a German
  pronoun keeps the row of its LAST piece, the input that writes the pronoun, so the row that
  decides er / sie / es is never averaged away (``pronoun_writers`` finds them);
* hide specials: rows and columns of special tokens (<s>, </s>, <pad>, <unk>) are removed and
  each remaining row is divided by what is left of its sum, so it sums to 1 again; a row whose
  whole weight went to specials stays all zeros (never NaN).
"""
from __future__ import annotations

import re
from typing import NamedTuple, Sequence

import numpy as np

SPECIAL_LABELS = frozenset({"<pad>", "<s>", "</s>", "<unk>"})


class TokenView(NamedTuple):
    matrix: np.ndarray  # (..., queries, keys)
    q_labels: list[str]
    k_labels: list[str]
    q_special: list[bool]  # per row: is it a special token
    k_special: list[bool]


def _array(m) -> np.ndarray:
    if hasattr(m, "detach"):  # torch
        m = m.detach().cpu().numpy()
    a = np.asarray(m, dtype=np.float64)
    if a.ndim < 2:
        raise ValueError(f"attention matrix must have at least 2 dimensions (queries, keys), got {a.shape}")
    return a


def _check_groups(groups: Sequence[Sequence[int]], n: int, axis: str) -> list[list[int]]:
    flat = [p for g in groups for p in g]
    if sorted(flat) != list(range(n)) or any(len(g) == 0 for g in groups):
        raise ValueError(f"{axis} groups must partition positions 0..{n - 1} (got {list(map(list, groups))})")
    return [list(g) for g in groups]


def merge_words(m, q_tokens: Sequence[str], k_tokens: Sequence[str],
                q_groups: Sequence[Sequence[int]], k_groups: Sequence[Sequence[int]],
                q_words: Sequence[str] | None = None, k_words: Sequence[str] | None = None,
                q_special: Sequence[bool] | None = None,
                k_special: Sequence[bool] | None = None,
                last_piece_rows: Sequence[int] = ()) -> TokenView:
    """Merge subword pieces into words: keys summed within a word, queries averaged within a word
    (the query words in `last_piece_rows` take their last piece's row instead).

    `*_groups` are the positions of each word (e.g. `Tokenizer.words(ids)`); `*_words` the word
    labels (e.g. `Tokenizer.word_strings(ids)`), else the pieces' labels joined."""
    a = _array(m)
    nq, nk = a.shape[-2:]
    if len(q_tokens) != nq or len(k_tokens) != nk:
        raise ValueError(f"labels ({len(q_tokens)}, {len(k_tokens)}) do not match the matrix's "
                         f"(queries, keys) = ({nq}, {nk})")
    qg = _check_groups(q_groups, nq, "query")
    kg = _check_groups(k_groups, nk, "key")
    cols = np.stack([a[..., [p for p in g]].sum(-1) for g in kg], axis=-1)  # (..., Q, Wk)
    keep = set(last_piece_rows)
    out = np.stack([cols[..., g[-1], :] if w in keep else cols[..., g, :].mean(-2)
                    for w, g in enumerate(qg)], axis=-2)  # (..., Wq, Wk)
    qs = _specials(q_tokens, q_special)
    ks = _specials(k_tokens, k_special)
    return TokenView(
        out,
        list(q_words) if q_words is not None else ["".join(q_tokens[p] for p in g) for g in qg],
        list(k_words) if k_words is not None else ["".join(k_tokens[p] for p in g) for g in kg],
        [all(qs[p] for p in g) for g in qg], [all(ks[p] for p in g) for g in kg])


def _specials(tokens: Sequence[str], flags: Sequence[bool] | None) -> list[bool]:
    if flags is not None:
        if len(flags) != len(tokens):
            raise ValueError(f"{len(flags)} special flags for {len(tokens)} tokens")
        return [bool(f) for f in flags]
    return [t in SPECIAL_LABELS for t in tokens]


def hide_specials(m, q_tokens: Sequence[str], k_tokens: Sequence[str],
                  q_special: Sequence[bool] | None = None,
                  k_special: Sequence[bool] | None = None) -> TokenView:
    """Drop special tokens' rows and columns and renormalise each remaining row to sum to 1.

    Specials are given by flags, else recognised by their display labels (<s>, </s>, ...)."""
    a = _array(m)
    nq, nk = a.shape[-2:]
    if len(q_tokens) != nq or len(k_tokens) != nk:
        raise ValueError(f"labels ({len(q_tokens)}, {len(k_tokens)}) do not match the matrix's "
                         f"(queries, keys) = ({nq}, {nk})")
    qs, ks = _specials(q_tokens, q_special), _specials(k_tokens, k_special)
    qi = [i for i in range(nq) if not qs[i]]
    ki = [j for j in range(nk) if not ks[j]]
    sub = a[..., qi, :][..., ki]  # (..., Q', K')
    total = sub.sum(-1, keepdims=True)
    out = np.divide(sub, total, out=np.zeros_like(sub), where=total > 0)
    return TokenView(out, [q_tokens[i] for i in qi], [k_tokens[j] for j in ki],
                     [False] * len(qi), [False] * len(ki))


def view(m, q_tokens: Sequence[str], k_tokens: Sequence[str], *, merge: bool = False,
         hide: bool = False, q_groups=None, k_groups=None, q_words=None, k_words=None,
         q_special=None, k_special=None, last_piece_rows: Sequence[int] = ()) -> TokenView:
    """Both toggles in the order the pages use: merge into words first (a special token is a
    word of its own), then hide specials. `last_piece_rows`: see `merge_words`."""
    a = _array(m)
    qs, ks = _specials(q_tokens, q_special), _specials(k_tokens, k_special)
    v = TokenView(a, list(q_tokens), list(k_tokens), qs, ks)
    if merge:
        if q_groups is None or k_groups is None:
            raise ValueError("merging into words needs the word groups of both axes")
        v = merge_words(a, q_tokens, k_tokens, q_groups, k_groups, q_words, k_words, qs, ks,
                        last_piece_rows)
    if hide:
        v = hide_specials(v.matrix, v.q_labels, v.k_labels, v.q_special, v.k_special)
    return v


MAX_TOKEN_BUTTONS = 40  # more words than this: a list instead of a row of buttons
PRONOUNS_EN = ("it", "its")
PRONOUNS_DE = ("er", "sie", "es")  # the nominatives; is_pronoun_de knows every form
_POSSESSIVE_ENDINGS = ("", "e", "en", "em", "er", "es")
_EDGE_PUNCT = ".,;:!?\"'()«»„“”‚‘’"


def strip_edge(word: str) -> str:
    """The word without the punctuation a sentence attaches to it ("es." -> "es")."""
    return str(word).strip().strip(_EDGE_PUNCT)


def _bare(word: str) -> str:
    return strip_edge(word).lower()


def is_pronoun_en(word: str) -> bool:
    """"it" / "its", also with punctuation attached ("it." "its,")."""
    return _bare(word) in PRONOUNS_EN


def is_pronoun_de(word: str) -> bool:
    """A German third-person pronoun form that shows its antecedent's gender: er, sie, es, ihn,
    ihm, ihnen, and the possessives sein- / ihr- with any ending; punctuation attached counts
    ("es." "ihn,")."""
    w = _bare(word)
    return (w in ("er", "sie", "es", "ihn", "ihm", "ihnen")
            or (w.startswith("sein") and w[4:] in _POSSESSIVE_ENDINGS)
            or (w.startswith("ihr") and w[3:] in _POSSESSIVE_ENDINGS))


def pronoun_writers(q_words: Sequence[str]) -> list[int]:
    """Decoder-side query words directly before a German pronoun: the inputs that write it."""
    return [i - 1 for i, w in enumerate(q_words) if i > 0 and is_pronoun_de(w)]


def lesson_query(labels: Sequence[str], kind: str, special: Sequence[bool] | None = None) -> int:
    """The query row a lesson starts from: the pronoun when the sentence has one, else the first
    token that is not special (0 when all are).

    Encoder self-attention: the row of the English pronoun ("it"). Decoder kinds: the row of the
    token BEFORE the German pronoun (er / sie / es), because the decoder input at position p is
    what writes the output at p + 1: that row is where the model decides which pronoun to write.
    Labels are compared lower-cased, stripped of spaces and of punctuation at their edges, so a
    merged word ("it", "es."), a one-piece token and every German form (ihn, ihm, seinen, ihre)
    match."""
    flags = _specials(labels, special)
    if kind == "encoder_self":
        hits = [i for i, w in enumerate(labels) if is_pronoun_en(w)]
    else:
        hits = pronoun_writers(labels)
    if hits:
        return hits[0]
    return next((i for i, f in enumerate(flags) if not f), 0)


def lesson_position(words: Sequence[str], groups: Sequence[Sequence[int]], kind: str,
                    special: Sequence[bool] | None = None) -> int:
    """`lesson_query` for a page that shows subword pieces: the pronoun is found among the
    WORDS (a pronoun split into pieces is still found), and the row returned is a piece
    position: the pronoun's first piece (encoder), or the last piece before the German
    pronoun, the input that writes its first piece (decoder kinds)."""
    if len(words) != len(groups):
        raise ValueError(f"{len(words)} words for {len(groups)} groups")
    w = lesson_query(words, kind, special)
    if kind != "encoder_self" and w + 1 < len(words) and is_pronoun_de(words[w + 1]):
        return groups[w + 1][0] - 1
    return groups[w][0] if groups else 0


_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$:])")


def escape_markdown(text: str) -> str:
    """A label for widgets that render Markdown (st.pills, st.radio): every Markdown character
    backslash-escaped, so a token like `**` or `<b>` shows as itself."""
    return _MD_SPECIAL.sub(r"\\\1", str(text))


def unique_labels(labels: Sequence[str]) -> list[str]:
    """Labels made distinct for plotly's category axes (which merge equal names) by appending
    zero-width spaces to repeats: 'the', 'the' -> 'the', 'the\\u200b'. They look the same."""
    used: set[str] = set()
    out = []
    for lab in labels:
        cand = str(lab) or " "
        while cand in used:
            cand += "\u200b"
        used.add(cand)
        out.append(cand)
    return out
