"""Greedy's search for the best card plays of a seat (``top_plays``): every legal play's
movement outcomes (``movement.outcomes``) scored (``score.py``), plays in order of their
bounds (``bound.py``), the rest skipped once none can beat the ``k``-th best found. ``k`` =
1 is greedy's own choice (``policy.decide``); the search and distilled bots take more as
their candidates.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simkit.games.snowtails.bots import N_WEIGHTS, W_PROGRESS
from simkit.games.snowtails.bound import (
    BOUND_MARGIN,
    _best_bound,
    _building_gain,
    _drift_bounds,
    _effects,
    _first_of_equals,
    _movement,
    _order_above,
    _play_bound,
)
from simkit.games.snowtails.movement import outcomes, pattern_bits
from simkit.games.snowtails.records import (
    FX_BONUS,
    FX_BRAKE,
    FX_LEFT,
    FX_RIGHT,
    NONE,
    O_BONUS,
    O_END,
    ONE,
    PH_PLAY,
    PL_BITS,
    PL_ENTER,
    PL_KIND,
    PL_MASK,
    PL_NPAT,
    PL_TAKE,
    PL_VALUE,
    PLAY_W,
    ZERO,
)
from simkit.games.snowtails.rules import BONUS_DICE, entry_spaces, list_plays, popcount3
from simkit.games.snowtails.score import (
    STILL_PENALTY,
    STILL_TURNS,
    _distinct,
    _distinct_after,
    _score,
    _slowest_next,
    _weights,
)


@njit(inline="always", no_cfunc_wrapper=True)
def _search_play(cfg, pos, wk, p, i, partial, room, n_keys):
    """The outcomes of card play ``i``: searched, or found among those of an earlier play
    that moves the same (speed, drift, side, bonus). Returns (key row, keys used)."""
    speed, drift, dcol, bonus = _movement(wk, i)
    keys = wk.okeys
    for q in range(n_keys):
        k = keys[q]
        if k[0] == speed and k[1] == drift and k[2] == dcol and k[3] == bonus:
            return q, n_keys
    if n_keys >= keys.shape[0]:
        return -1, n_keys
    lo = wk.found[1]
    outcomes(cfg, pos, wk, pos.space[p], speed, drift, dcol, bonus, partial, room, wk.found)
    keys[n_keys, 0] = speed
    keys[n_keys, 1] = drift
    keys[n_keys, 2] = dcol
    keys[n_keys, 3] = bonus
    keys[n_keys, 4] = lo
    keys[n_keys, 5] = wk.found[1]
    return n_keys, n_keys + 1


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _keep(wk, k, sc, i, o):
    """Put outcome ``o`` of card play ``i`` (score ``sc``) into the top-``k`` list of the
    current search, ordered by score, then play, then outcome (greedy's tie rule), unless
    ``k`` better ones are there. Returns the score the next candidate must beat."""
    n = wk.n_top
    j = n
    while j > 0 and (
        sc > wk.top_score[j - 1]
        or (
            sc == wk.top_score[j - 1]
            and wk.top_entry[j - 1] == wk.n_entry
            and (i < wk.top_i[j - 1] or (i == wk.top_i[j - 1] and o < wk.top_o[j - 1]))
        )
    ):
        j -= 1
    if j < k:
        last = min(n, k - 1)
        for m in range(last, j, -1):
            wk.top_score[m] = wk.top_score[m - 1]
            wk.top_i[m] = wk.top_i[m - 1]
            wk.top_o[m] = wk.top_o[m - 1]
            wk.top_entry[m] = wk.top_entry[m - 1]
            for c in range(PLAY_W):
                wk.top[m, c] = wk.top[m - 1, c]
        wk.top_score[j] = sc
        wk.top_i[j] = i
        wk.top_o[j] = o
        wk.top_entry[j] = wk.n_entry
        wk.top[j, PL_KIND] = -1  # its play row is written once the search of this space ends
        wk.n_top = min(n + 1, k)
    return wk.top_score[k - 1] if wk.n_top == k else -np.inf


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _top_from(cfg, reach, pos, wk, p, wr, k, floor):
    """The ``k`` best card plays and outcomes by ``_score`` from the sled's space, added to
    the top list (``_keep``); only scores above ``floor`` count.

    Plays are searched in order of an upper bound on their scores (``_play_bound``), and
    once no remaining bound can beat the k-th best score found, the rest are skipped: the
    list is the same as searching every play. For greedy's own choice (``k`` = 1) the bound
    counts the play's drifts (``reach_table``), which skips more plays; of plays scoring
    the same it takes the one the order table's bounds put first (``_first_of_equals``).
    """
    n_pl = list_plays(cfg, pos, p, wk.plays)
    _effects(cfg, pos, wk, p, n_pl)
    dents = pos.dents[p]
    prunable = ONE  # an int64, not a bool: a literal True compiled _first_of_equals twice
    for j in range(N_WEIGHTS):
        if cfg.weights[wr, j] < 0:
            prunable = ZERO  # the bound assumes every penalty lowers the score
    room = max(cfg.dent_limit - dents, 0)
    partial = 0
    if cfg.bonus_rule == BONUS_DICE:
        partial = 2 if prunable and cfg.weights[wr, W_PROGRESS] > 0 else 1  # movement.outcomes
    fives = pos.fives[p]
    extra = _building_gain(cfg, wr, dents, room, fives)
    drifts = k == 1  # greedy's own choice: search in the drift table's order
    held = _distinct(pos, p)
    order = reach[0]
    if prunable and drifts and cfg.weights[wr, W_PROGRESS] > 0.0 and reach[1].shape[0] > 0:
        _drift_bounds(cfg, reach[1], pos, wk, p, n_pl, wr, room, partial, extra, held)
    else:
        for i in range(n_pl):
            b = np.inf
            if prunable:
                b = _play_bound(cfg, order, pos, wk, p, i, wr, room, partial, extra, held)
            wk.bounds[i] = b
    wk.border[0] = _best_bound(wk, n_pl)
    n_order = min(n_pl, 1)
    ordered = n_pl <= 1
    wk.found[0] = 0
    wk.found[1] = 0
    n_keys = ZERO
    bar = floor
    brake_on = cfg.brake != 0
    ws = _weights(cfg, wr)
    here = pos.space[p]
    stuck = wk.entering == 0 and pos.still[p] >= STILL_TURNS  # (STILL_PENALTY)
    j = 0
    while True:
        if j == 1 and not ordered:  # the first play searched: order the rest, once
            n_order = _order_above(wk, n_pl, wk.border[0], bar)
            ordered = True
        if j >= n_order:
            break
        i = wk.border[j]
        j += 1
        if wk.bounds[i] + BOUND_MARGIN <= bar:
            break  # no play left can beat (or tie) the k-th best: the margin covers rounding
        kk, n_keys = _search_play(cfg, pos, wk, p, i, partial, room, n_keys)
        if kk < 0:
            continue
        v = wk.plays[i, 0]
        mask = wk.plays[i, 1]
        fx = wk.effects[i]
        left = fx[FX_LEFT]
        right = fx[FX_RIGHT]
        brake = fx[FX_BRAKE]
        bonus = fx[FX_BONUS]
        hq = _distinct_after(pos, p, v, mask, held)
        n = popcount3(mask)
        pos.hand[p, v] -= n
        slowest = _slowest_next(pos, p, left, right, brake, brake_on)
        pos.hand[p, v] += n
        for o in range(wk.okeys[kk, 4], wk.okeys[kk, 5]):
            sc = _score(cfg, wk, o, dents, ws, hq, slowest, bonus, fives)
            if stuck and wk.outs[o, O_END] == here:
                sc -= STILL_PENALTY
            if sc > bar or (sc == bar and wk.n_top < k):
                bar = max(floor, _keep(wk, k, sc, i, o))
            elif (
                drifts
                and sc == bar
                and _first_of_equals(
                    cfg, order, pos, wk, p, i, wr, room, partial, extra, held, prunable
                )
            ):
                wk.n_top = 0  # k = 1: it replaces the play kept
                bar = max(floor, _keep(wk, k, sc, i, o))
    # The rows of the candidates this space added, while its search tables are still here.
    for m in range(wk.n_top):
        if wk.top_entry[m] == wk.n_entry and wk.top[m, PL_KIND] < 0:
            i = wk.top_i[m]
            npat, bits = pattern_bits(wk, wk.top_o[m])
            row = wk.top[m]
            row[PL_KIND] = PH_PLAY
            row[PL_ENTER] = pos.space[p] if wk.entering != 0 else NONE
            row[PL_VALUE] = wk.plays[i, 0]
            row[PL_MASK] = wk.plays[i, 1]
            row[PL_BITS] = bits
            row[PL_NPAT] = npat
            row[PL_TAKE] = wk.outs[wk.top_o[m], O_BONUS]


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def top_plays(cfg, reach, pos, wk, p, wr, k):
    """The ``k`` best plays of seat ``p`` by greedy's one-turn score with the weights in
    row ``wr`` of ``cfg.weights``,
    from its space, or from each start-row space it may enter on (ST2 B): rows in
    ``wk.top[:wk.n_top]``, scores in ``wk.top_score``, best first. ``k`` = 1 is greedy's
    choice; the search bot takes its candidates from here."""
    wk.n_top = 0
    wk.n_entry = 0
    if pos.space[p] >= 0:
        wk.entering = 0
        _top_from(cfg, reach, pos, wk, p, wr, k, -np.inf)
        return
    wk.entering = 1
    spaces = wk.path  # the start-row spaces (the path is free until the play resolves)
    n = entry_spaces(cfg, pos, spaces)
    for e in range(n):
        wk.n_entry = e
        pos.space[p] = spaces[e]
        # A later space's play replaces an earlier one's only with a higher score.
        floor = wk.top_score[k - 1] if wk.n_top == k else -np.inf
        _top_from(cfg, reach, pos, wk, p, wr, k, floor)
    pos.space[p] = NONE
    wk.entering = 0
