"""Small, exact statistics used across simkit (docs/statistics.md says which and why)."""

from __future__ import annotations

import numpy as np

Z95 = 1.959963984540054  # two-sided 95% normal quantile


def wilson_interval(k, n, z: float = Z95) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval for a binomial proportion k/n (vectorised).

    Chosen over the normal ("Wald") interval because it keeps its coverage for rates near
    0 or 1 and small n, which win rates of bad start slots and rare events are.
    Returns (low, high); for n == 0 the interval is (0, 1).
    """
    k = np.asarray(k, dtype=np.float64)
    n = np.asarray(n, dtype=np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = np.where(n > 0, k / n, 0.5)
        z2 = z * z
        denom = 1.0 + z2 / n
        centre = (p + z2 / (2.0 * n)) / denom
        half = z * np.sqrt(p * (1.0 - p) / n + z2 / (4.0 * n * n)) / denom
        low = np.where(n > 0, np.clip(centre - half, 0.0, 1.0), 0.0)
        high = np.where(n > 0, np.clip(centre + half, 0.0, 1.0), 1.0)
    return low, high
