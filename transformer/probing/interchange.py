"""Interchange-intervention training: make named heads the carriers of the pronoun's choice.

Why: attention supervision (supervise.py) teaches the encoder head to *look* from "it" to its
antecedent, but the decoder can still read the antecedent's gender off other heads, so switching
the head off left the German pronoun unchanged (the eighth everyday-en-de: 0.82 of the
development pairs with or without it). Looking is not causing. Interchange intervention
(Geiger et al., 2022, "Inducing Causal Structure for Interpretable Neural Networks") trains the
cause directly: take a minimal pair from the textbook generator ("... because it was too tired"
/ "... too wide"), run both sentences, and put sentence B's output of the head at B's "it" in
place of sentence A's at A's "it". A model whose pronoun decision runs through that head now
writes B's pronoun in A's translation; the extra loss asks for exactly that, at the pronoun's
position only. The rest of the translation is left to the ordinary loss.

Both sentences sit in one batch, so one forward pass does it: the head's output at a layer
depends on its own sentence only, and the swap happens at the hook point
`{layer}.self_attn.head_out` (transformer.core.trace.intervene). A decoder self-attention head
can be swapped too, at the position that writes the pronoun (InterchangeHead says why both).
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Sequence

import numpy as np
import torch
import torch.nn.functional as F

from transformer.core import trace
from transformer.core.names import Head
from transformer.probing.heads import word_pieces
from transformer.probing.supervise import _pieces


@dataclass(frozen=True)
class InterchangeHead(Head):
    """A head whose output is swapped, the loss weight, and how many minimal pairs each training
    step swaps. An encoder self-attention head ('encoder_self:L:H') is swapped at the English
    "it"; a decoder self-attention head ('decoder_self:L:H') at the position that writes the
    German pronoun, whose input (the German so far) is the same in both sentences of a textbook
    pair. Both together describe a chain that each swap alone satisfies: the encoder head says
    which noun "it" is, the decoder head reads that noun's gender off the German already
    written, and the pronoun follows the decoder head."""

    weight: float = 1.0
    pairs: int = 16

    @classmethod
    def parse_many(cls, specs: str, weight: float = 1.0, pairs: int = 16
                   ) -> tuple["InterchangeHead", ...]:
        """One head or several separated by commas, each swapped in its own forward pass."""
        heads = tuple(cls.parse(s, weight, pairs) for s in str(specs).split(","))
        if len({h.cli for h in heads}) != len(heads):
            raise ValueError(f"a head is named twice (got {specs!r})")
        return heads

    @classmethod
    def parse(cls, spec: str, weight: float = 1.0, pairs: int = 16) -> "InterchangeHead":
        try:
            h = Head.parse(str(spec), form="cli")
        except ValueError:
            h = None
        if h is None or h.kind not in ("encoder_self", "decoder_self"):
            raise ValueError(f"must be encoder_self:LAYER:HEAD or decoder_self:LAYER:HEAD "
                             f"(got {spec!r})")
        if not (weight > 0 and weight == weight and weight < 1e3):
            raise ValueError(f"weight must be a positive number (got {weight!r})")
        if not isinstance(pairs, int) or not 1 <= pairs <= 4096:
            raise ValueError(f"pairs per step must be an integer from 1 to 4096 (got {pairs!r})")
        return cls(h.kind, h.layer, h.head, float(weight), int(pairs))


@dataclass(frozen=True)
class SwapPair:
    """Two training pairs (indices into the encoded training lists) that differ in one word and
    in the German pronoun: where "it" stands in each source (`src_q*`), where the pronouns' first
    differing piece is written in each target (`tgt_q*`, an index into the decoder's output
    positions) and that piece (`piece*`)."""

    a: int
    b: int
    src_qa: int
    src_qb: int
    tgt_qa: int
    tgt_qb: int
    piece_a: int
    piece_b: int


def _pronoun_pieces(tokenizer, text: str, meta: dict, ids: Sequence[int]) -> tuple[int, list[int]] | None:
    """(index of the German pronoun's first piece in `ids`, the pronoun's pieces), or None."""
    pos = (meta or {}).get("tgt_pronoun_pos")
    if not isinstance(pos, int):
        return None
    at = word_pieces(tokenizer, list(ids), pos)
    return (at[0], [int(ids[j]) for j in at]) if at else None


def find_pairs(tokenizer, src_texts: Sequence[str], tgt_texts: Sequence[str],
               metas: Sequence[dict], tgt_ids: Sequence[Sequence[int]]) -> list[SwapPair]:
    """The minimal pairs among the training pairs: two examples with the same generator key
    (`meta["pair"]`, one per task) whose German pronouns differ. A key seen more than twice (the
    generator drew the same pair again) gives disjoint pairs, each example used once. Lists are
    aligned (the kept training pairs).

    The position trained is the pronoun's first piece where the two differ: a small vocabulary
    writes "sie" and "es" as "▁" + "s..." and "▁" + "e...", and the shared "▁" decides nothing
    (the decoder input up to that piece is the same in both sentences, so the partner's piece is
    the right target there)."""
    groups: dict[tuple, list[int]] = defaultdict(list)
    for i, m in enumerate(metas):
        if m and m.get("pair") is not None:
            groups[(m.get("task"), str(m["pair"]))].append(i)
    out: list[SwapPair] = []
    for members in groups.values():
        if len(members) < 2:
            continue
        facts = {}
        for i in members:
            src = _pieces(tokenizer, src_texts[i], metas[i], "pronoun_pos", "antecedent_pos")
            tgt = _pronoun_pieces(tokenizer, tgt_texts[i], metas[i], tgt_ids[i])
            if src and tgt:
                facts[i] = (src[0], tgt[0], tgt[1])
        free = [i for i in members if i in facts]
        while len(free) >= 2:
            a = free.pop(0)
            b = next((j for j in free if facts[j][2] != facts[a][2]), None)
            if b is None:
                continue
            (sa, ta, pa), (sb, tb, pb) = facts[a], facts[b]
            c = next((k for k, (x, y) in enumerate(zip(pa, pb)) if x != y), None)
            if c is None:  # one pronoun's pieces begin the other's: no piece tells them apart
                continue
            free.remove(b)
            out.append(SwapPair(a, b, sa, sb, ta + c, tb + c, pa[c], pb[c]))
    return out


def sample(pairs: Sequence[SwapPair], n: int, seed: int, step: int) -> list[SwapPair]:
    """n pairs drawn without replacement by (seed, step) alone, so a resumed run draws the same."""
    rng = np.random.default_rng([int(seed) & 0xFFFFFFFF, int(step)])
    idx = rng.choice(len(pairs), size=min(n, len(pairs)), replace=False)
    return [pairs[int(i)] for i in idx]


def swap_fn(head: int, rows: Sequence[tuple[int, int, int, int]]):
    """A function for a `head_out` point (B,H,T,dk): for each (row, position, from_row,
    from_position), the head's output there becomes the one at from_row/from_position (read
    from the unchanged input, so A <- B and B <- A both see the originals)."""
    dst_r = torch.tensor([r[0] for r in rows])
    dst_t = torch.tensor([r[1] for r in rows])
    src_r = torch.tensor([r[2] for r in rows])
    src_t = torch.tensor([r[3] for r in rows])

    def fn(x: torch.Tensor) -> torch.Tensor:
        dev = x.device
        moved = x[src_r.to(dev), head, src_t.to(dev)]  # (R,dk): the partners' outputs
        out = x.clone()
        out[dst_r.to(dev), head, dst_t.to(dev)] = moved
        return out
    return fn


def batch_rows(chosen: Sequence[SwapPair], kind: str = "encoder_self"
               ) -> tuple[list[int], list, list[int], list[int]]:
    """For a batch laid out [a1, b1, a2, b2, ...]: the training indices, the swap rows
    (row, position, from_row, from_position: at "it" for an encoder head, at the decoder input
    position that writes the pronoun for a decoder head), and per row the target position and
    the piece it must now write (the partner's pronoun)."""
    indices, swaps, tgt_pos, want = [], [], [], []
    for k, p in enumerate(chosen):
        ra, rb = 2 * k, 2 * k + 1
        indices += [p.a, p.b]
        qa, qb = (p.src_qa, p.src_qb) if kind == "encoder_self" else (p.tgt_qa, p.tgt_qb)
        swaps += [(ra, qa, rb, qb), (rb, qb, ra, qa)]
        tgt_pos += [p.tgt_qa, p.tgt_qb]
        want += [p.piece_b, p.piece_a]
    return indices, swaps, tgt_pos, want


def loss(net, head: InterchangeHead, src: torch.Tensor, tgt_in: torch.Tensor,
         swaps, tgt_pos: Sequence[int], want: Sequence[int]) -> tuple[torch.Tensor, torch.Tensor]:
    """Cross-entropy of the partner's pronoun at each row's pronoun position, with the head's
    outputs swapped; and the fraction of rows whose top piece is that pronoun (the swap's
    success rate, no gradient). src (B,S), tgt_in (B,T) laid out as batch_rows says."""
    point = trace.point(head.path, "head_out")
    with trace.intervene({point: swap_fn(head.head, swaps)}):
        logits = net(src, tgt_in)  # (B,T,V)
    dev = logits.device
    rows = torch.arange(len(tgt_pos), device=dev)
    at = logits[rows, torch.tensor(list(tgt_pos), device=dev)].float()  # (B,T,V) -> (B,V)
    target = torch.tensor(list(want), device=dev)
    return F.cross_entropy(at, target), (at.argmax(-1) == target).float().mean().detach()
