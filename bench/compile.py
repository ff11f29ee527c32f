"""Cold compile of each game's kernels: CPU seconds of a fresh interpreter that simulates a
few races with an empty numba cache (the first run on a fresh clone). Budget: 20 s each."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

from simkit.games.base import Game

_CHILD = """
import json, sys
import numpy as np
from simkit.games import get
from simkit.games.cells import build_cell
from simkit.rng import race_keys
game, kwargs = sys.argv[1], json.loads(sys.argv[2])
get(game).simulate(build_cell(game, **kwargs), race_keys(1, 0, np.arange(4)), threads=1)
"""


def cold_seconds(game: str, cell: dict, tree: Path | None = None) -> float:
    """User + system CPU seconds of one cold ``simulate`` of ``cell`` of ``game``, with the
    ``simkit`` of ``tree`` (``PYTHONPATH``) when given."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    env = {**os.environ, **({"PYTHONPATH": str(tree)} if tree else {})}
    with tempfile.TemporaryDirectory(prefix="simkit-cold-") as cache:
        subprocess.run(
            [sys.executable, "-c", _CHILD, game, json.dumps(cell)],
            env={**env, "NUMBA_CACHE_DIR": cache},
            check=True,
            capture_output=True,
        )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main(games: list[Game]) -> None:
    print("cold compile, empty numba cache, one simulate of 4 races (budget 20 s of CPU each):")
    for game in games:
        print(f"  {game.name}: {cold_seconds(game.name, dict(game.bench.cell)):6.1f} s of CPU")
