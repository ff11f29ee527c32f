"""Runner overhead: end-to-end ``simkit run`` races/s against the bare Snow Tails kernel.

The runner adds keys, aggregation, parquet encoding, atomic writes and the manifest around
the game's kernel; the target (issue 4) is that it keeps >= 90% of the kernel's races/s
and that 2 threads give >= 1.8x one thread. The run is 1 million races of Snow Tails with
4 greedy bots on The Nutcracker, writing every table (``SIMKIT_BENCH_RUNNER_RACES``
overrides the count; the kernel alone is timed on up to 100,000 of them).
"""

from __future__ import annotations

import json
import os
import tempfile
import time

import numba

RACES = int(os.environ.get("SIMKIT_BENCH_RUNNER_RACES", "1000000"))
CHUNK = 10_000


def _kernel_rate(cell, threads: int, races: int) -> float:
    from simkit.games import get
    from simkit.runner.backends import chunk_keys

    game = get("snowtails")
    done, seconds = 0, 0.0
    while done < races:
        n = min(CHUNK, races - done)
        keys = chunk_keys(1, 0, done, done + n)
        t0 = time.perf_counter()
        game.simulate(cell, keys, threads)
        seconds += time.perf_counter() - t0
        done += n
    return races / seconds


def _runner_rate(threads: int, races: int) -> tuple[float, float]:
    """End-to-end races/s, and the share of the run's wall time spent in the kernel."""
    from simkit.runner import start
    from simkit.runner.scenario import parse

    scenario = parse(
        {
            "game": "snowtails",
            "track": "nutcracker",
            "players": 4,
            "bots": "greedy",
            "races": races,
            "chunk_size": CHUNK,
            "seed": 1,
        },
        "bench/runner.py",
    )
    with tempfile.TemporaryDirectory(prefix="simkit-bench-") as tmp:
        t0 = time.perf_counter()
        start(scenario, os.path.join(tmp, "run"), threads=threads)
        seconds = time.perf_counter() - t0
        with open(os.path.join(tmp, "run", "manifest.json")) as fh:
            timings = json.load(fh)["timings"]
        return races / seconds, timings["simulate_s"] / seconds


def main() -> None:
    from simkit.games.cells import build_cell

    cell = build_cell("snowtails", track="nutcracker", players=4, bots="greedy")
    _kernel_rate(cell, 1, 100)  # compile outside the timings
    print(f"runner: {RACES:,} Snow Tails races, 4 greedy bots, nutcracker, all tables written")
    rates = {}
    for threads in sorted({1, min(2, numba.config.NUMBA_NUM_THREADS)}):
        kernel = _kernel_rate(cell, threads, min(RACES, 100_000))
        runner, in_kernel = _runner_rate(threads, RACES)
        rates[threads] = runner
        print(
            f"  threads={threads}  kernel {kernel:10,.0f} races/s  runner {runner:10,.0f} "
            f"races/s  runner/kernel {runner / kernel:6.1%}  (time in kernel during the run "
            f"{in_kernel:6.1%})"
        )
    if 2 in rates:
        print(f"  runner speed-up 2 threads / 1 thread: {rates[2] / rates[1]:.2f}x")


if __name__ == "__main__":
    main()
