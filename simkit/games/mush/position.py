"""The MUSH position and its functions (``docs/positions.md``): new, legal_plays, apply,
to_move, is_over, result, observe, determinize.

A position (``records.POSITION``) stops only where a seat decides; ``apply`` carries out
the play and then every automatic step and chance event up to the next decision or the
end of the race. The batch loop, ``simkit race`` traces, ``simkit moves`` and the bots
all step it through these functions, so each rule lives in one place (``rounds.py``,
``moving.py``). Every function takes the same inputs: ``prm`` (``MushParams.to_kernel()``
record), ``cell`` (``records.CELL``), ``rt`` (``records.ROUTE``: the route's spaces and
lines) and ``rec`` (``records.RECORDER``: heat counts, and a trace's events). A play is a
``records.PLAY`` record whose ``row`` is one int64 row of ``legal_plays``.

Hidden information: the dice to come (the random streams) and, while the seats bid, the
bids already made (R-47: secret until every seat has bid). Everything else is on the table.

These are internal kernels (``@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)``):
kernels call them, and Python reaches them through the doors in ``kernels.py``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simkit.games.mush import moving, rounds
from simkit.games.mush.plays import legal_plays, to_move_seat
from simkit.games.mush.records import (
    A_BONUS,
    A_END,
    A_ORDER,
    A_RACE,
    A_ROLL,
    A_ROUND,
    A_ROUND_END,
    A_START,
    A_TURN,
    A_TURN_END,
    A_WALK,
    I_BOT,
    P_MARKER,
    PH_AVAL,
    PH_BID,
    PH_BONUS_RR,
    PH_CHECK_RR,
    PH_DICE_RR,
    PH_MARKER,
    PH_MOVE,
    PH_OVER,
    PH_PASS,
    PH_REDUCE,
    PH_REST,
    PH_ROUGH,
    PH_TRAIN,
    PH_WEATHER_RR,
)
from simkit.games.mush.rules import seat_after
from simkit.rng import below

__all__ = [
    "apply",
    "determinize",
    "is_over",
    "legal_plays",
    "new",
    "observe",
    "result",
    "to_move",
]


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def new(pos, prm, cell, key, rec):
    """Set up the race with root ``key`` (seating, streams) up to the first decision: the
    training of slot 1. No MUSH rule depends on a race's index, so only the key is taken."""
    rounds.clear(pos, cell.n, cell.start)
    rounds.seat(pos, prm, key, rec)


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def to_move(pos):
    """The seat whose decision it is (-1 when the race is over)."""
    return to_move_seat(pos)


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def is_over(pos):
    """The race has ended: a sled reached the goal, or ``max_rounds`` were played."""
    return pos.phase == PH_OVER


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def apply(pos, prm, rt, play, rec):
    """Carry out ``play.row`` (a legal play of the seat to move), then every automatic step
    up to the next decision or the end."""
    play = play.row
    ph = pos.phase
    kind = play[0]
    if ph == PH_TRAIN:
        rounds.train(pos, play[1], rec)
    elif ph == PH_WEATHER_RR:
        rounds.weather_answer(pos, prm, rt, kind, rec)
    elif ph == PH_BID:
        rounds.bid(pos, play[1])
    elif ph == PH_REST:
        rounds.rest(pos, prm, rt, kind, play[1], rec)
    elif ph == PH_MARKER:
        if kind == P_MARKER:
            who = seat_after(pos, pos.mover, pos.opp_q)
            moving.marker(pos, prm, who, play[1], play[2], rec)
        pos.phase = PH_REDUCE
    elif ph == PH_REDUCE:
        moving.reduce(pos, prm, play[1], rec)
    elif ph == PH_DICE_RR:
        moving.dice_answer(pos, prm, kind, rec)
    elif ph == PH_BONUS_RR:
        moving.bonus_answer(pos, prm, kind, rec)
    elif ph == PH_MOVE:
        moving.declare(pos, play)
    elif ph == PH_AVAL:
        moving.at_avalanche(pos, prm, kind, play, rec)
    elif ph == PH_PASS:
        moving.pass_answer(pos, prm, kind, rec)
    elif ph == PH_ROUGH:
        moving.check(pos, prm, np.int64(1), rt.ln[pos.path[pos.step]].to, play[1], rec)
    elif ph == PH_CHECK_RR:
        moving.check_answer(pos, prm, kind, rec)
    _advance(pos, prm, rt, rec)


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _advance(pos, prm, rt, rec):
    """Run automatic steps until a seat must decide or the race is over."""
    while True:
        ph = pos.phase
        if ph == A_START:
            rounds.start(pos, rt)
        elif ph == A_ROUND:
            rounds.round_start(pos, prm, rt, rec)
        elif ph == A_ORDER:
            rounds.order(pos, rec)
        elif ph == A_TURN:
            rounds.turn_start(pos, rt)
        elif ph == A_RACE:
            moving.race_start(pos, prm, rt)
        elif ph == A_ROLL:
            moving.roll(pos, prm, rec)
        elif ph == A_BONUS:
            moving.bonus(pos, prm, rec)
        elif ph == A_WALK:
            moving.walk(pos, prm, rt, rec)
        elif ph == A_TURN_END:
            moving.turn_end(pos, prm, rt, rec)
        elif ph == A_ROUND_END:
            rounds.round_end(pos, prm, rt, rec)
        elif ph == A_END:
            rounds.finish(pos, prm, rt, rec)
        else:
            return


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def result(pos, seat_out, race_out):
    """The table rows of a finished race: ``seat_out[s]`` (``STAT``) per seat and
    ``race_out[0]`` (``RACE``)."""
    for s in range(pos.n):
        seat_out[s] = pos.stats[s]
    race_out[0] = pos.race


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def observe(pos, seat, out):
    """``out[0]`` = what ``seat`` may see of ``pos``: the random streams cleared (its own
    bot's kept: that is its own mind) and, while the seats bid, the others' bids so far
    erased (-1)."""
    out[0] = pos
    o = out[0]
    own = o.streams[I_BOT + seat]
    o.streams[:] = 0
    o.streams[I_BOT + seat] = own
    if o.phase == PH_BID:
        for j in range(o.bid_i):
            s = o.seat_at[(o.ini + j) % o.n]
            if s != seat:
                o.bid[s] = -1


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def determinize(pos, seat, key, out):
    """``out[0]`` = one sample of what ``seat`` cannot see, consistent with what it has seen:
    fresh streams from ``key`` (dice, weather, the other seats' bots) and, while the seats
    bid, any bid in 0..tokens for each other seat that has bid."""
    out[0] = pos
    o = out[0]
    rounds.streams(o, key, seat)
    if o.phase == PH_BID:
        for j in range(o.bid_i):
            s = o.seat_at[(o.ini + j) % o.n]
            if s != seat:
                o.bid[s] = below(o.streams, I_BOT + s, o.tokens[s] + 1)
