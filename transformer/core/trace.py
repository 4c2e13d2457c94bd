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

from transformer.core.names import Trace


@dataclass
class Inspection:
    """What the current context asks of the model."""

    record: bool = False
    ablate: dict[str, frozenset[int]] = field(default_factory=dict)  # attention path -> heads
    cache: Trace = field(default_factory=Trace)  # a dict: trace key -> tensor
    keep: dict | None = None  # attention path -> its (B,H,T,S) weights, gradient kept (training)


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


def wants_weights(path: str) -> bool:
    """Training asked to keep this path's attention weights (attention supervision)."""
    ins = _ACTIVE.get()
    return ins is not None and ins.keep is not None and path in ins.keep


def keep_weights(path: str, weights: torch.Tensor) -> None:
    """Called by the attention function with (B,H,T,S) weights; kept with their gradient."""
    ins = _ACTIVE.get()
    if ins is not None and ins.keep is not None and path in ins.keep:
        ins.keep[path] = weights


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
def _inspect(record: bool, ablate: Mapping[str, object] | None,
             keep: set[str] | None = None) -> Iterator[Inspection]:
    outer = _ACTIVE.get()
    merged = dict(outer.ablate) if outer is not None else {}
    merged.update(_normalise_ablate(ablate))
    ins = Inspection(record=record, ablate=merged,
                     keep=None if keep is None else {p: None for p in keep})
    token = _ACTIVE.set(ins)
    try:
        yield ins
    finally:
        _ACTIVE.reset(token)


@contextlib.contextmanager
def _yield_cache(record: bool, ablate: Mapping[str, object] | None) -> Iterator[Trace]:
    with _inspect(record, ablate) as ins:
        yield ins.cache


def record(ablate: Mapping[str, object] | None = None) -> contextlib.AbstractContextManager:
    """`with record() as trace: model(src, tgt)` fills `trace` (a names.Trace: a dict name ->
    tensor, with accessors) using the explicit attention path. Optional `ablate` zeroes chosen
    heads, e.g. {"encoder.layers.0.self_attn": [1, 3]}."""
    return _yield_cache(True, ablate)


def ablation(ablate: Mapping[str, object]) -> contextlib.AbstractContextManager:
    """Zero chosen heads' outputs without recording (the fused kernel still runs)."""
    return _yield_cache(False, ablate)


@contextlib.contextmanager
def capture(paths: set[str]) -> Iterator[dict]:
    """Within the context, the attention of `paths` runs the explicit path and keeps its weights,
    with their gradient, in the dict it yields (path -> (B,H,T,S)); attention supervision's loss
    reads them (transformer/probing/supervise.py). Every other path runs the fused kernel."""
    with _inspect(False, None, keep=set(paths)) as ins:
        yield ins.keep
