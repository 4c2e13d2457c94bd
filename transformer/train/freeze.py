"""Fine-tune part of a model (`--train-only`): the rest keeps the checkpoint's weights exactly.

Why: a fine-tune aimed at one circuit (say, routing the pronoun through one encoder head) moves
every weight when the whole model trains, and with them what the model already does well (the
caption BLEU of issue 20). Freezing everything outside the named parts keeps that by
construction, and an average of such checkpoints differs from the start only there.
"""
from __future__ import annotations

import torch


def parse_prefixes(spec: str) -> list[str]:
    """'encoder.layers.2, decoder.layers.2.cross_attn' -> the prefixes, in order, each once."""
    out: list[str] = []
    for part in spec.split(","):
        part = part.strip().strip(".")
        if not part:
            continue
        if part not in out:
            out.append(part)
    if not out:
        raise ValueError("--train-only: name at least one parameter prefix "
                         "(e.g. encoder.layers.2)")
    return out


def _matches(name: str, prefix: str) -> bool:
    """A prefix names whole path components: 'encoder.layers.1' is not 'encoder.layers.10'."""
    return name == prefix or name.startswith(prefix + ".")


def freeze_except(model: torch.nn.Module, prefixes: list[str]) -> tuple[int, int]:
    """Leave trainable only the parameters under one of `prefixes`; returns (trainable, total)
    parameter counts. A prefix that names no parameter is an error, with the top-level names a
    user can start from (a typo would otherwise freeze the whole model silently)."""
    names = [n for n, _ in model.named_parameters()]
    for prefix in prefixes:
        if not any(_matches(n, prefix) for n in names):
            tops = sorted({n.split(".")[0] for n in names})
            raise ValueError(f"--train-only: no parameter is named {prefix!r} or under it; "
                             f"parameter names start with {', '.join(tops)} "
                             "(e.g. encoder.layers.2.self_attn)")
    trainable = total = 0
    for name, p in model.named_parameters():
        keep = any(_matches(name, prefix) for prefix in prefixes)
        p.requires_grad_(keep)
        total += p.numel()
        trainable += p.numel() if keep else 0
    return trainable, total
