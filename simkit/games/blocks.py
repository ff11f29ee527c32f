"""The one block runner: a batch's items (races, games) in fixed blocks on a pool of threads,
and the one assembly of what the blocks counted (``BlockCounts``).

Every game plays its batch here (``run_blocks``). The batch is cut into ``n_blocks``
contiguous blocks by one formula (``block_bounds``), which depends on the batch size only,
never on the thread count; a block writes only its own rows (its items' table rows and its
own row of the per-block counts: heat, round counts), so the tables are bit-identical for
any number of threads and any order in which the blocks ran. The game's closure plays one
block through its ``nogil=True`` numba kernel, so the threads run it in parallel.

Scheduling: threads take the next block as they come free (a pool's queue). Blocks differ
in cost (races differ in length, a search seat's decisions even more, and another process
may hold a core), so a static split of the blocks would leave a thread idle while the
other finishes its share.

Assembly: every block adds its races to its own rows of the per-round counts
(``round_counts.add_race``) and of the heat; ``BlockCounts`` makes those rows for a batch,
hands block ``b`` its own, and sums them over the blocks into the ``Batch`` (integers, so
the order of the sum changes nothing).

Why Python threads and not ``prange``: a ``parallel=True`` kernel costs numba a second
optimisation of the whole engine on a cold cache (5-15 s of CPU per game, measured), for
the same speed (``docs/positions.md``).
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numba
import numpy as np

from simkit.games.round_counts import MEASURES

if TYPE_CHECKING:
    from simkit.games.base import Batch

BLOCKS = 64  # blocks per batch (fewer for a smaller batch): fixed, so never by threads


def block_count(n_items: int, n_blocks: int = BLOCKS) -> int:
    """How many blocks a batch of ``n_items`` is cut into: ``n_blocks``, but no empty block
    (at least one, for an empty batch)."""
    return max(1, min(int(n_items), int(n_blocks)))


def block_bounds(b: int, n_items: int, n_blocks: int) -> tuple[int, int]:
    """Items ``lo`` to ``hi`` (exclusive) of block ``b`` of ``n_blocks``: the one formula
    (a kernel that finds its block's items itself uses the same formula)."""
    return b * n_items // n_blocks, (b + 1) * n_items // n_blocks


def thread_count(threads: int | None, n_blocks: int) -> int:
    """Threads to run ``n_blocks`` blocks on: ``threads``, or by default
    ``numba.get_num_threads()``; at least one, at most one per block.

    Why numba's count and not ``os.cpu_count()``: it is the count the rest of simkit reads
    (``--threads`` is checked against ``numba.config.NUMBA_NUM_THREADS``), the user can set
    it (``NUMBA_NUM_THREADS``, ``numba.set_num_threads``), and numba starts it at the CPUs
    this process may run on (its affinity), where ``os.cpu_count()`` counts every CPU of
    the machine. Results do not depend on it.
    """
    want = int(threads) if threads else numba.get_num_threads()
    return max(1, min(want, int(n_blocks)))


def run_blocks(
    n_items: int,
    play_block: Callable[..., Any],
    threads: int | None = None,
    n_blocks: int = BLOCKS,
    scratch: Callable[[], Any] | None = None,
) -> int:
    """Play ``n_items`` items in ``block_count(n_items, n_blocks)`` blocks on
    ``thread_count(threads, …)`` threads; returns the number of blocks, so the caller can
    size per-block outputs with ``block_count`` beforehand.

    ``play_block(b, lo, hi)`` plays block ``b``, items ``lo`` to ``hi`` (``block_bounds``);
    an empty batch still plays block 0 (no items), so its per-block outputs are written.
    With ``scratch`` (a function making one worker's scratch, e.g. a position and work
    set), ``play_block(b, lo, hi, s)`` gets a scratch ``s`` that no other block holds at
    the same time; each is made once and reused for block after block (at most one per
    thread), so a block's results must not depend on what it held.

    The first exception a block raises is raised here, after the blocks already running
    end; blocks not yet started are not played.
    """
    nb = block_count(n_items, n_blocks)
    workers = thread_count(threads, nb)
    free: queue.SimpleQueue = queue.SimpleQueue()
    failed = threading.Event()

    def play(b: int) -> None:
        if failed.is_set():
            return
        lo, hi = block_bounds(b, n_items, nb)
        try:
            if scratch is None:
                play_block(b, lo, hi)
                return
            try:
                s = free.get_nowait()
            except queue.Empty:
                s = scratch()
            play_block(b, lo, hi, s)
            free.put(s)
        except BaseException:
            failed.set()
            raise

    if workers == 1:
        for b in range(nb):
            play(b)
    else:
        with ThreadPoolExecutor(workers) as pool:
            for run in [pool.submit(play, b) for b in range(nb)]:
                run.result()
    return nb


@dataclass(frozen=True)
class BlockCounts:
    """A batch's counts, one row per block (``Batch`` has their sums): ``rounds``, ``ends``
    and ``by_seat`` (``Batch.round_position``, ``end_position``, ``seat_position`` with a
    leading block axis), ``heat`` (blocks, heat kinds, spaces) and ``measures`` (one row
    per item: each item is in one block, so it needs no block axis)."""

    rounds: np.ndarray
    ends: np.ndarray
    by_seat: np.ndarray
    heat: np.ndarray
    measures: np.ndarray

    @classmethod
    def new(
        cls,
        n_items: int,
        round_cap: int,
        players: int,
        top_slot: int | None = None,
        heat: tuple[int, int] = (0, 0),
    ) -> BlockCounts:
        """Zeroed rows for ``block_count(n_items)`` blocks: counts by slot up to
        ``top_slot`` (default ``players``: slots 1..players) and by seat, ``heat`` = (kinds,
        spaces) per block (none for a game without a board), measures NaN."""
        nb = block_count(n_items)
        top = players if top_slot is None else int(top_slot)
        rounds = np.zeros((nb, round_cap, top, players, players + 1), dtype=np.int64)
        return cls(
            rounds=rounds,
            ends=np.zeros_like(rounds),
            by_seat=np.zeros((nb, round_cap, players, players, players + 1), dtype=np.int64),
            heat=np.zeros((nb, *heat), dtype=np.int64),
            measures=np.full((int(n_items), len(MEASURES)), np.nan),
        )

    def of_block(self, b: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Block ``b``'s own rows of the counts (views) and the measures, in
        ``round_counts.add_race``'s order: (rounds, ends, by seat, measures)."""
        return self.rounds[b], self.ends[b], self.by_seat[b], self.measures

    def heat_total(self, n_spaces: int | None = None) -> np.ndarray:
        """The heat summed over the blocks (kinds, spaces), its first ``n_spaces`` spaces."""
        return self.heat.sum(axis=0)[:, :n_spaces]

    def into(self, batch: Batch) -> Batch:
        """Sum the per-round counts over the blocks into ``batch``, with the measures."""
        batch.round_position = self.rounds.sum(axis=0)
        batch.end_position = self.ends.sum(axis=0)
        batch.seat_position = self.by_seat.sum(axis=0)
        batch.round_measures = {m: self.measures[:, j] for j, m in enumerate(MEASURES)}
        return batch
