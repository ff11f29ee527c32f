"""Many MUSH races at once: a parallel loop over blocks of races, each stepped play by play.

``play_race`` is the one loop that plays a race: the seat to move chooses (``choose``),
the position applies it (``position.apply``). ``batch`` runs it for every key in a
``prange`` over a fixed number of blocks, each with its own position, scratch and heat
row, so results are identical for any number of threads; ``trace`` runs the same kernel
on one key with the event log on.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from simkit.games.mush.choose import choose
from simkit.games.mush.position import apply, is_over, new, result, to_move
from simkit.games.mush.records import EV_CAP, PLAY, POSITION, RECORDER, WORK


@njit(cache=True)
def play_race(pos, prm, cell, rt, key, work, play, rec, log, logn):
    """Play the race with root ``key`` from its start to its end; with ``rec.logging``
    copy each step's events into ``log`` (``logn[0]`` rows so far, -1 once it overflows)."""
    new(pos, prm, cell, key, rec)
    _drain(rec, log, logn)
    while not is_over(pos):
        s = to_move(pos)
        choose(cell.bots[s], pos, prm, cell, rt, s, work, play)
        apply(pos, prm, rt, play, rec)
        if rec.logging:
            _drain(rec, log, logn)


@njit(cache=True)
def _drain(rec, log, logn):
    k = rec.n_events
    rec.n_events = 0
    if logn[0] < 0:
        return
    if k > EV_CAP or logn[0] + k > log.shape[0]:
        logn[0] = -1
        return
    log[logn[0] : logn[0] + k] = rec.events[:k]
    logn[0] += k


@njit(cache=True)
def _block(b, keys, inputs, rt_a, seats, races, heat, log, logn):
    """Block ``b`` of ``heat.shape[0]``: its races, with its own position, scratch and heat."""
    prm = inputs[0][0]
    cell = inputs[1][0]
    rt = rt_a[0]
    nb = heat.shape[0]
    lo = b * keys.shape[0] // nb
    hi = (b + 1) * keys.shape[0] // nb
    pos_a = np.empty(1, POSITION)
    work_a = np.empty(1, WORK)
    play_a = np.zeros(1, PLAY)
    rec_a = np.zeros(1, RECORDER)
    rec = rec_a[0]
    rec.logging = log.shape[0] > 0
    for i in range(lo, hi):
        play_race(pos_a[0], prm, cell, rt, keys[i], work_a[0], play_a[0], rec, log, logn)
        result(pos_a[0], seats[i], races[i : i + 1])
    heat[b, :, : rt.n_spaces] = rec.heat[:, : rt.n_spaces]


@njit(cache=True, parallel=True)
def batch(keys, inputs, rt_a, seats, races, heat, log, logn):
    """Every race of ``keys`` into ``seats`` (STAT, (races, n)) and ``races`` (RACE); heat
    per block into ``heat[b]``; with a non-empty ``log`` (one key), its events.

    ``inputs`` = (variant record, cell record) as one-element arrays, ``rt_a`` the route
    record as one: numba cannot pass a record into a ``prange`` loop.
    """
    for b in prange(heat.shape[0]):
        _block(b, keys, inputs, rt_a, seats, races, heat, log, logn)
