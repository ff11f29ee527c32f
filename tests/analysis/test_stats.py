"""Chi-square tests, mean intervals and sample sizes against scipy and hand-computed values."""

import numpy as np
import pytest
import scipy.stats

from simkit.analysis.stats import (
    chi_square_gof,
    chi_square_independence,
    mean_interval,
    races_for_half_width,
    t_interval,
)


@pytest.mark.parametrize(
    ("observed", "probs"),
    [([18, 22, 20, 40], None), ([5, 9], None), ([30, 10, 10], [0.5, 0.25, 0.25])],
)
def test_gof_matches_scipy(observed, probs):
    res = chi_square_gof(observed, probs)
    exp = None if probs is None else np.asarray(probs) * sum(observed)
    ref = scipy.stats.chisquare(observed, exp)
    assert res.statistic == pytest.approx(ref.statistic, rel=1e-12)
    assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-9)
    assert res.dof == len(observed) - 1


def test_gof_hand_computed():
    # 60 wins over 3 slots, expected 20 each: (10^2 + 0 + 10^2) / 20 = 10, V = sqrt(10/120)
    res = chi_square_gof([30, 20, 10])
    assert res.statistic == pytest.approx(10.0)
    assert res.pvalue == pytest.approx(np.exp(-5.0))  # chi2(2) survival is exp(-x/2)
    assert res.effect == pytest.approx(np.sqrt(10 / 120))


@pytest.mark.parametrize(
    "table",
    [
        [[10, 20], [30, 40]],
        [[12, 5, 7], [3, 9, 14], [8, 8, 8]],
        [[25, 5, 0, 0], [5, 25, 0, 0]],  # all-zero columns are dropped, as in scipy
        [[1, 2, 3, 4], [4, 3, 2, 1], [2, 2, 2, 2], [9, 0, 1, 0]],
    ],
)
def test_independence_matches_scipy(table):
    t = np.asarray(table)
    res = chi_square_independence(t)
    kept = t[:, t.sum(axis=0) > 0]
    ref = scipy.stats.chi2_contingency(kept, correction=False)
    assert res.statistic == pytest.approx(ref.statistic, rel=1e-12)
    assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-9)
    assert res.dof == ref.dof
    v = scipy.stats.contingency.association(kept, method="cramer", correction=False)
    assert res.effect == pytest.approx(v, rel=1e-12)


def test_independence_degenerate_table_is_nan():
    res = chi_square_independence([[5, 5]])
    assert np.isnan(res.statistic) and np.isnan(res.pvalue)


def test_mean_interval_hand_computed():
    # 1..5: mean 3, sd sqrt(2.5), t(4) 97.5% = 2.776445; half = 2.776445 * 1.581139 / sqrt(5)
    x = np.arange(1.0, 6.0)
    mean, low, high, sd = mean_interval(5, x.sum(), (x * x).sum())
    assert float(mean) == 3.0
    assert float(sd) == pytest.approx(np.sqrt(2.5))
    assert float(low) == pytest.approx(3 - 1.963243, abs=1e-6)
    assert float(high) == pytest.approx(3 + 1.963243, abs=1e-6)


def test_mean_interval_matches_scipy_on_data():
    x = np.random.default_rng(3).poisson(2.5, size=400).astype(float)
    _, low, high, _ = mean_interval(x.size, x.sum(), (x * x).sum())
    ref = scipy.stats.t.interval(0.95, x.size - 1, loc=x.mean(), scale=scipy.stats.sem(x))
    assert (float(low), float(high)) == pytest.approx(ref, rel=1e-10)


def test_mean_interval_small_n_has_no_bounds():
    mean, low, high, _ = mean_interval([0, 1], [0.0, 4.0], [0.0, 16.0])
    assert np.isnan(mean[0]) and mean[1] == 4.0
    assert np.isnan(low).all() and np.isnan(high).all()


def test_t_interval_zero_spread_is_a_point():
    low, high = t_interval(2.0, 0.0, 50)
    assert float(low) == float(high) == 2.0


def test_races_for_half_width():
    # 1.96^2 * 0.25 * 0.75 / 0.01^2 = 7202.9
    assert races_for_half_width(0.25, 0.01) == 7203
    assert races_for_half_width(0.5, 0.02) == 2401


def test_scale_changes_the_test_but_not_the_effect_size():
    t = np.diag([50, 50, 50])  # the row decides the column: V = 1
    plain = chi_square_independence(t)
    scaled = chi_square_independence(t, scale=2 / 3)
    assert plain.effect == pytest.approx(1.0) and scaled.effect == pytest.approx(1.0)
    assert scaled.statistic == pytest.approx(plain.statistic * 2 / 3)
    assert scaled.pvalue > plain.pvalue
