"""Sled movement kernels: one step, a drift pattern walked, and every distinct outcome.

A sled with speed S and drift D makes S moves, D of them drifts (R-01). Which moves are
drifts is the player's choice, constrained only by having to start drifting no later than
when moves left = drifts left (ST1 "Moves their sled", ST2 B.3). Rather than listing the
C(S, D) patterns, ``outcomes`` searches the reachable (moves made, drifts made, space)
states layer by layer and keeps the distinct end results: (end space, collision kind),
plus the same after the optional straight bonus (R-14: all of it; R-23: any distance up to
the dice). A collision with a wall, building or sled ends the movement (R-02, R-16, R-17,
R-24); a tree is entered, removed and dents, and movement goes on (R-21) unless that dent
is the fifth (R-25). Of two ways to the same state the one with fewer tree dents is kept.
"""

from __future__ import annotations

from numba import njit

from simkit.games.snowtails.layout import (
    C_FIFTH,
    C_NONE,
    C_SLED,
    C_WALL,
    MV_DRIFT,
    MV_STRAIGHT,
    S_BLOCKED,
    S_CP,
    S_NEXT,
    S_NSAFE,
    S_PAST,
    S_TIE,
    S_TRIG,
)

# Node rows of the search: (moves made, drifts made, space, parent node, move kind, tree
# dents so far).
N_M = 0
N_D = 1
N_SPACE = 2
N_PARENT = 3
N_KIND = 4
N_TD = 5
N_COLS = 6

# Outcome rows.
O_END = 0  # space where the sled stops
O_COLL = 1  # C_NONE, C_WALL or C_SLED
O_BONUS = 2  # 1 if the bonus was taken
O_NODE = 3  # search node of the last move made (path reconstruction)
O_ATTEMPT = 4  # kind of the move that collided (-1 if none)
O_OVER = 5  # overspeed dents for this outcome
O_SPEED = 6  # speed including any bonus taken
O_TD = 7  # dents from trees entered
O_COLS = 8
# O_BONUS holds the bonus distance moved (0: none); O_COLL C_FIFTH: a tree's dent was one
# too many, the sled stops in that tree's space.


@njit(cache=True, inline="always")
def collision(tab, occ, target):
    """The collision a move into ``target`` causes (R-02): wall, sled or none."""
    if target < 0 or tab[target, S_BLOCKED] != 0:
        return C_WALL  # side of the track, a closed space or a building
    if occ[target] != 0:
        return C_SLED
    return C_NONE


@njit(cache=True, inline="always")
def enter(tab, occ, trees, target, td, room, tdent, dents_past):
    """Moving into ``target`` with ``td`` tree dents so far: (collision, tree dents after).

    R-21: a standing tree is entered (removed by the caller) and gives ``tdent`` dents,
    but none past the finish line when ``dents_past`` is off (R-26). ``room`` is how many
    more dents the sled can hold: beyond it the move is ``C_FIFTH`` (R-25, R-18), except
    past the finish line, where the sled keeps its place (R-18).
    """
    c = collision(tab, occ, target)
    if c != C_NONE:
        return c, td
    if trees[target] != 0 and tdent > 0:
        past = tab[target, S_PAST] != 0
        if dents_past or not past:
            td += tdent
            if td > room and not past:
                return C_FIFTH, td
    return C_NONE, td


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
def _add_node(nodes, n_nodes, lo, m, d, space, parent, kind, td):
    """Append a search node unless layer ``lo..n_nodes`` already holds (m, d, space); if it
    does with more tree dents, this way there replaces it (fewer dents, same options)."""
    for i in range(lo, n_nodes):
        if nodes[i, N_D] == d and nodes[i, N_SPACE] == space:
            if td < nodes[i, N_TD]:
                nodes[i, N_PARENT] = parent
                nodes[i, N_KIND] = kind
                nodes[i, N_TD] = td
            return n_nodes
    if n_nodes >= nodes.shape[0]:
        return n_nodes
    nodes[n_nodes, N_M] = m
    nodes[n_nodes, N_D] = d
    nodes[n_nodes, N_SPACE] = space
    nodes[n_nodes, N_PARENT] = parent
    nodes[n_nodes, N_KIND] = kind
    nodes[n_nodes, N_TD] = td
    return n_nodes + 1


@njit(cache=True, inline="always")
def _add_outcome(
    tab, safety, outs, n_outs, lo, start, end, coll, bonus, node, attempt, speed, use_safety,
    td,
):  # fmt: skip
    """Append an outcome unless ``lo..n_outs`` already holds the same (end, coll, bonus);
    one with fewer tree dents replaces it.

    The overspeed dents (R-15) are worked out only for a new outcome.
    """
    for i in range(lo, n_outs):
        if outs[i, O_END] == end and outs[i, O_COLL] == coll and outs[i, O_BONUS] == bonus:
            if td < outs[i, O_TD]:
                outs[i, O_NODE] = node
                outs[i, O_ATTEMPT] = attempt
                outs[i, O_TD] = td
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
    outs[n_outs, O_TD] = td
    return n_outs + 1


@njit(cache=True, inline="always")
def outcomes(
    tab, safety, occ, trees, start, speed, drift, dcol, bonus, partial, use_safety, room,
    tdent, dents_past, nodes, n_nodes, outs, n_outs,
):  # fmt: skip
    """Every distinct outcome of moving ``speed`` with ``drift`` drifts toward ``dcol``.

    ``bonus`` > 0 adds, for each end reached without a collision, the outcomes of the
    bonus: all of it (R-14, ``partial`` 0) or every distance 1..bonus (R-23, ``partial``
    1); ``partial`` 2 (the greedy bot, whose weights are all >= 0) leaves out a distance
    whose next one is strictly better for its score. Tree
    dents (R-21) count against ``room``, the dents the sled can still hold (``enter``).
    Appends nodes from ``n_nodes`` and outcomes from ``n_outs``; returns both new counts.
    """
    o_lo = n_outs
    root = n_nodes
    n_nodes = _add_node(nodes, n_nodes, n_nodes, 0, 0, start, -1, -1, 0)
    lo, hi = root, n_nodes
    for m in range(speed):
        nxt = hi
        for i in range(lo, hi):
            d = nodes[i, N_D]
            cur = nodes[i, N_SPACE]
            td = nodes[i, N_TD]
            # Drift timing (ST1 "Moves their sled", ST2 B.3): once moves left equal drifts
            # left, every remaining move must drift.
            if speed - m > drift - d:
                t = tab[cur, S_NEXT]
                c, td2 = enter(tab, occ, trees, t, td, room, tdent, dents_past)
                if c == C_FIFTH:
                    n_outs = _add_outcome(tab, safety, outs, n_outs, o_lo, start, t, c, 0, i,
                                          MV_STRAIGHT, speed, use_safety, td2)  # fmt: skip
                elif c != C_NONE:
                    # the sled stays where it was; the rest of the drift is lost.
                    n_outs = _add_outcome(tab, safety, outs, n_outs, o_lo, start, cur, c, 0, i,
                                          MV_STRAIGHT, speed, use_safety, td)  # fmt: skip
                else:
                    n_nodes = _add_node(nodes, n_nodes, nxt, m + 1, d, t, i, MV_STRAIGHT, td2)
            if d < drift:
                t = tab[cur, dcol]
                c, td2 = enter(tab, occ, trees, t, td, room, tdent, dents_past)
                if c == C_FIFTH:
                    n_outs = _add_outcome(tab, safety, outs, n_outs, o_lo, start, t, c, 0, i,
                                          MV_DRIFT, speed, use_safety, td2)  # fmt: skip
                elif c != C_NONE:
                    n_outs = _add_outcome(tab, safety, outs, n_outs, o_lo, start, cur, c, 0, i,
                                          MV_DRIFT, speed, use_safety, td)  # fmt: skip
                else:
                    n_nodes = _add_node(nodes, n_nodes, nxt, m + 1, d + 1, t, i, MV_DRIFT, td2)
        lo, hi = hi, n_nodes
    for i in range(lo, hi):
        end = nodes[i, N_SPACE]
        td = nodes[i, N_TD]
        n_outs = _add_outcome(tab, safety, outs, n_outs, o_lo, start, end, C_NONE, 0, i, -1,
                              speed, use_safety, td)  # fmt: skip
        if bonus > 0:
            # optional, all or nothing, straight ahead, counting toward R-15.
            # any distance up to the dice, straight ahead.
            cur = end
            for j in range(1, bonus + 1):
                t = tab[cur, S_NEXT]
                c, td2 = enter(tab, occ, trees, t, td, room, tdent, dents_past)
                stop = cur
                if c == C_FIFTH:
                    stop = t
                elif c == C_NONE:
                    cur = t
                    td = td2
                    stop = t
                emit = c != C_NONE or partial != 0 or j == bonus
                if partial == 2 and c == C_NONE and j < bonus:
                    # Skip a distance the next one strictly beats for the greedy score: one
                    # more space of progress with nothing else different (no collision or
                    # tree dent next, no building trigger here, no worse tie-break lane, no
                    # safety speed or finish line in between).
                    t2 = tab[t, S_NEXT]
                    c2, td3 = enter(tab, occ, trees, t2, td, room, tdent, dents_past)
                    if (
                        c2 == C_NONE
                        and td3 == td
                        and tab[t, S_TRIG] == 0
                        and tab[t2, S_TIE] <= tab[t, S_TIE]
                        and tab[t, S_NSAFE] == 0
                        and tab[t2, S_NSAFE] == 0
                        and tab[t, S_PAST] == tab[t2, S_PAST]
                        and (use_safety == 0 or tab[start, S_CP] == tab[t2, S_CP])
                    ):
                        emit = False
                if emit:
                    n_outs = _add_outcome(tab, safety, outs, n_outs, o_lo, start, stop, c,
                                          j if partial else bonus, i, -1,
                                          speed + (j if partial else bonus), use_safety,
                                          td2)  # fmt: skip
                if c != C_NONE:
                    break
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
def walk(tab, occ, trees, start, pattern, n, dcol, bonus, path, room, tdent, dents_past):
    """Walk ``pattern`` (then ``bonus`` straight moves) from ``start``, stopping at a collision.

    Writes the spaces visited to ``path`` (``path[0] = start``; a ``C_FIFTH`` tree's space
    is the last one) and returns (number of spaces in path, collision kind, index in path
    of the first bonus move or -1 when no bonus movement was made). Trees are not removed
    here: the caller does that along the path (R-21).
    """
    path[0] = start
    k = 1
    cur = start
    td = 0
    for j in range(n):
        t = tab[cur, dcol] if pattern[j] == MV_DRIFT else tab[cur, S_NEXT]
        c, td = enter(tab, occ, trees, t, td, room, tdent, dents_past)
        if c == C_FIFTH:
            path[k] = t
            return k + 1, c, -1
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
        c, td = enter(tab, occ, trees, t, td, room, tdent, dents_past)
        if c == C_FIFTH:
            path[k] = t
            return k + 1, c, b0
        if c != C_NONE:
            return k, c, b0
        cur = t
        path[k] = cur
        k += 1
    return k, C_NONE, b0
