"""Distillation from a frozen checkpoint (`--distill-from`): keep a fine-tune's translations where
its teacher's were.

Why: a fine-tune aimed at one circuit (issue 20: the pronoun's choice routed through one encoder
head by interchange training) moves the shared representations, and sentences that have nothing to
do with that circuit come out garbled ("..., so Dad scolded it ." -> "..., so viel Dolads ."). A
KL term to the starting model's next-piece distribution on every target position holds those
sentences where they were, while the circuit's own loss moves what it must.
"""
from __future__ import annotations

import torch
import torch.nn.functional as F


def distill_loss(student: torch.Tensor, teacher: torch.Tensor, target: torch.Tensor,
                 pad_id: int) -> torch.Tensor:
    """KL(teacher || student) of the next-piece distributions, mean over non-pad target
    positions. student, teacher (B,T,V) logits; target (B,T) -> scalar (0 with no position)."""
    v = student.size(-1)
    keep = target.reshape(-1) != pad_id  # (B*T,)
    if not bool(keep.any()):
        return student.sum() * 0.0
    s = student.reshape(-1, v)[keep].float().log_softmax(-1)  # (N,V)
    t = teacher.reshape(-1, v)[keep].float().log_softmax(-1)  # (N,V)
    return F.kl_div(s, t, log_target=True, reduction="batchmean")


def frozen(model: torch.nn.Module) -> torch.nn.Module:
    """The teacher: evaluation mode (no dropout), no gradients."""
    model.eval()
    for p in model.parameters():
        p.requires_grad_(False)
    return model
