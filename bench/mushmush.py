"""Mush! Mush! throughput: 6 greedy bots on track 1 ("Old Faithful"), the JIT's gain, the
warm start (``bench.common.engine_rows``), and the cost per sled-turn against Snow Tails.

Issue 6 asks that the Mush! Mush! row stay within a factor of 2 of the Snow Tails row per
sled-turn (one sled's turn: play, move, dents, buildings, refill). Both are measured here,
in one process at 1 thread, from the ``turns`` column of the same batches.

Races: ``SIMKIT_BENCH_MUSHMUSH_RACES`` (default 10,000); 3 races without the JIT.
"""

from __future__ import annotations

import os
import time

import numpy as np

from bench.common import engine_rows

RACES = int(os.environ.get("SIMKIT_BENCH_MUSHMUSH_RACES", "10000"))
CELLS = {
    "mushmush": dict(players=6, bots="greedy", track="mm1-old-faithful"),
    "snowtails": dict(players=4, bots="greedy", track="nutcracker"),
}


def sled_turns_per_second(game: str, races: int) -> tuple[float, float]:
    """(sled-turns per second, sled-turns per race) of ``races`` races at 1 thread."""
    from simkit.games import get
    from simkit.games.cells import build_cell
    from simkit.rng import race_keys

    cell = build_cell(game, **CELLS[game])
    keys = race_keys(1, 0, np.arange(races))
    get(game).simulate(cell, keys[:8], threads=1)
    t0 = time.perf_counter()
    batch = get(game).simulate(cell, keys, threads=1)
    turns = float(batch.seats["turns"].sum())
    return turns / (time.perf_counter() - t0), turns / races


def main() -> None:
    engine_rows("mushmush", RACES, 3, "6 greedy bots, mm1-old-faithful", **CELLS["mushmush"])
    mm, mm_turns = sled_turns_per_second("mushmush", RACES)
    st, st_turns = sled_turns_per_second("snowtails", RACES)
    print(
        f"  per sled-turn, 1 thread: mushmush {mm:,.0f}/s ({mm_turns:.1f} per race), "
        f"snowtails {st:,.0f}/s ({st_turns:.1f} per race): Snow Tails is {st / mm:.2f}x "
        "faster per sled-turn (issue 6: at most 2x)"
    )


if __name__ == "__main__":
    main()
