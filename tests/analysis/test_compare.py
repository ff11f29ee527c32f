"""Paired comparisons on common random numbers."""

from dataclasses import replace

import numpy as np
import pytest
import scipy.stats

from simkit.analysis.compare import compare_cells, compare_runs, paired_difference
from simkit.errors import RunError

from .synthetic import synthetic_run

CELLS = [
    {"players": 4, "label": "base"},
    {"players": 4, "label": "slot 1 stronger", "strength": [0.3, 0, 0, 0]},
    {"players": 4, "label": "longer", "extra_rounds": 1, "extra_dents": 1},
]


@pytest.fixture(scope="module")
def run():
    return synthetic_run(CELLS, races=1500, seed=9)


def test_paired_difference_matches_scipy():
    g = np.random.default_rng(1)
    a = g.normal(10, 2, size=300)
    b = a + g.normal(0.3, 0.5, size=300)
    res = paired_difference(a, b)
    ci = scipy.stats.ttest_rel(b, a).confidence_interval(0.95)
    assert (res["low"], res["high"]) == pytest.approx((ci.low, ci.high), rel=1e-10)
    assert res["diff"] == pytest.approx((b - a).mean())
    ratio = (a.var(ddof=1) + b.var(ddof=1)) / (b - a).var(ddof=1)
    assert res["variance_ratio"] == pytest.approx(ratio)
    assert res["races_unpaired"] == np.ceil(300 * ratio)


def test_paired_is_narrower_than_unpaired(run):
    c = compare_cells(run, tolerance=0.02)
    win1 = c[(c["cell"] == 1) & (c["metric"] == "win") & (c["slot"] == 1)].iloc[0]
    assert (win1["sd_paired"] < win1["sd_unpaired"]).all()
    assert win1["variance_ratio"] > 2
    assert win1["races_unpaired"] > 2 * win1["races_a"]
    assert win1["pairing"] == "paired"
    assert win1["low"] > 0.02  # the planted advantage is found and exceeds the tolerance
    assert bool(win1["exceeds_tolerance"])
    # unpaired half-width from the two cells' own spreads is wider than the paired one
    half_unpaired = 1.96 * win1["sd_unpaired"] / np.sqrt(win1["races_a"])
    assert (win1["high"] - win1["low"]) / 2 < half_unpaired


def test_race_metric_difference_and_no_tolerance_outside_win(run):
    c = compare_cells(run, tolerance=0.02)
    rounds = c[(c["cell"] == 2) & (c["metric"] == "rounds")].iloc[0]
    assert rounds["low"] > 0.5 and rounds["diff"] == pytest.approx(1.0, abs=0.2)
    assert c.loc[c["metric"] != "win", "exceeds_tolerance"].isna().all()
    same = c[(c["cell"] == 1) & (c["metric"] == "lead_changes")].iloc[0]
    assert same["diff"] == 0 and not same["significant"]


def test_baseline_and_subset(run):
    c = compare_cells(run, [1, 2], seat_metrics=["win"], race_metrics=["rounds"])
    assert set(c["baseline"]) == {1} and set(c["cell"]) == {2}
    assert set(c["metric"]) == {"win", "rounds"}


def test_aggregates_only_run_compares_unpaired(run):
    lean = compare_cells(replace(run, races=None), tolerance=0.02)
    full = compare_cells(run, tolerance=0.02)
    assert (lean["pairing"] == "unpaired").all()
    w = ["cell", "metric", "slot"]
    both = lean.merge(full, on=w, suffixes=("_u", "_p"))
    assert np.allclose(both["diff_u"], both["diff_p"], atol=0.02)  # win: decided races only
    wider = both["metric"] == "win"
    width = lambda sfx: both[f"high_{sfx}"] - both[f"low_{sfx}"]  # noqa: E731
    assert (width("u")[wider] > width("p")[wider]).all()  # pairing narrows the intervals
    with pytest.raises(RunError, match="needs per-race rows"):
        compare_cells(replace(run, races=None), paired=True)


def test_unknown_metric_and_cell(run):
    with pytest.raises(RunError, match="unknown seat metric 'speed'"):
        compare_cells(run, seat_metrics=["speed"])
    with pytest.raises(RunError, match="no cell 7"):
        compare_cells(run, [0, 7])


def test_compare_runs_pairs_cells_and_checks_seeds(run):
    other = synthetic_run(CELLS[1:2] * 3, races=1500, seed=9)
    c = compare_runs(run, other)
    win1 = c[(c["cell_a"] == 0) & (c["metric"] == "win") & (c["slot"] == 1)].iloc[0]
    assert win1["diff"] > 0.03 and win1["variance_ratio"] > 2
    same = compare_runs(run, run)
    assert (same["diff"] == 0).all()
    reseeded = replace(other, manifest={**other.manifest, "seed": 10})
    assert (compare_runs(run, reseeded)["pairing"] == "unpaired").all()
    with pytest.raises(RunError, match=r"cannot be paired: their seeds differ \(9 vs 10\)"):
        compare_runs(run, reseeded, paired=True)


def test_constant_metrics_have_no_variance_ratio():
    res = paired_difference(np.zeros(50), np.zeros(50))
    assert res["diff"] == 0 and np.isnan(res["variance_ratio"]) and np.isnan(res["races_unpaired"])
    shifted = paired_difference(np.arange(50.0), np.arange(50.0) + 1)
    assert shifted["low"] == shifted["high"] == 1.0 and np.isinf(shifted["races_unpaired"])


def test_unpaired_difference_matches_scipy_welch():
    g = np.random.default_rng(3)
    x, y = g.normal(0, 1, 400), g.normal(0.3, 2, 300)
    from simkit.analysis.stats import welch_test

    res = welch_test(x.mean(), x.std(ddof=1), x.size, y.mean(), y.std(ddof=1), y.size)
    ref = scipy.stats.ttest_ind(y, x, equal_var=False)
    ci = ref.confidence_interval(0.95)
    assert (res.low, res.high) == pytest.approx((ci.low, ci.high), rel=1e-10)
    assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-10)


def _aa_flags(seed: int) -> tuple[bool, bool]:
    """An A/A comparison: two runs of one variant with different seeds, compared unpaired.

    Returns whether any row is significant after Holm's correction, and before it.
    """
    cell = [{"players": 4, "label": "same"}]
    a = synthetic_run(cell, races=1000, seed=1000 + 2 * seed)
    b = synthetic_run(cell, races=1000, seed=1001 + 2 * seed)
    c = compare_runs(a, b)
    assert (c["pairing"] == "unpaired").all() and len(c) == 4 * 3 + 4
    return bool(c["significant"].any()), bool((c["p"] < 0.05).any())


def test_aa_comparisons_flag_about_five_percent_of_runs():
    """Issue 14's A/A check: 30% of uncorrected runs flagged some difference.

    40 runs of 1,000 races a cell, 16 differences each; the false-alarm rate does not
    depend on the race count."""
    flags = [_aa_flags(s) for s in range(40)]
    corrected = sum(f for f, _ in flags)
    uncorrected = sum(u for _, u in flags)
    assert corrected <= 4  # about 5% of 40 is 2; at most 10% allows for chance
    assert uncorrected >= corrected + 8  # without the correction far more runs are flagged
