"""The one block runner (``simkit.games.blocks``): blocks, thread default, scheduling."""

from __future__ import annotations

import itertools
import threading
import time

import numba
import pytest

from simkit.games.blocks import BLOCKS, block_bounds, block_count, run_blocks, thread_count


@pytest.mark.parametrize("n", [0, 1, 5, 63, 64, 65, 200, 1001])
@pytest.mark.parametrize("threads", [1, 2, 3, 8])
def test_every_item_once_in_its_block(n: int, threads: int) -> None:
    seen = [0] * n
    played: list[tuple[int, int, int]] = []
    lock = threading.Lock()

    def play(b: int, lo: int, hi: int) -> None:
        with lock:
            played.append((b, lo, hi))
            for i in range(lo, hi):
                seen[i] += 1

    nb = run_blocks(n, play, threads)
    assert nb == block_count(n) == max(1, min(n, BLOCKS))
    assert seen == [1] * n
    assert sorted(played) == [(b, *block_bounds(b, n, nb)) for b in range(nb)]


def test_block_bounds_formula() -> None:
    # the formula the games' tables were made with (and MUSH's kernel computes itself)
    for n in (1, 7, 64, 100, 1000):
        nb = block_count(n)
        bounds = [block_bounds(b, n, nb) for b in range(nb)]
        assert bounds == [(b * n // nb, (b + 1) * n // nb) for b in range(nb)]
        assert bounds[0][0] == 0 and bounds[-1][1] == n
        assert all(hi > lo for lo, hi in bounds)  # no empty block while n >= blocks
        assert all(a[1] == b[0] for a, b in itertools.pairwise(bounds))
    assert block_count(10, n_blocks=4) == 4
    assert block_bounds(3, 10, 4) == (7, 10)


def test_thread_default_is_numbas() -> None:
    assert thread_count(None, 1000) == max(1, numba.get_num_threads())
    assert thread_count(0, 1000) == thread_count(None, 1000)
    assert thread_count(3, 1000) == 3
    assert thread_count(8, 2) == 2  # never more threads than blocks
    assert thread_count(-1, 5) == 1


def test_blocks_run_on_several_threads() -> None:
    names = set()
    lock = threading.Lock()

    def play(b: int, lo: int, hi: int) -> None:
        time.sleep(0.002)
        with lock:
            names.add(threading.get_ident())

    run_blocks(64, play, threads=2)
    assert len(names) == 2
    names.clear()
    run_blocks(64, play, threads=1)
    assert names == {threading.get_ident()}  # one thread: in the caller's


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_scratch_made_once_per_worker_and_never_shared(threads: int) -> None:
    made: list[dict] = []
    busy: set[int] = set()
    lock = threading.Lock()
    uses: dict[int, int] = {}

    def scratch() -> dict:
        with lock:
            made.append({"id": len(made)})
            return made[-1]

    def play(b: int, lo: int, hi: int, s: dict) -> None:
        with lock:
            assert s["id"] not in busy  # no other block holds it now
            busy.add(s["id"])
            uses[s["id"]] = uses.get(s["id"], 0) + 1
        time.sleep(0.001)
        with lock:
            busy.discard(s["id"])

    run_blocks(200, play, threads, scratch=scratch)
    assert 1 <= len(made) <= threads
    assert sum(uses.values()) == 64  # reused block after block


@pytest.mark.parametrize("threads", [1, 2])
def test_an_exception_in_a_block_is_raised(threads: int) -> None:
    played = []

    def play(b: int, lo: int, hi: int) -> None:
        if b == 5:
            raise ValueError("block 5")
        played.append(b)

    with pytest.raises(ValueError, match="block 5"):
        run_blocks(100, play, threads)
    assert 5 not in played
    if threads == 1:
        assert played == [0, 1, 2, 3, 4]  # the blocks after it are not played


def test_an_exception_with_scratch_is_raised() -> None:
    def play(b: int, lo: int, hi: int, s: list) -> None:
        raise RuntimeError(f"block {b}")

    with pytest.raises(RuntimeError, match="block"):
        run_blocks(10, play, threads=2, scratch=list)


def test_block_counts_hand_each_block_its_own_rows_and_sum_them_into_the_batch() -> None:
    import numpy as np

    from simkit.games.base import Batch
    from simkit.games.blocks import BlockCounts
    from simkit.games.round_counts import MEASURES

    n, cap, players, top = 130, 5, 3, 4
    counts = BlockCounts.new(n, cap, players, top, heat=(2, 7))
    nb = block_count(n)
    assert counts.rounds.shape == counts.ends.shape == (nb, cap, top, players, players + 1)
    assert counts.by_seat.shape == (nb, cap, players, players, players + 1)
    assert counts.heat.shape == (nb, 2, 7) and counts.measures.shape == (n, len(MEASURES))
    assert np.isnan(counts.measures).all()

    def play(b: int, lo: int, hi: int) -> None:
        rounds, ends, by_seat, measures = counts.of_block(b)
        rounds[0, 0, 0, 0] += hi - lo  # a view: the block writes its own row
        ends[1, 1, 1, 1] += 1
        by_seat[2, 2, 2, 3] += 2
        measures[lo:hi, 0] = b
        counts.heat[b, 1, 6] += hi - lo

    run_blocks(n, play, threads=2)
    batch = counts.into(Batch(seats={}, races={}))
    assert batch.round_position[0, 0, 0, 0] == n
    assert batch.end_position[1, 1, 1, 1] == nb and batch.seat_position[2, 2, 2, 3] == 2 * nb
    assert batch.round_position.sum() == n and batch.end_position.sum() == nb
    assert list(batch.round_measures) == list(MEASURES)
    first = batch.round_measures[MEASURES[0]]
    for b in range(nb):
        lo, hi = block_bounds(b, n, nb)
        assert (first[lo:hi] == b).all()  # every item's row, written by its own block
    assert np.isnan(batch.round_measures[MEASURES[1]]).all()
    assert counts.heat_total(6).shape == (2, 6) and counts.heat_total()[1, 6] == n
