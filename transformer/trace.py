"""Recording named intermediates without touching the model.

The model object is shared by every browser session (st.cache_resource), so inspection must not
register hooks or set attributes. Instead the active recording lives in a ContextVar: each thread
(each Streamlit session runs its script in its own thread) sees only its own recorder, and the
context manager removes it in `finally`. Modules know their own dotted path (set once when the
model is built) and call `emit(path, name, tensor)`; when nothing is recording this is a cheap
no-op and the fused attention kernel runs.

Names are documented in docs/INTERFACES.md (e.g. `encoder.layers.0.self_attn.weights`).
"""
from __future__ import annotations

import contextlib
import contextvars
from dataclasses import dataclass, field
from typing import Iterator, Mapping

import torch

from .names import Trace


@dataclass
class Inspection:
    """What the current context asks of the model."""

    record: bool = False
    ablate: dict[str, frozenset[int]] = field(default_factory=dict)  # attention path -> heads
    cache: Trace = field(default_factory=Trace)  # a dict: trace key -> tensor


_ACTIVE: contextvars.ContextVar[Inspection | None] = contextvars.ContextVar(
    "attention_lab_inspection", default=None)


def active() -> Inspection | None:
    return _ACTIVE.get()


def recording() -> bool:
    ins = _ACTIVE.get()
    return ins is not None and ins.record


def emit(path: str, name: str, tensor: torch.Tensor) -> None:
    """Store a detached CPU float copy under `path.name` if this context records."""
    ins = _ACTIVE.get()
    if ins is None or not ins.record:
        return
    key = f"{path}.{name}" if path else name
    t = tensor.detach()
    if t.is_floating_point():
        t = t.float()
    ins.cache[key] = t.cpu()


def ablated_heads(path: str) -> frozenset[int]:
    ins = _ACTIVE.get()
    if ins is None or not ins.ablate:
        return frozenset()
    return ins.ablate.get(path, frozenset())


def _normalise_ablate(ablate: Mapping[str, object] | None) -> dict[str, frozenset[int]]:
    out: dict[str, frozenset[int]] = {}
    for path, heads in (ablate or {}).items():
        if isinstance(heads, int):
            heads = [heads]
        hs = frozenset(int(h) for h in heads)  # type: ignore[union-attr]
        if any(h < 0 for h in hs):
            raise ValueError(f"ablate: head indices must be >= 0 (got {sorted(hs)} for {path})")
        if hs:
            out[str(path)] = hs
    return out


@contextlib.contextmanager
def _inspect(record: bool, ablate: Mapping[str, object] | None) -> Iterator[Trace]:
    outer = _ACTIVE.get()
    merged = dict(outer.ablate) if outer is not None else {}
    merged.update(_normalise_ablate(ablate))
    ins = Inspection(record=record, ablate=merged)
    token = _ACTIVE.set(ins)
    try:
        yield ins.cache
    finally:
        _ACTIVE.reset(token)


def record(ablate: Mapping[str, object] | None = None) -> contextlib.AbstractContextManager:
    """`with record() as trace: model(src, tgt)` fills `trace` (a names.Trace: a dict name ->
    tensor, with accessors) using the explicit attention path. Optional `ablate` zeroes chosen
    heads, e.g. {"encoder.layers.0.self_attn": [1, 3]}."""
    return _inspect(True, ablate)


def ablation(ablate: Mapping[str, object]) -> contextlib.AbstractContextManager:
    """Zero chosen heads' outputs without recording (the fused kernel still runs)."""
    return _inspect(False, ablate)
