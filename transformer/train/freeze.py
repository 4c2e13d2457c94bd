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

A part may also be ``ffn:N+``: the feed-forward hidden units from N on, in every layer (their
rows of w1 and its bias, their columns of w2). After ``recipes.surgery.grow`` widened a model's
feed-forward layers from N units, ``--train-only ffn:N+`` trains the new units alone: the old
ones, and every attention weight, stay the checkpoint's, so what the model did is kept, and the
new units, which start silent, learn what it still gets wrong (the way adapters are trained).
"""
from __future__ import annotations

import re

import torch

from transformer.core.model import ffn_unit_axis
from transformer.core.names import Head, attention_kind

HEAD_QK = re.compile(r"^(encoder_self|decoder_self|cross):(\d+):(\d+):qk$")
FFN_UNITS = re.compile(r"^ffn:(\d+)\+$")


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


def ffn_unit_parts(prefixes: list[str]) -> list[int]:
    """The first unit of each ``ffn:N+`` part among the --train-only parts."""
    return [int(m[1]) for m in map(FFN_UNITS.match, prefixes) if m]


def masked_parts(prefixes: list[str]) -> bool:
    """Whether some part trains through a gradient mask (a head's rows, some FFN units)."""
    return bool(head_parts(prefixes) or ffn_unit_parts(prefixes))


def qk_rows(head: Head, d_model: int, n_heads: int) -> torch.Tensor:
    """The rows of an in_proj (3D rows: W_Q, W_K, W_V) that make HEAD's queries and keys."""
    dh = d_model // n_heads
    rows = torch.zeros(3 * d_model, dtype=torch.bool)
    rows[head.head * dh:(head.head + 1) * dh] = True  # W_Q of this head
    rows[d_model + head.head * dh:d_model + (head.head + 1) * dh] = True  # W_K of this head
    return rows


def _mask_hook(mask: torch.Tensor):
    """A gradient hook that keeps the gradient where MASK (broadcast to the parameter) is True
    and puts an exact 0 everywhere else (a NaN or inf gradient of a frozen entry included); the
    mask follows the gradient's device once."""
    cache: dict = {}

    def hook(g: torch.Tensor) -> torch.Tensor:
        m = cache.get(g.device)
        if m is None:
            m = cache[g.device] = mask.to(g.device)
        return torch.where(m, g, torch.zeros((), dtype=g.dtype, device=g.device))

    return hook


def _masks(model: torch.nn.Module, heads: list[Head], ffn_from: list[int]) -> dict[str, torch.Tensor]:
    """parameter name -> the boolean mask (broadcastable to it) of the entries that train."""
    cfg = getattr(model, "cfg", None)
    masks: dict[str, torch.Tensor] = {}

    def add(name: str, m: torch.Tensor) -> None:
        masks[name] = masks[name] | m if name in masks else m

    for h in heads:
        if cfg is None or h.layer >= attention_kind(h.kind, cfg).n_layers or h.head >= cfg.n_heads:
            raise ValueError(f"--train-only: {h.cli}:qk is not a head of this model")
        rows = qk_rows(h, cfg.d_model, cfg.n_heads)  # (3D,)
        add(h.path + ".in_proj.weight", rows.view(-1, 1))  # (3D,1): whole rows of (3D, D)
        add(h.path + ".in_proj.bias", rows)
    for start in ffn_from:
        if cfg is None or not 0 < start < cfg.d_ff:
            raise ValueError(f"--train-only: ffn:{start}+ names no unit of this model's "
                             f"feed-forward layers (units 0 to {getattr(cfg, 'd_ff', 0) - 1}); "
                             "N must be between 1 and d_ff - 1")
        units = torch.arange(cfg.d_ff) >= start  # (d_ff,)
        for name, p in model.named_parameters():
            axis = ffn_unit_axis(name)
            if axis is not None:  # (d_ff,) -> (d_ff,1) rows of w1, (1,d_ff) columns of w2, b1 as is
                add(name, units.view([-1 if i == axis else 1 for i in range(p.dim())]))
    return masks


def freeze_except(model: torch.nn.Module, prefixes: list[str]) -> tuple[int, int]:
    """Leave trainable only the parameters under one of `prefixes` (and the query and key rows
    of each ``KIND:LAYER:HEAD:qk`` part, the units of each ``ffn:N+`` part); returns (trainable,
    total) parameter counts. A prefix that names no parameter is an error, with the top-level
    names a user can start from (a typo would otherwise freeze the whole model silently).

    Masked parts (a head's rows of its in_proj, the units' rows and columns of w1 and w2) train
    through a gradient mask: the other entries get a zero gradient, which Adam turns into a zero
    step (its moments stay 0). Weight decay would still move them, so the CLI refuses the two
    together."""
    masks = _masks(model, head_parts(prefixes), ffn_unit_parts(prefixes))
    prefixes = [p for p in prefixes if not (HEAD_QK.match(p) or FFN_UNITS.match(p))]
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
        masked = not keep and name in masks
        p.requires_grad_(keep or masked)  # before the hook: a frozen tensor takes none
        if masked:
            p.register_hook(_mask_hook(masks[name]))
            trainable += int(masks[name].expand_as(p).sum())
        elif keep:
            trainable += p.numel()
        total += p.numel()
    return trainable, total
