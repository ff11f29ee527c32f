"""MUSH's heuristic bots as policies over positions: ``heuristic`` writes the play of the
seat to move for ``random`` and ``greedy`` (and for ``search`` where it does not search: it
plays greedy there, and greedy plays every seat of its rollouts).

A bot reads the position as its seat may see it (``position.observe``: no other seat's
unrevealed bid, no future dice) plus the route and its own parameters, works out what its
leaf rule in ``policy.py`` needs, and writes one play row. Random bots draw from their own
seat's stream, so a race stays a pure function of its key whatever bots play it. Where
the rules give a choice random has no rule for (where an avalanche marker goes, which
path under ``full_move``), it picks uniformly among the legal plays.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simkit.games.mush import policy as B
from simkit.games.mush.bots import RANDOM
from simkit.games.mush.planner import plan
from simkit.games.mush.plays import n_marker_plays, nth_marker_play, paths
from simkit.games.mush.records import (
    I_BOT,
    P_BID,
    P_BUY,
    P_MARKER,
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
    PH_DICE_RR,
    PH_MARKER,
    PH_MOVE,
    PH_PASS,
    PH_REDUCE,
    PH_REST,
    PH_ROUGH,
    PH_TRAIN,
    PH_WEATHER_RR,
)
from simkit.games.mush.route import TOWN
from simkit.games.mush.rules import die_value, has_marker, pass_chance, training_allowed
from simkit.rng import below

# Which check ``policy.buy_for_check`` buys for, as values numba types as bool, not as the
# literals True and False: those compiled it twice.
ROUGH_CHECK = np.bool_(True)
AVALANCHE_CHECK = np.bool_(False)


# Not internal, on purpose: with its Python wrapper simkit/_numba_link.py optimises and
# emits greedy's and random's code on its own, and batch.blocks links that optimised code
# and optimises it again. Linked in unoptimised, as the other internal kernels are, the
# bench cell's races ran 3-4% slower (measured: 100,000 races on 1 thread, 11.4 s against
# 10.9; a search cell and a 3-player random/greedy cell likewise), for about 0.7 s of CPU
# less in a cold compile. Python reaches it only through kernels.choose.
@njit(no_cfunc_wrapper=True)
def heuristic(bp, pos, prm, cell, rt, seat, work, play):
    """Write into ``play.row`` the play bot ``bp`` makes for ``seat``, the seat to move (a
    search bot's ``bp`` plays as greedy)."""
    out = play.row
    ph = pos.phase
    bi = I_BOT + seat
    if ph == PH_TRAIN:
        _train(bp, pos, prm, cell, bi, work, out)
    elif ph == PH_BID:
        _say(out, np.int64(P_BID), _bid(bp, pos, prm, rt, seat), np.int64(0))
    elif ph == PH_REST:
        _rest(bp, pos, prm, rt, out)
    elif ph == PH_MARKER:
        _marker(bp, pos, prm, rt, seat, out)
    elif ph == PH_REDUCE:
        room = prm.reduce_cost * min(prm.reduce_max_dice, pos.own_dice) - pos.pool
        h = _harass(bp, pos, rt, seat)
        k = B.dice_to_remove(
            bp, pos.streams, bi, pos.tokens[seat], prm.reduce_cost, room // prm.reduce_cost, h
        )
        _say(out, np.int64(P_REDUCE), k * prm.reduce_cost, np.int64(0))
    elif ph == PH_MOVE:
        _move(bp, pos, prm, rt, work, out)
    elif ph == PH_AVAL:
        _avalanche(bp, pos, prm, rt, out)
    elif ph == PH_PASS:
        pay = B.pay_to_pass(bp, pos.streams, bi, pos.tokens[seat], prm.pass_cost)
        _say(out, P_PASS if pay else P_NONE, np.int64(0), np.int64(0))
    elif ph == PH_ROUGH:
        t = B.buy_for_check(bp, pos.streams, bi, pos.tokens[seat], ROUGH_CHECK, prm.rough_token_max)
        _say(out, np.int64(P_BUY), t, np.int64(0))
    else:
        yes = _reroll(bp, pos, prm, rt, seat)
        _say(out, P_REROLL if yes else P_NONE, np.int64(0), np.int64(0))


# Called with many constants, each as np.int64: numba compiles a function once per
# combination of literal (Python int) arguments, and would compile _say ten times.
@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _say(out, kind, a, b):
    """Write the play row ``out``: ``kind``, ``a``, ``b``, no path."""
    out[:] = 0
    out[0] = kind
    out[1] = a
    out[2] = b


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _train(bp, pos, prm, cell, bi, work, out):
    """R-44: within the limits left by the seats before it (scratch in ``work``: a search's
    rollouts allocate nothing)."""
    taken = work.taken
    allowed = work.allowed
    for t in range(3):
        taken[t] = 0
    for p in range(pos.train_i):
        taken[pos.stats[pos.seat_at[p]].training] += 1
    training_allowed(prm.training_limits, pos.n, taken, allowed)
    _say(
        out,
        np.int64(P_TRAIN),
        B.choose_training(bp, pos.streams, bi, allowed, cell.train_value),
        np.int64(0),
    )


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _bid(bp, pos, prm, rt, s):
    """R-47: how far the nearest rival ahead is; an exhausted sled bids for the extra space."""
    gap = np.int64(1 << 30)  # not a literal: numba would compile ``choose_bid`` for it too
    for o in range(pos.n):
        ahead = rt.sp[pos.space[s]].dist - rt.sp[pos.space[o]].dist
        if o != s and ahead >= 0:
            gap = min(gap, ahead)
    town = rt.sp[pos.space[s]].kind == TOWN
    spent = pos.covered[s] >= prm.dogs and not town  # no dice: the bid is its only way on
    return B.choose_bid(bp, pos.streams, I_BOT + s, pos.tokens[s], gap, town, spent)


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _rest(bp, pos, prm, rt, out):
    """Rest (which option) or race (text, Repos; R-45)."""
    s = pos.mover
    v = pos.space[s]
    rk = rt.sp[v].rest
    cov = pos.covered[s]
    pf = die_value(prm, rt.sp[v].weather, pos.stats[s].training)
    reach = 0.0
    for c in range(cov, prm.dogs):
        reach += (prm.dogs - c) * pf
    bi = I_BOT + s
    resting = pos.resting[s] != 0
    if not B.wants_rest(
        bp, pos.streams, bi, rk, cov, resting, pos.start_rests[s], reach, rt.sp[v].town_dist
    ):
        _say(out, np.int64(P_RACE), np.int64(0), np.int64(0))
        return
    opt = 0
    if rk != 1:
        opts = prm.rest_checkpoint if rk == 2 else prm.rest_town
        n_opts = (prm.rest_checkpoint_n if rk == 2 else prm.rest_town_n) // 2
        cd, ct = rt.sp[v].cap_dogs, rt.sp[v].cap_tokens
        opt = B.choose_rest(bp, pos.streams, bi, opts, n_opts, cov, cd, ct)
    _say(out, np.int64(P_REST), opt, np.int64(0))


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _harass(bp, pos, rt, o):
    """Whether seat ``o`` sets out to slow the mover: a leader with dice, ahead of ``o``."""
    d = rt.sp[pos.turn_from].dist
    return B.harasses(bp, pos.threat != 0 and d < rt.sp[pos.space[o]].dist, d)


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _marker(bp, pos, prm, rt, o, out):
    """Before the mover's roll: greedy puts a marker on the mover's shortest path (moving
    the rearmost one when the box is empty); random picks any marker play."""
    h = _harass(bp, pos, rt, o)
    bi = I_BOT + o
    _say(out, np.int64(P_NONE), np.int64(0), np.int64(0))
    if not B.places_avalanche(bp, pos.streams, bi, pos.tokens[o], prm.avalanche_cost, h):
        return
    if bp.kind == RANDOM:
        anywhere = np.int64(-2)  # as int64: one compile for both calls
        k = n_marker_plays(pos, prm, rt, anywhere)
        if k > 0:
            src, dst = nth_marker_play(pos, prm, rt, anywhere, below(pos.streams, bi, k))
            _say(out, np.int64(P_MARKER), src, dst)
        return
    v = pos.space[pos.mover]
    e = -1
    for _ in range(4):
        q = rt.sp[v].toward
        if q < 0:
            break
        if rt.ln[q].avalanche != 0 and not has_marker(pos, prm, q):
            e = q
            break
        v = rt.ln[q].to
    if e < 0:
        return
    src = -1
    if pos.on_board >= prm.avalanche_markers:  # none in the box: move the rearmost
        last = 0
        for s in range(pos.n):
            last = max(last, rt.sp[pos.space[s]].dist)
        for q in range(rt.n_lines):
            if has_marker(pos, prm, q) and rt.sp[rt.ln[q].to].dist > last:
                src = q
                break
        if src < 0:
            return
    _say(out, np.int64(P_MARKER), src, e)


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _move(bp, pos, prm, rt, work, out):
    """The path: greedy plans it; random walks (under ``full_move``: any legal path)."""
    s = pos.mover
    cov = pos.covered[s]
    tired = cov + 1 >= bp.rest_at
    pf = die_value(prm, rt.sp[pos.turn_from].weather, pos.stats[s].training)
    reach = 0.0  # spaces its dogs still have in them after this move's cover
    fresh = 0.0  # the same for dogs rested to a single cover
    for c in range(1, prm.dogs):
        fresh += (prm.dogs - c) * pf
        if c >= cov + 1 + pos.crossed:
            reach += (prm.dogs - c) * pf
    if bp.kind == RANDOM and prm.full_move:
        none = np.zeros((0, out.shape[0]), dtype=np.int64)
        row = np.zeros(out.shape[0], dtype=np.int64)
        k = paths(pos, prm, rt, none, np.int64(-1), row)
        paths(pos, prm, rt, none, below(pos.streams, I_BOT + s, k), row)
        for c in range(out.shape[0]):
            out[c] = row[c]
        return
    plan(bp, pos, prm, rt, tired, reach, fresh, work, out)


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _avalanche(bp, pos, prm, rt, out):
    """At a marker: remove it (random: move it anywhere or off), or buy +1s and roll."""
    s = pos.mover
    bi = I_BOT + s
    left = pos.plen - pos.step
    tokens = pos.tokens[s]
    e = pos.path[pos.step]
    if B.remove_avalanche(bp, pos.streams, bi, tokens, prm.avalanche_cost, left):
        if bp.kind == RANDOM:
            k = n_marker_plays(pos, prm, rt, e)
            src, dst = nth_marker_play(pos, prm, rt, e, below(pos.streams, bi, k))
            _say(out, np.int64(P_MARKER), src, dst)
        else:
            _say(out, np.int64(P_MARKER), e, np.int64(-1))
        return
    t = B.buy_for_check(bp, pos.streams, bi, tokens, AVALANCHE_CHECK, prm.avalanche_token_max)
    _say(out, np.int64(P_BUY), t, np.int64(0))


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _reroll(bp, pos, prm, rt, a):
    """Whether seat ``a``, asked in a reroll round, pays to have the roll rolled again."""
    ph = pos.phase
    bi = I_BOT + a
    tokens = pos.tokens[a]
    cost = prm.reroll_cost
    own = a == pos.mover
    if ph == PH_WEATHER_RR:
        t = pos.stats[a].training
        now = prm.dog_faces[prm.dice_colour[t * 3 + pos.weather]] / prm.die_sides
        gain = (prm.dogs - pos.covered[a]) * (die_value(prm, rt.sp[pos.wspace].weather, t) - now)
        return B.reroll_for_gain(bp, pos.streams, bi, tokens, cost, gain)
    if ph == PH_DICE_RR:
        expected = pos.ndice * prm.dog_faces[pos.colour] / prm.die_sides
        if own:
            return B.reroll_own_dice(bp, pos.streams, bi, tokens, cost, pos.faces, expected)
        h = _harass(bp, pos, rt, a)
        return B.force_reroll(bp, pos.streams, bi, tokens, cost, pos.faces, expected, h)
    if ph == PH_BONUS_RR:
        mean = 0.0  # the bonus die's mean worth in spaces, a crossed dog as a dog
        for f in range(6):
            x = prm.bonus_table[f]
            mean += (x if x >= 0 else -bp.dog_value) / 6.0
        x = prm.bonus_table[pos.bf - 1]
        now = x if x >= 0 else -bp.dog_value
        if own:
            return B.reroll_for_gain(bp, pos.streams, bi, tokens, cost, mean - now)
        return _harass(bp, pos, rt, a) and B.reroll_for_gain(
            bp, pos.streams, bi, tokens, cost, now - mean
        )
    # PH_CHECK_RR: the roller after a failure, its opponents after a success
    left = pos.plen - pos.step
    if own:
        return B.reroll_failed_check(bp, pos.streams, bi, tokens, cost, left)
    target = prm.rough_target if pos.chk_rough else prm.avalanche_target
    fail = 1.0 - pass_chance(target, pos.chk_bought)
    return _harass(bp, pos, rt, a) and B.reroll_for_gain(
        bp, pos.streams, bi, tokens, cost, fail * left
    )
