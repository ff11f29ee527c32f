"""The level check (simkit.runner.levels) on the Luce race, whose bots' strengths are known."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from simkit import load
from simkit.games.cells import build_cell
from simkit.runner import start
from simkit.runner.levels import COLUMNS, check, check_cell
from simkit.runner.scenario import parse


def test_the_check_measures_the_order_and_flags_a_level_not_stronger_than_the_one_below():
    # Listed weakest first, but luce:0.5 is weaker than luce:1 below it; luce:2 is stronger.
    found = check("lucerace", ["luce:0", "luce:1", "luce:0.5", "luce:2"], players=4, races=300)
    t = found.table.set_index("skill")
    assert list(found.table["skill"]) == ["luce:0", "luce:1", "luce:0.5", "luce:2"]
    assert t["rung"].to_dict() == {"luce:2": 1, "luce:1": 2, "luce:0.5": 3, "luce:0": 4}
    assert t["verdict"].to_dict() == {
        "luce:0": "",
        "luce:1": "stronger",
        "luce:0.5": "weaker",
        "luce:2": "stronger",
    }
    assert t["flag"].tolist() == [False, False, True, False]
    assert t.loc["luce:0.5", "below"] == "luce:1"
    # The truth (-0.5) lies in the interval of the difference, and head to head agrees.
    assert t.loc["luce:0.5", "diff_low"] < -0.5 < t.loc["luce:0.5", "diff_high"]
    assert t.loc["luce:0.5", "share_high"] < 0.5
    assert t.loc["luce:1", "races"] == 2 * 300  # the ladder's 2 lineups at 4 seats
    assert found.flagged == [
        t.loc["luce:0.5", "sentence"],
    ]
    assert found.flagged[0].startswith("luce:0.5 is weaker than luce:1 on 4 players: -0.")


def test_equal_levels_are_level_and_flagged_however_much_slot_1_is_worth():
    cell = build_cell("lucerace", players=2, overrides={"slot_bonus": 2.0})
    found = check_cell(cell, ["luce:0", "luce:0.0"], races=400, seed=3)
    row = found.table.iloc[1]
    assert row["verdict"] == "level" and row["flag"]
    # Seats rotated on common keys: the two equal bots trade every race's luck exactly.
    assert row["diff_low"] <= 0 <= row["diff_high"]
    assert row["share_low"] <= 0.5 <= row["share_high"]
    assert "is not stronger than luce:0 on 2 players: they are level" in row["sentence"]


def test_same_seed_same_table_at_any_thread_count():
    a = check("lucerace", ["luce:0", "luce:0.4"], players=3, races=200, seed=7, threads=1)
    b = check("lucerace", ["luce:0", "luce:0.4"], players=3, races=200, seed=7, threads=2)
    pd.testing.assert_frame_equal(a.table, b.table)


SCENARIO = {
    "game": "lucerace",
    "players": 2,
    "skill": ["luce:0", "luce:1"],
    "races": 100,
    "grid": {"slot_bonus": [0.0, 1.0]},
    "level_races": 150,
}


def test_a_run_with_a_skill_axis_stores_the_check_and_load_exposes_it(tmp_path):
    start(parse(SCENARIO, "levels.toml"), tmp_path / "run")
    res = load(tmp_path / "run")
    lv = res.levels
    assert list(lv.columns) == list(COLUMNS)
    assert lv["cell"].tolist() == [0, 1, 2, 3] and lv["setting"].tolist() == [0, 0, 1, 1]
    assert lv["skill"].tolist() == ["luce:0", "luce:1"] * 2
    assert lv["verdict"].tolist() == ["", "stronger"] * 2
    assert lv["races"].tolist() == [0, 300, 0, 300]
    assert "levels.parquet" in res.manifest["files"]
    assert res.manifest["scenario"]["level_races"] == 150
    # The same seed gives the same table, with one setting checked on its own.
    own = check_cell(
        build_cell("lucerace", players=2, overrides={"slot_bonus": 1.0}),
        ["luce:0", "luce:1"],
        races=150,
    )
    got = lv[lv["setting"] == 1].drop(columns=["cell", "setting"]).reset_index(drop=True)
    np.testing.assert_allclose(got["diff"], own.table["diff"])
    assert got["sentence"].tolist() == own.table["sentence"].tolist()


def test_check_levels_false_stores_nothing_and_keys_need_a_skill_axis(tmp_path):
    start(parse({**SCENARIO, "check_levels": False}, "off.toml"), tmp_path / "off")
    res = load(tmp_path / "off")
    assert res.levels is None and "levels.parquet" not in res.manifest["files"]
    no_skill = {k: v for k, v in SCENARIO.items() if k != "skill"}
    with pytest.raises(Exception, match=r"key 'level_races': checks the order of skill levels"):
        parse(no_skill, "x.toml")


def test_a_damaged_levels_table_is_checked_again_on_resume(tmp_path):
    from simkit.runner import resume

    start(parse(SCENARIO, "levels.toml"), tmp_path / "run")
    before = load(tmp_path / "run").levels
    (tmp_path / "run" / "levels.parquet").write_bytes(b"broken")
    summary = resume(tmp_path / "run")
    assert any(
        "levels.parquet was damaged or missing: checked again" in s for s in summary.repaired
    )
    pd.testing.assert_frame_equal(load(tmp_path / "run").levels, before)
