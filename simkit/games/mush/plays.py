"""Every play the rules allow the seat to move, one ``PLAY_WIDTH`` row each (docs/rules-mush.md,
"Choices").

``legal_plays`` lists them in a fixed order and returns how many there are; it writes as
many rows as ``out`` holds (a bid may be any number of tokens, so a caller that wants them
all sizes ``out`` by the count). Moves are paths: sequences of lines from the sled's space,
at most ``moves`` long, that pass occupied wilderness only with the tokens to pay, stop
at the goal (or a skip-Central jump) and do not end on occupied wilderness; under
``full_move`` a path may be shorter than ``moves`` only when it cannot go on (and if no
path qualifies, every path does).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simkit.games.mush.records import (
    MAX_PATH,
    P_BID,
    P_BUY,
    P_MARKER,
    P_MOVE,
    P_NONE,
    P_PASS,
    P_RACE,
    P_REDUCE,
    P_REROLL,
    P_REST,
    P_TRAIN,
    PH_AVAL,
    PH_BID,
    PH_BONUS_RR,
    PH_CHECK_RR,
    PH_DICE_RR,
    PH_MARKER,
    PH_MOVE,
    PH_PASS,
    PH_REDUCE,
    PH_REST,
    PH_ROUGH,
    PH_TRAIN,
    PH_WEATHER_RR,
    PLAY_PATH,
    PLAY_WIDTH,
)
from simkit.games.mush.rules import blocked, ends_move, has_marker, training_allowed


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def put(out, n, kind, a, b):
    """Write play row ``n`` (when ``out`` has room) and return ``n + 1``."""
    if n < out.shape[0]:
        row = out[n]
        row[:] = 0
        row[0] = kind
        row[1] = a
        row[2] = b
    return n + 1


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def to_move_seat(pos):
    """The seat whose decision it is (-1 when there is none): see ``position.to_move``."""
    ph = pos.phase
    n = pos.n
    s = pos.mover
    if ph == PH_TRAIN:
        return pos.seat_at[pos.train_i]
    if ph == PH_WEATHER_RR:
        return pos.seat_at[(pos.ini + pos.ask_i) % n]
    if ph == PH_BID:
        return pos.seat_at[(pos.ini + pos.bid_i) % n]
    if ph in (PH_REST, PH_MOVE, PH_AVAL, PH_PASS, PH_ROUGH):
        return s
    if ph in (PH_MARKER, PH_REDUCE):
        return pos.seat_at[(pos.place[s] + pos.opp_q) % n]
    if ph in (PH_DICE_RR, PH_BONUS_RR, PH_CHECK_RR):
        return s if pos.ask_i == 0 else pos.seat_at[(pos.place[s] + pos.ask_i) % n]
    return -1


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def legal_plays(pos, prm, rt, out):
    """Every legal play of the seat to move, in a fixed order, into the rows of ``out`` (as
    many as it holds); returns their number."""
    ph = pos.phase
    if ph == PH_MOVE:
        return paths(pos, prm, rt, out, np.int64(-1), np.zeros(PLAY_WIDTH, dtype=np.int64))
    n = counted_plays(pos, prm, rt, out)
    who = to_move_seat(pos)
    if ph == PH_MARKER and pos.tokens[who] >= prm.avalanche_cost:
        n = marker_plays(pos, prm, rt, -2, out, n)
    elif ph == PH_AVAL and pos.tokens[who] >= prm.avalanche_cost:
        n = marker_plays(pos, prm, rt, pos.path[pos.step], out, n)
    return n


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def counted_plays(pos, prm, rt, out):
    """``legal_plays`` but for paths and where markers go: the plays that are numbers
    (a training, a bid, a rest option, tokens, yes or no). Apart so that a search, which
    lists only these, does not compile the path and marker lists (7 s of CPU)."""
    ph = pos.phase
    who = to_move_seat(pos)
    if who < 0:
        return 0
    tokens = pos.tokens[who]
    n = np.int64(0)  # as every argument of put: one compile of it, not one per literal
    if ph == PH_TRAIN:
        taken = np.zeros(3, dtype=np.int64)
        for p in range(pos.train_i):
            taken[pos.stats[pos.seat_at[p]].training] += 1
        allowed = np.zeros(3, dtype=np.int64)
        training_allowed(prm.training_limits, pos.n, taken, allowed)
        for t in range(3):
            if allowed[t]:
                n = put(out, n, np.int64(P_TRAIN), t, np.int64(0))
    elif ph in (PH_WEATHER_RR, PH_DICE_RR, PH_BONUS_RR, PH_CHECK_RR):
        n = put(out, n, np.int64(P_NONE), np.int64(0), np.int64(0))
        if tokens >= prm.reroll_cost:
            n = put(out, n, np.int64(P_REROLL), np.int64(0), np.int64(0))
    elif ph == PH_BID:
        for a in range(tokens + 1):
            n = put(out, n, np.int64(P_BID), a, np.int64(0))
    elif ph == PH_REST:
        n = put(out, n, np.int64(P_RACE), np.int64(0), np.int64(0))
        rk = rt.sp[pos.space[who]].rest
        k = 1 if rk == 1 else (prm.rest_checkpoint_n if rk == 2 else prm.rest_town_n) // 2
        for opt in range(k):
            n = put(out, n, np.int64(P_REST), opt, np.int64(0))
    elif ph == PH_MARKER:
        n = put(out, n, np.int64(P_NONE), np.int64(0), np.int64(0))
    elif ph == PH_REDUCE:
        room = prm.reduce_cost * min(prm.reduce_max_dice, pos.own_dice) - pos.pool
        for t in range(max(0, min(tokens, room)) + 1):
            n = put(out, n, np.int64(P_REDUCE), t, np.int64(0))
    elif ph == PH_AVAL:
        for t in range(min(tokens, prm.avalanche_token_max) + 1):
            n = put(out, n, np.int64(P_BUY), t, np.int64(0))
    elif ph == PH_PASS:
        n = put(out, n, np.int64(P_NONE), np.int64(0), np.int64(0))
        if tokens >= prm.pass_cost:
            n = put(out, n, np.int64(P_PASS), np.int64(0), np.int64(0))
    elif ph == PH_ROUGH:
        for t in range(min(tokens, prm.rough_token_max) + 1):
            n = put(out, n, np.int64(P_BUY), t, np.int64(0))
    return n


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def free_line(pos, prm, rt, x):
    """An avalanche marker may be put on line ``x``: not rough terrain, no marker there."""
    return rt.ln[x].avalanche != 0 and not has_marker(pos, prm, x)


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def marker_plays(pos, prm, rt, only, out, n):
    """Marker plays from row ``n`` on: from the box onto any free line (``only`` -2 and a
    marker in the box), then for each marker on the board, by line (only the one on line
    ``only`` when it is >= 0): off the board, then onto each free line (text, Déplacer un
    bâton avalanche). Returns the next row number."""
    if only == -2 and pos.on_board < prm.avalanche_markers:
        for x in range(rt.n_lines):
            if free_line(pos, prm, rt, x):
                n = put(out, n, np.int64(P_MARKER), np.int64(-1), x)
    for q in range(rt.n_lines):
        if (only == -2 or q == only) and has_marker(pos, prm, q):
            n = put(out, n, np.int64(P_MARKER), q, np.int64(-1))
            for x in range(rt.n_lines):
                if free_line(pos, prm, rt, x):
                    n = put(out, n, np.int64(P_MARKER), q, x)
    return n


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def n_marker_plays(pos, prm, rt, only):
    """How many plays ``marker_plays`` lists."""
    free = _n_free(pos, prm, rt)
    box = 1 if only == -2 and pos.on_board < prm.avalanche_markers else 0
    moved = 1 if only >= 0 else pos.on_board
    return box * free + moved * (1 + free)


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def nth_marker_play(pos, prm, rt, only, k):
    """(from, to) of play ``k`` in ``marker_plays``' order, without listing them."""
    free = _n_free(pos, prm, rt)
    src = -1
    if only == -2 and pos.on_board < prm.avalanche_markers:
        if k < free:
            return -1, _nth_free(pos, prm, rt, k)
        k -= free
    i = k // (1 + free)
    for q in range(rt.n_lines):
        if (only == -2 or q == only) and has_marker(pos, prm, q):
            if i == 0:
                src = q
                break
            i -= 1
    r = k % (1 + free)
    return src, -1 if r == 0 else _nth_free(pos, prm, rt, r - 1)


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _n_free(pos, prm, rt):
    k = 0
    for x in range(rt.n_lines):
        k += free_line(pos, prm, rt, x)
    return k


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _nth_free(pos, prm, rt, k):
    for x in range(rt.n_lines):
        if free_line(pos, prm, rt, x):
            if k == 0:
                return x
            k -= 1
    return -1


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def paths(pos, prm, rt, out, pick, row):
    """The move plays (see the module doc) from row 0 of ``out`` (as many as it holds);
    with ``pick`` >= 0 the ``pick``-th is also written to ``row``. Returns their number."""
    strict = prm.full_move != 0
    n = _walk_paths(pos, prm, rt, out, pick, row, strict)
    if strict and n == 0:
        n = _walk_paths(pos, prm, rt, out, pick, row, n > 0)  # every path, then
    return n


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _can_go_on(pos, prm, rt, v):
    """Some line out of ``v`` may be taken (an occupied space only with tokens to pass)."""
    can_pay = pos.tokens[pos.mover] >= prm.pass_cost
    for e in range(rt.sp[v].out_lo, rt.sp[v].out_hi):
        if can_pay or not blocked(pos, rt, rt.ln[e].to):
            return True
    return False


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _walk_paths(pos, prm, rt, out, pick, row, strict):
    """Depth-first over every path from the mover's space; ``strict``: the ``full_move``
    rule too. Writes rows as ``paths`` describes and returns the count."""
    m = pos.moves
    can_pay = pos.tokens[pos.mover] >= prm.pass_cost
    line = np.empty(MAX_PATH + 1, dtype=np.int64)  # line[d]: the line taken at depth d
    line[0] = rt.sp[pos.turn_from].out_lo - 1
    n = np.int64(0)
    d = 0
    if not strict or m == 0 or not _can_go_on(pos, prm, rt, pos.turn_from):
        n = _emit(out, n, pick, row, line, np.int64(0))
    while d >= 0:
        u = pos.turn_from if d == 0 else rt.ln[line[d - 1]].to
        e = line[d] + 1
        if d < m and (d == 0 or not ends_move(rt, u)):
            while e < rt.sp[u].out_hi and not (can_pay or not blocked(pos, rt, rt.ln[e].to)):
                e += 1
        else:
            e = rt.sp[u].out_hi
        if e >= rt.sp[u].out_hi:  # every line from here tried: back up
            d -= 1
            continue
        line[d] = e
        v = rt.ln[e].to
        d += 1
        line[d] = rt.sp[v].out_lo - 1
        if blocked(pos, rt, v):
            continue  # it may pass this sled, not stop on it
        if strict and d < m and not ends_move(rt, v) and _can_go_on(pos, prm, rt, v):
            continue
        n = _emit(out, n, pick, row, line, d)
    return n


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _emit(out, n, pick, row, line, length):
    """Write the path ``line[:length]`` as play ``n`` (and to ``row`` when it is the pick)."""
    if n < out.shape[0]:
        _path_row(out[n], line, length)
    if n == pick:
        _path_row(row, line, length)
    return n + 1


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _path_row(row, line, length):
    row[:] = 0
    row[0] = P_MOVE
    row[1] = length
    for k in range(length):
        row[PLAY_PATH + k] = line[k]
