"""``simkit race mushroomwalk``: an exact golden log, and traces agree with the batch.

Regenerate the golden file after an intended rule or bot change with ``make golden``.
"""

import json
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from simkit.cli import main
from simkit.errors import SimkitError
from simkit.games.cells import build_cell
from simkit.games.mushroomwalk import GAME
from simkit.rng import race_key
from tests.golden.kit import CliCase

RACE = CliCase(
    Path(__file__).parent / "golden" / "race_seed7_greedy_lookahead.txt",
    ("race", "mushroomwalk", "--seed", "7", "--bots", "greedy,lookahead"),
)
GOLDEN = [RACE]


def test_race_log_matches_the_golden_file():
    assert RACE.render() == RACE.read()


def test_trace_json_agrees_with_the_batch_kernel():
    cell = build_cell("mushroomwalk", preset="morels", bots=["random", "greedy"])
    for race in range(5):
        key = int(race_key(3, 0, race))
        trace = GAME.trace(cell, key).to_json()
        batch = GAME.simulate(cell, np.array([key], dtype=np.uint64))
        end = trace["events"][-1]
        assert end["kind"] == "end"
        assert end["score"] == list(batch.seats["score"][0])
        turns = [e for e in trace["events"] if e["kind"] == "turn"]
        assert len(turns) == batch.races["turns"][0]
        assert trace["winner"] == (
            -1 if batch.races["draw"][0] else int(np.argmin(batch.seats["finish"][0]))
        )
        json.dumps(trace)  # plain JSON types only


def test_alternate_starts_follow_the_race_index():
    cell = build_cell("mushroomwalk", overrides={"who_starts": "alternate"})
    keys = np.array([int(race_key(1, 0, r)) for r in range(6)], dtype=np.uint64)
    b = GAME.simulate(cell, keys, race_indices=np.arange(6))
    assert list(b.races["starter_seat"]) == [0, 1, 0, 1, 0, 1]
    with pytest.raises(SimkitError, match="who_starts='alternate' needs the race indices"):
        GAME.simulate(cell, keys)
    # `simkit race` passes its --race index, so the CLI replays either parity.
    for race, starter in (("0", 0), ("1", 1), ("2", 0)):
        res = CliRunner().invoke(
            main,
            ["race", "mushroomwalk", "--set", "who_starts=alternate", "--race", race],
        )
        assert res.exit_code == 0, res.output
        assert f"\nseat {starter} starts\n" in res.output


def test_traces_of_poison_heavy_variants_are_complete():
    over = {"poison_cards": 20, "basket_cards": 20, "moon_cards": 20, "hand_limit": 4, "deal": 3}
    cell = build_cell("mushroomwalk", overrides=over, bots=["random", "lookahead"])
    for race in range(10):
        events = GAME.trace(cell, int(race_key(5, 0, race))).to_json()["events"]
        assert events[-1]["kind"] == "end"
