"""The statistics simkit reports, taken from scipy and statsmodels (docs/statistics.md).

This module only adapts the libraries to the shapes simkit keeps (counts, and n / sum /
sum of squares per group) and says which method each number uses; it computes no
interval or test by hand.
"""

from __future__ import annotations

import gc
from contextlib import contextmanager
from typing import NamedTuple

import numpy as np
from scipy import stats as sps
from scipy.stats.contingency import association
from statsmodels.stats.multitest import multipletests

from simkit.stats import percentile_interval as percentile_interval
from simkit.stats import share_ratio as share_ratio
from simkit.stats import wilson_interval as wilson_interval

Z95 = float(sps.norm.ppf(0.975))  # two-sided 95% normal quantile
ALPHA = 0.05
CORRECTION = "holm"  # statsmodels multipletests method for a comparison's rows


class ChiSquare(NamedTuple):
    """A chi-square test result: statistic, degrees of freedom, p-value and effect size.

    ``effect`` is Cramér's V: 0 means "no association", 1 the strongest possible.
    """

    statistic: float
    dof: int
    pvalue: float
    effect: float


_NAN_TEST = ChiSquare(float("nan"), 0, float("nan"), float("nan"))


def chi_square_gof(observed, probs=None) -> ChiSquare:
    """Pearson goodness-of-fit test of counts against category probabilities (scipy).

    Args:
        observed: counts per category.
        probs: expected share of each category (default: all equal); rescaled to sum to 1.

    Returns:
        The test with ``dof = k - 1`` and Cramér's V of a one-way table,
        ``sqrt(stat / (N (k - 1)))``: 1 when every count falls in one of k equally likely
        categories.
    """
    obs = np.asarray(observed, dtype=np.float64)
    k, total = obs.size, obs.sum()
    if k < 2 or total <= 0:
        return ChiSquare(float("nan"), max(k - 1, 0), float("nan"), float("nan"))
    p = np.full(k, 1.0 / k) if probs is None else np.asarray(probs, dtype=np.float64)
    res = sps.chisquare(obs, total * p / p.sum())
    stat = float(res.statistic)
    return ChiSquare(stat, k - 1, float(res.pvalue), float(np.sqrt(stat / (total * (k - 1)))))


def chi_square_independence(table, *, scale: float = 1.0) -> ChiSquare:
    """Pearson test of independence of a contingency table's rows and columns (scipy).

    Rows or columns that are all zero are dropped first (they carry no information). No
    continuity correction.

    Args:
        table: 2-D counts.
        scale: multiply the statistic by this before looking up the p-value; used where
            the counts are not independent draws but the statistic's null distribution is a
            known multiple of chi-square (see :func:`simkit.analysis.fairness`). Cramér's V
            (scipy's ``association``) is computed from the table itself, so a table where
            the row decides the column still has V = 1.
    """
    t = np.asarray(table, dtype=np.float64)
    if t.ndim != 2:
        return _NAN_TEST
    t = t[t.sum(axis=1) > 0][:, t.sum(axis=0) > 0]
    if min(t.shape) < 2:
        return _NAN_TEST
    res = sps.chi2_contingency(t, correction=False)
    stat = float(res.statistic) * scale
    dof = int(res.dof)
    v = float(association(np.rint(t).astype(np.int64), method="cramer", correction=False))
    return ChiSquare(stat, dof, float(sps.chi2.sf(stat, dof)), v)


def t_interval(mean, sd, n, level: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    """Student-t interval of a mean (scipy ``t.interval``); NaN bounds where n < 2.

    A sample without scatter (sd 0) has the point itself as its interval.
    """
    mean, sd, n = (np.asarray(a, dtype=np.float64) for a in (mean, sd, n))
    with np.errstate(invalid="ignore", divide="ignore"):
        scale = np.where(n > 1, sd / np.sqrt(n), np.nan)
        low, high = sps.t.interval(level, np.maximum(n - 1, 1), loc=mean, scale=scale)
    point = (scale == 0) & np.isfinite(mean)
    return np.where(point, mean, low), np.where(point, mean, high)


def moments(n, total, sumsq) -> tuple[np.ndarray, np.ndarray]:
    """Mean and sample standard deviation from count, sum and sum of squares.

    This is what the aggregate tables store, so a 10-million-race run needs no per-race
    rows. The sample variance ``(sumsq - sum**2 / n) / (n - 1)`` is clipped at 0 against
    rounding; NaN where n < 2 (mean NaN where n == 0).
    """
    n = np.asarray(n, dtype=np.float64)
    s = np.asarray(total, dtype=np.float64)
    ss = np.asarray(sumsq, dtype=np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.where(n > 0, s / n, np.nan)
        var = np.where(n > 1, np.maximum(ss - s * s / n, 0.0) / (n - 1), np.nan)
    return mean, np.sqrt(var)


def mean_interval(n, total, sumsq, level: float = 0.95) -> tuple[np.ndarray, ...]:
    """Mean and its Student-t interval from count, sum and sum of squares.

    Returns:
        (mean, low, high, sd) as float arrays.
    """
    mean, sd = moments(n, total, sumsq)
    low, high = t_interval(mean, sd, n, level)
    return mean, low, high, sd


class Difference(NamedTuple):
    """A difference of two means (b - a) with its 95% interval and two-sided p-value."""

    diff: float
    low: float
    high: float
    pvalue: float


def paired_test(a, b, level: float = 0.95) -> Difference:
    """Paired Student-t on ``b - a`` (scipy ``ttest_rel``): common random numbers."""
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    if a.size < 2:
        return Difference(float(np.mean(b - a)) if a.size else np.nan, np.nan, np.nan, np.nan)
    d = b - a
    if not np.any(d != d[0]):  # no scatter: the interval is the point, no test
        p = 1.0 if d[0] == 0 else 0.0
        return Difference(float(d[0]), float(d[0]), float(d[0]), p)
    res = sps.ttest_rel(b, a)
    ci = res.confidence_interval(level)
    return Difference(float(d.mean()), float(ci.low), float(ci.high), float(res.pvalue))


def welch_test(mean_a, sd_a, n_a, mean_b, sd_b, n_b, level: float = 0.95) -> Difference:
    """Unpaired difference of two means from summary statistics (Welch).

    The p-value is scipy's ``ttest_ind_from_stats(equal_var=False)``; the interval is
    scipy's ``t.interval`` with the Welch–Satterthwaite degrees of freedom, so both use the
    same t distribution. Independent samples: two runs with different seeds, or cells
    without common random numbers.
    """
    va, vb = sd_a**2 / n_a, sd_b**2 / n_b
    se = float(np.sqrt(va + vb))
    diff = float(mean_b - mean_a)
    if not np.isfinite(se) or n_a < 2 or n_b < 2:
        return Difference(diff, np.nan, np.nan, np.nan)
    if se == 0:
        return Difference(diff, diff, diff, 1.0 if diff == 0 else 0.0)
    dof = (va + vb) ** 2 / (va**2 / (n_a - 1) + vb**2 / (n_b - 1))
    low, high = sps.t.interval(level, dof, loc=diff, scale=se)
    p = sps.ttest_ind_from_stats(mean_b, sd_b, n_b, mean_a, sd_a, n_a, equal_var=False).pvalue
    return Difference(diff, float(low), float(high), float(p))


def adjust(pvalues, method: str = CORRECTION, alpha: float = ALPHA) -> tuple[np.ndarray, ...]:
    """Multiple-comparison control over a family of p-values (statsmodels ``multipletests``).

    NaN p-values (rows without a test) stay NaN and are never significant.

    Returns:
        (significant, adjusted p-values) as arrays aligned with ``pvalues``.
    """
    p = np.asarray(pvalues, dtype=np.float64)
    ok = np.isfinite(p)
    reject = np.zeros(p.shape, dtype=bool)
    adjusted = np.full(p.shape, np.nan)
    if ok.any():
        # statsmodels' Holm branch ends in gc.collect(), which costs 0.1-0.7 s on a report's
        # heap, once per call: the same arithmetic, without the collection.
        with _no_collect():
            r, a, _, _ = multipletests(p[ok], alpha=alpha, method=method)
        reject[ok], adjusted[ok] = r, a
    return reject, adjusted


@contextmanager
def _no_collect():
    """``gc.collect`` as a no-op for the length of one statsmodels call (it imports gc
    inside the function, so only the gc module's own attribute can be stood in for)."""
    saved = gc.collect
    gc.collect = lambda *args, **kwargs: 0
    try:
        yield
    finally:
        gc.collect = saved


def beyond_margin(diff, low, high, margin) -> np.ndarray:
    """Two-sided p-value that a difference lies beyond ``±margin`` (a minimum-effect test).

    The null hypothesis is ``|true difference| <= margin``; it is rejected at level alpha
    when the difference's own (1 - alpha) two-sided normal interval lies wholly beyond
    ``+margin`` or wholly beyond ``-margin``: ``p = min(1, 2 * min(P(Z > (d - m)/se),
    P(Z < (d + m)/se)))`` with ``se`` read from the 95% interval ``[low, high]`` (the
    intervals here are normal, :func:`difference_of_means`). With ``margin = 0`` it is the
    ordinary two-sided test; with a margin, a difference smaller than it is never
    significant, however many races measured it. Under no difference this p is larger than
    the ordinary one, so a correction that bounds the ordinary tests bounds these too.
    (statsmodels' TOST tests the opposite hypothesis, equivalence within the margin.)
    """
    d, margin = np.asarray(diff, dtype=np.float64), np.asarray(margin, dtype=np.float64)
    se = (np.asarray(high, dtype=np.float64) - np.asarray(low, dtype=np.float64)) / (2 * Z95)
    with np.errstate(invalid="ignore", divide="ignore"):
        above = sps.norm.sf((d - margin) / se)
        below = sps.norm.cdf((d + margin) / se)
    p = np.minimum(1.0, 2.0 * np.minimum(above, below))
    # A difference measured without spread is beyond the margin or not, for certain.
    exact = se == 0
    return np.where(exact, np.where(np.abs(d) > margin, 0.0, 1.0), p)


def races_for_half_width(p, half_width, z: float = Z95) -> np.ndarray:
    """Races needed for a 95% interval of half-width ``half_width`` around a rate ``p``.

    Uses the normal approximation ``z**2 p (1 - p) / h**2``, which the Wilson interval
    matches once n is in the hundreds (every case the table in docs/statistics.md lists).
    """
    p = np.asarray(p, dtype=np.float64)
    h = np.asarray(half_width, dtype=np.float64)
    return np.ceil(z * z * p * (1.0 - p) / (h * h))


def difference_of_means(
    n_a, mean_a, var_a, n_b, mean_b, var_b, n_ab=0, cov_ab=0.0, level: float = 0.95
) -> Difference:
    """``mean_b - mean_a`` of two samples that may share some races, with its interval.

    The two means are over all of each sample's races; the ``n_ab`` races in both (common
    random numbers: the same race key) make them correlated, by ``cov_ab`` per shared race:
    ``Var = var_a/n_a + var_b/n_b - 2 n_ab cov_ab / (n_a n_b)``. With ``n_ab = 0`` this is the
    unpaired (Welch) variance, with ``n_a = n_b = n_ab`` the paired one: one formula uses every
    race of both samples and pairs the ones they share (the large-sample form of the
    partially-overlapping-samples test, Derrick et al. 2017). The interval and p-value are
    normal (``scipy.stats.norm``): simkit's samples are hundreds of races or more.
    """
    diff = float(mean_b - mean_a)
    if not (n_a >= 2 and n_b >= 2):
        return Difference(diff, np.nan, np.nan, np.nan)
    var = var_a / n_a + var_b / n_b - 2.0 * n_ab * cov_ab / (n_a * n_b)
    se = float(np.sqrt(max(var, 0.0)))
    if not np.isfinite(se):
        return Difference(diff, np.nan, np.nan, np.nan)
    if se == 0:
        return Difference(diff, diff, diff, 1.0 if diff == 0 else 0.0)
    z = float(sps.norm.ppf(0.5 + level / 2))
    p = float(2.0 * sps.norm.sf(abs(diff) / se))
    return Difference(diff, diff - z * se, diff + z * se, p)


def overlap_difference(a, b, level: float = 0.95) -> Difference:
    """:func:`difference_of_means` of two per-race samples (pandas Series indexed by race).

    NaN values are left out (e.g. a win where the race was not decided); races present in
    both samples are paired.
    """
    frame = overlap_differences(a.to_frame("x"), b.to_frame("x"), level)
    return Difference(*frame.loc["x", ["diff", "low", "high", "p"]].astype(float))


def overlap_differences(a, b, level: float = 0.95):
    """:func:`overlap_difference` of every column two frames share (rows: races).

    Returns a frame indexed by column with ``diff``, ``low``, ``high``, ``p`` and ``shared``
    (the races paired: present and not NaN in both).
    """
    import pandas as pd

    cols = [c for c in a.columns if c in b.columns]
    races = a.index.union(b.index)
    x = a[cols].reindex(races).to_numpy(np.float64)
    y = b[cols].reindex(races).to_numpy(np.float64)
    mx, my = ~np.isnan(x), ~np.isnan(y)
    both = mx & my
    with np.errstate(invalid="ignore", divide="ignore"):
        n_a, n_b, n_ab = mx.sum(0), my.sum(0), both.sum(0)
        mean_a, mean_b = np.nanmean(x, axis=0), np.nanmean(y, axis=0)
        var_a, var_b = np.nanvar(x, axis=0, ddof=1), np.nanvar(y, axis=0, ddof=1)
        xs, ys = np.where(both, x, np.nan), np.where(both, y, np.nan)
        dx, dy = xs - np.nanmean(xs, axis=0), ys - np.nanmean(ys, axis=0)
        cov = np.where(n_ab > 1, np.nansum(dx * dy, axis=0) / (n_ab - 1), 0.0)
    rows = [
        difference_of_means(*args, level=level)
        for args in zip(n_a, mean_a, var_a, n_b, mean_b, var_b, n_ab, cov, strict=True)
    ]
    out = pd.DataFrame(rows, index=cols, columns=["diff", "low", "high", "p"])
    out["shared"] = n_ab
    return out
