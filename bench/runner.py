"""Runner overhead: end-to-end ``simkit run`` races/s against the bare kernel of one game.

The runner adds keys, aggregation, parquet encoding, atomic writes and the manifest around
the game's kernel; the target (issue 4) is that it keeps >= 90% of the kernel's races/s
and that 2 threads give >= 1.8x one thread. The run is 1 million races of the cell of the
game whose ``BenchSpec`` has ``runner=True``, writing every table
(``SIMKIT_BENCH_RUNNER_RACES`` overrides the count; the kernel alone is timed on up to
100,000 of them).
"""

from __future__ import annotations

import json
import os
import tempfile
import time

import numba

from simkit.games.base import Game

RACES = int(os.environ.get("SIMKIT_BENCH_RUNNER_RACES", "1000000"))
CHUNK = 10_000


def _kernel_rate(game: Game, cell, threads: int, races: int) -> float:
    from simkit.rng import chunk_keys

    done, seconds = 0, 0.0
    while done < races:
        n = min(CHUNK, races - done)
        keys = chunk_keys(1, 0, done, done + n)
        t0 = time.perf_counter()
        game.simulate(cell, keys, threads)
        seconds += time.perf_counter() - t0
        done += n
    return races / seconds


def _runner_rate(game: Game, threads: int, races: int) -> tuple[float, float]:
    """End-to-end races/s, and the share of the run's wall time spent in the kernel."""
    from simkit.runner import start
    from simkit.runner.scenario_file import parse

    data = {
        "game": game.name,
        **game.extras.bench.cell,
        "races": races,
        "chunk_size": CHUNK,
        "seed": 1,
    }
    scenario = parse(data, "bench/runner.py")
    with tempfile.TemporaryDirectory(prefix="simkit-bench-") as tmp:
        t0 = time.perf_counter()
        start(scenario, os.path.join(tmp, "run"), threads=threads)
        seconds = time.perf_counter() - t0
        with open(os.path.join(tmp, "run", "manifest.json")) as fh:
            timings = json.load(fh)["timings"]
        return races / seconds, timings["simulate_s"] / seconds


def main(game: Game | None) -> None:
    """Print the runner's rows for ``game`` (None: no game asked for them)."""
    from simkit.games.cells import build_cell

    if game is None:
        print("runner: no game's BenchSpec has runner=True; nothing to measure")
        return
    cell = build_cell(game.name, **game.extras.bench.cell)
    _kernel_rate(game, cell, 1, 100)  # compile outside the timings
    print(f"runner: {RACES:,} {game.title} races, {game.extras.bench.title}, all tables written")
    rates = {}
    for threads in sorted({1, min(2, numba.config.NUMBA_NUM_THREADS)}):
        kernel = _kernel_rate(game, cell, threads, min(RACES, 100_000))
        runner, in_kernel = _runner_rate(game, threads, RACES)
        rates[threads] = runner
        print(
            f"  threads={threads}  kernel {kernel:10,.0f} races/s  runner {runner:10,.0f} "
            f"races/s  runner/kernel {runner / kernel:6.1%}  (time in kernel during the run "
            f"{in_kernel:6.1%})"
        )
    if 2 in rates:
        print(f"  runner speed-up 2 threads / 1 thread: {rates[2] / rates[1]:.2f}x")
