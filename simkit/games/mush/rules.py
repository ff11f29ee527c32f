"""The rule steps a MUSH race is made of: dice, checks, rests, markers, the event log.

Each is a small numba function the race kernel calls (and tests call directly); every
one cites the text section or ruling it applies.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simkit.games.mush import bots as B
from simkit.games.mush.arrays import L_AVALANCHE, L_TO, S_DIST, S_TOWARD
from simkit.games.mush.layout import (
    EV_MARKER,
    EV_REROLL,
    K_AVAL_PLACED,
    K_REROLLS,
    K_SPENT,
    MAX_SEATS,
)
from simkit.games.mush.params import P_COLOUR, P_FACES, P_SIDES
from simkit.games.mush.planner import pass_chance
from simkit.rng import below


@njit(cache=True, inline="always")
def _ev(log, logn, do_log, r, kind, s, a, b, c, d, e):
    if do_log and logn[0] < log.shape[0]:
        row = log[logn[0]]
        row[0] = r
        row[1] = kind
        row[2] = s
        row[3] = a
        row[4] = b
        row[5] = c
        row[6] = d
        row[7] = e
        logn[0] += 1


@njit(cache=True)
def d6(states, i):
    """The standard die."""
    return below(states, i, 6) + 1


@njit(cache=True)
def roll_dogs(states, i, ndice, dog_faces, sides):
    """Dog faces among ``ndice`` dice that show a dog on ``dog_faces`` of ``sides`` (R-41)."""
    hits = 0
    for _ in range(ndice):
        if below(states, i, sides) < dog_faces:
            hits += 1
    return hits


@njit(cache=True)
def training_allowed(limits, players, taken, out):
    """Which trainings are still open under the text's table (text, Entraînement; R-44)."""
    k = 0
    for t in range(3):
        out[t] = 1 if taken[t] < limits[(players - 2) * 3 + t] else 0
        k += out[t]
    return k


@njit(cache=True)
def check_roll(states, i, target, bought):
    """A rough-terrain or avalanche roll: (die, passed) with ``bought`` +1s (R-46)."""
    die = d6(states, i)
    return die, die + bought >= target


@njit(cache=True)
def apply_rest(opt_dogs, opt_tokens, covered, cap_dogs, cap_tokens):
    """(dogs uncovered, tokens gained) of a rest option under the town sign's caps (text)."""
    d = min(opt_dogs, covered, cap_dogs)
    t = min(opt_tokens, cap_tokens)
    return d, t


@njit(cache=True)
def _leader(pos, n, sp, slot):
    best = 0
    for s in range(1, n):
        ds, db = sp[pos[s], S_DIST], sp[pos[best], S_DIST]
        if ds < db or (ds == db and slot[s] < slot[best]):
            best = s
    return best


@njit(cache=True)
def _spend(st, tokens, s, amount):
    tokens[s] -= amount
    st[s, K_SPENT] += amount


@njit(cache=True)
def _die_value(pv, weather_row, t, d):
    """Expected dog faces per die for training ``t`` on a board's table (for bots)."""
    acc = 0.0
    sides = pv[P_SIDES]
    for f in range(6):
        c = pv[P_COLOUR + t * 3 + weather_row[f]]
        acc += pv[P_FACES + c] / sides
    return acc / 6.0 * d


@njit(cache=True)
def _place_marker(o, target, n, pos, sp, ln, aval, box, tokens, st, cost, r, log, logn, do_log):
    """Place (or, with none left in the box, move) a marker on the target's path (text)."""
    v = pos[target]
    e = -1
    for _ in range(4):
        q = sp[v, S_TOWARD]
        if q < 0:
            break
        if ln[q, L_AVALANCHE] != 0 and aval[q] == 0:
            e = q
            break
        v = ln[q, L_TO]
    if e < 0:
        return box
    taken = -1
    if box <= 0:
        last = 0
        for s in range(n):
            last = max(last, sp[pos[s], S_DIST])
        for q in range(aval.shape[0]):
            if aval[q] != 0 and sp[ln[q, L_TO], S_DIST] > last:
                taken = q
                break
        if taken < 0:
            return box
        aval[taken] = 0
        box += 1
    aval[e] = 1
    box -= 1
    _spend(st, tokens, o, cost)
    st[o, K_AVAL_PLACED] += 1
    _ev(log, logn, do_log, r, EV_MARKER, o, e, taken, target, 0, 0)
    return box


@njit(cache=True)
def _checked_roll(
    s,
    ev_kind,
    where,
    target,
    bought,
    left,
    states,
    bots,
    seat_at,
    place,
    n,
    harass,
    tokens,
    st,
    count,
    reroll_cost,
    max_rerolls,
    r,
    log,
    logn,
    do_log,
):
    """A rough-terrain or avalanche roll with its rerolls (text, Relancer un dé): the roller
    may pay to roll a failure again, a harassing opponent to roll a success again."""
    die, ok = check_roll(states, s, target, bought)
    st[s, count] += 1
    _ev(log, logn, do_log, r, ev_kind, s, where, die, bought, np.int64(ok), 0)
    for n_rr in range(1, max_rerolls + 1):
        by = -1
        if not ok:
            if B.reroll_failed_check(bots[s], states, MAX_SEATS + s, tokens[s], reroll_cost, left):
                by = s
        else:
            fail = 1.0 - pass_chance(target, bought)
            for q in range(1, n):
                o = seat_at[(place[s] + q) % n]
                if harass[o] and B.reroll_for_gain(
                    bots[o], states, MAX_SEATS + o, tokens[o], reroll_cost, fail * left
                ):
                    by = o
                    break
        if by < 0:
            break
        _spend(st, tokens, by, reroll_cost)
        st[by, K_REROLLS] += 1
        _ev(log, logn, do_log, r, EV_REROLL, by, s, reroll_cost, 0, 0, 0)
        die, ok = check_roll(states, s, target, bought)
        st[s, count] += 1
        _ev(log, logn, do_log, r, ev_kind, s, where, die, bought, np.int64(ok), n_rr)
    return ok
