"""Sled movement kernels: one step, a drift pattern walked, and every distinct outcome.

A sled with speed S and drift D makes S moves, D of them drifts (R-01). Which moves are
drifts is the player's choice, constrained only by having to start drifting no later than
when moves left = drifts left (ST1 "Moves their sled"). Rather than listing the C(S, D)
patterns, ``outcomes`` searches the reachable (moves made, drifts made, space) states layer
by layer and keeps the distinct end results: (end space, collision kind), plus the same
after the optional straight bonus (R-14). A collision ends the movement (R-02, R-16, R-17).
"""

from __future__ import annotations

from numba import njit

from simkit.games.snowtails.layout import (
    C_NONE,
    C_SLED,
    C_WALL,
    MV_DRIFT,
    MV_STRAIGHT,
    S_BLOCKED,
    S_CP,
    S_NEXT,
)

# Node rows of the search: (moves made, drifts made, space, parent node, move kind).
N_M = 0
N_D = 1
N_SPACE = 2
N_PARENT = 3
N_KIND = 4
N_COLS = 5

# Outcome rows.
O_END = 0  # space where the sled stops
O_COLL = 1  # C_NONE, C_WALL or C_SLED
O_BONUS = 2  # 1 if the bonus was taken
O_NODE = 3  # search node of the last move made (path reconstruction)
O_ATTEMPT = 4  # kind of the move that collided (-1 if none)
O_OVER = 5  # overspeed dents for this outcome
O_SPEED = 6  # speed including any bonus taken
O_COLS = 7


@njit(cache=True, inline="always")
def collision(tab, occ, target):
    """The collision a move into ``target`` causes (R-02): wall, sled or none."""
    if target < 0 or tab[target, S_BLOCKED] != 0:
        return C_WALL  # side of the track, a closed space or a building
    if occ[target] != 0:
        return C_SLED
    return C_NONE


@njit(cache=True, inline="always")
def overspeed(tab, safety, start, end, speed, use_safety):
    """Dents for crossing corner entry lines between ``start`` and ``end`` at ``speed`` (R-15).

    Every entry line crossed this turn is checked, one dent per point above its safety
    speed; a corner without a printed safety speed (0) never dents.
    """
    if use_safety == 0:
        return 0
    total = 0
    for c in range(tab[start, S_CP], tab[end, S_CP]):
        lim = safety[c]
        if lim > 0 and speed > lim:
            total += speed - lim
    return total


@njit(cache=True, inline="always")
def _add_node(nodes, n_nodes, lo, m, d, space, parent, kind):
    """Append a search node unless layer ``lo..n_nodes`` already holds (m, d, space)."""
    for i in range(lo, n_nodes):
        if nodes[i, N_D] == d and nodes[i, N_SPACE] == space:
            return n_nodes
    if n_nodes >= nodes.shape[0]:
        return n_nodes
    nodes[n_nodes, N_M] = m
    nodes[n_nodes, N_D] = d
    nodes[n_nodes, N_SPACE] = space
    nodes[n_nodes, N_PARENT] = parent
    nodes[n_nodes, N_KIND] = kind
    return n_nodes + 1


@njit(cache=True, inline="always")
def _add_outcome(
    tab, safety, outs, n_outs, lo, start, end, coll, bonus, node, attempt, speed, use_safety
):
    """Append an outcome unless ``lo..n_outs`` already holds the same (end, coll, bonus).

    The overspeed dents (R-15) are worked out only for a new outcome.
    """
    for i in range(lo, n_outs):
        if outs[i, O_END] == end and outs[i, O_COLL] == coll and outs[i, O_BONUS] == bonus:
            return n_outs
    if n_outs >= outs.shape[0]:
        return n_outs
    outs[n_outs, O_END] = end
    outs[n_outs, O_COLL] = coll
    outs[n_outs, O_BONUS] = bonus
    outs[n_outs, O_NODE] = node
    outs[n_outs, O_ATTEMPT] = attempt
    outs[n_outs, O_OVER] = overspeed(tab, safety, start, end, speed, use_safety)
    outs[n_outs, O_SPEED] = speed
    return n_outs + 1


@njit(cache=True, inline="always")
def bonus_walk(tab, occ, start, bonus):
    """Straight bonus movement after normal movement (R-14): (end space, collision)."""
    cur = start
    for _ in range(bonus):
        t = tab[cur, S_NEXT]
        c = collision(tab, occ, t)
        if c != C_NONE:
            return cur, c
        cur = t
    return cur, C_NONE


@njit(cache=True, inline="always")
def outcomes(
    tab, safety, occ, start, speed, drift, dcol, bonus, use_safety, nodes, n_nodes, outs, n_outs
):
    """Every distinct outcome of moving ``speed`` with ``drift`` drifts toward ``dcol``.

    ``bonus`` > 0 adds, for each collision-free end, the outcome of taking the bonus.
    Appends nodes from ``n_nodes`` and outcomes from ``n_outs``; returns both new counts.
    """
    o_lo = n_outs
    root = n_nodes
    n_nodes = _add_node(nodes, n_nodes, n_nodes, 0, 0, start, -1, -1)
    lo, hi = root, n_nodes
    for m in range(speed):
        nxt = hi
        for i in range(lo, hi):
            d = nodes[i, N_D]
            cur = nodes[i, N_SPACE]
            # Drift timing (ST1 "Moves their sled"): once moves left equal drifts left,
            # every remaining move must drift.
            if speed - m > drift - d:
                t = tab[cur, S_NEXT]
                c = collision(tab, occ, t)
                if c != C_NONE:
                    # the sled stays where it was; the rest of the drift is lost.
                    n_outs = _add_outcome(tab, safety, outs, n_outs, o_lo, start, cur, c, 0, i,
                                          MV_STRAIGHT, speed, use_safety)  # fmt: skip
                else:
                    n_nodes = _add_node(nodes, n_nodes, nxt, m + 1, d, t, i, MV_STRAIGHT)
            if d < drift:
                t = tab[cur, dcol]
                c = collision(tab, occ, t)
                if c != C_NONE:
                    n_outs = _add_outcome(tab, safety, outs, n_outs, o_lo, start, cur, c, 0, i,
                                          MV_DRIFT, speed, use_safety)  # fmt: skip
                else:
                    n_nodes = _add_node(nodes, n_nodes, nxt, m + 1, d + 1, t, i, MV_DRIFT)
        lo, hi = hi, n_nodes
    for i in range(lo, hi):
        end = nodes[i, N_SPACE]
        n_outs = _add_outcome(tab, safety, outs, n_outs, o_lo, start, end, C_NONE, 0, i, -1,
                              speed, use_safety)  # fmt: skip
        if bonus > 0:
            # optional, all or nothing, straight ahead; it counts toward R-15.
            b_end, b_c = bonus_walk(tab, occ, end, bonus)
            n_outs = _add_outcome(tab, safety, outs, n_outs, o_lo, start, b_end, b_c, 1, i, -1,
                                  speed + bonus, use_safety)  # fmt: skip
    return n_nodes, n_outs


@njit(cache=True, inline="always")
def pattern_of(nodes, outs, o, pattern):
    """The move kinds leading to outcome ``o`` (the colliding attempt last); returns count."""
    n = 0
    i = outs[o, O_NODE]
    while nodes[i, N_PARENT] >= 0:
        n += 1
        i = nodes[i, N_PARENT]
    i = outs[o, O_NODE]
    k = n
    while nodes[i, N_PARENT] >= 0:
        k -= 1
        pattern[k] = nodes[i, N_KIND]
        i = nodes[i, N_PARENT]
    if outs[o, O_ATTEMPT] >= 0:
        pattern[n] = outs[o, O_ATTEMPT]
        n += 1
    return n


@njit(cache=True, inline="always")
def walk(tab, occ, start, pattern, n, dcol, bonus, path):
    """Walk ``pattern`` (then ``bonus`` straight moves) from ``start``, stopping at a collision.

    Writes the spaces visited to ``path`` (``path[0] = start``) and returns (number of
    spaces in path, collision kind, index in path of the first bonus move or -1 when no
    bonus movement was made).
    """
    path[0] = start
    k = 1
    cur = start
    for j in range(n):
        t = tab[cur, dcol] if pattern[j] == MV_DRIFT else tab[cur, S_NEXT]
        c = collision(tab, occ, t)
        if c != C_NONE:
            return k, c, -1  # movement ends, so no bonus either
        cur = t
        path[k] = cur
        k += 1
    if bonus == 0:
        return k, C_NONE, -1
    b0 = k
    for _ in range(bonus):
        t = tab[cur, S_NEXT]
        c = collision(tab, occ, t)
        if c != C_NONE:
            return k, c, b0
        cur = t
        path[k] = cur
        k += 1
    return k, C_NONE, b0
