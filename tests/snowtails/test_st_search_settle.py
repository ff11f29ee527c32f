"""``search._settle``: a round of sequential halving that skips the rollouts which cannot
change it keeps the same plays, in the same order, as the round played in full."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit

from simkit.games.snowtails.records import WORK
from simkit.games.snowtails.search import _halve, _settle


@njit(cache=True)
def _round(works, results, tries0, sums0, prior, extra, settle):
    """One round over ``m`` plays from ``tries0``/``sums0``: sample by sample, each play
    still in it gets its next result of ``results`` (the leaders ``extra`` one more
    sample), dropped plays skipped and the round cut short as ``search_play`` does when
    ``settle``; returns (rollouts played, the plays kept in order after ``_halve``)."""
    wk = works[0]
    m, each = results.shape[0], results.shape[1] - 1
    rnd = np.zeros((4, m))
    alive = wk.alive
    for c in range(m):
        alive[c] = c
        wk.tries[c] = tries0[c]
        wk.sums[c] = sums0[c]
        rnd[0, c] = each + (1 if c < extra else 0)
        rnd[2, c] = prior[c]
    rnd[3, 0] = max(1, (m + 1) // 2)
    played = 0
    going = True
    for s in range(each + (1 if extra > 0 else 0)):
        for c in range(m):
            if rnd[0, c] == 0:
                continue
            wk.sums[c] += results[c, s]
            wk.tries[c] += 1
            rnd[0, c] -= 1
            played += 1
            if settle and not _settle(wk, alive, m, rnd):
                going = False
                break
        if not going:
            break
    keep = _halve(wk, alive, m, wk.tries, rnd[2])
    return played, alive[:keep].copy()


@st.composite
def rounds(draw):
    m = draw(st.integers(2, 8))
    each = draw(st.integers(1, 12))
    n = draw(st.sampled_from([2, 3, 4, 6]))  # a rank utility's steps: 1 / (n - 1)
    steps = st.integers(0, n - 1).map(lambda k: k / (n - 1))
    results = np.array(
        draw(
            st.lists(st.lists(steps, min_size=each + 1, max_size=each + 1), min_size=m, max_size=m)
        )
    )
    tries0 = np.array(draw(st.lists(st.integers(0, 6), min_size=m, max_size=m)), np.int64)
    sums0 = np.array([draw(st.integers(0, t * (n - 1))) / (n - 1) for t in tries0])
    prior = np.array(
        draw(st.lists(st.sampled_from([0.0, 0.0, -0.1, -0.25, -0.5]), min_size=m, max_size=m))
    )
    prior[0] = 0.0
    extra = draw(st.integers(0, m - 1)) if m == 2 else 0
    return results, tries0, sums0, prior, extra


@settings(max_examples=300, deadline=None)
@given(rounds())
def test_a_settled_round_keeps_what_the_full_round_keeps(case):
    results, tries0, sums0, prior, extra = case
    works = np.zeros(1, dtype=WORK)
    full, kept = _round(works, results, tries0, sums0, prior, extra, False)
    played, kept_settled = _round(works, results, tries0, sums0, prior, extra, True)
    assert played <= full
    if kept.size == 1:
        assert kept_settled[0] == kept[0]  # the search's choice
    else:
        assert np.array_equal(kept_settled, kept)  # the plays kept, in the same order


def test_a_clear_round_is_cut_short():
    # Two plays, twelve samples: one wins every rollout, the other loses every one; after
    # seven samples each no rollout left can turn it (7 / 12 > 5 / 12 at best).
    results = np.zeros((2, 13))
    results[0] = 1.0
    works = np.zeros(1, dtype=WORK)
    played, kept = _round(
        works, results[:, :13], np.zeros(2, np.int64), np.zeros(2), np.zeros(2), 0, True
    )
    assert list(kept) == [0] and played < 24
