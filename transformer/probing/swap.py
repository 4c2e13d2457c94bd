"""The swap test: does the German pronoun follow one encoder head's output at "it"?

Why: switching a head off (zeroing it) shows whether a model *needs* the head, but a model can
need a head for reasons other than the antecedent. The swap asks the sharper question of a
minimal pair: translate sentence A with the head's output at A's "it" replaced by its output at
B's "it" (B differs in the one word that decides the antecedent). If the pronoun's choice runs
through the head, A's translation now carries B's pronoun ("... weil sie zu müde war" for the
tired animal); if the decoder decides elsewhere, nothing changes. This is activation patching
(interchange intervention, Geiger et al., 2021; Vig et al., 2020) on a named head, the
measurement of what transformer/probing/interchange.py trains.

Only pairs whose two reference pronouns differ in gender are tested (swapping two "es" tells
nothing). Greedy decoding, as the app shows it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import torch

from transformer.core import trace
from transformer.core.decode import greedy_batch, pad_right
from transformer.core.masks import padding_mask
from transformer.core.names import Head
from transformer.core.text import source_ids
from transformer.probing.heads import word_pieces
from transformer.probing.pairs import pair_groups
from transformer.probing.probe_items import ProbeItem
from transformer.probing.pronouns import pronoun_class, pronoun_hit


@dataclass
class Swapped:
    """One sentence translated with its partner's head output at "it"."""

    text: str
    partner: str
    translation: str  # with the swap
    flipped: bool  # the translation shows the partner's pronoun (and not only its own)


def swap_translate(model, tokenizer, texts: Sequence[str], partners: Sequence[int],
                   words: Sequence[int], head: Head) -> list[str] | None:
    """Greedy translations of `texts`, each with `head`'s output at its word `words[i]` (the
    pronoun) replaced by the output at text partners[i]'s pronoun. None when the head is not
    an encoder self-attention head of this model or a pronoun word has no piece."""
    cfg = model.cfg
    if head.kind != "encoder_self" or head.layer >= cfg.n_encoder_layers or head.head >= cfg.n_heads:
        return None
    ids = [source_ids(tokenizer, t, cfg.max_len)[0] for t in texts]
    qs = [(word_pieces(tokenizer, x[:-1], w) or [None])[0] for x, w in zip(ids, words)]
    if any(q is None for q in qs):
        return None
    point = trace.point(head.path, "head_out")
    src = pad_right(model, ids)  # (B,S)
    with torch.inference_mode(), trace.record() as rec:
        model.encode(src, padding_mask(src, cfg.pad_id))
    own = rec[point][:, head.head]  # (B,H,S,dk) -> (B,S,dk): every sentence's own output
    moved = torch.stack([own[p, qs[p]] for p in partners])  # (B,dk): each partner's at its "it"

    def put(x: torch.Tensor) -> torch.Tensor:
        x = x.clone()
        x[torch.arange(len(qs)), head.head, torch.tensor(qs)] = moved.to(x.device, x.dtype)
        return x

    with trace.intervene({point: put}):
        out = greedy_batch(model, ids)
    return [tokenizer.decode(o) for o in out]


def swap_test(model, tokenizer, items: Sequence[ProbeItem], head: Head) -> dict | None:
    """Swap the head's output at "it" within every minimal pair whose reference pronouns differ.
    Of the sentences whose pronoun is right without the swap, the share whose translation then
    shows the partner's pronoun instead (`flip_rate`); of the pairs right both ways, the share
    flipped both ways (`pairs_flipped`); the first swapped translations. None when there is
    nothing to test."""
    groups = [(i, j) for i, j in pair_groups(items)
              if items[i].target and items[j].target and items[i].tgt_pronoun is not None
              and items[j].tgt_pronoun is not None
              and pronoun_class(items[i].target.split()[items[i].tgt_pronoun])
              != pronoun_class(items[j].target.split()[items[j].tgt_pronoun])]
    if not groups:
        return None
    order = [k for g in groups for k in g]  # a1, b1, a2, b2, ...
    partners = [k ^ 1 for k in range(len(order))]  # row 2n <-> row 2n+1
    texts = [items[k].text for k in order]
    hyps = swap_translate(model, tokenizer, texts, partners, [items[k].pronoun for k in order], head)
    if hyps is None:
        return None
    with torch.inference_mode():
        plain = [tokenizer.decode(o) for o in greedy_batch(
            model, [source_ids(tokenizer, t, model.cfg.max_len)[0] for t in texts])]
    rows, right = [], []
    for r, hyp in enumerate(hyps):
        mine, other = items[order[r]], items[order[partners[r]]]
        flipped = bool(pronoun_hit(hyp, other.target, None)) and not pronoun_hit(hyp, mine.target, None)
        rows.append(Swapped(mine.text, other.text, hyp, flipped))
        right.append(bool(pronoun_hit(plain[r], mine.target, None)))
    # flips counted where the model was right without the swap: a wrong pronoun that "flips"
    # to the partner's was the partner's already
    flips = [s.flipped for s, ok in zip(rows, right) if ok]
    both = [rows[2 * n].flipped and rows[2 * n + 1].flipped
            for n in range(len(groups)) if right[2 * n] and right[2 * n + 1]]
    return {"head": head.cli, "pairs": len(groups), "sentences": len(rows),
            "right_unswapped": len(flips),
            "flip_rate": round(sum(flips) / len(flips), 4) if flips else None,
            "pairs_right_unswapped": len(both),
            "pairs_flipped": round(sum(both) / len(both), 4) if both else None,
            "examples": [dict(vars(s), right_unswapped=ok) for s, ok in zip(rows[:6], right)]}
