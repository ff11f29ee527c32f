"""Same seed, same race: across thread counts, between trace and table, with and without
the JIT (DESIGN §4)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np

from simkit.games.snowtails.batch import run_batch
from simkit.games.snowtails.params import SnowTailsParams
from simkit.games.snowtails.trace import trace_race
from simkit.rng import race_keys
from tests.snowtails.st_trackkit import oval

BOTS = ("greedy", "random", "greedy:bold", "greedy:cautious")


def test_same_results_on_one_and_two_threads(oval_track):
    keys = race_keys(11, 0, np.arange(150))
    a = run_batch(oval_track, SnowTailsParams(), BOTS, (1, 2, 3, 4), keys, threads=1)
    b = run_batch(oval_track, SnowTailsParams(), BOTS, (1, 2, 3, 4), keys, threads=2)
    for name in a.seats:
        assert np.array_equal(a.seats[name], b.seats[name]), name
    for name in a.races:
        assert np.array_equal(a.races[name], b.races[name]), name
    for name in a.heat:
        assert np.array_equal(a.heat[name], b.heat[name]), name
    # Different races really differ (the keys matter).
    assert len({tuple(row) for row in a.seats["finish"]}) > 5


def test_trace_agrees_with_the_table(oval_track):
    keys = race_keys(5, 0, np.arange(6))
    batch = run_batch(oval_track, SnowTailsParams(), BOTS, (1, 2, 3, 4), keys, threads=2)
    for i, key in enumerate(keys):
        tr = trace_race(oval_track, SnowTailsParams(), BOTS, (1, 2, 3, 4), int(key))
        for name in batch.seats:
            assert np.array_equal(tr.result.seats[name][0], batch.seats[name][i]), name
        for name in batch.races:
            assert tr.result.races[name][0] == batch.races[name][i], name
        turns = tr.result.seats["turns"][0].sum()
        assert turns == len(tr.turns)


_SCRIPT = """
import json
from tests.snowtails.st_trackkit import oval
from simkit.games.snowtails.params import SnowTailsParams
from simkit.games.snowtails.trace import trace_race
tr = trace_race(oval(), SnowTailsParams(), ("greedy", "random", "greedy:bold"), (1, 2, 3), {key})
print(json.dumps(tr.to_json()))
"""


def test_jit_and_pure_python_give_the_same_trace():
    key = int(race_keys(3, 0, np.arange(1))[0])
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    out = subprocess.run(
        [sys.executable, "-c", _SCRIPT.format(key=key)],
        env=env,
        cwd=Path(__file__).resolve().parents[2],  # the project root, where `tests` imports from
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    plain = json.loads(out.stdout)
    jitted = trace_race(
        oval(), SnowTailsParams(), ("greedy", "random", "greedy:bold"), (1, 2, 3), key
    ).to_json()
    assert plain == json.loads(json.dumps(jitted))
    assert len(plain["turns"]) > 20


def test_greedy_chooses_the_same_without_its_drift_table(monkeypatch):
    """The drift table (``reach.reach_table``) only orders and prunes greedy's search: with
    it empty, greedy bounds every play by the order table instead and must choose the same
    in every race, on The Nutcracker and in Mush! Mush! (bonus dice, buildings)."""
    from simkit.games.cells import build_cell
    from simkit.games.snowtails import batch as st_batch
    from simkit.games.snowtails.batch import cell_slots, unit_tracks
    from simkit.games.snowtails.reach import reach_table

    def without_drifts(tab, prog):
        order, drifts = reach_table(tab, prog)
        assert drifts.size
        return order, drifts[:0]

    keys = race_keys(7, 0, np.arange(120))
    cells = [
        build_cell(
            "snowtails", players=3, track="nutcracker", bots=["greedy", "greedy:bold", "random"]
        ),
        build_cell("mushmush", players=4, bots="greedy"),
    ]
    for cell in cells:
        args = (unit_tracks(cell), cell.variant, cell.bots, cell_slots(cell), keys)
        fast = run_batch(*args, threads=2)
        with monkeypatch.context() as m:
            m.setattr(st_batch, "reach_table", without_drifts)
            plain = run_batch(*args, threads=2)
        for name in fast.seats:
            assert np.array_equal(fast.seats[name], plain.seats[name]), name
        assert np.array_equal(fast.races["rounds"], plain.races["rounds"])
