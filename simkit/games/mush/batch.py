"""Many MUSH races at once: blocks of races, each race stepped play by play.

The loop in ``blocks`` is the one way a race is played: the seat to move chooses
(``choose``), the position applies it (``position.apply``). ``blocks`` plays one block's
races, with its own position and scratch and its own rows of the counts, without the GIL;
``run`` hands the blocks to the thread pool of ``simkit.games.blocks``, so
results are identical for any number of threads, and ``trace`` runs the same kernel on
one key with the event log on.

Why threads and not ``prange``: a ``parallel=True`` kernel re-optimizes and re-emits the
whole engine twice more (the parallel loop body and the kernel), about 5 of the 20 CPU
seconds a cold compile may take (docs/positions.md, MUSH).

Internal functions carry neither a Python wrapper nor a cache entry: the cached entry
points (``blocks`` and the doors in ``kernels.py``) hold all the code they call.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from simkit.games.blocks import BlockCounts, run_blocks
from simkit.games.mush import records
from simkit.games.mush.choose import choose, search_flag
from simkit.games.mush.position import apply, is_over, new, result, to_move
from simkit.games.mush.records import EV_CAP, MAX_SEATS, PLAY, POSITION, RECORDER, WORK
from simkit.games.round_counts import add_race


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _drain(rec, log, logn):
    """Move the recorder's events to ``log`` (``logn[0]`` rows, -1 once it overflowed)."""
    k = rec.n_events
    rec.n_events = 0
    if logn[0] < 0:
        return
    if k > EV_CAP or logn[0] + k > log.shape[0]:
        logn[0] = -1
        return
    for i in range(k):
        for c in range(8):
            log[logn[0] + i, c] = rec.events[i, c]
    logn[0] += k


@njit(cache=True, nogil=True, no_cfunc_wrapper=True)
def blocks(lo, hi, keys, inputs, rt_a, seats, races, heat, rounds, log, logn, searching):
    """One block: races ``lo`` to ``hi`` of ``keys``, each played from ``new`` to its end by
    the seat to move choosing and the position applying, into ``seats`` (STAT, (races,
    n)) and ``races`` (RACE), with the block's own position, scratch and rows: ``heat``
    (kinds, spaces) and ``rounds`` = (round counts, end counts, counts by seat, each
    (ROUND_CAP, n, n, n + 1); measures (races, len(MEASURES))), as
    ``simkit.games.blocks.BlockCounts.of_block`` hands them; with a non-empty ``log`` (one
    key), its events. ``inputs`` = (variant record, cell record) and ``rt_a`` the route
    record, each as a one-element array; ``simkit.games.round_counts.add_race`` per race.
    ``searching``: ``True`` where a seat searches, else ``None`` (``choose.search_flag``:
    numba compiles the search only into the first)."""
    prm = inputs[0][0]
    cell = inputs[1][0]
    rt = rt_a[0]
    # The records live in these arrays and carry no reference to them: take them with
    # [0] where they are used, so numba keeps the arrays alive to the end.
    pos_a = np.empty(1, POSITION)
    work_a = np.empty(1, WORK)
    play_a = np.zeros(1, PLAY)
    rec_a = np.zeros(1, RECORDER)
    rec_a[0].logging = log.shape[0] > 0
    counts, ends, by_seat, measures = rounds
    slot = np.empty(MAX_SEATS, np.int64)
    finish = np.empty(MAX_SEATS, np.int64)
    for i in range(lo, hi):
        new(pos_a[0], prm, cell, keys[i], rec_a[0])
        _drain(rec_a[0], log, logn)
        while not is_over(pos_a[0]):
            s = to_move(pos_a[0])
            choose(cell.bots[s], pos_a[0], prm, cell, rt, s, work_a[0], play_a[0], searching)
            apply(pos_a[0], prm, rt, play_a[0], rec_a[0])
            if rec_a[0].logging:
                _drain(rec_a[0], log, logn)
        result(pos_a[0], seats[i], races[i : i + 1])
        n = pos_a[0].n
        for s in range(n):
            slot[s] = pos_a[0].stats[s].slot
            finish[s] = pos_a[0].stats[s].finish
        won = pos_a[0].winner >= 0
        rnds = pos_a[0].round_no
        add_race(rec_a[0].ranks, rnds, n, slot, finish, won, counts, ends, by_seat, measures[i])
    for k in range(heat.shape[0]):
        for v in range(rt.n_spaces):
            heat[k, v] = rec_a[0].heat[k, v]


def run(
    keys: np.ndarray, inp: Any, players: int, threads: int | None = None
) -> tuple[np.ndarray, np.ndarray, BlockCounts]:
    """``blocks`` over all ``keys`` (no events), block by block on ``threads`` threads
    (``simkit.games.blocks.run_blocks``: its blocks, thread default and scheduling), with
    ``inp`` the cell's ``game.Inputs``. Returns the seat rows (STAT, (races, players)), the
    race rows (RACE) and each block's counts (``BlockCounts.into`` sums them)."""
    n_races = len(keys)
    st = np.zeros((n_races, players), dtype=records.STAT)
    rs = np.zeros(n_races, dtype=records.RACE)
    heat = (len(records.HEAT_KINDS), int(inp.rt["n_spaces"][0]))
    counts = BlockCounts.new(n_races, records.ROUND_CAP, players, heat=heat)  # slots 1..n
    if n_races:
        log = np.zeros((0, records.LOG_WIDTH), dtype=np.int32)
        logn = np.zeros(1, dtype=np.int64)
        searching = search_flag(inp.cell)
        args = (keys, (inp.prm, inp.cell), inp.rt, st, rs)

        def play(b: int, lo: int, hi: int) -> None:
            rows = counts.of_block(b)
            blocks(lo, hi, *args, counts.heat[b], rows, log, logn, searching)

        run_blocks(n_races, play, threads)
    return st, rs, counts
