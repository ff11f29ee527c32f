"""Greedy's one-turn score of a movement outcome (``_score``) and what it reads: the
distinct values held (``_distinct``, which the distilled policy and the position value
read too), the slowest speed next turn, the bonus dice kept. Which outcomes get scored,
and in what order: ``greedy.py``; the bounds on a play's scores: ``bound.py``.
"""

from __future__ import annotations

from numba import njit

from simkit.games.snowtails.bots import (
    W_BUILD,
    W_DENT,
    W_DENT_SQ,
    W_DIE,
    W_HAND,
    W_INSIDE,
    W_PROGRESS,
    W_REPAIR,
    W_RISK,
    W_SLED,
)
from simkit.games.snowtails.records import (
    C_FIFTH,
    C_SLED,
    C_WALL,
    N_VALUES,
    O_BONUS,
    O_COLL,
    O_END,
    O_OVER,
    O_TD,
    S_DIST,
    S_NSAFE,
    S_PAST,
    S_TIE,
    S_TRIG,
    T_BOTHY,
    T_CHAPEL,
    T_KENNELS,
    T_TAVERN,
)
from simkit.games.snowtails.rules import BONUS_DICE, popcount3

ELIMINATED = -1.0e6
# A sled whose last STILL_TURNS card plays each left it on its space (``pos.still``) scores
# an outcome that leaves it there again STILL_PENALTY lower: above any dent or repair's
# cost, below going out. Greedy's score is one turn's, so a sled at the end of a lane whose
# every move costs a dent (the side of the track ahead and beside it, a tree on the only
# way out: a tight corner of an ST2 track raced in reverse, ST2 G) waited for a hand that
# cannot come, to the engine guard (docs/rules-snowtails.md, "Engine guard"). Twelve, far
# beyond what play that can still move reaches (the longest run of still plays in a race:
# 5 in 3,000 greedy races on The Nutcracker with 4 sleds, 2 in 1,000 of greedy:tuned's
# under Mush! Mush! rules on What Goes Up with 5), so no other race changes: three
# changed 1 to 5 races in 1,000 on some grounds, and the bench's greedy tables.
STILL_TURNS = 12
STILL_PENALTY = 1000.0


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _distinct(pos, p):
    n = 0
    for v in range(N_VALUES):
        if pos.hand[p, v] > 0:
            n += 1
    return n


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _distinct_after(pos, p, v, mask, held):
    """``_distinct`` once the cards of a play of ``v`` onto ``mask`` have left the hand,
    from ``held``, the count before: one less only if they were all of that value."""
    return held - 1 if pos.hand[p, v] == popcount3(mask) else held


@njit(inline="always", no_cfunc_wrapper=True)
def _slowest_next(pos, p, left, right, brake, brake_on):
    """The lowest speed the seat could play next turn from the cards it keeps."""
    best = left + right - brake
    found = False
    for v in range(N_VALUES):
        if pos.hand[p, v] == 0:
            continue
        nl = min(left, v)
        nr = min(right, v)
        nb = max(brake, v) if brake_on else brake
        if nl == left and nr == right and nb == brake:
            inc = min(v - left, v - right)  # must still play the card somewhere
            if brake_on:
                inc = min(inc, brake - v)
            sp = left + right - brake + inc
        else:
            sp = nl + nr - nb
        if not found or sp < best:
            best = sp
            found = True
    return max(best, 0)


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _dice_kept(cfg, wk, o, coll, trig, die):
    """The bonus dice a sled keeps after outcome ``o`` (R-23, R-24, R-27)."""
    kept = die if wk.outs[o, O_BONUS] == 0 else 0  # spent once used
    if coll == C_SLED:
        kept = max(kept - cfg.sled_collision_die, 0)
    if trig & T_TAVERN:
        kept = 2 if kept == 0 else min(kept + 2, cfg.bonus_dice_max)
    return kept


@njit(inline="always", no_cfunc_wrapper=True)
def _score(cfg, wk, o, dents, ws, hq, slowest, die, fives):
    """Position evaluation of outcome ``o`` for a sled holding ``dents`` before the turn.

    ``die`` is the bonus dice on offer this turn (after step 2), ``fives`` the 5s still
    set aside for the kennels. ``ws``: the weights' row as values (``_weights``), which the
    score reads once an outcome.
    """
    tab = cfg.tab
    end = wk.outs[o, O_END]
    coll = wk.outs[o, O_COLL]
    taken = wk.outs[o, O_OVER] + wk.outs[o, O_TD]
    if coll == C_WALL:
        taken += cfg.wall_dents
    room = cfg.dent_limit - dents
    past = tab[end, S_PAST] != 0
    if past:
        # A move that ends past the finish line costs no dents: with R-26 none are taken
        # (turn.take_dents), and without it the ones taken cannot cost the finish (R-18:
        # a fifth leaves the sled where it is) and every dent goes back before the next
        # race (race.py). Charging them made greedy stop short of the line to save one.
        taken = 0
    elif taken > room or coll == C_FIFTH:
        if cfg.fifth_dent != 0:  # sits out
            return ws[W_PROGRESS] * cfg.prog[end] - ws[W_REPAIR]
        return ELIMINATED + cfg.prog[end]  # out of the race
    after = dents + taken
    sc = ws[W_PROGRESS] * cfg.prog[end] - ws[W_INSIDE] * tab[end, S_TIE]
    trig = tab[end, S_TRIG]
    if past:
        pass  # no dents to charge, none worth forgiving (above)
    elif trig & T_CHAPEL:  # every dent goes
        sc += ws[W_DENT] * dents + ws[W_DENT_SQ] * dents * dents
    else:
        sc -= ws[W_DENT] * taken + ws[W_DENT_SQ] * (after * after - dents * dents)
    if coll == C_SLED:
        sc -= ws[W_SLED]
    sc += ws[W_HAND] * hq
    lim = tab[end, S_NSAFE]
    if lim > 0 and slowest >= tab[end, S_DIST] and slowest > lim:
        sc -= ws[W_RISK] * (slowest - lim)
    if cfg.bonus_rule == BONUS_DICE:
        sc += ws[W_DIE] * _dice_kept(cfg, wk, o, coll, trig, die)
    if trig & T_KENNELS and fives > 0:
        sc += ws[W_BUILD]
    if trig & T_BOTHY:
        sc += ws[W_BUILD] / 3.0
    return sc


@njit(inline="always", no_cfunc_wrapper=True)
def _weights(cfg, wr):
    """Row ``wr`` of ``cfg.weights`` as a tuple of values, for ``_score``: read once a search
    instead of once an outcome (an array's elements are read again after every store the
    compiler cannot tell apart from them)."""
    w = cfg.weights
    return (
        w[wr, W_PROGRESS],
        w[wr, W_INSIDE],
        w[wr, W_DENT],
        w[wr, W_DENT_SQ],
        w[wr, W_SLED],
        w[wr, W_HAND],
        w[wr, W_RISK],
        w[wr, W_DIE],
        w[wr, W_BUILD],
        w[wr, W_REPAIR],
    )
