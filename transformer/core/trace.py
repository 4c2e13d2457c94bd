"""Hook points: the one way anything outside the model sees or changes what it computes.

The model object is shared by every browser session (st.cache_resource), so nothing may register
hooks on it or set attributes. Instead what the current context asks lives in a ContextVar: each
thread (each Streamlit session runs its script in its own thread) sees only its own `Inspection`,
and the context manager removes it in `finally`.

Every module knows its own dotted path (set once when the model is built) and passes each named
intermediate through one call, `x = trace.hook(path, name, x)`. The hook point's name is the
trace key `path.name` (e.g. `encoder.layers.0.self_attn.head_out`; all are listed in
docs/INTERFACES.md). At a hook point, in this order:

- the context's functions for that point run, each returning the (possibly changed) tensor:
  `ablation` installs one at `{attention}.head_out` that zeroes chosen heads, `capture` one at
  `{attention}.weights` that keeps the weights with their gradient;
- `record` stores a detached CPU float copy of the result under the point's name.

With no context active `hook` returns its tensor untouched after one ContextVar read, and the
fused attention kernel runs (`explicit` says when the explicit path is needed).
"""
from __future__ import annotations

import contextlib
import contextvars
from dataclasses import dataclass, field
from typing import Callable, Iterable, Iterator, Mapping

import torch

from transformer.core.names import Trace

HookFn = Callable[[torch.Tensor], torch.Tensor]


@dataclass
class Inspection:
    """What the current context asks of the model."""

    record: bool = False
    ablate: dict[str, frozenset[int]] = field(default_factory=dict)  # attention path -> heads
    cache: Trace = field(default_factory=Trace)  # a dict: trace key -> tensor
    keep: dict | None = None  # attention path -> its (B,H,T,S) weights, gradient kept (training)
    hooks: dict[str, tuple[HookFn, ...]] = field(default_factory=dict)  # hook point -> functions
    names: Callable[[str], bool] | None = None  # which points a recording keeps (None: all)


_ACTIVE: contextvars.ContextVar[Inspection | None] = contextvars.ContextVar(
    "attention_lab_inspection", default=None)


def active() -> Inspection | None:
    return _ACTIVE.get()


def recording() -> bool:
    """A recording is active: worth computing values that only the trace reads (LayerNorm's
    row statistics)."""
    ins = _ACTIVE.get()
    return ins is not None and ins.record


def point(path: str, name: str) -> str:
    """The hook point (and trace key) of `name` in the module at `path`: 'path.name'."""
    return f"{path}.{name}" if path else name


def hook(path: str, name: str, tensor: torch.Tensor) -> torch.Tensor:
    """The hook point `path.name`: run the context's functions for it, record the result when
    recording, and return it (the tensor itself when nothing is active)."""
    ins = _ACTIVE.get()
    if ins is None:
        return tensor
    key = point(path, name)
    for fn in ins.hooks.get(key, ()):
        tensor = fn(tensor)
    if ins.record and (ins.names is None or ins.names(key)):
        t = tensor.detach()
        if t.is_floating_point():
            t = t.float()
        ins.cache[key] = t.cpu()
    return tensor


def explicit(path: str, names: Iterable[str]) -> bool:
    """Does the current context need any of these points of the module at `path` (a recording,
    or a function at one of them)? The attention function then runs its explicit path, whose
    intermediates the fused kernel never materialises."""
    ins = _ACTIVE.get()
    if ins is None:
        return False
    return ins.record or any(point(path, n) in ins.hooks for n in names)


# -- what the contexts install ------------------------------------------------------------------
def zero_heads(heads: frozenset[int]) -> HookFn:
    """A function for a `head_out` point: (B,H,T,dk) with these heads' outputs zeroed (indices
    past the model's heads are ignored)."""
    def fn(x: torch.Tensor) -> torch.Tensor:
        n = x.size(1)
        keep = torch.ones(n, device=x.device, dtype=x.dtype)
        keep[[h for h in heads if h < n]] = 0
        return x * keep[None, :, None, None]  # zero whole heads (B,H,T,dk)
    return fn


def _keeper(keep: dict, path: str) -> HookFn:
    def fn(w: torch.Tensor) -> torch.Tensor:
        keep[path] = w
        return w
    return fn


def _hooks(ablate: dict[str, frozenset[int]], keep: dict | None,
           extra: Mapping[str, HookFn] | None = None) -> dict[str, tuple[HookFn, ...]]:
    out: dict[str, list[HookFn]] = {}
    for key, fn in (extra or {}).items():  # interventions run first, on the model's own values
        out.setdefault(key, []).append(fn)
    for path, heads in ablate.items():
        out.setdefault(point(path, "head_out"), []).append(zero_heads(heads))
    for path in keep or {}:
        out.setdefault(point(path, "weights"), []).append(_keeper(keep, path))
    return {k: tuple(v) for k, v in out.items()}


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
             keep: set[str] | None = None,
             extra: Mapping[str, HookFn] | None = None,
             names: Callable[[str], bool] | None = None) -> Iterator[Inspection]:
    """A nested context keeps the outer one's ablation (it changes the model) but neither its
    recording nor its capture (those belong to the context that asked)."""
    outer = _ACTIVE.get()
    merged = dict(outer.ablate) if outer is not None else {}
    merged.update(_normalise_ablate(ablate))
    kept = None if keep is None else {p: None for p in keep}
    ins = Inspection(record=record, ablate=merged, keep=kept, hooks=_hooks(merged, kept, extra),
                     names=names)
    token = _ACTIVE.set(ins)
    try:
        yield ins
    finally:
        _ACTIVE.reset(token)


@contextlib.contextmanager
def _yield_cache(record: bool, ablate: Mapping[str, object] | None,
                 names: Callable[[str], bool] | None = None) -> Iterator[Trace]:
    with _inspect(record, ablate, names=names) as ins:
        yield ins.cache


def record(ablate: Mapping[str, object] | None = None,
           names: Callable[[str], bool] | None = None) -> contextlib.AbstractContextManager:
    """`with record() as trace: model(src, tgt)` fills `trace` (a names.Trace: a dict name ->
    tensor, with accessors) using the explicit attention path. Optional `ablate` zeroes chosen
    heads, e.g. {"encoder.layers.0.self_attn": [1, 3]} (names.ablate_map builds one from Heads).
    Optional `names(key) -> bool` keeps only the points it accepts (TransformerLens's names
    filter): the rest are computed and passed on but not copied, so a server can keep a long
    sentence's attention weights without its every intermediate (issue 48)."""
    return _yield_cache(True, ablate, names)


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


@contextlib.contextmanager
def intervene(fns: Mapping[str, HookFn]) -> Iterator[None]:
    """Within the context, each function runs at its hook point (a trace key such as
    `encoder.layers.2.self_attn.head_out`) and its result replaces the model's value there,
    gradient included: interchange-intervention training (transformer/probing/interchange.py)
    swaps one head's output between the two sentences of a minimal pair this way. Points of the
    explicit path make that path run."""
    with _inspect(False, None, extra=dict(fns)):
        yield
