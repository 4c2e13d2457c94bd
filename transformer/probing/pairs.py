"""Pair accuracy, the Winograd measure, on minimal pairs (probe lines that share a "pair" id).

A model that always resolves "it" to the same noun gets half of all sentences right and no pair:
only a pair in which both sentences are right shows that the deciding word was read. Scored
three ways: by a head (its strongest word from the pronoun is in the antecedent's noun phrase,
on the side its keys are on), by the model's own German pronoun, and by the rules without a
model ("always the first noun", "always the nearest noun"), which get 0 pairs by construction.
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

import torch

from transformer.core.names import attention_kind
from transformer.probing.probe_items import ProbeItem


def pair_groups(items: Sequence[ProbeItem]) -> list[tuple[int, int]]:
    """(i, j) item indices of every pair id held by exactly two items, in probe order."""
    by_id: dict = defaultdict(list)
    for i, it in enumerate(items):
        if it.pair is not None:
            by_id[it.pair].append(i)
    return [(g[0], g[1]) for g in by_id.values() if len(g) == 2]


def pair_share(hits: Sequence[bool | None], groups: Sequence[tuple[int, int]]) -> float | None:
    """Share of pairs whose two items are both hits (a pair with an unscored item is a miss)."""
    if not groups:
        return None
    return sum(bool(hits[i]) and bool(hits[j]) for i, j in groups) / len(groups)


def head_pair_accuracy(items: Sequence[ProbeItem], tops: dict) -> dict[str, torch.Tensor]:
    """kind -> (layers, heads) pair accuracy. `tops`: kind -> (items, layers, heads) word index
    each head weighs most from the pronoun (`HeadScores.tops`; -1 where not scored)."""
    groups = pair_groups(items)
    out = {}
    for kind, top in tops.items():
        top = torch.as_tensor(top)
        on_target = attention_kind(kind).key == "target"
        spans = [it.span(on_target) for it in items]  # (None, None): no German side known
        lo = torch.tensor([-2 if a is None else a for a, _ in spans]).view(-1, 1, 1)
        hi = torch.tensor([-2 if b is None else b for _, b in spans]).view(-1, 1, 1)
        hit = (top >= lo) & (top <= hi) & (top >= 0)  # (items, layers, heads)
        if groups:
            a = torch.tensor([i for i, _ in groups])
            b = torch.tensor([j for _, j in groups])
            out[kind] = (hit[a] & hit[b]).float().mean(0)  # (layers, heads)
    return out


def baseline_pairs(items: Sequence[ProbeItem]) -> dict[str, float]:
    """Pair accuracy of "always the first candidate noun" and "always the nearest noun before
    the pronoun"."""
    groups = pair_groups(items)
    if not groups:
        return {}
    first, near = [], []
    for it in items:
        cands = [c for c in it.candidates if c != it.pronoun]
        before = [c for c in cands if c < it.pronoun] or cands
        first.append(bool(cands) and min(cands) == it.antecedent)
        near.append(bool(cands) and max(before) == it.antecedent)
    return {"first_noun": pair_share(first, groups), "nearest_noun": pair_share(near, groups)}
