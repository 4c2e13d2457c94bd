"""The head a page opens on: the clearest pattern one sentence shows (the Attention page opens a
checkpoint without a featured head there), scored as the atlas scores it (transformer.probing.atlas)
but on one sentence's weights only, no other forward pass."""
from __future__ import annotations

from dataclasses import dataclass

import torch

from transformer.probing.atlas import APPLIES, PUNCTUATION, _layout, _sums


# -- the head a page opens on ----------------------------------------------------------------------
# Patterns a reader can see on one sentence and name: a position (the token itself, the one
# before, after, mirrored: diagonal / previous / next / reversed) or "focused", weight on one
# word of the sentence (specials and punctuation left out, so a head that rests on </s> or "."
# does not count: it looks sharp and shows nothing).
SHOWN = ("diagonal", "reversed", "previous", "next", "focused")


@dataclass
class Clearest:
    layer: int
    head: int
    behaviour: str  # one of SHOWN
    score: float  # in [0, 1]: the behaviour's share of the head's weight, over the rows
    scores: torch.Tensor  # (layers, heads): every head's best SHOWN score


def clearest_head(w: torch.Tensor, kind: str, q_tok: list[str], k_tok: list[str],
                  q_special: list[bool], k_special: list[bool]) -> Clearest:
    """The head of one attention kind with the clearest pattern on one sentence. w: (L, H, Q, K)
    weights. Every head is scored by its best behaviour of SHOWN, averaged over the scored query
    rows as the atlas does (`_sums`); the highest wins, the lowest layer and head on a tie. Cheap:
    the sentence's weights only, no other forward pass. A head that puts most of its weight on
    </s> or the first token (a sink, about a third of the heads of a trained model) scores low."""
    w = w.double()
    n_l, n_h, n_q, n_k = w.shape
    s = _sums(w, kind, q_tok, k_tok, q_special, k_special)
    rows = _layout(w, kind, k_tok, q_special, k_special).rows  # the rows `_sums` scored
    words = [k for k in range(n_k) if not k_special[k] and k_tok[k].strip()
             and not set(k_tok[k].strip()) <= PUNCTUATION]
    focused = torch.zeros(n_l, n_h, dtype=w.dtype)
    if rows and words:
        focused = w[:, :, rows][..., words].amax(-1).sum(-1)
    n = s["_rows"].clamp_min(1)
    per = {b: (s[b] / n).clamp(0, 1) for b in SHOWN[:-1] if b in s and b in APPLIES[kind]}
    per["focused"] = (focused / n).clamp(0, 1)
    names = list(per)
    stacked = torch.stack([per[b] for b in names])  # (B, L, H)
    best, which = stacked.max(0)  # (L, H)
    flat = int(torch.argmax(best.flatten()))  # the first maximum: lowest layer, then head
    layer, head = divmod(flat, n_h)
    # "focused" is at least any position's share; the position names the pattern better
    # ("diagonal": copying) when it accounts for most of it (a first token has no previous one)
    positions = [(float(per[b][layer, head]), b) for b in names if b != "focused"]
    share, name = max(positions, default=(0.0, "focused"))
    if share < 0.75 * float(best[layer, head]):
        name, share = "focused", float(best[layer, head])
    return Clearest(layer, head, name, share, best.float())
