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

A drift pattern is held as bits: bit j set = move j drifts (``walk``, ``pattern_bits``).
"""

from __future__ import annotations

from numba import njit

from simkit.games.snowtails.records import (
    C_FIFTH,
    C_NONE,
    C_SLED,
    C_WALL,
    MV_DRIFT,
    MV_STRAIGHT,
    N_BITS,
    N_D,
    N_KIND,
    N_M,
    N_PARENT,
    N_SPACE,
    N_TD,
    NONE,
    O_ATTEMPT,
    O_BONUS,
    O_COLL,
    O_END,
    O_NODE,
    O_OVER,
    O_SPEED,
    O_TD,
    S_BLOCKED,
    S_CP,
    S_NEXT,
    S_NSAFE,
    S_PAST,
    S_TIE,
    S_TRIG,
    ZERO,
)
from simkit.games.snowtails.rules import sled_at, tree_at


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def collision(cfg, pos, target):
    """The collision a move into ``target`` causes (R-02): wall, sled or none."""
    if target < 0 or cfg.tab[target, S_BLOCKED] != 0:
        return C_WALL  # side of the track, a closed space or a building
    if sled_at(cfg, pos, target):
        return C_SLED
    return C_NONE


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def enter(cfg, pos, target, td, room):
    """Moving into ``target`` with ``td`` tree dents so far: (collision, tree dents after).

    R-21: a standing tree is entered (removed by the caller) and gives ``tree_dents`` dents,
    but none past the finish line when ``dents_past_finish`` is off (R-26). ``room`` is how
    many more dents the sled can hold: beyond it the move is ``C_FIFTH`` (R-25, R-18),
    except past the finish line, where the sled keeps its place (R-18).
    """
    c = collision(cfg, pos, target)
    if c != C_NONE:
        return c, td
    if cfg.tree_dents > 0 and tree_at(cfg, pos, target):
        past = cfg.tab[target, S_PAST] != 0
        if cfg.dents_past_finish != 0 or not past:
            td += cfg.tree_dents
            if td > room and not past:
                return C_FIFTH, td
    return C_NONE, td


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def note(wk, t):
    """While ``wk.reading`` is 1, keep space ``t`` among the spaces the search read
    (``wk.reads``, each once: ``wk.seen[t]`` holds the search's ``wk.stamp``; past their
    room they are only counted): the sleds and trees there are all a greedy card play
    depends on besides the seat's own state (``search._recall``). A space off the track
    (-1) reads nothing."""
    if wk.reading != 1 or t < 0 or wk.seen[t] == wk.stamp:
        return
    wk.seen[t] = wk.stamp
    n = wk.n_reads
    if 0 <= n < wk.reads.shape[0]:
        wk.reads[n] = t
    wk.n_reads = n + 1


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def overspeed(cfg, start, end, speed):
    """Dents for crossing corner entry lines between ``start`` and ``end`` at ``speed`` (R-15).

    Every entry line crossed this turn is checked, one dent per point above its safety
    speed; a corner without a printed safety speed (0) never dents.
    """
    if cfg.safety_speeds == 0:
        return 0
    total = 0
    for c in range(cfg.tab[start, S_CP], cfg.tab[end, S_CP]):
        lim = cfg.safety[c]
        if lim > 0 and speed > lim:
            total += speed - lim
    return total


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _add_node(wk, n_nodes, lo, m, d, space, parent, kind, td):
    """Append a search node unless layer ``lo..n_nodes`` already holds (m, d, space); if it
    does with more tree dents, this way there replaces it (fewer dents, same options).
    A node keeps the drift bits of the moves to it (``pattern_bits``): its parent's, and
    bit ``m - 1`` for a drift."""
    nodes = wk.nodes
    for i in range(lo, n_nodes):
        if nodes[i, N_D] == d and nodes[i, N_SPACE] == space:
            if td < nodes[i, N_TD]:
                nodes[i, N_PARENT] = parent
                nodes[i, N_KIND] = kind
                nodes[i, N_TD] = td
                nodes[i, N_BITS] = _bits(nodes, parent, kind, m)
            return n_nodes
    if n_nodes >= nodes.shape[0]:
        return n_nodes
    nodes[n_nodes, N_M] = m
    nodes[n_nodes, N_D] = d
    nodes[n_nodes, N_SPACE] = space
    nodes[n_nodes, N_PARENT] = parent
    nodes[n_nodes, N_KIND] = kind
    nodes[n_nodes, N_TD] = td
    nodes[n_nodes, N_BITS] = _bits(nodes, parent, kind, m)
    return n_nodes + 1


@njit(inline="always", no_cfunc_wrapper=True)
def _bits(nodes, parent, kind, m):
    """The drift bits of a node reached by a move of ``kind`` from ``parent`` (none from
    the root's own: no parent), its ``m``-th move."""
    if parent < 0:
        return ZERO
    return nodes[parent, N_BITS] | ((1 if kind == MV_DRIFT else 0) << (m - 1))


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _add_outcome(cfg, wk, n_outs, lo, start, end, coll, bonus, node, attempt, speed, td):
    """Append an outcome unless ``lo..n_outs`` already holds the same (end, coll, bonus);
    one with fewer tree dents replaces it.

    The overspeed dents (R-15) are worked out only for a new outcome.
    """
    outs = wk.outs
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
    outs[n_outs, O_OVER] = overspeed(cfg, start, end, speed)
    outs[n_outs, O_SPEED] = speed
    outs[n_outs, O_TD] = td
    return n_outs + 1


# two calls, both in outcomes' inner loop: its calls cost 6% of greedy
@njit(inline="always", no_cfunc_wrapper=True)
def _step(cfg, pos, wk, i, kind, col, nxt, n_nodes, n_outs, search):
    """Expand node ``i`` by one move of ``kind`` into column ``col``: a new node in the
    layer from ``nxt``, or an outcome if the move collides. ``search`` = (first outcome of
    this search, start, speed, room). Returns the (nodes, outcomes) used after it. Counts
    go in and out as values, not in an array: an array argument cost two reference-count
    calls a step (perf)."""
    lo, start, speed, room = search
    nodes = wk.nodes
    cur = nodes[i, N_SPACE]
    td = nodes[i, N_TD]
    t = cfg.tab[cur, col]
    note(wk, t)
    c, td2 = enter(cfg, pos, t, td, room)
    if c == C_FIFTH:
        n_outs = _add_outcome(cfg, wk, n_outs, lo, start, t, c, ZERO, i, kind, speed, td2)
    elif c != C_NONE:
        # the sled stays where it was; the rest of the drift is lost.
        n_outs = _add_outcome(cfg, wk, n_outs, lo, start, cur, c, ZERO, i, kind, speed, td)
    else:
        d = nodes[i, N_D] + (1 if kind == MV_DRIFT else 0)
        n_nodes = _add_node(wk, n_nodes, nxt, nodes[i, N_M] + 1, d, t, i, kind, td2)
    return n_nodes, n_outs


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _straight(cfg, pos, wk, lo, hi, speed, search):
    """``outcomes``' layers for a move without drift: one node a layer, each one straight
    move on from the last, until a collision ends it (the same nodes and outcomes, in the
    same order, without the layer search). Returns the last layer, the nodes and the
    outcomes used."""
    n_outs = search[0]
    n_nodes = hi
    for _ in range(speed):
        if lo == hi:
            break
        n_nodes, n_outs = _step(cfg, pos, wk, lo, MV_STRAIGHT, S_NEXT, hi, n_nodes, n_outs, search)
        lo, hi = hi, n_nodes
    return lo, hi, n_nodes, n_outs


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _skip_distance(cfg, pos, t, td, start, room):
    """Greedy only: a bonus distance ending at ``t`` whose next one strictly beats it for
    the greedy score: one more space of progress with nothing else different (no collision
    or tree dent next, no building trigger here, no worse tie-break lane, no safety speed or
    finish line in between)."""
    tab = cfg.tab
    t2 = tab[t, S_NEXT]
    c2, td3 = enter(cfg, pos, t2, td, room)
    return (
        c2 == C_NONE
        and td3 == td
        and tab[t, S_TRIG] == 0
        and tab[t2, S_TIE] <= tab[t, S_TIE]
        and tab[t, S_NSAFE] == 0
        and tab[t2, S_NSAFE] == 0
        and tab[t, S_PAST] == tab[t2, S_PAST]
        and (cfg.safety_speeds == 0 or tab[start, S_CP] == tab[t2, S_CP])
    )


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _bonus_outcomes(cfg, pos, wk, i, n_outs, lo, start, speed, bonus, partial, room):
    """The outcomes of the bonus after reaching node ``i`` without a collision (outcomes
    of this search from ``lo``); returns the outcomes used after them.

    R-14: optional, all or nothing, straight ahead, counting toward R-15. R-23: any
    distance up to the dice, straight ahead (``partial`` 1; 2 also skips distances the
    next one beats for the greedy score, ``_skip_distance``).
    """
    cur = wk.nodes[i, N_SPACE]
    td = wk.nodes[i, N_TD]
    for j in range(1, bonus + 1):
        t = cfg.tab[cur, S_NEXT]
        note(wk, t)
        c, td2 = enter(cfg, pos, t, td, room)
        stop = cur
        if c == C_FIFTH:
            stop = t
        elif c == C_NONE:
            cur = t
            td = td2
            stop = t
        emit = c != C_NONE or partial != 0 or j == bonus
        if partial == 2 and c == C_NONE and j < bonus:
            note(wk, cfg.tab[t, S_NEXT])
            emit = not _skip_distance(cfg, pos, t, td, start, room)
        if emit:
            dist = j if partial else bonus
            n_outs = _add_outcome(
                cfg, wk, n_outs, lo, start, stop, c, dist, i, NONE, speed + dist, td2
            )
        if c != C_NONE:
            break
    return n_outs


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def outcomes(cfg, pos, wk, start, speed, drift, dcol, bonus, partial, room, counts):
    """Every distinct outcome of moving ``speed`` with ``drift`` drifts toward ``dcol``.

    ``bonus`` > 0 adds, for each end reached without a collision, the outcomes of the
    bonus (``_bonus_outcomes``). Tree dents (R-21) count against ``room``, the dents the
    sled can still hold (``enter``). ``counts`` = (nodes used, outcomes used, -): nodes
    and outcomes are appended from there and the counts updated in place.
    """
    lo_out = counts[1]
    n_outs = lo_out
    root = counts[0]
    n_nodes = _add_node(wk, root, root, ZERO, ZERO, start, NONE, NONE, ZERO)
    lo, hi = root, n_nodes
    search = (lo_out, start, speed, room)
    if drift == 0:
        lo, hi, n_nodes, n_outs = _straight(cfg, pos, wk, lo, hi, speed, search)
    for m in range(speed if drift > 0 else 0):
        nxt = hi
        for i in range(lo, hi):
            d = wk.nodes[i, N_D]
            # Drift timing (ST1 "Moves their sled", ST2 B.3): once moves left equal drifts
            # left, every remaining move must drift.
            if speed - m > drift - d:
                n_nodes, n_outs = _step(
                    cfg, pos, wk, i, MV_STRAIGHT, S_NEXT, nxt, n_nodes, n_outs, search
                )
            if d < drift:
                n_nodes, n_outs = _step(
                    cfg, pos, wk, i, MV_DRIFT, dcol, nxt, n_nodes, n_outs, search
                )
        lo, hi = hi, n_nodes
    for i in range(lo, hi):
        end = wk.nodes[i, N_SPACE]
        td = wk.nodes[i, N_TD]
        n_outs = _add_outcome(cfg, wk, n_outs, lo_out, start, end, C_NONE, ZERO, i, NONE, speed, td)
        if bonus > 0:
            n_outs = _bonus_outcomes(
                cfg, pos, wk, i, n_outs, lo_out, start, speed, bonus, partial, room
            )
    counts[0] = n_nodes
    counts[1] = n_outs
    counts[2] = lo_out


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def pattern_bits(wk, o):
    """(move count, drift bits) leading to outcome ``o``, the colliding attempt last: its
    node's moves and bits (``_add_node``), then the attempt's."""
    i = wk.outs[o, O_NODE]
    n = wk.nodes[i, N_M]
    bits = wk.nodes[i, N_BITS]
    if wk.outs[o, O_ATTEMPT] >= 0:
        if wk.outs[o, O_ATTEMPT] == MV_DRIFT:
            bits |= 1 << n
        n += 1
    return n, bits


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def walk(cfg, pos, start, bits, n, dcol, bonus, path, room):
    """Walk ``n`` moves drifting where ``bits`` say (then ``bonus`` straight moves) from
    ``start``, stopping at a collision.

    Writes the spaces visited to ``path`` (``path[0] = start``; a ``C_FIFTH`` tree's space
    is the last one) and returns (number of spaces in path, collision kind, index in path
    of the first bonus move or -1 when no bonus movement was made). Trees are not removed
    here: the caller does that along the path (R-21).
    """
    path[0] = start
    k = 1
    cur = start
    td = ZERO
    for j in range(n):
        col = dcol if (bits >> j) & 1 else S_NEXT
        t = cfg.tab[cur, col]
        c, td = enter(cfg, pos, t, td, room)
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
        t = cfg.tab[cur, S_NEXT]
        c, td = enter(cfg, pos, t, td, room)
        if c == C_FIFTH:
            path[k] = t
            return k + 1, c, b0
        if c != C_NONE:
            return k, c, b0
        cur = t
        path[k] = cur
        k += 1
    return k, C_NONE, b0
