"""NumPy arithmetic that the worked examples and the figures share (the model itself uses torch)."""
from __future__ import annotations

import numpy as np


def shifted_exp(s) -> np.ndarray:
    """exp(s - row max) over the last axis, float64; -inf entries give 0 and a row that is entirely
    -inf gives zeros instead of NaN."""
    s = np.asarray(s, dtype=np.float64)
    m = np.max(s, axis=-1, keepdims=True)
    m = np.where(np.isfinite(m), m, 0.0)
    with np.errstate(invalid="ignore", over="ignore"):
        return np.where(np.isneginf(s), 0.0, np.exp(s - m))


def softmax(s) -> np.ndarray:
    """Softmax over the last axis in float64; -inf entries get 0 and a fully masked row gives
    zeros. Shifting by the row max keeps exp() from overflowing; it does not change the result."""
    e = shifted_exp(s)
    total = e.sum(axis=-1, keepdims=True)
    return np.divide(e, total, out=np.zeros_like(e), where=total > 0)
