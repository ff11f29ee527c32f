"""Mushroom Walk throughput: games/s with two greedy bots, and the JIT's gain.

Measured in one run: numba at 1 and 2 threads over ``SIMKIT_BENCH_MW_GAMES`` games
(default 50,000), the lookahead bot against greedy at 1 thread over a fifth of them, and
the same greedy code under ``NUMBA_DISABLE_JIT=1`` in a subprocess over a few games, to
give the ratio the JIT buys.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

import numba
import numpy as np

GAMES = int(os.environ.get("SIMKIT_BENCH_MW_GAMES", "50000"))
NOJIT_GAMES = 10

_NOJIT = """
import sys, time
import numpy as np
from simkit.games import get
from simkit.games.cells import build_cell
from simkit.rng import race_keys
cell = build_cell("mushroomwalk", bots="greedy")
keys = race_keys(1, 0, np.arange(int(sys.argv[1])))
t0 = time.perf_counter()
get("mushroomwalk").simulate(cell, keys, threads=1)
print(len(keys) / (time.perf_counter() - t0))
"""


def _rate(threads: int, games: int, bots: str | list[str] = "greedy") -> float:
    from simkit.games import get
    from simkit.games.cells import build_cell
    from simkit.rng import race_keys

    cell = build_cell("mushroomwalk", bots=bots)
    keys = race_keys(1, 0, np.arange(games))
    t0 = time.perf_counter()
    get("mushroomwalk").simulate(cell, keys, threads)
    return games / (time.perf_counter() - t0)


def _nojit_rate() -> float:
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    out = subprocess.run(
        [sys.executable, "-c", _NOJIT, str(NOJIT_GAMES)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return float(out.stdout.strip())


def main() -> None:
    _rate(1, 8)  # compile outside the timings
    print(f"mushroomwalk: {GAMES:,} games, 2 greedy bots, preset mushroomwalk")
    rates = {}
    for threads in sorted({1, min(2, numba.config.NUMBA_NUM_THREADS)}):
        rates[threads] = _rate(threads, GAMES)
        print(f"  threads={threads}  {rates[threads]:10,.0f} games/s")
    if 2 in rates:
        print(f"  speed-up 2 threads / 1 thread: {rates[2] / rates[1]:.2f}x")
    look = _rate(1, max(GAMES // 5, 1), ["lookahead", "greedy"])
    print(f"  lookahead vs greedy, threads=1: {look:10,.0f} games/s")
    slow = _nojit_rate()
    print(f"  NUMBA_DISABLE_JIT=1: {slow:10,.2f} games/s ({NOJIT_GAMES} games, 1 thread)")
    print(f"  jit / no-jit at 1 thread: {rates[1] / slow:,.0f}x")


if __name__ == "__main__":
    main()
