"""MUSH race positions round by round (Batch.round_position, end_position, round measures):
what the kernel counts is what a trace's moves imply, and recording changes no result."""

from __future__ import annotations

import numpy as np
import pytest

from simkit.games.mush import records as E
from simkit.games.round_counts import MEASURES
from simkit.rng import race_key


def _ranks_from_trace(trace, dist, start):
    """Race position of each seat at the end of every round, replayed from the trace's
    slot and state events: fewest moves to the goal first, ties to the lower slot."""
    n = trace.cell.players
    slot = np.zeros(n, dtype=np.int64)
    space = np.full(n, start, dtype=np.int64)
    rows, current = [], 0
    for row in trace.events.tolist():
        rnd, kind, s = row[0], row[1], row[2]
        if kind == E.EV_SLOT:
            slot[s] = row[3]
        if rnd > current:
            if current > 0:
                rows.append(_order(space, slot, dist))
            current = rnd
        if kind == E.EV_STATE:
            space[s] = row[3]
    rows.append(_order(space, slot, dist))
    return np.array(rows), slot


def _order(space, slot, dist):
    key = [(dist[v], slot[s]) for s, v in enumerate(space)]
    return np.array([1 + sum(k < key[s] for k in key) for s in range(len(space))])


@pytest.mark.parametrize("seed", [2, 5, 11])
def test_counts_are_the_positions_a_trace_implies(game, make_cell, seed):
    from simkit.games.mush.route import load_route

    cell = make_cell(players=3)
    key = race_key(seed, 0, 0)
    trace = game.trace(cell, key)
    dist = game.inputs(cell).rt["sp"][0]["dist"].astype(np.int64)
    ranks, slot = _ranks_from_trace(trace, dist, load_route(cell.variant.route).start)
    batch = game.simulate(cell, np.array([key], dtype=np.uint64), threads=1)
    rounds = int(batch.races["rounds"][0])
    assert len(ranks) == rounds
    finish = batch.seats["finish"][0]
    decided = int(batch.seats["finished"][0].sum()) == 1
    want = np.zeros_like(batch.round_position)
    by_seat = np.zeros_like(batch.seat_position)
    for r in range(rounds):
        for s in range(3):
            want[r, slot[s] - 1, ranks[r, s] - 1, finish[s] if decided else 0] += 1
            by_seat[r, s, ranks[r, s] - 1, finish[s] if decided else 0] += 1
    np.testing.assert_array_equal(batch.round_position, want)
    np.testing.assert_array_equal(batch.seat_position, by_seat)
    # counted back from the end: the same rows, reversed
    np.testing.assert_array_equal(batch.end_position[:rounds], want[:rounds][::-1])


def test_last_round_positions_are_the_finish_and_lead_changes_agree(game, make_cell):
    cell = make_cell(players=4)
    keys = np.array([race_key(7, 0, i) for i in range(150)], dtype=np.uint64)
    batch = game.simulate(cell, keys, threads=2)
    last = batch.end_position[0]  # [slot, position, finish]
    decided_part = last[:, :, 1:]
    for f in range(1, 5):  # a decided race's last round ranks the seats as they finished
        assert decided_part[:, :, f - 1].sum() == decided_part[:, f - 1, f - 1].sum()
    m = batch.round_measures
    assert sorted(m) == sorted(MEASURES)
    rounds = batch.races["rounds"].astype(np.int64)
    changes = np.rint(m["lead_change"] * (rounds - 1))
    # the race column also compares round 1's leader with the start's
    col = batch.races["lead_changes"].astype(np.int64)
    ok = (rounds > 1) & (rounds <= E.ROUND_CAP)  # a longer race is measured on its first 128
    assert ((changes[ok] == col[ok]) | (changes[ok] == col[ok] - 1)).all()
    assert (m["stability"][ok] <= 1).all() and (m["drama"][~np.isnan(m["drama"])] >= 0).all()


def test_recorded_counts_do_not_depend_on_threads(game, make_cell):
    cell = make_cell(players=3)
    keys = np.array([race_key(3, 1, i) for i in range(120)], dtype=np.uint64)
    a = game.simulate(cell, keys, threads=1)
    b = game.simulate(cell, keys, threads=2)
    np.testing.assert_array_equal(a.round_position, b.round_position)
    np.testing.assert_array_equal(a.end_position, b.end_position)
    np.testing.assert_array_equal(a.seat_position, b.seat_position)
    for name in MEASURES:
        np.testing.assert_array_equal(a.round_measures[name], b.round_measures[name])
