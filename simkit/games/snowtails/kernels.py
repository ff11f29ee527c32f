"""Python's doors into the Snow Tails kernels: the traces, the oracle and the tests step
positions through these.

Every other kernel of the engine is internal (``@njit(no_cpython_wrapper=True,
no_cfunc_wrapper=True)``, not cached): numba compiles it only into the entry that calls
it, so a cold ``simulate`` compiles and emits machine code once, for ``batch._block``,
instead of once for every kernel Python could call (measured: each cached entry re-emits
the whole engine it links). These entries are compiled the first time Python calls them.

They take one-element arrays (the cell, the position, the work record) and index them
inside: a record taken from an array by Python keeps the array alive, one taken inside a
kernel would not (``docs/positions.md``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simkit.games.snowtails import movement, position, race, rules
from simkit.games.snowtails.choose import choose as bot_choose
from simkit.games.snowtails.choose import guided_flag, search_flag
from simkit.games.snowtails.records import POSITION, WORK


@njit(cache=True, no_cfunc_wrapper=True)
def new(positions, cfga, works, key):
    position.new(positions[0], cfga[0], works[0], key)


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _scratch(search):
    """The search's scratch, or ``None`` twice where no seat searches (``choose.search_flag``:
    numba then compiles ``choose.choose`` without the search)."""
    if search is None:
        return None, None
    return np.empty(2, POSITION), np.empty(1, WORK)


@njit(cache=True, no_cfunc_wrapper=True)
def _choose(positions, cfga, reach, works, search, guided):
    pool, swks = _scratch(search)
    bot_choose(positions[0], cfga[0], reach, works[0], pool, swks, guided)


def choose(positions, cfga, reach, works):
    """The seat to move's bot decides: writes ``works[0].play``."""
    _choose(positions, cfga, reach, works, search_flag(cfga), guided_flag(cfga))


@njit(cache=True, no_cfunc_wrapper=True)
def apply(positions, cfga, works):
    position.apply(positions[0], cfga[0], works[0])


@njit(cache=True, no_cfunc_wrapper=True)
def _step(positions, cfga, reach, works, search, guided):
    pool, swks = _scratch(search)
    bot_choose(positions[0], cfga[0], reach, works[0], pool, swks, guided)
    position.apply(positions[0], cfga[0], works[0])


def step(positions, cfga, reach, works):
    """The seat to move's bot decides, and its play is carried out."""
    _step(positions, cfga, reach, works, search_flag(cfga), guided_flag(cfga))


@njit(cache=True, no_cfunc_wrapper=True)
def advance(cfga, positions, works):
    race.advance(cfga[0], positions[0], works[0])


@njit(cache=True, no_cfunc_wrapper=True)
def result(positions, cfga, out):
    position.result(positions[0], cfga[0], out[0])


@njit(cache=True, no_cfunc_wrapper=True)
def legal_plays(positions, cfga, works, out):
    return position.legal_plays(positions[0], cfga[0], works[0], out)


@njit(cache=True, no_cfunc_wrapper=True)
def observe(positions, seat, out, j):
    position.observe(positions[0], seat, out, j)


@njit(cache=True, no_cfunc_wrapper=True)
def determinize(positions, seat, key, out, j):
    position.determinize(positions[0], seat, key, out, j)


@njit(cache=True, no_cfunc_wrapper=True)
def race_order(cfga, positions, racing_only, out):
    return rules.race_order(cfga[0], positions[0], racing_only, out)


@njit(cache=True, no_cfunc_wrapper=True)
def race_position(cfga, positions, p):
    return rules.race_position(cfga[0], positions[0], p)


@njit(cache=True, no_cfunc_wrapper=True)
def play_effect(cfga, positions, p, v, mask, rnd, rank):
    return rules.play_effect(cfga[0], positions[0], p, v, mask, rnd, rank)


@njit(cache=True, no_cfunc_wrapper=True)
def outcomes(cfga, positions, works, start, speed, drift, dcol, bonus, partial, room):
    """Every distinct outcome of a move (``movement.outcomes``) into ``works[0]``: their
    count (rows of ``works[0].outs``)."""
    wk = works[0]
    wk.found[0] = 0
    wk.found[1] = 0
    movement.outcomes(
        cfga[0], positions[0], wk, start, speed, drift, dcol, bonus, partial, room, wk.found
    )
    return wk.found[1]


@njit(cache=True, no_cfunc_wrapper=True)
def walk(cfga, positions, start, bits, n, dcol, bonus, path, room):
    return movement.walk(cfga[0], positions[0], start, bits, n, dcol, bonus, path, room)


@njit(cache=True, no_cfunc_wrapper=True)
def pattern_bits(works, o):
    return movement.pattern_bits(works[0], o)
