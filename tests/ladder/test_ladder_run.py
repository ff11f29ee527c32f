"""A whole ladder on the runner: known strengths come back, the same seed gives the same ladder."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from simkit.analysis.ladder import analyse
from simkit.ladder import scenario
from simkit.report.ladder import build
from simkit.runner import start

TRUTH = {"luce:0.9": 0.9, "luce:0.3": 0.3, "luce:-0.2": -0.2, "luce:-1": -1.0}


def _ladder(tmp_path, name, seed=5, races=300, replicates=60, **kwargs):
    sc = scenario("lucerace", list(TRUTH), players=3, races=races, seed=seed, **kwargs)
    start(sc, tmp_path / name)
    return analyse(tmp_path / name, replicates=replicates)


def test_ladder_recovers_the_known_order_with_intervals_that_cover_the_truth(tmp_path):
    """Without a start-slot effect the game is exactly Plackett-Luce in the bots' ratings."""
    lad = _ladder(tmp_path, "run", overrides={"slot_bonus": 0.0})
    t = lad.table.set_index("bot")
    truth = pd.Series(TRUTH) - np.mean(list(TRUTH.values()))
    assert list(lad.table["bot"]) == list(TRUTH)
    assert ((t["low"] <= truth) & (truth <= t["high"])).all(), t
    assert lad.rungs[0].startswith("luce:0.9 above luce:0.3 (rating difference +")


def test_equal_bots_stay_level_however_much_slot_1_is_worth(tmp_path):
    """luce:0 and luce:0.0 play alike; slot 1 (+2) goes to each equally often, so no gap."""
    bots = ["luce:0", "luce:1", "luce:0.0"]
    over = {"slot_bonus": 2.0}
    start(scenario("lucerace", bots, players=2, races=300, seed=1, overrides=over), tmp_path / "r")
    lad = analyse(tmp_path / "r", replicates=60)
    assert lad.table["bot"].iloc[0] == "luce:1"
    assert any(s.startswith("luce:0") and "not separated" in s for s in lad.rungs), lad.rungs


def test_undecided_races_are_counted_and_left_out(tmp_path):
    sc = scenario(
        "lucerace",
        ["luce:1", "luce:0"],
        players=2,
        races=400,
        seed=2,
        overrides={"undecided": 0.25},
    )
    start(sc, tmp_path / "run")
    lad = analyse(tmp_path / "run", replicates=20)
    undecided = int((~lad.outcomes.decided).sum())
    assert lad.races == 800 and 150 < undecided < 250
    assert lad.table["seats"].sum() == 2 * (800 - undecided)
    assert lad.ratings.choices == 800 - undecided  # one choice per decided 2-player race


def test_same_seed_same_ladder_and_report(tmp_path):
    a = _ladder(tmp_path, "a", races=100, replicates=30)
    b = _ladder(tmp_path, "b", races=100, replicates=30)
    pd.testing.assert_frame_equal(a.table, b.table)
    pd.testing.assert_frame_equal(a.h2h, b.h2h)
    assert a.rungs == b.rungs
    build(a, tmp_path / "ra")
    build(b, tmp_path / "rb")
    for csv in ("ratings.csv", "head_to_head.csv", "design.csv"):
        assert (tmp_path / "ra" / csv).read_bytes() == (tmp_path / "rb" / csv).read_bytes()
    c = _ladder(tmp_path, "c", seed=6, races=100, replicates=30)
    assert not a.table["rating"].equals(c.table["rating"])


def test_report_has_every_part(tmp_path):
    lad = _ladder(tmp_path, "run", races=50, replicates=20)
    index = build(lad, tmp_path / "report")
    files = {p.name for p in index.parent.iterdir()}
    assert {"ratings.png", "head_to_head.png", "skill_depth.png", "report.md"} <= files
    assert {"ratings.csv", "head_to_head_matrix.csv", "head_to_head.csv", "design.csv"} <= files
    md = (tmp_path / "report" / "report.md").read_text()
    for heading in ("## Ratings", "## Head to head", "## Skill depth", "## Design", "## Run"):
        assert heading in md
    assert "simkit ladder lucerace --bots luce:0.9,luce:0.3,luce:-0.2,luce:-1 --players 3" in md
    matrix = pd.read_csv(tmp_path / "report" / "head_to_head_matrix.csv")
    assert list(matrix.columns) == ["bot", *lad.table["bot"]]


def test_analyse_rejects_a_run_that_is_no_ladder(tmp_path):
    from simkit.errors import SimkitError
    from simkit.runner.scenario_file import parse

    start(parse({"game": "lucerace", "races": 10}, "s.toml"), tmp_path / "run")
    with pytest.raises(SimkitError, match="not a ladder run"):
        analyse(tmp_path / "run")


def test_fewer_bots_than_seats_repeat_a_bot_within_a_race(tmp_path):
    """Two bots on four seats (A,B,A,B and B,A,B,A): copies of a bot share its strength."""
    sc = scenario(
        "lucerace", ["luce:0.4", "luce:-0.4"], players=4, races=300, overrides={"slot_bonus": 0.0}
    )
    start(sc, tmp_path / "run")
    lad = analyse(tmp_path / "run", replicates=40)
    t = lad.table.set_index("bot")
    assert (t["low"] <= [0.4, -0.4]).all() and (t["high"] >= [0.4, -0.4]).all(), t
    assert t["seats"].tolist() == [1200, 1200]
    h = lad.h2h.set_index(["bot", "opponent"])
    assert h.loc[("luce:0.4", "luce:-0.4"), "races"] == 600 * 4  # 4 cross pairs a race
