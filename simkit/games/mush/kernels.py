"""Python's doors into the MUSH kernels: ``simkit moves`` and the tests step positions,
choose plays and roll dice through these.

Every other kernel of the engine is internal (``@njit(no_cpython_wrapper=True,
no_cfunc_wrapper=True)``, not cached): numba compiles it only into the entry that calls
it, so a cold ``simulate`` compiles and emits machine code once, for ``batch.blocks``,
instead of once for every kernel Python could call (each cached entry re-emits the whole
engine it links: ``simkit/_numba_link.py``). One exception, for speed:
``heuristic.heuristic`` (the comment there says why). These entries are compiled the
first time Python calls them. Calling an internal kernel from Python does not raise: it
may crash or exit silently.

They take one-element arrays (the position, the variant, cell and route records, the
recorder, the work and play records) and index them inside: a record taken from an array
by Python keeps the array alive, one taken inside a kernel would not
(``docs/positions.md``). The arguments keep the internal kernels' order; ``choose`` takes
the seat's bot from the cell.
"""

from __future__ import annotations

from numba import njit

from simkit.games.mush import plays as play_list
from simkit.games.mush import position, rules
from simkit.games.mush.choose import choose as bot_choose
from simkit.games.mush.choose import search_flag


@njit(cache=True, no_cfunc_wrapper=True)
def new(positions, prms, cells, key, recs):
    position.new(positions[0], prms[0], cells[0], key, recs[0])


@njit(cache=True, no_cfunc_wrapper=True)
def legal_plays(positions, prms, rts, out):
    return position.legal_plays(positions[0], prms[0], rts[0], out)


@njit(cache=True, no_cfunc_wrapper=True)
def apply(positions, prms, rts, plays, recs):
    position.apply(positions[0], prms[0], rts[0], plays[0], recs[0])


@njit(cache=True, no_cfunc_wrapper=True)
def to_move(positions):
    return position.to_move(positions[0])


@njit(cache=True, no_cfunc_wrapper=True)
def is_over(positions):
    return position.is_over(positions[0])


@njit(cache=True, no_cfunc_wrapper=True)
def result(positions, seat_out, race_out):
    position.result(positions[0], seat_out, race_out)


@njit(cache=True, no_cfunc_wrapper=True)
def observe(positions, seat, out):
    position.observe(positions[0], seat, out)


@njit(cache=True, no_cfunc_wrapper=True)
def determinize(positions, seat, key, out):
    position.determinize(positions[0], seat, key, out)


@njit(cache=True, no_cfunc_wrapper=True)
def _choose(positions, prms, cells, rts, seat, works, plays, searching):
    cell = cells[0]
    bp = cell.bots[seat]
    bot_choose(bp, positions[0], prms[0], cell, rts[0], seat, works[0], plays[0], searching)


def choose(positions, prms, cells, rts, seat, works, plays):
    """The play of ``seat``'s bot (``cells[0].bots[seat]``) into ``plays[0].row``."""
    _choose(positions, prms, cells, rts, seat, works, plays, search_flag(cells))


@njit(cache=True, no_cfunc_wrapper=True)
def marker_plays(positions, prms, rts, only, out, n):
    return play_list.marker_plays(positions[0], prms[0], rts[0], only, out, n)


@njit(cache=True, no_cfunc_wrapper=True)
def n_marker_plays(positions, prms, rts, only):
    return play_list.n_marker_plays(positions[0], prms[0], rts[0], only)


@njit(cache=True, no_cfunc_wrapper=True)
def nth_marker_play(positions, prms, rts, only, k):
    return play_list.nth_marker_play(positions[0], prms[0], rts[0], only, k)


@njit(cache=True, no_cfunc_wrapper=True)
def d6(states, i):
    return rules.d6(states, i)


@njit(cache=True, no_cfunc_wrapper=True)
def roll_dogs(states, i, ndice, dog_faces, sides):
    return rules.roll_dogs(states, i, ndice, dog_faces, sides)


@njit(cache=True, no_cfunc_wrapper=True)
def check_roll(states, i, target, bought):
    return rules.check_roll(states, i, target, bought)


@njit(cache=True, no_cfunc_wrapper=True)
def training_allowed(limits, players, taken, out):
    return rules.training_allowed(limits, players, taken, out)


@njit(cache=True, no_cfunc_wrapper=True)
def apply_rest(opt_dogs, opt_tokens, covered, cap_dogs, cap_tokens):
    return rules.apply_rest(opt_dogs, opt_tokens, covered, cap_dogs, cap_tokens)
