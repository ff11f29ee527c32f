"""Whole games: the loop every Mushroom Walk game runs, for a batch of keys.

``play_games`` is the one code path for both ``simulate`` (many games, no trace) and
``trace`` (one game, events written to ``ev``), so a trace shows exactly what a run
counted. A game is ``position.new``, then the bot of the seat to move chooses a play and
``position.apply`` carries it out, until ``position.is_over``.

``play_games`` is the one kernel Python calls here (cached); ``play_game`` and everything
beneath it are internal kernels, compiled into it once (:mod:`.kernels`).

Threads: ``run`` plays a batch in blocks on Python threads (``simkit.games.blocks``, as
every game does) while the kernel holds no GIL (``nogil=True``). Each game writes only
its own rows and depends only on its key, so tables are identical for any thread count.
This replaces ``parallel=True``/``prange``, whose compilation took about a third of the game's cold
compile budget (docs/rules-mushroomwalk.md "Speed").
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simkit._borrow import borrowed
from simkit.games.blocks import BlockCounts, run_blocks
from simkit.games.mushroomwalk.choose import choose
from simkit.games.mushroomwalk.position import apply, is_over, max_plays, new, result
from simkit.games.mushroomwalk.records import ARM, EVENT, PLAY, POSITION
from simkit.games.mushroomwalk.rules import winner
from simkit.games.round_counts import add_race

ROUND_CAP = 64  # rounds (two turns each) kept in Batch.round_position and the measures


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _ranks(pos, row):
    """Each seat's race position now: 1 + the seats ahead by score, then mushrooms cooked
    (the order of 'End of the game'); seats level on both share the position."""
    for s in range(2):
        a, b = pos.seats[s], pos.seats[1 - s]
        ahead = b.score > a.score or (b.score == a.score and b.cooked > a.cooked)
        row[s] = 2 if ahead else 1


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def play_game(pos, prm, bots, key, race_index, scratch, ev, evc, ranks):
    """Play the game with root ``key`` to its end in ``pos``; trace events if ``ev`` has
    room. ``scratch`` = (plays buffer, 3 scratch positions, scratch plays, search arms,
    1-row ev), the buffers ``max_plays(prm)`` rows each. Returns the rounds played (a
    round: two turns, the last one perhaps one), each seat's race position at the end of
    each into ``ranks`` (up to its rows).

    Every array goes down as a view without a reference count (``simkit/_borrow.py``;
    the caller holds the arrays for the whole game): a decision passes them several calls
    deep, the play list once per play listed, and their counts were 40% of perf's samples.
    """
    plays = borrowed(scratch[0])
    pool = borrowed(scratch[1])
    tmp = borrowed(scratch[2])
    arms = borrowed(scratch[3])
    noev = borrowed(scratch[4])
    bots = borrowed(bots)
    ev = borrowed(ev)
    evc = borrowed(evc)
    new(pos, prm, key, race_index, ev, evc)
    turns = 0
    while not is_over(pos):
        i = choose(pos, prm, bots, plays, pool, tmp, arms, noev, evc)
        apply(pos, prm, plays[i], ev, evc)
        done = pos.seats[0].turns + pos.seats[1].turns
        if done != turns:
            turns = done
            if turns % 2 == 0 and turns // 2 <= ranks.shape[0]:
                _ranks(pos, ranks[turns // 2 - 1])
    rounds = (turns + 1) // 2
    if turns % 2 == 1 and rounds <= ranks.shape[0]:
        _ranks(pos, ranks[rounds - 1])
    return rounds


@njit(cache=True, nogil=True, no_cfunc_wrapper=True)
def play_games(keys, race_index, prm_rec, bots, seat_out, race_out, rounds, ev, evc, last):
    """One game per root key, in order, into rows of ``seat_out`` (SEAT records, games x
    2) and ``race_out`` (RACE records); the last game's final position into ``last[0]``.
    ``rounds`` = (round counts, end counts, counts by seat, each (ROUND_CAP, 2, 2, 3), and
    measures (games, len(MEASURES))): ``simkit.games.round_counts.add_race`` per game.

    ``simulate`` passes a one-row ``ev`` (no events). ``trace`` plays a single key with a
    large ``ev``: the same kernel, the same path.
    """
    prm = prm_rec[0]
    # ``games[0]`` at every use: a record holds no reference to its array, so numba would
    # free ``games`` after its last named use while a record taken from it lived on.
    games = np.empty(1, POSITION)
    scratch = (
        np.empty(max_plays(prm), PLAY),
        np.empty(3, POSITION),
        np.empty(max_plays(prm), PLAY),
        np.empty(max_plays(prm), ARM),
        np.empty(1, EVENT),
    )
    counts, ends, by_seat, measures = rounds
    ranks = np.empty((ROUND_CAP, 2), np.int64)
    slot = np.empty(2, np.int64)
    finish = np.empty(2, np.int64)
    for g in range(keys.shape[0]):
        n_rounds = play_game(games[0], prm, bots, keys[g], race_index[g], scratch, ev, evc, ranks)
        result(games[0], seat_out[g], race_out[g])
        w = winner(games[0])
        for s in range(2):
            slot[s] = 1 if s == games[0].starter else 2
            finish[s] = 1 if s == w else 2
        add_race(ranks, n_rounds, 2, slot, finish, w >= 0, counts, ends, by_seat, measures[g])
    last[0] = games[0]


def run(
    keys: np.ndarray,
    race_index: np.ndarray,
    prm: np.ndarray,
    bots: np.ndarray,
    outputs: tuple[np.ndarray, np.ndarray],
    threads: int | None = None,
) -> BlockCounts:
    """``play_games`` over all ``keys`` (no events), block by block on ``threads`` threads
    (``simkit.games.blocks.run_blocks``: its blocks, thread default and scheduling).
    Returns each block's round counts, end counts, counts by seat, and the measures
    (``BlockCounts.into`` sums them into the Batch)."""
    seat_out, race_out = outputs
    n = keys.shape[0]
    counts = BlockCounts.new(n, ROUND_CAP, 2)

    def scratch() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        # a worker's one-row event log, its count and the last position: nothing read back
        return np.zeros(1, dtype=EVENT), np.zeros(1, dtype=np.int64), np.zeros(1, dtype=POSITION)

    def play(b: int, lo: int, hi: int, work: tuple[np.ndarray, np.ndarray, np.ndarray]) -> None:
        ev, evc, last = work
        rows = slice(lo, hi)
        block, ends, by_seat, measures = counts.of_block(b)
        rounds = (block, ends, by_seat, measures[rows])
        play_games(
            keys[rows],
            race_index[rows],
            prm,
            bots,
            seat_out[rows],
            race_out[rows],
            rounds,
            ev,
            evc,
            last,
        )

    run_blocks(n, play, threads, scratch=scratch)
    return counts
