"""The small rule steps a MUSH race is made of: dice, checks, rests, order, markers, the log.

Each is an internal kernel the position code calls (the tests reach the dice, checks and
rests through the doors in ``kernels.py``); every one cites the text section or ruling it
applies.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simkit.games.mush.records import EV_CAP
from simkit.games.mush.route import TOWN
from simkit.rng import below


# Inlined: called ~3,500 times a race, mostly to do nothing (measured: 9% of the batch's
# time as a call); inlining also keeps numba from compiling one copy per set of constants.
@njit(inline="always", no_cpython_wrapper=True, no_cfunc_wrapper=True)
def ev(rec, r, kind, s, a, b, c, d, e):
    """Log one event row (round, event, seat, a..e) when the recorder ``rec`` is tracing."""
    if rec.logging:
        k = rec.n_events
        if k < EV_CAP:
            row = rec.events[k]
            row[0] = r
            row[1] = kind
            row[2] = s
            row[3] = a
            row[4] = b
            row[5] = c
            row[6] = d
            row[7] = e
        rec.n_events = k + 1


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def d6(states, i):
    """The standard die."""
    return below(states, i, np.int64(6)) + 1


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def roll_dogs(states, i, ndice, dog_faces, sides):
    """Dog faces among ``ndice`` dice that show a dog on ``dog_faces`` of ``sides`` (R-41)."""
    hits = 0
    for _ in range(ndice):
        if below(states, i, sides) < dog_faces:
            hits += 1
    return hits


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def training_allowed(limits, players, taken, out):
    """Which trainings are still open under the text's table (text, Entraînement; R-44)."""
    k = 0
    for t in range(3):
        out[t] = 1 if taken[t] < limits[(players - 2) * 3 + t] else 0
        k += out[t]
    return k


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def check_roll(states, i, target, bought):
    """A rough-terrain or avalanche roll: (die, passed) with ``bought`` +1s (R-46)."""
    die = d6(states, i)
    return die, die + bought >= target


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def pass_chance(target, bought):
    """Chance that d6 + bought >= target."""
    need = target - bought
    if need <= 1:
        return 1.0
    if need > 6:
        return 0.0
    return (7 - need) / 6.0


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def apply_rest(opt_dogs, opt_tokens, covered, cap_dogs, cap_tokens):
    """(dogs uncovered, tokens gained) of a rest option under the town sign's caps (text)."""
    d = min(opt_dogs, covered, cap_dogs)
    t = min(opt_tokens, cap_tokens)
    return d, t


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def die_value(prm, weather_row, t):
    """Expected dog faces per die for training ``t`` on a board's d6 weather table."""
    acc = 0.0
    for f in range(6):
        c = prm.dice_colour[t * 3 + weather_row[f]]
        acc += prm.dog_faces[c] / prm.die_sides
    return acc / 6.0


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def leader(pos, rt):
    """The leading sled: fewest moves to the goal, ties to the lower slot (R-43)."""
    best = 0
    for s in range(1, pos.n):
        ds, db = rt.sp[pos.space[s]].dist, rt.sp[pos.space[best]].dist
        if ds < db or (ds == db and pos.stats[s].slot < pos.stats[best].slot):
            best = s
    return best


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def sleds_at(pos, v):
    """How many sleds stand on space ``v`` (occupancy is derived from the sleds)."""
    k = 0
    for s in range(pos.n):
        if pos.space[s] == v:
            k += 1
    return k


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def blocked(pos, rt, v):
    """Wilderness with a sled on it: one sled per space, no passing without paying (text)."""
    return rt.sp[v].kind != TOWN and sleds_at(pos, v) > 0


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def ends_move(rt, v):
    """Movement stops on the goal or on a space that jumps (skip-Central game)."""
    return rt.sp[v].goal != 0 or rt.sp[v].jump >= 0


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def has_marker(pos, prm, e):
    """An avalanche marker lies on line ``e``."""
    if pos.on_board == 0:
        return False
    i = 0
    while i < prm.avalanche_markers and pos.markers[i] != e:
        i += 1
    return i < prm.avalanche_markers


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def spend(pos, s, amount):
    pos.tokens[s] -= amount
    pos.stats[s].tokens_spent += amount


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def seat_after(pos, s, q):
    """The seat ``q`` places clockwise after seat ``s``."""
    return pos.seat_at[(pos.place[s] + q) % pos.n]
