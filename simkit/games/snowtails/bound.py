"""Upper bounds on the scores of a card play's outcomes (``_play_bound`` from the order
table, ``_drift_bounds`` from the drift table; ``reach.py``), with which greedy searches
its plays best bound first and skips those that cannot win, and what each play does
(``_effects``), worked out once a search for the bounds, the search and the scores. The
score itself: ``score.py``; the search: ``greedy.py``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simkit.games.snowtails.bots import W_BUILD, W_DENT, W_DENT_SQ, W_DIE, W_HAND, W_PROGRESS
from simkit.games.snowtails.params import MAX_VALUE
from simkit.games.snowtails.reach import CORNERS, DRIFT_SCALE, DRIFTS, REACH, SIDES
from simkit.games.snowtails.records import (
    FX_BONUS,
    FX_BRAKE,
    FX_DCOL,
    FX_DRIFT,
    FX_LEFT,
    FX_RIGHT,
    FX_SPEED,
    S_CP,
    S_LEFT,
    T_BOTHY,
    T_CHAPEL,
    T_KENNELS,
    T_TAVERN,
)
from simkit.games.snowtails.rules import play_effect
from simkit.games.snowtails.score import _distinct_after

BOUND_MARGIN = 1e-6  # far above rounding in scores of a few hundred
NO_LIMIT = 1 << 30  # a corner line's safety speed in the bound where none applies


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _building_gain(cfg, wr, dents, room, fives):
    """The most the buildings on the unit's tracks can add to a score (``greedy``'s bound):
    the chapel also forgives this turn's dents."""
    trig = cfg.trig_kinds
    extra = 0.0
    if trig & T_CHAPEL:
        extra += (
            cfg.weights[wr, W_DENT] * (dents + room) + cfg.weights[wr, W_DENT_SQ] * dents * dents
        )
    if trig & T_KENNELS and fives > 0:
        extra += cfg.weights[wr, W_BUILD]
    if trig & T_BOTHY:
        extra += cfg.weights[wr, W_BUILD] / 3.0
    return extra


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _play_bound(cfg, order, pos, wk, p, i, wr, room, partial, extra, held):
    """An upper bound on the score of any outcome of card play ``i`` (``wk.plays`` row),
    from the order table of ``reach_table``.

    Every term of the score but progress, dents and hand only lowers it, so no outcome
    scores above the best, over the corner lines j it may cross, of the progress within
    reach less the dents crossing them surely costs (at the speed without bonus; R-15,
    capped at what the sled can still take, R-18), plus the hand term, what buildings give
    and the dice kept. ``held``: the distinct values in the seat's hand (``_distinct``).
    """
    v = wk.plays[i, 0]
    mask = wk.plays[i, 1]
    speed, drift, dcol, bonus = _movement(wk, i)
    start = pos.space[p]
    moves = speed + bonus
    side = 0 if drift == 0 else (1 if dcol == S_LEFT else 2)
    at = ((start * REACH + moves) * SIDES + side) * CORNERS
    if moves >= REACH:
        return np.inf
    past = order[order.shape[0] - order.shape[0] // (REACH * SIDES * CORNERS + 1) + start]
    b = -np.inf
    over = 0
    c = cfg.tab[start, S_CP]
    for j in range(CORNERS):
        if j > 0:
            over += max(speed - _line_limit(cfg, c), 0)
            c += 1
        r = order[at + j]
        if r == np.inf:
            return np.inf
        if r > -np.inf:
            cand = cfg.weights[wr, W_PROGRESS] * r
            if r < past:  # nothing this far is past the finish line: its dents count
                cand -= cfg.weights[wr, W_DENT] * min(over, room)
            if cand > b:
                b = cand
    return b + _bound_rest(cfg, pos, p, v, mask, wr, partial, extra, held, bonus)


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _bound_rest(cfg, pos, p, v, mask, wr, partial, extra, held, bonus):
    """The terms of a play's bound besides progress and dents: the hand left, what
    buildings give, and the dice kept (R-23, R-27)."""
    b = cfg.weights[wr, W_HAND] * _distinct_after(pos, p, v, mask, held)
    if extra > 0.0:
        b = b + extra
    if partial:
        tavern = 2 if cfg.trig_kinds & T_TAVERN else 0
        b = b + cfg.weights[wr, W_DIE] * min(bonus + tavern, cfg.bonus_dice_max)
    return b


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _line_limit(cfg, c):
    """The safety speed of corner line ``c`` for the bound: a speed above it costs dents
    (R-15); a huge one where no line or no limit counts."""
    if c < cfg.n_corners and cfg.safety_speeds != 0 and cfg.safety[c] > 0:
        return cfg.safety[c]
    return NO_LIMIT


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _lines_bound(drifts, at, wu, wd, over1, over2, over3, room, past):
    """The best of the drift table's entries ``at`` to ``at + 3`` (0 to 3 or more corner
    lines crossed), each less the dents its lines surely cost (``over1``..``over3``,
    capped at ``room``; none past the finish line, from entry ``past`` on)."""
    b0 = wu * drifts[at]  # NO_REACH scores below b0, so needs no branch
    e1 = drifts[at + 1]
    e2 = drifts[at + 2]
    e3 = drifts[at + 3]
    b1 = wu * e1 - (wd * min(over1, room) if e1 < past else 0.0)
    b2 = wu * e2 - (wd * min(over2, room) if e2 < past else 0.0)
    b3 = wu * e3 - (wd * min(over3, room) if e3 < past else 0.0)
    return max(max(b0, b1), max(b2, b3))


@njit(inline="always", no_cfunc_wrapper=True)
def _drift_bounds(cfg, drifts, pos, wk, p, n_pl, wr, room, partial, extra, held):
    """``_play_bound`` for every card play, from the drift table (``reach_table``): the
    play's exact straight moves and drifts, into ``wk.bounds``. For weight ``W_PROGRESS`` >
    0 and a table that is not empty (``_fixed16``) only. Entries are rounded up, so each
    bound is at least the float64 one.

    A play with a bonus is bounded as the better of its outcomes without the bonus and
    those with it: the first end within its own straight moves and pay their lines'
    dents at its speed; the second end within the bonus's further moves too, but every
    line they cross dents at the speed plus the bonus distance moved (R-14: all of it;
    R-23: one at least, ``partial``; R-15), and they keep no dice but the tavern's
    (R-23, R-27). A bound at its speed alone was loose by those dents: 1.6 of greedy's
    3.5 plays searched per decision were bonus plays that could not win (measured)."""
    start = pos.space[p]
    c = cfg.tab[start, S_CP]
    lim1 = _line_limit(cfg, c)
    lim2 = _line_limit(cfg, c + 1)
    lim3 = _line_limit(cfg, c + 2)
    wu = cfg.weights[wr, W_PROGRESS] / DRIFT_SCALE  # per table unit
    wd = cfg.weights[wr, W_DENT]
    tavern = 2 if cfg.trig_kinds & T_TAVERN else 0  # dice a bonus outcome may keep
    # Entries from this one on may be past the finish line, where dents cost nothing
    # (``_score``; ``reach_table`` keeps it per space after the entries).
    past = drifts[drifts.shape[0] - drifts.shape[0] // (REACH * DRIFTS * CORNERS + 1) + start]
    for i in range(n_pl):
        v = wk.plays[i, 0]
        mask = wk.plays[i, 1]
        speed, drift, dcol, bonus = _movement(wk, i)
        moves = speed - drift  # straight ones
        if moves + bonus >= REACH:  # with the bonus's
            wk.bounds[i] = np.inf
            continue
        code = 0 if drift == 0 else (drift if dcol == S_LEFT else MAX_VALUE + drift)
        at = ((start * REACH + moves) * DRIFTS + code) * CORNERS
        over1 = max(speed - lim1, 0)
        over2 = over1 + max(speed - lim2, 0)
        over3 = over2 + max(speed - lim3, 0)
        rest = _bound_rest(cfg, pos, p, v, mask, wr, partial, extra, held, bonus)
        b = _lines_bound(drifts, at, wu, wd, over1, over2, over3, room, past) + rest
        if bonus > 0:
            fast = speed + (1 if partial else bonus)
            over1 = max(fast - lim1, 0)
            over2 = over1 + max(fast - lim2, 0)
            over3 = over2 + max(fast - lim3, 0)
            if partial:
                kept = min(bonus + tavern, cfg.bonus_dice_max)
                rest += cfg.weights[wr, W_DIE] * (tavern - kept)
            at += bonus * DRIFTS * CORNERS
            b = max(b, _lines_bound(drifts, at, wu, wd, over1, over2, over3, room, past) + rest)
        wk.bounds[i] = b


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _first_of_equals(cfg, order, pos, wk, p, i, wr, room, partial, extra, held, prunable):
    """Whether play ``i``, scoring the same as the play kept from this space, is the one
    greedy takes: the one first in the order of the order table's bounds (ties: the
    earlier listed), which is the play greedy found first when it searched in that order.
    The drift table's order is faster to search; this keeps every choice the same."""
    q = wk.top_i[0]
    if wk.n_top == 0 or wk.top_entry[0] != wk.n_entry or q == i:
        return False
    if not prunable:
        return i < q  # every bound infinite: list order
    bi = _play_bound(cfg, order, pos, wk, p, i, wr, room, partial, extra, held)
    bq = _play_bound(cfg, order, pos, wk, p, q, wr, room, partial, extra, held)
    return bi > bq or (bi == bq and i < q)


@njit(inline="always", no_cfunc_wrapper=True)
def _effects(cfg, pos, wk, p, n_pl):
    """What each card play ``wk.plays[:n_pl]`` of seat ``p`` does (``play_effect``), into
    ``wk.effects``: once a search, for its bounds, its movement searches and its scores,
    which each worked it out again (three times for a play searched)."""
    for i in range(n_pl):
        left, right, brake, speed, drift, dcol, _, bonus = play_effect(
            cfg, pos, p, wk.plays[i, 0], wk.plays[i, 1], pos.rnd, pos.t_pos
        )
        fx = wk.effects[i]
        fx[FX_LEFT] = left
        fx[FX_RIGHT] = right
        fx[FX_BRAKE] = brake
        fx[FX_SPEED] = speed
        fx[FX_DRIFT] = drift
        fx[FX_DCOL] = dcol
        fx[FX_BONUS] = bonus


@njit(inline="always", no_cfunc_wrapper=True)
def _movement(wk, i):
    """How card play ``i`` moves the sled, from ``wk.effects`` (``_effects``): speed,
    drift, the drift's side and the bonus on offer."""
    fx = wk.effects[i]
    return fx[FX_SPEED], fx[FX_DRIFT], fx[FX_DCOL], fx[FX_BONUS]


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _best_bound(wk, n_pl):
    """The card play with the highest bound (ties: the earlier listed): searched first."""
    best = 0
    for i in range(1, n_pl):
        if wk.bounds[i] > wk.bounds[best]:
            best = i
    return best


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _order_above(wk, n_pl, first, bar):
    """After play ``first`` is searched: into ``wk.border[1:]``, the other card plays whose
    bound can still beat (or tie) ``bar``, highest bound first (ties: list order); returns
    1 + their number. The search order is the one a sort of every play by bound would
    give, since a play below the bar now stays below it; but a decision searches about 4
    of its 14 plays (measured), and sorting all of them was a third of the search loop."""
    n = 1
    for i in range(n_pl):
        b = wk.bounds[i]
        if i == first or b + BOUND_MARGIN <= bar:
            continue
        m = n
        while m > 1 and wk.bounds[wk.border[m - 1]] < b:
            wk.border[m] = wk.border[m - 1]
            m -= 1
        wk.border[m] = i
        n += 1
    return n
