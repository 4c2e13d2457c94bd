"""transformer.core.numeric.softmax: the one NumPy softmax the worked examples and figures use."""
from __future__ import annotations

import numpy as np

from transformer.core.numeric import shifted_exp, softmax


def test_softmax_is_stable_masked_and_row_wise():
    s = np.array([[1000.0, 999.0, -np.inf], [-np.inf, -np.inf, -np.inf], [0.0, 0.0, 0.0]])
    p = softmax(s)
    assert np.isfinite(p).all()
    np.testing.assert_allclose(p[0], [1 / (1 + np.exp(-1)), np.exp(-1) / (1 + np.exp(-1)), 0.0])
    assert p[0, 2] == 0.0 and (p[1] == 0).all()
    np.testing.assert_allclose(p[2], [1 / 3] * 3)
    np.testing.assert_allclose(softmax([1.0, 2.0, 3.0]), softmax(np.array([[1.0, 2.0, 3.0]]))[0])
    assert (shifted_exp(s)[1] == 0).all() and shifted_exp(s)[0, 0] == 1.0
