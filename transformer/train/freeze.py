"""Fine-tune part of a model (`--train-only`): the rest keeps the checkpoint's weights exactly.

Why: a fine-tune aimed at one circuit (say, routing the pronoun through one encoder head) moves
every weight when the whole model trains, and with them what the model already does well (the
caption BLEU of issue 20). Freezing everything outside the named parts keeps that by
construction, and an average of such checkpoints differs from the start only there.

A part may also be one head's query and key projections, ``KIND:LAYER:HEAD:qk`` (for example
``encoder_self:2:0:qk``): the rows of that attention's input projection that make the head's
queries and keys train, and every other row (the other heads', all values) stays. Only that
head's weights (where it looks) can change; what each position offers it (its values) and every
other head stay the checkpoint's. Teaching a head where to look then moves nothing else.
"""
from __future__ import annotations

import re

import torch

from transformer.core.names import Head, attention_kind

HEAD_QK = re.compile(r"^(encoder_self|decoder_self|cross):(\d+):(\d+):qk$")


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


def head_parts(prefixes: list[str]) -> list[Head]:
    """The ``KIND:LAYER:HEAD:qk`` parts among the --train-only parts, as heads."""
    return [Head(m[1], int(m[2]), int(m[3])) for m in map(HEAD_QK.match, prefixes) if m]


def _qk_rows(head: Head, d_model: int, n_heads: int) -> torch.Tensor:
    """The rows of an in_proj (3D rows: W_Q, W_K, W_V) that make HEAD's queries and keys."""
    dh = d_model // n_heads
    rows = torch.zeros(3 * d_model, dtype=torch.bool)
    rows[head.head * dh:(head.head + 1) * dh] = True  # W_Q of this head
    rows[d_model + head.head * dh:d_model + (head.head + 1) * dh] = True  # W_K of this head
    return rows


def _row_mask(rows: torch.Tensor):
    """A gradient hook that keeps the gradient on ROWS and puts an exact 0 everywhere else (a
    NaN or inf gradient of a frozen row included); the mask follows the gradient's device once."""
    cache: dict = {}

    def hook(g: torch.Tensor) -> torch.Tensor:
        m = cache.get(g.device)
        if m is None:
            m = cache[g.device] = rows.to(g.device)
        return torch.where(m, g, torch.zeros((), dtype=g.dtype, device=g.device))

    return hook


def freeze_except(model: torch.nn.Module, prefixes: list[str]) -> tuple[int, int]:
    """Leave trainable only the parameters under one of `prefixes` (and the query and key rows
    of each ``KIND:LAYER:HEAD:qk`` part); returns (trainable, total) parameter counts. A prefix
    that names no parameter is an error, with the top-level names a user can start from (a typo
    would otherwise freeze the whole model silently).

    A head's rows train through a gradient mask on its in_proj: the other rows get a zero
    gradient, which Adam turns into a zero step (its moments stay 0). Weight decay would still
    move them, so the CLI refuses the two together."""
    heads = head_parts(prefixes)
    prefixes = [p for p in prefixes if not HEAD_QK.match(p)]
    masks: dict[str, torch.Tensor] = {}  # in_proj parameter prefix -> rows that train
    cfg = getattr(model, "cfg", None)
    for h in heads:
        if cfg is None or h.layer >= attention_kind(h.kind, cfg).n_layers or h.head >= cfg.n_heads:
            raise ValueError(f"--train-only: {h.cli}:qk is not a head of this model")
        rows = _qk_rows(h, cfg.d_model, cfg.n_heads)
        key = h.path + ".in_proj"
        masks[key] = masks[key] | rows if key in masks else rows
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
        owner = name.rsplit(".", 1)[0]  # "encoder.layers.2.self_attn.in_proj"
        masked = not keep and owner in masks
        p.requires_grad_(keep or masked)  # before the hook: a frozen tensor takes none
        if masked:
            rows = masks[owner]
            shape = (-1,) + (1,) * (p.dim() - 1)  # (3D,) -> (3D,1) for the weight, (3D,) for the bias
            p.register_hook(_row_mask(rows.view(shape)))
            trainable += int(rows.sum()) * (p.numel() // p.size(0))
        elif keep:
            trainable += p.numel()
        total += p.numel()
    return trainable, total
