"""Python's doors into the Mushroom Walk kernels: ``simkit moves`` and the tests step
positions through these.

Every other kernel of the engine is internal (``@njit(no_cpython_wrapper=True,
no_cfunc_wrapper=True)``, not cached): numba compiles it only into the entry that calls
it, so a cold ``simulate`` compiles and emits machine code once, for
``batch.play_games``, instead of once for every kernel Python could call
(``simkit/_numba_link.py``; each cached entry emits the whole engine it links). These
entries are compiled the first time Python calls them. Python must never call an
internal kernel: it has no wrapper Python could call it through, and the call does not
raise but may crash.

They take one-element arrays (the variant ``prma``, ``as_records(variant.to_kernel())``,
and the positions) and index them inside: a record taken from an array by Python keeps
the array alive, one taken inside a kernel would not (``docs/positions.md``). A play is
``plays[i]`` of a ``records.PLAY`` array, as ``legal_plays`` fills it.
"""

from __future__ import annotations

from numba import njit

from simkit.games.mushroomwalk import position, rules
from simkit.games.mushroomwalk.choose import choose as _choose


@njit(cache=True, no_cfunc_wrapper=True)
def new(positions, prma, key, race_index, ev, evc):
    position.new(positions[0], prma[0], key, race_index, ev, evc)


@njit(cache=True, no_cfunc_wrapper=True)
def max_plays(prma):
    return position.max_plays(prma[0])


@njit(cache=True, no_cfunc_wrapper=True)
def legal_plays(positions, prma, out):
    return position.legal_plays(positions[0], prma[0], out)


@njit(cache=True, no_cfunc_wrapper=True)
def apply(positions, prma, plays, i, ev, evc):
    """Carry out ``plays[i]`` (legal) for the seat to move, up to the next decision."""
    position.apply(positions[0], prma[0], plays[i], ev, evc)


@njit(cache=True, no_cfunc_wrapper=True)
def choose(positions, prma, bots, plays, pool, tmp, arms, ev, evc):
    """Index in ``plays`` (filled here) of the play the seat to move's bot makes."""
    return _choose(positions[0], prma[0], bots, plays, pool, tmp, arms, ev, evc)


@njit(cache=True, no_cfunc_wrapper=True)
def copy(dst, src):
    position.copy(dst[0], src[0])


@njit(cache=True, no_cfunc_wrapper=True)
def observe(positions, seat, out, j):
    position.observe(positions[0], seat, out[j])


@njit(cache=True, no_cfunc_wrapper=True)
def determinize(positions, seat, key, out, j):
    position.determinize(positions[0], seat, key, out[j])


@njit(cache=True, no_cfunc_wrapper=True)
def winner(positions):
    return rules.winner(positions[0])


@njit(cache=True, no_cfunc_wrapper=True)
def hand_size(positions, p):
    return rules.hand_size(positions[0].seats[p])


@njit(cache=True, no_cfunc_wrapper=True)
def hand_limit(positions, p, prma):
    return rules.hand_limit(positions[0].seats[p], prma[0])


@njit(cache=True, no_cfunc_wrapper=True)
def end_of_turn(positions, p, prma, ev, evc):
    rules.end_of_turn(positions[0], p, prma[0], ev, evc)
