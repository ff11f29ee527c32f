"""The outcome search against brute force over every drift pattern (R-01, R-02, R-14)."""

from __future__ import annotations

import itertools

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from simkit.games.snowtails.batch import cell_inputs
from simkit.games.snowtails.kernels import outcomes, pattern_bits, walk
from simkit.games.snowtails.params import MAX_VALUE, SnowTailsParams
from simkit.games.snowtails.reach import (
    CORNERS,
    DRIFT_SCALE,
    DRIFTS,
    NO_REACH,
    REACH,
    _fixed16,
    reach_table,
)
from simkit.games.snowtails.records import (
    C_NONE,
    O_BONUS,
    O_COLL,
    O_END,
    OUT,
    POSITION,
    S_BLOCKED,
    S_CP,
    S_LEFT,
    S_NEXT,
    S_RIGHT,
    WORK,
    kernel_track,
)
from tests.snowtails.st_trackkit import build, oval

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


def board(track, spaces):
    """(cell record, position) with one sled on each of ``spaces`` (the first moves)."""
    n = len(spaces)
    cfga, _ = cell_inputs(track, SnowTailsParams(), ("greedy",) * n, tuple(range(1, n + 1)))
    positions = np.zeros(1, dtype=POSITION)
    pos = positions[0]
    pos["n_seats"] = n
    pos["status"][n:] = OUT
    pos["space"][:n] = spaces
    return cfga, positions


def brute_force(cfga, positions, start, speed, drift, dcol, bonus):
    """Every pattern with exactly ``drift`` drifts, walked one by one (C(speed, drift))."""
    found = set()
    path = np.zeros(64, dtype=np.int64)
    for where in itertools.combinations(range(speed), drift):
        bits = sum(1 << j for j in where)
        k, coll, _ = walk(cfga, positions, start, bits, speed, dcol, 0, path, 9)
        found.add((int(path[k - 1]), int(coll), 0))
        if coll == C_NONE and bonus > 0:
            # the bonus straight ahead, all of it (the walk stops at a collision).
            k2, c, _ = walk(cfga, positions, start, bits, speed, dcol, bonus, path, 9)
            found.add((int(path[k2 - 1]), int(c), bonus))
    return found


@given(movement_case())
def test_search_finds_exactly_the_brute_force_outcomes(case):
    track, start, others, speed, drift, dcol, bonus = case
    cfga, positions = board(track, [start, *others])
    works = np.zeros(1, dtype=WORK)
    n = outcomes(cfga, positions, works, start, speed, drift, dcol, bonus, 0, 9)
    outs = works["outs"][0]
    got = {(int(outs[o, O_END]), int(outs[o, O_COLL]), int(outs[o, O_BONUS])) for o in range(n)}
    assert len(got) == n  # distinct
    assert got == brute_force(cfga, positions, start, speed, drift, dcol, bonus)
    # Each outcome's reconstructed pattern walks to that very outcome.
    path = np.zeros(64, dtype=np.int64)
    for o in range(n):
        npat, bits = pattern_bits(works, o)
        assert npat <= speed
        assert bin(bits).count("1") <= drift
        k, coll, _b0 = walk(cfga, positions, start, bits, npat, dcol, outs[o, O_BONUS], path, 9)
        assert (path[k - 1], coll) == (outs[o, O_END], outs[o, O_COLL])
        if coll == C_NONE and not outs[o, O_BONUS]:
            assert npat == speed  # all movement used unless a collision (ST1)


@given(movement_case())
def test_no_outcome_ends_beyond_the_drift_table(case):
    """greedy's drift table (``reach.reach_table``, the second) bounds every outcome: no
    outcome of S moves with D drifts (and the bonus) ends further along than the entry
    for S - D + bonus straight moves and D drifts, at the corner lines it crosses."""
    track, start, others, speed, drift, dcol, bonus = case
    cfga, positions = board(track, [start, *others])
    n_sp = int(cfga["n_spaces"][0])
    tab = cfga["tab"][0, :n_sp].astype(np.int64)
    prog = cfga["prog"][0, :n_sp]
    table = reach_table(tab, prog)[1]
    assert table.size  # in use on every standard track (empty only where it cannot be)
    works = np.zeros(1, dtype=WORK)
    n = outcomes(cfga, positions, works, start, speed, drift, dcol, bonus, 1, 9)
    code = 0 if drift == 0 else (drift if dcol == S_LEFT else MAX_VALUE + drift)
    cp = tab[:, S_CP]
    cols = (S_NEXT, S_LEFT, S_RIGHT)
    lines_back = any((cp[tab[tab[:, c] >= 0, c]] < cp[tab[:, c] >= 0]).any() for c in cols)
    for o in range(n):
        end = works["outs"][0][o, O_END]
        j = 0 if lines_back else min(max(cp[end] - cp[start], 0), CORNERS - 1)
        entry = table[((start * REACH + speed - drift + bonus) * DRIFTS + code) * CORNERS + j]
        assert prog[end] * DRIFT_SCALE <= entry


def test_the_drift_table_rounds_up_and_gives_way_where_int16_cannot_hold_it():
    """``_fixed16``: progress rounds up to the next 1/``DRIFT_SCALE`` (a bound stays a
    bound), -inf is ``NO_REACH``; +inf or progress beyond int16 leave the table empty,
    and greedy then bounds with the order table."""
    table = _fixed16(np.array([1.0, 10.785398, -np.inf, 0.001]))
    assert table.dtype == np.int16
    assert table.tolist() == [DRIFT_SCALE, 1381, NO_REACH, 1]
    assert _fixed16(np.array([1.0, np.inf])).size == 0
    assert _fixed16(np.array([1.0, 32768 / DRIFT_SCALE])).size == 0
    assert _fixed16(np.array([1.0, 32767 / DRIFT_SCALE])).size == 2
