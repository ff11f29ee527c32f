"""The seeded percentile bootstrap the ladder's head to head and both tuners' confirmations
share (simkit.analysis.stats.percentile_interval, share_ratio)."""

from __future__ import annotations

import numpy as np

from simkit.analysis.stats import percentile_interval, share_ratio


def test_share_ratio_is_the_share_of_comparisons_won_along_an_axis():
    ahead = np.array([[3, 1], [0, 2]])
    behind = np.array([[1, 1], [2, 2]])
    assert share_ratio(ahead, behind).tolist() == [4 / 6, 2 / 6]
    assert share_ratio(ahead, behind, axis=0).tolist() == [3 / 6, 3 / 6]


def test_the_interval_is_seeded_and_holds_the_estimate():
    rng = np.random.default_rng(1)
    ahead, behind = rng.integers(0, 4, 300), rng.integers(0, 4, 300)
    a = percentile_interval((ahead, behind), share_ratio, 7, resamples=500, paired=True)
    b = percentile_interval((ahead, behind), share_ratio, 7, resamples=500, batch=100, paired=True)
    assert (a.low, a.high) == (b.low, b.high)  # batching is memory, not randomness
    assert a.low < share_ratio(ahead, behind) < a.high
