"""Ratings: which races count, the fit recovers known strengths, intervals cover them."""

from __future__ import annotations

import choix
import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simkit.analysis.ratings import (
    Outcomes,
    compare,
    fit,
    head_to_head,
    outcomes,
    pair_share,
    rungs,
    verdict,
    win_rates,
)
from simkit.ratings import ALPHA, _choices, _counted, _fit
from tests.ladder.synthetic import draw

# Seat 0..3 with bots 0, 1, 2, 0; places: 0 = did not finish.
HAND = Outcomes(
    bots=("a", "b", "c"),
    bot=np.array([[0, 1, 2, 0], [0, 1, 2, 0], [0, 1, 2, 0], [2, 0, 1, 2]]),
    place=np.array([[1, 0, 2, 0], [1, 1, 0, 0], [0, 0, 0, 0], [2, 3, 1, 4]]),
    key=np.array([0, 1, 2, 0]),
    decided=np.array([True, False, False, True]),
)


def test_decided_races_are_those_with_one_winner_who_finished():
    rows = pd.DataFrame(
        {
            "cell": [0] * 9,
            "race": [0, 0, 0, 1, 1, 1, 2, 2, 2],
            "seat": [0, 1, 2] * 3,
            "bot": ["a", "b", "c"] * 3,
            "finish": [2, 1, 3, 1, 1, 3, 1, 2, 3],  # race 1: a draw for first
            "finished": [True, True, False, True, True, True, False, False, False],
        }
    )
    o = outcomes(rows, ("a", "b", "c"))
    assert o.decided.tolist() == [True, False, False]  # race 2: everybody out
    assert o.place.tolist() == [[2, 1, 0], [1, 1, 3], [0, 0, 0]]
    assert o.bot.tolist() == [[0, 1, 2]] * 3


def test_finishers_choose_in_order_and_non_finishers_are_an_unordered_tail():
    data, keys = _choices(HAND)
    assert data == [
        (0, [1, 2, 0]),  # race 0: a first, over b, c and the other a
        (2, [1, 0]),  # then c over the two seats that did not finish
        (1, [2, 0, 2]),  # race 3 (key 0): b, c, a, c ... one choice per place but the last
        (2, [0, 2]),
        (0, [2]),
    ]
    assert keys.tolist() == [0, 0, 0, 0, 0]


def test_win_rates_and_head_to_head_count_decided_races_only():
    w = win_rates(HAND).set_index("bot")
    assert w["seats"].tolist() == [3, 2, 3] and w["wins"].tolist() == [1, 1, 0]
    h = head_to_head(HAND).set_index(["bot", "opponent"])
    # race 0: the first a ahead of b and c, c ahead of b and the unplaced a (a-b unplaced:
    # not separated); race 3: b ahead of a and both c, the c in 2nd ahead of a, a ahead of
    # the c in 4th.
    assert h.loc[("a", "b"), ["ahead", "races"]].tolist() == [1, 2]
    assert h.loc[("a", "c"), ["ahead", "races"]].tolist() == [2, 4]
    assert h.loc[("c", "a"), ["ahead", "races"]].tolist() == [2, 4]
    assert h.loc[("b", "c"), ["ahead", "races"]].tolist() == [2, 3]
    assert h.loc[("c", "b"), ["ahead", "races"]].tolist() == [1, 3]
    assert h.loc[("a", "b"), "share"] == pytest.approx(1 / 2)


def _covered(theta, lineups, races, datasets, budget):
    hits, diff_hits = [], []
    centred = np.asarray(theta) - np.mean(theta)
    for s in range(datasets):
        o = draw(theta, lineups, races, seed=1000 + s)
        r = fit(o, seed=s, replicates=40, budget=budget)
        t = r.table().set_index("bot").loc[list(o.bots)]
        hits += list((t["low"] <= centred) & (centred <= t["high"]))
        _, lo, hi = r.interval(0, 1)
        diff_hits.append(lo <= theta[0] - theta[1] <= hi)
    return np.mean(hits), np.mean(diff_hits), r


@pytest.mark.parametrize("budget", [100_000, 300])
def test_intervals_cover_known_strengths(budget):
    """Two players (Bradley-Terry), three bots: 95% intervals cover the truth ~95% of the time.

    24 data sets x 3 bots; a broken interval covers far less (too narrow, off-centre) or
    nearly always (unscaled m-out-of-n deviations, twice too wide here). budget=300 forces
    the m-out-of-n bootstrap (m = n / 4 here).
    """
    theta = [0.6, 0.0, -0.9]
    lineups = [(0, 1), (1, 0), (0, 2), (2, 0), (1, 2), (2, 1)]
    rate, diff_rate, r = _covered(theta, lineups, races=100, datasets=24, budget=budget)
    assert (r.keys_drawn < r.keys) == (budget == 300)
    assert 0.8 <= rate <= 0.99 and 0.75 <= diff_rate <= 1.0


def test_fit_recovers_plackett_luce_strengths_from_four_player_orders():
    theta = np.array([1.0, 0.3, 0.0, -1.3])
    lineups = [tuple((j + r) % 4 for j in range(4)) for r in range(4)]
    o = draw(theta, lineups, races=800, seed=7, undecided=0.1)
    r = fit(o, seed=1, replicates=20)
    assert r.rating == pytest.approx(theta - np.mean(theta), abs=0.08)
    assert list(r.table()["bot"]) == ["bot0", "bot1", "bot2", "bot3"]


def test_undecided_races_leave_the_fit_unchanged():
    lineups = [(0, 1, 2), (1, 2, 0), (2, 0, 1)]
    o = draw([0.5, 0.0, -0.5], lineups, races=200, seed=3, undecided=0.3)
    keep = o.decided
    only = Outcomes(o.bots, o.bot[keep], o.place[keep], o.key[keep], o.decided[keep])
    a, b = fit(o, replicates=20), fit(only, replicates=20)
    assert np.array_equal(a.rating, b.rating) and a.choices == b.choices


def test_same_seed_same_intervals_other_seed_other_replicates():
    o = draw([0.5, 0.0, -0.5], [(0, 1, 2), (1, 2, 0), (2, 0, 1)], races=100, seed=3)
    a, b, c = (
        fit(o, seed=5, replicates=30),
        fit(o, seed=5, replicates=30),
        fit(o, seed=6, replicates=30),
    )
    pd.testing.assert_frame_equal(a.table(), b.table())
    assert not np.array_equal(a.replicates, c.replicates)


def test_a_pair_is_above_only_when_ratings_and_head_to_head_both_exclude_parity():
    both = compare("a", "b", (0.2, 0.1, 0.3), (0.55, 0.52, 0.58), 4000)
    assert both == (
        "a above b (rating difference +0.200 [+0.100, +0.300]; head to head 55.0% [52.0, 58.0])."
    )
    # The case: greedy:tuned over greedy:bold on ratings, level head to head.
    split = compare("t", "b", (0.218, 0.149, 0.297), (0.501, 0.486, 0.517), 20000)
    assert split == (
        "ratings put t above b (rating difference +0.218 [+0.149, +0.297]); head to head "
        "they are level: 50.1% [48.6, 51.7]."
    )
    against = compare("t", "b", (0.2, 0.1, 0.3), (0.47, 0.45, 0.49), 100)
    assert "head to head b finishes ahead: t 47.0% [45.0, 49.0]" in against
    only_h2h = compare("a", "b", (0.05, -0.01, 0.1), (0.53, 0.51, 0.55), 100)
    assert only_h2h.startswith("head to head a finishes ahead of b: a 53.0% [51.0, 55.0]; the ")
    level = compare("a", "b", (0.05, -0.01, 0.1), (0.51, 0.49, 0.53), 4000)
    assert level.startswith("a and b not separated at 4,000 races (rating difference +0.050")
    assert verdict((0.2, 0.1, 0.3), (0.55, 0.52, 0.58)) == "above"
    assert verdict((-0.2, -0.3, -0.1), (0.45, 0.42, 0.48)) == "below"
    assert verdict((0.0, -0.1, 0.1), (0.5, 0.48, 0.52)) == "level"
    assert verdict((0.2, 0.1, 0.3), (0.5, 0.48, 0.52)) == "split"


def test_rungs_and_the_pair_share_come_from_the_same_races():
    lineups = [(0, 1), (1, 0), (0, 2), (2, 0), (1, 2), (2, 1)]
    o = draw([1.0, 0.0, 0.0], lineups, races=300, seed=2)
    r = fit(o, seed=1, replicates=50)
    share = pair_share(o, 0, 1, replicates=50)
    h = head_to_head(o).set_index(["bot", "opponent"]).loc[("bot0", "bot1")]
    assert share[0] == pytest.approx(h["share"])  # the same count, another interval
    assert share[1] < share[0] < share[2]
    lines = rungs(r, o)
    assert lines[0].startswith("bot0 above bot") and "(rating difference +" in lines[0]
    assert "; head to head " in lines[0]
    assert "not separated at 1,800 races" in lines[1]


def test_a_bot_that_never_finishes_ahead_is_rated_minus_infinity_and_spares_the_others():
    """Like random in Snow Tails: always out, never ahead of anyone; the rest fit as usual."""
    lineups = [(0, 1, 2), (1, 2, 0), (2, 0, 1)]
    o = draw([0.5, 0.0, -0.5], lineups, races=300, seed=4)
    place = o.place.copy()
    place[o.bot == 2] = 0  # bot2 never finishes
    o = Outcomes(o.bots, o.bot, place, o.key, (place == 1).sum(axis=1) == 1)
    r = fit(o, seed=1, replicates=40)
    t = r.table()
    assert list(t["bot"]) == ["bot0", "bot1", "bot2"]
    assert np.isneginf(t["rating"].iloc[2]) and np.isneginf(t["high"].iloc[2])
    assert t["rating"].iloc[0] - t["rating"].iloc[1] == pytest.approx(0.5, abs=0.15)
    assert (t["low"] <= t["rating"]).all() and (t["rating"] <= t["high"]).all()
    assert rungs(r, o)[1] == (
        "bot1 above bot2 (bot2 never finished ahead of another seat in a decided race)."
    )


LONG = 10_000  # iterations, for a tolerance of 1e-12


@settings(max_examples=60, deadline=None)
@given(
    st.integers(2, 5).flatmap(
        lambda n: st.tuples(
            st.just(n),
            st.lists(
                st.tuples(
                    st.integers(0, n - 1), st.lists(st.integers(0, n - 1), min_size=1, max_size=7)
                ),
                min_size=1,
                max_size=60,
            ),
        )
    ),
    st.integers(0, 3),
)
def test_counted_choices_fit_as_choix_fits_them_one_by_one(case, repeat):
    """``_fit`` is choix's I-LSR on each distinct choice once with its count: the same
    estimate as ``choix.ilsr_top1`` on the listed choices (duplicates, a bot among its own
    losers and a start point included), to well inside the fit's tolerance. Both may take
    more than their default 100 iterations to reach 1e-12 (hypothesis found such a case),
    so both get ``LONG``."""
    n, data = case
    data = data * (repeat + 1)  # the same choice many times, as in a ladder
    winners, losers, which = _counted(n, data)
    assert sorted(map(tuple, np.column_stack([winners[which], losers[which]]))) == sorted(
        (w, *np.bincount(ls, minlength=n)) for w, ls in data
    )
    counts = np.bincount(which, minlength=len(winners)).astype(float)
    ours = _fit(winners, losers, counts, tol=1e-12, max_iter=LONG)
    theirs = choix.ilsr_top1(n, data, alpha=ALPHA, tol=1e-12, max_iter=LONG)
    assert np.allclose(ours, theirs, atol=1e-8)
    start = theirs + np.linspace(-0.5, 0.5, n)
    again = choix.ilsr_top1(n, data, alpha=ALPHA, initial_params=start, tol=1e-12, max_iter=LONG)
    ours = _fit(winners, losers, counts, start, tol=1e-12, max_iter=LONG)
    assert np.allclose(ours, again, atol=1e-8)


def test_the_fit_and_its_intervals_are_those_of_choix_on_every_replicate():
    """The whole of ``fit`` (full fit and bootstrap, the m-out-of-n draws included) gives
    the ratings and intervals the choice-by-choice fit with choix gave."""
    o = draw([0.0, 0.4, 0.9], [(0, 1, 2, 0), (1, 2, 0, 1), (2, 0, 1, 2)], races=300, seed=3)
    for budget in (4_000, 200):
        r = fit(o, seed=5, replicates=40, budget=budget)
        data, keys = _choices(o)
        uniq, cluster = np.unique(keys, return_inverse=True)
        n, m = len(uniq), r.keys_drawn
        full = choix.ilsr_top1(3, data, alpha=ALPHA, tol=1e-5)
        rng = np.random.default_rng(5)
        for b in range(40):
            counts = np.bincount(rng.integers(0, n, m), minlength=n)[cluster]
            sample = [data[i] for i in np.repeat(np.arange(len(data)), counts)]
            rep = choix.ilsr_top1(3, sample, alpha=ALPHA, initial_params=full, tol=1e-5) - full
            assert np.allclose(r.replicates[b], rep * np.sqrt(m / n), atol=1e-6)
        assert np.allclose(r.rating, full, atol=1e-9)


def test_a_ladder_without_a_decided_race_rates_nobody_and_says_so():
    """Every race undecided (every sled out, or a draw): no bot is rated, no interval is
    drawn, and the rungs say so (before, the bootstrap's m-out-of-n scale divided by the
    zero race keys it had, and the ladder stopped with a ZeroDivisionError)."""
    o = Outcomes(
        bots=("a", "b"),
        bot=np.array([[0, 1], [1, 0]]),
        place=np.array([[0, 0], [1, 1]]),
        key=np.array([0, 1]),
        decided=np.array([False, False]),
    )
    r = fit(o, seed=1)
    assert np.isneginf(r.rating).all() and r.keys == 0 and r.choices == 0
    assert rungs(r, o) == [
        "a and b not separated: neither finished ahead of another seat in a decided race."
    ]
