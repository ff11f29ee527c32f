"""The measurement every engine's benchmark shares (one code path for all games).

``rate`` times ``GAME.simulate`` in this process (wall and CPU time: on a shared machine the
CPU figure shows what the code would do with the cores to itself). ``child`` runs the same
call in a fresh interpreter, with extra environment (``NUMBA_DISABLE_JIT=1`` for the
un-jitted ratio), and also reports the time from interpreter start to the first race done
(the warm start, when numba's cache is filled). ``game_rows`` prints a game's block from
its ``Game.extras.bench``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from typing import Any

import numba
import numpy as np

from simkit.games.base import Game

EXTRA_SECONDS = 8.0  # each extra row (a slower bot) is timed on about this much work

_CHILD = """
import json, sys, time
t0 = time.perf_counter()
import numpy as np
from simkit.games import get
from simkit.games.cells import build_cell
from simkit.rng import race_keys
game, races, kwargs = sys.argv[1], int(sys.argv[2]), json.loads(sys.argv[3])
cell = build_cell(game, **kwargs)
keys = race_keys(1, 0, np.arange(races))  # the process's first jitted call
t1 = time.perf_counter()
get(game).simulate(cell, keys, threads=1)
t2 = time.perf_counter()
print(races / (t2 - t1), t2 - t0, t2 - t1)
"""


def rate(game: str, threads: int, races: int, first: int = 0, **cell: Any) -> tuple[float, float]:
    """(races per wall second, races per CPU second) of ``races`` races at ``threads``, the
    races ``first`` to ``first + races - 1`` of the bench's keys."""
    from simkit.games import get
    from simkit.games.cells import build_cell
    from simkit.rng import race_keys

    c = build_cell(game, **cell)
    keys = race_keys(1, 0, np.arange(first, first + races))
    w0, c0 = time.perf_counter(), time.process_time()
    get(game).simulate(c, keys, threads)
    wall, cpu = time.perf_counter() - w0, time.process_time() - c0
    return races / wall, races / cpu


def child(game: str, races: int, env: dict[str, str], **cell: Any) -> tuple[float, float, float]:
    """(races/s, seconds from start to done, seconds in simulate) in a fresh interpreter."""
    out = subprocess.run(
        [sys.executable, "-c", _CHILD, game, str(races), json.dumps(cell)],
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        check=True,
    )
    r, total, engine = out.stdout.split()
    return float(r), float(total), float(engine)


def engine_rows(
    game: str, races: int, nojit_races: int, title: str, unit: str = "races", **cell: Any
) -> dict[int, float]:
    """Print the standard rows: 1 and 2 threads, speed-up, the JIT's gain, the warm start."""
    rate(game, 1, 8, **cell)  # compile (or load the cache) outside the timings
    print(f"{game}: {races:,} {unit}, {title}")
    rates: dict[int, float] = {}
    for threads in sorted({1, min(2, numba.config.NUMBA_NUM_THREADS)}):
        rates[threads], cpu_rate = rate(game, threads, races, **cell)
        print(
            f"  threads={threads}  {rates[threads]:10,.0f} {unit}/s wall"
            f"  ({cpu_rate:,.0f} {unit} per CPU-second)"
        )
    if 2 in rates:
        print(f"  speed-up 2 threads / 1 thread: {rates[2] / rates[1]:.2f}x")
    slow, _, _ = child(game, nojit_races, {"NUMBA_DISABLE_JIT": "1"}, **cell)
    print(f"  NUMBA_DISABLE_JIT=1: {slow:10,.2f} {unit}/s ({nojit_races} {unit}, 1 thread)")
    print(f"  jit / no-jit at 1 thread: {rates[1] / slow:,.0f}x")
    _, total, engine = child(game, 1, {}, **cell)
    print(
        f"  warm start, cache filled: {total:.2f} s from a fresh interpreter to one race done;"
        f" {engine:.2f} s of it in simulate (the rest: importing numba and its first jitted"
        " call)"
    )
    return rates


def turn_rate(game: str, races: int, **cell: Any) -> float:
    """Seat-turns per second at 1 thread, from the game's ``turns`` seat column."""
    from simkit.games import get
    from simkit.games.cells import build_cell
    from simkit.rng import race_keys

    c = build_cell(game, **cell)
    keys = race_keys(1, 0, np.arange(races))
    t0 = time.perf_counter()
    batch = get(game).simulate(c, keys, threads=1)
    return float(batch.seats["turns"].sum()) / (time.perf_counter() - t0)


def game_rows(game: Game) -> float | None:
    """Print ``game``'s block (``Game.extras.bench``); its seat-turns per second, if it counts
    turns."""
    spec = game.extras.bench
    races = int(os.environ.get(f"SIMKIT_BENCH_{game.name.upper()}_RACES", spec.races))
    engine_rows(game.name, races, spec.nojit_races, spec.title, spec.unit, **spec.cell)
    for title, cell in spec.extra.items():
        rate(game.name, 1, 2, **cell)  # compile outside the timings
        probe, _ = rate(game.name, 1, 4, **cell)
        n = int(min(max(probe * EXTRA_SECONDS, 8), max(races // 5, 8)))  # about 8 s a row
        one, _ = rate(game.name, 1, n, **cell)
        two, _ = rate(game.name, 2, n, **cell)
        print(
            f"  {title}: {one:10,.1f} {spec.unit}/s at 1 thread, {two:,.1f} at 2 "
            f"({two / one:.2f}x; {n:,} {spec.unit})"
        )
    if "turns" not in game.seat_columns:
        return None
    per_turn = turn_rate(game.name, races, **spec.cell)
    print(f"  per seat-turn, threads=1: {per_turn:10,.0f} seat-turns/s")
    return per_turn
