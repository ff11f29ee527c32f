"""The outcome search against brute force over every drift pattern (R-01, R-02, R-14)."""

from __future__ import annotations

import itertools

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from simkit.games.snowtails.layout import C_NONE, MV_DRIFT, S_BLOCKED, S_LEFT, S_RIGHT, kernel_track
from simkit.games.snowtails.movement import (
    N_COLS,
    O_BONUS,
    O_COLL,
    O_COLS,
    O_END,
    outcomes,
    pattern_of,
    walk,
)
from tests.snowtails.st_trackkit import build, oval

NO_TREES = np.zeros(512, dtype=np.int64)
TRACKS = [
    oval(),
    build([("straight", 3), ("corner", "R", 180, 0, 3), ("straight", 4)], width=3, closed=[(1, 5)]),
]


@st.composite
def movement_case(draw):
    track = TRACKS[draw(st.integers(0, len(TRACKS) - 1))]
    tab = kernel_track(track)[0]
    free = [s for s in range(track.n_spaces) if not tab[s, S_BLOCKED]]
    start = draw(st.sampled_from(free))
    others = draw(st.lists(st.sampled_from(free), max_size=4, unique=True))
    speed = draw(st.integers(0, 8))
    drift = draw(st.integers(0, min(speed, 4)))
    dcol = draw(st.sampled_from([S_LEFT, S_RIGHT]))
    bonus = draw(st.integers(0, 3))
    return track, start, [o for o in others if o != start], speed, drift, dcol, bonus


def brute_force(tab, occ, start, speed, drift, dcol, bonus):
    """Every pattern with exactly ``drift`` drifts, walked one by one (C(speed, drift))."""
    found = set()
    path = np.zeros(64, dtype=np.int64)
    for where in itertools.combinations(range(speed), drift):
        pattern = np.zeros(max(speed, 1), dtype=np.int64)
        pattern[list(where)] = MV_DRIFT
        k, coll, _ = walk(tab, occ, NO_TREES, start, pattern, speed, dcol, 0, path, 9, 1, True)
        found.add((int(path[k - 1]), int(coll), 0))
        if coll == C_NONE and bonus > 0:
            # the bonus straight ahead, all of it (the walk stops at a collision).
            k2, c, _ = walk(tab, occ, NO_TREES, start, pattern, speed, dcol, bonus, path, 9, 1,
                            True)  # fmt: skip
            found.add((int(path[k2 - 1]), int(c), bonus))
    return found


@given(movement_case())
def test_search_finds_exactly_the_brute_force_outcomes(case):
    track, start, others, speed, drift, dcol, bonus = case
    tab, _, safety, _ = kernel_track(track)
    occ = np.zeros(track.n_spaces, dtype=np.int64)
    occ[start] = 1
    for i, s in enumerate(others):
        occ[s] = i + 2
    nodes = np.zeros((8192, N_COLS), dtype=np.int64)
    outs = np.zeros((2048, O_COLS), dtype=np.int64)
    _, n = outcomes(tab, safety, occ, NO_TREES, start, speed, drift, dcol, bonus, 0, 1, 9,
                    1, True, nodes, 0, outs, 0)  # fmt: skip
    got = {(int(outs[o, O_END]), int(outs[o, O_COLL]), int(outs[o, O_BONUS])) for o in range(n)}
    assert len(got) == n  # distinct
    assert got == brute_force(tab, occ, start, speed, drift, dcol, bonus)
    # Each outcome's reconstructed pattern walks to that very outcome.
    pattern = np.zeros(64, dtype=np.int64)
    path = np.zeros(64, dtype=np.int64)
    for o in range(n):
        npat = pattern_of(nodes, outs, o, pattern)
        assert npat <= speed
        assert sum(pattern[:npat] == MV_DRIFT) <= drift
        k, coll, _b0 = walk(
            tab, occ, NO_TREES, start, pattern, npat, dcol, outs[o, O_BONUS], path, 9, 1, True
        )
        assert (path[k - 1], coll) == (outs[o, O_END], outs[o, O_COLL])
        if coll == C_NONE and not outs[o, O_BONUS]:
            assert npat == speed  # all movement used unless a collision (ST1)
