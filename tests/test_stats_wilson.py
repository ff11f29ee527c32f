"""Wilson intervals against hand-computed values."""

import numpy as np
import pytest

from simkit.analysis.stats import wilson_interval


@pytest.mark.parametrize(
    ("k", "n", "low", "high"),
    [
        # p=0.5, n=100: centre 0.5, half = 1.96*sqrt(.0025+.000096)/1.0384 = 0.0960
        (50, 100, 0.40383, 0.59617),
        # k=0, n=10: low 0, high = z^2/(n+z^2) = 3.8415/13.8415
        (0, 10, 0.0, 0.27753),
        (10, 10, 0.72247, 1.0),
        (1, 4, 0.04559, 0.69936),
    ],
)
def test_wilson_known_values(k, n, low, high):
    lo, hi = wilson_interval(k, n)
    assert float(lo) == pytest.approx(low, abs=5e-5)
    assert float(hi) == pytest.approx(high, abs=5e-5)


def test_wilson_empty_and_vectorised():
    lo, hi = wilson_interval(np.array([0, 3]), np.array([0, 6]))
    assert lo[0] == 0.0 and hi[0] == 1.0
    assert lo[1] < 0.5 < hi[1]
