"""Mushroom Walk's race position round by round (a round: two turns; Batch.round_position,
end_position and the round measures): what the kernel counts is what a trace's scores
imply, and the counts do not depend on threads."""

from __future__ import annotations

import numpy as np
import pytest

from simkit.games import get
from simkit.games.cells import build_cell
from simkit.games.mushroomwalk.records import EV_TURN
from simkit.games.round_counts import MEASURES
from simkit.rng import race_key


def _cell():
    return build_cell("mushroomwalk", preset=None, players=2, bots=("greedy", "greedy"))


def _kernel_ranks(counts, rounds):
    """Race position of slot 1 and slot 2 at the end of each round, from one game's counts."""
    out = np.zeros((rounds, 2), dtype=np.int64)
    for r in range(rounds):
        for s in range(2):
            (p,) = np.nonzero(counts[r, s].sum(axis=1))
            out[r, s] = p[0] + 1
    return out


@pytest.mark.parametrize("seed", [1, 4, 9])
def test_counts_follow_the_scores_after_every_second_turn(seed):
    g, cell = get("mushroomwalk"), _cell()
    key = race_key(seed, 0, 0)
    trace = g.trace(cell, key)
    batch = g.simulate(cell, np.array([key], dtype=np.uint64), threads=1)
    turns = int(batch.races["turns"][0])
    rounds = (turns + 1) // 2
    assert batch.round_position.sum() == 2 * rounds
    starter = int(trace.position["starter"])
    scores = [e["score"].copy() for e in trace.events if int(e["kind"]) == EV_TURN]
    assert len(scores) == turns
    ends = [scores[min(2 * r + 1, turns - 1)] for r in range(rounds)]
    got = _kernel_ranks(batch.round_position, rounds)
    for r, score in enumerate(ends):
        by_slot = [score[starter], score[1 - starter]]  # slot 1 is the seat who starts
        if by_slot[0] != by_slot[1]:
            want = [1, 2] if by_slot[0] > by_slot[1] else [2, 1]
            assert list(got[r]) == want, r
    np.testing.assert_array_equal(batch.end_position[:rounds], batch.round_position[:rounds][::-1])
    # by seat: slot 1 is the seat who starts
    order = [starter, 1 - starter]
    np.testing.assert_array_equal(batch.seat_position[:, order], batch.round_position)


def test_a_decided_game_ends_with_its_winner_in_position_1_and_measures_are_defined():
    g, cell = get("mushroomwalk"), _cell()
    keys = np.array([race_key(5, 0, i) for i in range(200)], dtype=np.uint64)
    batch = g.simulate(cell, keys, threads=2)
    last = batch.end_position[0]  # [slot, position, finish]
    assert last[:, 1, 1].sum() == 0  # the winner is never second at the end
    assert last[:, 0, 2].sum() == 0  # nor the loser first
    m = batch.round_measures
    drama = m["drama"]  # undefined exactly for the draws (both seats finish 1)
    assert np.isnan(drama).sum() == int((batch.seats["finish"] == 1).all(axis=1).sum())
    assert ((drama[~np.isnan(drama)] >= 0) & (drama[~np.isnan(drama)] <= 1)).all()
    assert sorted(m) == sorted(MEASURES)


def test_recorded_counts_do_not_depend_on_threads():
    g, cell = get("mushroomwalk"), _cell()
    keys = np.array([race_key(8, 0, i) for i in range(90)], dtype=np.uint64)
    a = g.simulate(cell, keys, threads=1)
    b = g.simulate(cell, keys, threads=2)
    np.testing.assert_array_equal(a.round_position, b.round_position)
    np.testing.assert_array_equal(a.end_position, b.end_position)
    np.testing.assert_array_equal(a.seat_position, b.seat_position)
    for name in MEASURES:
        np.testing.assert_array_equal(a.round_measures[name], b.round_measures[name])
