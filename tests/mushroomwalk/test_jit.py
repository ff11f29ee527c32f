"""The compiled kernels and the same code run by the Python interpreter agree exactly."""

import json
import os
import subprocess
import sys

import numpy as np

from simkit.games.cells import build_cell
from simkit.games.mushroomwalk import GAME
from simkit.rng import race_keys

CASES = ((("random", "greedy"), 3), (("lookahead", "random"), 1), (("search:2", "greedy"), 1))

SCRIPT = """
import json, sys
import numpy as np
from simkit.games.cells import build_cell
from simkit.games.mushroomwalk import GAME
from simkit.rng import race_keys
out = []
for bots, n in json.loads(sys.argv[1]):
    cell = build_cell("mushroomwalk", bots=bots)
    b = GAME.simulate(cell, race_keys(5, 0, np.arange(n)))
    out.append({k: v.tolist() for k, v in {**b.seats, **b.races}.items()})
print(json.dumps(out))
"""


def test_jit_and_no_jit_give_identical_tables():
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    res = subprocess.run(
        [sys.executable, "-c", SCRIPT, json.dumps(CASES)],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    plain = json.loads(res.stdout)
    for (bots, n), got in zip(CASES, plain, strict=True):
        b = GAME.simulate(
            build_cell("mushroomwalk", bots=list(bots)), race_keys(5, 0, np.arange(n))
        )
        jit = {k: v.tolist() for k, v in {**b.seats, **b.races}.items()}
        assert jit == got, bots
