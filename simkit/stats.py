"""The statistics the runner needs as well as the analysis (docs/statistics.md): a win
rate's Wilson interval (a run's precision target) and the percentile bootstrap of a
head-to-head share (the skill levels' check). Below the runner; :mod:`simkit.analysis.stats`
has the rest and takes these from here.
"""

from __future__ import annotations

import numpy as np
from scipy import stats as sps
from statsmodels.stats.proportion import proportion_confint


def wilson_interval(k, n, level: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval of a binomial proportion k/n (statsmodels, vectorised).

    Chosen over the normal ("Wald") interval because it keeps its coverage for rates near
    0 or 1 and small n, which win rates of bad start slots and rare events are.
    Returns (low, high); for n == 0 the interval is (0, 1).
    """
    k = np.asarray(k, dtype=np.float64)
    n = np.asarray(n, dtype=np.float64)
    safe = np.where(n > 0, n, 1.0)
    low, high = proportion_confint(np.where(n > 0, k, 0.0), safe, 1 - level, method="wilson")
    # The bounds at k = 0 and k = n are exactly 0 and 1 (the library rounds to ~1e-19).
    low = np.where((n > 0) & (k > 0), np.clip(low, 0.0, 1.0), 0.0)
    high = np.where((n > 0) & (k < n), np.clip(high, 0.0, 1.0), 1.0)
    return low, high


def bootstrap(
    data, statistic, seed: int, *, resamples: int, batch: int | None = None, paired: bool = False
):
    """The percentile bootstrap of ``statistic`` over ``data`` (scipy, vectorized), drawn by
    a generator seeded with ``seed``: scipy's result, with ``.confidence_interval`` (95%)
    and ``.standard_error``."""
    return sps.bootstrap(
        tuple(data),
        statistic,
        paired=paired,
        vectorized=True,
        n_resamples=resamples,
        batch=batch,
        method="percentile",
        rng=np.random.default_rng(seed),
    )


def percentile_interval(
    data, statistic, seed: int, *, resamples: int, batch: int | None = None, paired: bool = False
):
    """The 95% percentile bootstrap interval of ``statistic`` over ``data`` (:func:`bootstrap`):
    ``.low`` and ``.high``."""
    return bootstrap(
        data, statistic, seed, resamples=resamples, batch=batch, paired=paired
    ).confidence_interval


def share_ratio(ahead: np.ndarray, behind: np.ndarray, axis: int = -1) -> np.ndarray:
    """The share of comparisons won, ``sum(ahead) / sum(ahead + behind)`` along ``axis``: the
    statistic of a head-to-head share's bootstrap (pairs of counts per race key)."""
    return ahead.sum(axis=axis) / (ahead + behind).sum(axis=axis)
