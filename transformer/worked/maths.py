"""The numbers of the worked examples: input checks, the tolerance rule (half a unit in the last
printed place, see the package docstring), and plain float64 numpy attention arithmetic and
positional encoding. No prose, no step graph."""
from __future__ import annotations

import math
from decimal import Decimal
from typing import Any, Sequence

import numpy as np

from transformer.core.numeric import shifted_exp as _shifted_exp
from transformer.core.numeric import softmax
from transformer.worked.wording import InputError

ROUGH_REL = 0.005  # "roughly matches" threshold for hypotheses (0.5 %)
_TINY = 1e-9  # float noise allowance, relative to max(1, |value|)


# --------------------------------------------------------------------------------------------
# Validation and small numeric helpers


def _matrix(x: Any, name: str, ndim: int | tuple[int, ...] = 2, allow_inf: bool = False) -> np.ndarray:
    """Convert to float64 and check rank and finiteness; ValueError with a one-line message."""
    try:
        a = np.asarray(x, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a rectangular table of numbers") from None
    ndims = (ndim,) if isinstance(ndim, int) else ndim
    if a.ndim not in ndims:
        want = " or ".join(f"{d}-D" for d in ndims)
        raise ValueError(f"{name} must be {want}, got shape {a.shape}")
    if a.size == 0:
        raise ValueError(f"{name} is empty")
    bad = np.isnan(a) if allow_inf else ~np.isfinite(a)
    if bad.any():
        raise InputError("err_non_finite", n=name)
    return a


def _check_dk(d_k: Any) -> int | None:
    if d_k is None:
        return None
    if isinstance(d_k, bool) or not isinstance(d_k, (int, np.integer, float)) or not math.isfinite(d_k):
        raise ValueError(f"d_k must be a positive integer, got {d_k!r}")
    if d_k <= 0 or int(d_k) != d_k:
        raise ValueError(f"d_k must be a positive integer, got {d_k!r}")
    return int(d_k)


def _fmt(x: float) -> str:
    if np.isneginf(x):
        return "-inf"
    if np.isposinf(x):
        return "inf"
    return f"{x:.6g}"


def _jsonable(a: np.ndarray) -> Any:
    """Nested lists; non-finite floats as the strings "-inf", "inf", "nan" (strict JSON)."""
    arr = np.asarray(a)
    if arr.dtype == bool:
        return arr.tolist()

    def conv(v: Any) -> Any:
        if isinstance(v, list):
            return [conv(u) for u in v]
        if isinstance(v, float) and not math.isfinite(v):
            return "nan" if math.isnan(v) else ("-inf" if v < 0 else "inf")
        return v

    return conv(arr.astype(np.float64).tolist())


# --------------------------------------------------------------------------------------------
# The tolerance rule


def printed_decimals(x: float) -> int:
    """Decimals of the shortest text of ``x`` (0.445 -> 3, 6.7e-08 -> 9, 17 -> 0)."""
    if not math.isfinite(x):
        return 0
    exp = Decimal(repr(float(x))).normalize().as_tuple().exponent
    return max(0, -int(exp))


def rounding_tolerance(claimed: Sequence | np.ndarray, per_entry: bool = False) -> np.ndarray:
    """Half a unit in the last printed place, per entry (see the module docstring).
    ``per_entry``: the notes print this table with mixed decimals (an example's
    ``printed_per_entry`` list says so), so each entry is read as written."""
    flat = np.asarray(claimed, dtype=np.float64).ravel()
    decs = np.array([printed_decimals(v) for v in flat])
    scientific = any("e" in repr(float(v)) for v in flat if math.isfinite(v) and v != 0)
    if not scientific and not per_entry and decs.size:
        decs[:] = decs.max()
    return (0.5 * 10.0 ** (-decs)).reshape(np.shape(claimed))


def _close(a: np.ndarray, b: np.ndarray, tol: np.ndarray) -> np.ndarray:
    """Entry-wise agreement with infinities compared exactly."""
    a, b = np.broadcast_arrays(np.asarray(a, float), np.asarray(b, float))
    both_inf = np.isinf(a) & np.isinf(b) & (np.sign(a) == np.sign(b))
    with np.errstate(invalid="ignore"):
        diff = np.abs(a - b)
    ok = diff <= tol + _TINY * np.maximum(1.0, np.abs(np.where(np.isfinite(a), a, 0)))
    return np.where(np.isinf(a) | np.isinf(b), both_inf, ok & np.isfinite(diff))


def _rough(a: np.ndarray, b: np.ndarray, tol: np.ndarray) -> np.ndarray:
    """Agreement within the tolerance or within ROUGH_REL relative."""
    a = np.asarray(a, float)
    rel = ROUGH_REL * np.abs(np.where(np.isfinite(a), a, 0))
    return _close(a, b, np.maximum(tol, rel))

# --------------------------------------------------------------------------------------------
# Building blocks


def positional_encoding(positions: int | Sequence[float], d_model: int) -> np.ndarray:
    """Sinusoidal PE of the paper: PE[pos, 2i] = sin(pos/10000^(2i/d)), PE[pos, 2i+1] = cos(same).

    ``positions`` is a count n (positions 0..n-1) or a list of positions. Note the exponent uses
    the *pair* index i, so dimensions 2i and 2i+1 share one frequency.
    """
    try:
        d = _check_dk(d_model)
    except ValueError:
        d = None
    if d is None:
        raise ValueError(f"d_model must be a positive integer, got {d_model!r}")
    if isinstance(positions, (int, np.integer)) and not isinstance(positions, bool):
        if positions <= 0:
            raise ValueError(f"number of positions must be positive, got {positions}")
        pos = np.arange(positions, dtype=np.float64)
    else:
        pos = _matrix(positions, "positions", ndim=(0, 1)).reshape(-1)
    return _pe(pos, d, pair_index=True)


def _pe(pos: np.ndarray, d: int, pair_index: bool = True, all_sin: bool = False) -> np.ndarray:
    """PE table; ``pair_index=False`` reproduces the common slip of using the dimension index."""
    i = np.arange(d)
    expo = (2 * (i // 2) if pair_index else 2 * i) / d
    angle = pos[:, None] / 10000.0 ** expo[None, :]
    if all_sin:
        return np.sin(angle)
    return np.where(i % 2 == 0, np.sin(angle), np.cos(angle))


def _parse_mask(mask: Any, t: int, s: int) -> np.ndarray | None:
    """Return a bool keep-matrix (True = may attend) or None for no mask.

    Accepts None/"none", "causal..." (keeps j <= i), a bool matrix, or an additive matrix of
    0 (keep) and -inf (masked). 0/1 integers are refused: 0 means "keep" additively but
    "masked" as a flag, and that ambiguity is exactly the notes' mistake.
    """
    if mask is None:
        return None
    if isinstance(mask, str):
        m = mask.strip().lower()
        if m in ("", "none", "no"):
            return None
        if m.startswith("causal"):
            return np.tril(np.ones((t, s), dtype=bool))
        raise ValueError(f"unknown mask {mask!r}: use 'causal', 'none' or a matrix")
    arr = np.asarray(mask)
    if arr.shape != (t, s):
        raise ValueError(f"mask must have shape ({t}, {s}) (queries x keys), got {arr.shape}")
    if arr.dtype == bool:
        return arr.copy()
    try:
        num = arr.astype(np.float64)
    except (TypeError, ValueError):
        raise ValueError("mask must hold booleans or the numbers 0 and -inf") from None
    if not np.all((num == 0) | np.isneginf(num)):
        raise ValueError("a numeric mask may only hold 0 (keep) and -inf (masked); use True/False otherwise")
    return num == 0


def _split_heads(a: np.ndarray, heads: int, name: str) -> list[np.ndarray]:
    """Split columns into ``heads`` equal blocks (the paper's layout of W_Q, W_K, W_V)."""
    if a.shape[-1] % heads:
        raise InputError("err_not_divisible", n=name, c=a.shape[-1], h=heads)
    return np.split(a, heads, axis=-1)


def _projections(W: Any, name: str, d_model: int, heads: int) -> list[np.ndarray]:
    """Per-head projection matrices from one matrix (its columns split into ``heads`` equal
    blocks, the paper's layout), one matrix per head (a 3-D stack), or None.

    None is the d_model × d_model identity, split like any other single matrix: head h then
    takes the h-th block of X's columns. That is what the model does with an identity
    projection, and it keeps the heads different, so the free mode shows what splitting into
    heads means; every head getting all of X (the notes' two-head example) is asked for
    explicitly, with one identity per head."""
    if W is None:
        if d_model % heads:
            raise InputError("err_blank_identity", n=name, d=d_model, h=heads)
        return _split_heads(np.eye(d_model), heads, name)
    w = _matrix(W, name, ndim=(2, 3))
    if w.ndim == 3:
        if w.shape[0] != heads:
            raise ValueError(f"{name} gives {w.shape[0]} per-head matrices but heads={heads}")
        mats = list(w)
    else:
        mats = _split_heads(w, heads, name)
    for m in mats:
        if m.shape[0] != d_model:
            raise InputError("err_w_rows", n=name, d=d_model, m=m.shape[0])
    return mats


def _core(Q: np.ndarray, K: np.ndarray, V: np.ndarray, divisor: float,
          keep: np.ndarray | None) -> dict[str, np.ndarray]:
    """The plain attention arithmetic: returns every intermediate by name."""
    out: dict[str, np.ndarray] = {"QK_T": Q @ K.T}
    out["scaled"] = out["QK_T"] / divisor
    out["masked"] = out["scaled"] if keep is None else np.where(keep, out["scaled"], -np.inf)
    out["exp"] = _shifted_exp(out["masked"])
    out["weights"] = softmax(out["masked"])
    out["output"] = out["weights"] @ V
    return out
