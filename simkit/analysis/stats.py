"""Small, exact statistics used across simkit (docs/statistics.md says which and why)."""

from __future__ import annotations

from typing import NamedTuple

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


class ChiSquare(NamedTuple):
    """A chi-square test result: statistic, degrees of freedom, p-value and effect size.

    ``effect`` is Cramér's V: 0 means "no association", 1 the strongest possible.
    """

    statistic: float
    dof: int
    pvalue: float
    effect: float


def _chi2_sf(stat: float, dof: int) -> float:
    from scipy.stats import chi2

    return float(chi2.sf(stat, dof)) if dof > 0 else float("nan")


def chi_square_gof(observed, probs=None) -> ChiSquare:
    """Pearson goodness-of-fit test of counts against category probabilities.

    Args:
        observed: counts per category.
        probs: expected share of each category (default: all equal); rescaled to sum to 1.

    Returns:
        The test with ``dof = k - 1`` and Cramér's V for one-way tables,
        ``sqrt(stat / (N (k - 1)))``, which is 1 when every count falls in one category
        (of equally likely ones).
    """
    obs = np.asarray(observed, dtype=np.float64)
    k = obs.size
    p = np.full(k, 1.0 / k) if probs is None else np.asarray(probs, dtype=np.float64)
    p = p / p.sum()
    total = obs.sum()
    if k < 2 or total <= 0:
        return ChiSquare(float("nan"), max(k - 1, 0), float("nan"), float("nan"))
    exp = total * p
    stat = float(np.sum((obs - exp) ** 2 / exp))
    dof = k - 1
    return ChiSquare(stat, dof, _chi2_sf(stat, dof), float(np.sqrt(stat / (total * dof))))


def chi_square_independence(table, *, scale: float = 1.0) -> ChiSquare:
    """Pearson test of independence of the rows and columns of a contingency table.

    Rows or columns that are all zero are dropped first (they carry no information). No
    continuity correction, as in ``scipy.stats.chi2_contingency(..., correction=False)``.

    Args:
        table: 2-D counts.
        scale: multiply the statistic by this before looking up the p-value; used where
            the counts are not independent draws but the statistic's null distribution is a
            known multiple of chi-square (see :func:`simkit.analysis.fairness`). Cramér's V
            is computed from the unscaled statistic, so a table where the row decides the
            column still has V = 1.
    """
    t = np.asarray(table, dtype=np.float64)
    t = t[t.sum(axis=1) > 0][:, t.sum(axis=0) > 0]
    r, c = t.shape if t.ndim == 2 else (0, 0)
    total = t.sum()
    if r < 2 or c < 2:
        return ChiSquare(float("nan"), 0, float("nan"), float("nan"))
    exp = np.outer(t.sum(axis=1), t.sum(axis=0)) / total
    raw = float(np.sum((t - exp) ** 2 / exp))
    dof = (r - 1) * (c - 1)
    v = float(np.sqrt(raw / (total * (min(r, c) - 1))))  # from the raw statistic: max 1
    return ChiSquare(raw * scale, dof, _chi2_sf(raw * scale, dof), v)


def t_interval(mean, sd, n, level: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    """Student-t interval ``mean ± t(n-1) sd / sqrt(n)``; NaN bounds where n < 2."""
    from scipy.stats import t as student_t

    mean, sd, n = (np.asarray(a, dtype=np.float64) for a in (mean, sd, n))
    with np.errstate(invalid="ignore", divide="ignore"):
        q = student_t.ppf(0.5 + level / 2.0, np.maximum(n - 1, 1))
        half = np.where(n > 1, q * sd / np.sqrt(n), np.nan)
    return mean - half, mean + half


def mean_interval(n, total, sumsq, level: float = 0.95) -> tuple[np.ndarray, ...]:
    """Mean and its Student-t confidence interval from count, sum and sum of squares.

    This is what the aggregate tables store, so means of 10-million-race runs need no
    per-race rows. The sample variance is ``(sumsq - sum**2 / n) / (n - 1)``, clipped at 0
    against rounding. With n < 2 the bounds are NaN. For the large n of simulation runs the
    t quantile equals the normal one; t keeps small test runs honest.

    Returns:
        (mean, low, high, sd) as float arrays.
    """
    n = np.asarray(n, dtype=np.float64)
    s = np.asarray(total, dtype=np.float64)
    ss = np.asarray(sumsq, dtype=np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.where(n > 0, s / n, np.nan)
        var = np.where(n > 1, np.maximum(ss - s * s / n, 0.0) / (n - 1), np.nan)
    sd = np.sqrt(var)
    low, high = t_interval(mean, sd, n, level)
    return mean, low, high, sd


def races_for_half_width(p, half_width, z: float = Z95) -> np.ndarray:
    """Races needed for a 95% interval of half-width ``half_width`` around a rate ``p``.

    Uses the normal approximation ``z**2 p (1 - p) / h**2``, which the Wilson interval
    matches once n is in the hundreds (every case the table in docs/statistics.md lists).
    """
    p = np.asarray(p, dtype=np.float64)
    h = np.asarray(half_width, dtype=np.float64)
    return np.ceil(z * z * p * (1.0 - p) / (h * h))
