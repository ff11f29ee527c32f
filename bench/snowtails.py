"""Snow Tails throughput: races/s with 4 greedy bots on The Nutcracker, the JIT's gain,
and the warm start.

Measured in one run: numba at 1 and 2 threads over ``SIMKIT_BENCH_SNOWTAILS_RACES`` races
(default 20,000), the same code under ``NUMBA_DISABLE_JIT=1`` in a subprocess over a few
races, and a fresh interpreter's time from import to its first race with the cache filled.
Wall-clock and CPU time are both printed: on a shared machine the CPU figure shows what the
code would do with the cores to itself.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

import numba
import numpy as np

RACES = int(os.environ.get("SIMKIT_BENCH_SNOWTAILS_RACES", "20000"))
NOJIT_RACES = 3

_CHILD = """
import sys, time
t0 = time.perf_counter()
import numpy as np
from simkit.games import get
from simkit.games.cells import build_cell
from simkit.rng import race_keys
cell = build_cell("snowtails", players=4, bots="greedy", track="nutcracker")
keys = race_keys(1, 0, np.arange(int(sys.argv[1])))  # the process's first jitted call
t1 = time.perf_counter()
get("snowtails").simulate(cell, keys, threads=1)
t2 = time.perf_counter()
print(len(keys) / (t2 - t1), t2 - t0, t2 - t1)
"""


def _child(races: int, env: dict[str, str]) -> tuple[float, float, float]:
    out = subprocess.run(
        [sys.executable, "-c", _CHILD, str(races)],
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        check=True,
    )
    rate, total, engine = out.stdout.split()
    return float(rate), float(total), float(engine)


def _rate(threads: int, races: int) -> tuple[float, float]:
    from simkit.games import get
    from simkit.games.cells import build_cell
    from simkit.rng import race_keys

    cell = build_cell("snowtails", players=4, bots="greedy", track="nutcracker")
    keys = race_keys(1, 0, np.arange(races))
    w0, c0 = time.perf_counter(), time.process_time()
    get("snowtails").simulate(cell, keys, threads)
    wall, cpu = time.perf_counter() - w0, time.process_time() - c0
    return races / wall, races / cpu


def main() -> None:
    _rate(1, 8)  # compile (or load the cache) outside the timings
    print(f"snowtails: {RACES:,} races, 4 greedy bots, nutcracker")
    rates = {}
    for threads in sorted({1, min(2, numba.config.NUMBA_NUM_THREADS)}):
        rates[threads], cpu_rate = _rate(threads, RACES)
        print(
            f"  threads={threads}  {rates[threads]:10,.0f} races/s wall"
            f"  ({cpu_rate:,.0f} races per CPU-second)"
        )
    if 2 in rates:
        print(f"  speed-up 2 threads / 1 thread: {rates[2] / rates[1]:.2f}x")
    slow, _, _ = _child(NOJIT_RACES, {"NUMBA_DISABLE_JIT": "1"})
    print(f"  NUMBA_DISABLE_JIT=1: {slow:10,.2f} races/s ({NOJIT_RACES} races, 1 thread)")
    print(f"  jit / no-jit at 1 thread: {rates[1] / slow:,.0f}x")
    _, total, engine = _child(1, {})
    print(
        f"  warm start, cache filled: {total:.2f} s from a fresh interpreter to one race done;"
        f" {engine:.2f} s of it in simulate (the rest: importing numba and its first jitted"
        " call)"
    )


if __name__ == "__main__":
    main()
