"""The learning-rate schedule of "Attention Is All You Need" (section 5.3).

    lr(step) = lr_scale * d_model^-0.5 * min(step^-0.5, step * warmup^-1.5),   step = 1, 2, ...

It rises linearly for `warmup` steps, peaks at step == warmup with lr_scale * (d_model*warmup)^-0.5,
then decays as 1/sqrt(step). The trainer sets the rate by hand before every optimizer step (no
scheduler object to save): the step counter alone restores it on resume.
"""
from __future__ import annotations

import math


def check(d_model: int, warmup: int, lr_scale: float = 1.0) -> None:
    """ValueError naming the field when the schedule cannot be computed."""
    if not isinstance(d_model, int) or d_model < 1:
        raise ValueError(f"d_model: must be an integer of at least 1 (got {d_model!r})")
    if not isinstance(warmup, int) or warmup < 1:
        raise ValueError(f"warmup: must be an integer of at least 1 (got {warmup!r})")
    if not (isinstance(lr_scale, (int, float)) and math.isfinite(lr_scale) and lr_scale > 0):
        raise ValueError(f"lr_scale: must be > 0 (got {lr_scale!r})")


def noam_lr(step: int, d_model: int, warmup: int, lr_scale: float = 1.0) -> float:
    """The paper's rate at optimizer step `step` (1-based; step 0 is treated as step 1)."""
    s = max(int(step), 1)
    return lr_scale * d_model ** -0.5 * min(s ** -0.5, s * warmup ** -1.5)


def peak_lr(d_model: int, warmup: int, lr_scale: float = 1.0) -> float:
    """The highest rate, reached at step == warmup."""
    return noam_lr(warmup, d_model, warmup, lr_scale)


def curve(total_steps: int, d_model: int, warmup: int, lr_scale: float = 1.0,
          points: int = 200) -> tuple[list[int], list[float]]:
    """(steps, rates) sampled over 1..total_steps, for plotting the schedule."""
    check(d_model, warmup, lr_scale)
    total = max(int(total_steps), 1)
    n = max(2, min(points, total))
    steps = sorted({1 + round(i * (total - 1) / (n - 1)) for i in range(n)} | {min(warmup, total)})
    return steps, [noam_lr(s, d_model, warmup, lr_scale) for s in steps]


def lambda_for(d_model: int, warmup: int, lr_scale: float = 1.0):
    """A multiplier for torch.optim.lr_scheduler.LambdaLR with base lr 1.0. LambdaLR counts from
    0 (before the first step), so epoch e is optimizer step e + 1."""
    check(d_model, warmup, lr_scale)
    return lambda epoch: noam_lr(epoch + 1, d_model, warmup, lr_scale)
