"""The reach tables greedy bounds its plays with (``reach_table``), built in numpy once a
track: per space, the most progress a sled can reach within so many moves, by the corner
lines it crosses on the way. No kernel here: the bounds that read the tables are in
``bound.py``, the search that uses the bounds in ``greedy.py``.
"""

from __future__ import annotations

import numpy as np

from simkit.games.snowtails.params import MAX_VALUE
from simkit.games.snowtails.records import S_CP, S_LEFT, S_NEXT, S_PAST, S_RIGHT, S_TIE

REACH = 17  # straight moves covered by the reach table: speed (at most 10) plus bonus (6)
CORNERS = 4  # corner entry lines told apart by the reach table: 0, 1, 2, 3 or more
SIDES = 3  # order table moves: straight only, or with drifts to the left, or to the right
DRIFTS = 2 * MAX_VALUE + 1  # reach table drift codes: none, 1..5 to the left, 1..5 to the right
DRIFT_SCALE = 128  # drift table entries: progress in 1/128 spaces (tracks up to 255 long)
NO_REACH = -32768  # drift table entry for no space within reach: below every other


def reach_table(tab: np.ndarray, prog: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The reach tables the greedy bot bounds plays with: (order table, drift table).

    The first (``_order_table``: moves of either kind, in any number) settles which of two
    plays of equal score greedy takes: the one with the higher bound from it (then the
    earlier listed), as when greedy searched its plays in that order. The second
    (``_drift_table``: exactly the play's straight moves and drifts, R-01) bounds tighter:
    greedy searches its own choice in that order and skips more plays (measured: 3.6 of
    the 4.9 plays searched per decision could not win), with every choice the same.

    The drift table is int16 fixed point, each entry rounded up (``_fixed16``), so it
    still bounds every outcome: at a quarter of float64's size it mostly stays in a
    core's cache, where its reads were a third of greedy's bound time (perf; greedy
    races 6% faster than with float32, 10% than float64). The order table stays float64:
    its exact values settle ties.

    Each table ends with one entry per space (``_past_from``): the least progress of a
    space past the finish line on that space's track (the drift table's rounded up, in
    its units), where a move ending there costs no dents (``_score``), so a bound does
    not take them off (``_play_bound``, ``_drift_bounds``).
    """
    key = (tab.tobytes(), np.ascontiguousarray(prog).tobytes(), tab.shape, tab.dtype.str)
    tables = _TABLES.get(key)
    if tables is None:
        while len(_TABLES) >= 16:
            _TABLES.pop(next(iter(_TABLES)))
        past = _past_from(tab, prog)
        order = np.concatenate((_order_table(tab, prog), past))
        drift = _fixed16(_drift_table(tab, prog))
        if drift.size:
            fixed = np.minimum(np.ceil(past * DRIFT_SCALE), -NO_REACH - 1).astype(np.int16)
            drift = np.concatenate((drift, fixed))
        tables = (order, drift)
        _TABLES[key] = tables
    return tables[0].copy(), tables[1].copy()  # callers own theirs (about 10 ms to build)


def _fixed16(values: np.ndarray) -> np.ndarray:
    """The drift table in 1/``DRIFT_SCALE`` spaces of progress, each entry rounded up
    (so it still bounds every outcome), with ``NO_REACH`` for -inf; empty (greedy then
    bounds with the order table) where an entry is +inf or progress overflows int16."""
    finite = np.isfinite(values)
    if np.isposinf(values).any() or np.abs(values[finite]).max() * DRIFT_SCALE >= -NO_REACH:
        return np.zeros(0, dtype=np.int16)
    out = np.full(values.shape, NO_REACH, dtype=np.int16)
    out[finite] = np.ceil(values[finite] * DRIFT_SCALE)
    return out


_TABLES: dict = {}  # the last few tracks' reach tables, by the bytes of their inputs


def _past_from(tab: np.ndarray, prog: np.ndarray) -> np.ndarray:
    """Per space, the least progress of any space past the finish line (``S_PAST``) on the
    same track (the spaces moves connect), +inf if none. A space of less progress is not
    past the line, so a bound over spaces of at most that progress keeps their dents."""
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    n = tab.shape[0]
    src, dst = [], []
    for col in (S_NEXT, S_LEFT, S_RIGHT):
        s = np.nonzero(tab[:, col] >= 0)[0]
        src.append(s)
        dst.append(tab[s, col])
    src_a, dst_a = np.concatenate(src), np.concatenate(dst)
    graph = coo_matrix((np.ones(src_a.size), (src_a, dst_a)), shape=(n, n))
    _, label = connected_components(graph, directed=True, connection="weak")
    past = tab[:, S_PAST] != 0
    least = np.full(label.max(initial=0) + 1, np.inf)
    np.minimum.at(least, label[past], prog[past])
    return least[label]


def _order_table(tab: np.ndarray, prog: np.ndarray) -> np.ndarray:
    """The first part of ``reach_table``: what settles greedy's ties (and orders the
    search bot's candidates).

    Entry ``((s * REACH + k) * SIDES + side) * CORNERS + j`` is the most progress of any
    space within ``k`` moves of space ``s`` that lies ``j`` corner entry lines past ``s``
    (the last column: ``j`` or more), -inf if none does. Moves are straight ahead, and for
    ``side`` 1 or 2 also drifts to the left or right (walls and sleds ignored). No outcome
    of a play moving ``k`` spaces at most, drifting only to its side, ends further along
    than that, and one that crosses ``j`` lines takes at least their overspeed dents
    (R-15). Where the track's tie-break column could raise a score (negative values) the
    bound is infinite; if a move could cross a line backwards, lines are not told apart.
    """
    n = tab.shape[0]
    cp = tab[:, S_CP]
    reach = np.full((n, REACH, SIDES, CORNERS), -np.inf)
    for side, cols in enumerate(((S_NEXT,), (S_NEXT, S_LEFT), (S_NEXT, S_RIGHT))):
        reach[:, 0, side, 0] = prog
        for k in range(1, REACH):
            reach[:, k, side, 0] = prog  # a collision on the first move leaves it in place
            layer = reach[:, k, side, :]
            for col in cols:
                s = np.nonzero(tab[:, col] >= 0)[0]
                t = tab[s, col]
                d = np.maximum(cp[t] - cp[s], 0)
                for j in range(CORNERS):
                    np.maximum.at(
                        layer, (s, np.minimum(d + j, CORNERS - 1)), reach[t, k - 1, side, j]
                    )
    return _flat(reach, tab)


def _drift_table(tab: np.ndarray, prog: np.ndarray) -> np.ndarray:
    """The second part of ``reach_table``: what greedy searches its own choice by.

    Entry ``((s * REACH + a) * DRIFTS + c) * CORNERS + j`` is the most progress of any
    space a sled on space ``s`` can end on with at most ``a`` straight moves and at most
    ``d`` drifts to one side (drift code ``c``: 0 for none, ``d`` to the left, ``MAX_VALUE
    + d`` to the right), made in any order, that lies ``j`` corner entry lines past ``s``
    (the last column: ``j`` or more); -inf if none does. Walls and sleds are ignored, but
    a drift off the track is not a move: it is a collision, which ends the movement where
    the sled stands (R-02, R-17), as a collision may on any move.

    A play of speed S with drift D makes S - D straight moves and D drifts (R-01), then up
    to its bonus straight (R-14, R-23), and stops early only by a collision: every space it
    can end on is within ``a = S - D + bonus`` straight moves and ``d = D`` drifts, so no
    outcome ends further along than the entry, and one that crosses ``j`` lines takes at
    least their overspeed dents (R-15). Where the track's tie-break column could raise a
    score (negative values) the bound is infinite; if a move could cross a line backwards,
    lines are not told apart.
    """
    n = tab.shape[0]
    cp = tab[:, S_CP]
    reach = np.full((n, REACH, DRIFTS, CORNERS), -np.inf)
    reach[:, :, :, 0] = prog[:, None, None]  # a collision on the first move leaves it here

    def moves(col: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        s = np.nonzero(tab[:, col] >= 0)[0]
        t = tab[s, col]
        return s, t, np.maximum(cp[t] - cp[s], 0)

    def take(layer: np.ndarray, move: tuple, src: np.ndarray) -> None:
        s, t, d = move
        for j in range(CORNERS):  # each s once per j: a plain maximum, not np.maximum.at
            jj = np.minimum(d + j, CORNERS - 1)
            layer[s, jj] = np.maximum(layer[s, jj], src[t, j])

    straight = moves(S_NEXT)
    drifts = {S_LEFT: moves(S_LEFT), S_RIGHT: moves(S_RIGHT)}
    # Budgets in increasing order of a + d, so both smaller budgets are final.
    for total in range(1, 2 * REACH):
        for a in range(min(total, REACH - 1), -1, -1):
            d = total - a
            if d > MAX_VALUE:
                break
            for c, side in ((0, None),) if d == 0 else ((d, S_LEFT), (MAX_VALUE + d, S_RIGHT)):
                layer = reach[:, a, c, :]
                if a > 0:
                    take(layer, straight, reach[:, a - 1, c, :])
                if side is not None:
                    take(layer, drifts[side], reach[:, a, c - 1 if d > 1 else 0, :])
    return _flat(reach, tab)


def _flat(reach: np.ndarray, tab: np.ndarray) -> np.ndarray:
    """A reach table (corner lines last) flattened, after the two cases its bound cannot
    rest on: a move that could cross a line backwards (lines are then not told apart)
    and negative tie-break values, which could raise a score (the bound is then
    infinite)."""
    cp = tab[:, S_CP]
    for col in (S_NEXT, S_LEFT, S_RIGHT):
        ok = tab[:, col] >= 0
        if (cp[tab[ok, col]] < cp[ok]).any():
            reach[..., 0] = reach.max(axis=-1)
            reach[..., 1:] = -np.inf
    if (tab[:, S_TIE] < 0).any():
        reach[:] = np.inf
    return np.ascontiguousarray(reach.ravel())
