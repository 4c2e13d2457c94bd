"""A cache bounded by bytes, not entries: what one class's sentences may keep in the server.

Streamlit's caches bound entries (`max_entries`); a trace of a 512-token paragraph is a hundred
times the bytes of a short sentence's, so 24 entries could be 40 MB or 11 GB (issue 48). Here
every entry is weighed once when it is stored (`nbytes`: tensors and arrays by their buffers,
containers and dataclasses walked), the total is kept at most `budget` bytes by evicting the
least recently used entries, and an entry larger than the whole budget is returned to its caller
but not kept. Concurrent callers of the same key wait for the first one's result instead of
computing it again (a class typing the teacher's sentence computes it once); errors are not
cached, and the next caller computes again.

Pure Python, no Streamlit: tests drive it directly; ui/inspect_cache.py holds the app's one
instance.
"""
from __future__ import annotations

import dataclasses
import sys
import threading
from collections import OrderedDict
from typing import Any, Callable, Hashable

import numpy as np

try:  # torch is the project's, but this module weighs anything
    import torch
except ImportError:  # pragma: no cover
    torch = None  # type: ignore[assignment]

MB = 1024 * 1024
_MAX_DEPTH = 12


def nbytes(obj: Any) -> int:
    """The bytes `obj` keeps alive, estimated: tensors by their storages (each storage once, so
    views of one tensor count once), numpy arrays by their buffers, pandas frames by their
    memory use, strings and bytes by length, containers, dataclasses and plain objects walked.
    An underestimate for exotic objects (their own overhead), never for tensors and arrays, which
    are what a trace is made of."""
    seen: set = set()  # ids of walked objects, and ("storage", pointer) of weighed buffers
    return _walk(obj, seen, 0)


def _walk(obj: Any, seen: set, depth: int) -> int:
    if obj is None or isinstance(obj, (bool, int, float, complex)):
        return 0
    if id(obj) in seen or depth > _MAX_DEPTH:
        return 0
    seen.add(id(obj))
    if torch is not None and isinstance(obj, torch.Tensor):
        try:
            storage = obj.untyped_storage()
            key = ("storage", storage.data_ptr())
        except (RuntimeError, NotImplementedError):  # a tensor without storage (meta, sparse)
            return int(obj.numel() * obj.element_size())
        if key in seen:
            return 0
        seen.add(key)
        return int(storage.nbytes())
    if isinstance(obj, np.ndarray):
        base = obj.base if isinstance(obj.base, np.ndarray) else obj
        key = ("array", id(base))
        if key in seen:
            return 0
        seen.add(key)
        return int(base.nbytes)
    if isinstance(obj, (str, bytes, bytearray, memoryview)):
        return sys.getsizeof(obj)
    if hasattr(obj, "memory_usage") and hasattr(obj, "columns"):  # a pandas DataFrame
        try:
            return int(obj.memory_usage(deep=True).sum())
        except Exception:  # noqa: BLE001 - weigh it as an object below
            pass
    if isinstance(obj, dict):
        return sys.getsizeof(obj) + sum(_walk(k, seen, depth + 1) + _walk(v, seen, depth + 1)
                                        for k, v in list(obj.items()))
    if isinstance(obj, (list, tuple, set, frozenset)):
        return sys.getsizeof(obj) + sum(_walk(x, seen, depth + 1) for x in list(obj))
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return sys.getsizeof(obj) + sum(_walk(getattr(obj, f.name, None), seen, depth + 1)
                                        for f in dataclasses.fields(obj))
    if isinstance(obj, type) or callable(obj):  # functions, classes: shared code, not data
        return 0
    attrs = getattr(obj, "__dict__", None)
    if isinstance(attrs, dict):
        return sys.getsizeof(obj) + _walk(attrs, seen, depth + 1)
    return sys.getsizeof(obj)


class _Pending:
    """A computation in flight: later callers of its key wait on `done`."""

    __slots__ = ("done", "value", "error")

    def __init__(self):
        self.done = threading.Event()
        self.value: Any = None
        self.error: BaseException | None = None


class ByteCache:
    """Least-recently-used entries, at most `budget` bytes in all (see the module docstring).
    `budget` 0 keeps nothing (every call computes)."""

    def __init__(self, budget: int, weigh: Callable[[Any], int] = nbytes,
                 weigh_key: Callable[[Any], int] = nbytes):
        self.budget = max(0, int(budget))
        self._weigh, self._weigh_key = weigh, weigh_key
        self._lock = threading.Lock()
        self._entries: "OrderedDict[Hashable, tuple[Any, int]]" = OrderedDict()
        self._pending: dict[Hashable, _Pending] = {}
        self._bytes = 0
        self.hits = self.misses = self.evictions = self.too_big = 0

    # -- reading the state ---------------------------------------------------------------------
    @property
    def bytes(self) -> int:
        with self._lock:
            return self._bytes

    def __len__(self) -> int:
        with self._lock:
            return len(self._entries)

    def __contains__(self, key: Hashable) -> bool:
        with self._lock:
            return key in self._entries

    def stats(self) -> dict:
        with self._lock:
            return {"entries": len(self._entries), "bytes": self._bytes, "budget": self.budget,
                    "hits": self.hits, "misses": self.misses, "evictions": self.evictions,
                    "too_big": self.too_big}

    # -- using it ------------------------------------------------------------------------------
    def get_or_compute(self, key: Hashable, compute: Callable[[], Any]) -> Any:
        """The cached value of `key`, or `compute()`'s (stored when it fits the budget). Raises
        what `compute` raises (nothing stored); a caller that waited on it raises it too."""
        with self._lock:
            got = self._entries.get(key)
            if got is not None:
                self._entries.move_to_end(key)
                self.hits += 1
                return got[0]
            pending = self._pending.get(key)
            mine = pending is None
            if mine:
                pending = self._pending[key] = _Pending()
                self.misses += 1
        if not mine:
            pending.done.wait()
            if pending.error is not None:
                raise pending.error
            return pending.value
        try:
            value = compute()
        except BaseException as e:
            pending.error = e
            with self._lock:
                self._pending.pop(key, None)
            pending.done.set()
            raise
        pending.value = value
        self._store(key, value)
        with self._lock:
            self._pending.pop(key, None)
        pending.done.set()
        return value

    def _store(self, key: Hashable, value: Any) -> None:
        size = self._weigh(value) + self._weigh_key(key)  # a key holds bytes too (an upload's)
        with self._lock:
            old = self._entries.pop(key, None)
            if old is not None:
                self._bytes -= old[1]
            if size > self.budget:
                self.too_big += 1
                return
            while self._entries and self._bytes + size > self.budget:
                _, (_, freed) = self._entries.popitem(last=False)
                self._bytes -= freed
                self.evictions += 1
            self._entries[key] = (value, size)
            self._bytes += size

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._bytes = 0
