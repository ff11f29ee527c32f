"""MUSH and Mushroom Walk reports show per-round curves, drama, lead change, uncertainty
and stability per cell (issue 25 item 4), from small real runs."""

from __future__ import annotations

import pandas as pd
import pytest

from simkit.report import build

MUSH = """
title = "MUSH per round"
game = "mush"
seed = 3
races = 240
[grid]
players = [2, 3]
"""

MUSHROOMWALK = """
title = "Mushroom Walk per round"
game = "mushroomwalk"
preset = "mushroomwalk"
bots = ["greedy", "random"]
seed = 4
races = 240
"""


@pytest.fixture(scope="module", params=[MUSH, MUSHROOMWALK], ids=["mush", "mushroomwalk"])
def report(request, tmp_path_factory):
    from simkit.results import load
    from simkit.runner import load_scenario, start

    tmp = tmp_path_factory.mktemp("drama")
    (tmp / "s.toml").write_text(request.param)
    start(load_scenario(tmp / "s.toml"), tmp / "run")
    res = load(tmp / "run")
    build(res, tmp / "report")
    return res, tmp / "report"


def test_report_has_per_round_curves_and_drama_per_cell(report):
    res, out = report
    text = (out / "report.md").read_text()
    assert "does not record" not in text and "has no race positions" not in text
    assert "Drama, lead changes, uncertainty" in text
    cells = res.cells["cell"].tolist()
    for cell in cells:
        assert (out / f"rounds_cell{cell}.png").stat().st_size > 0
        assert (out / f"race_end_cell{cell}.png").stat().st_size > 0
        assert (out / f"slot_rounds_cell{cell}.png").stat().st_size > 0
    d = pd.read_csv(out / "drama.csv")
    assert d["cell"].tolist() == cells
    for m in ("drama", "lead_change", "stability", "uncertainty"):
        assert d[m].between(0, 1).all(), m
    assert (d["drama_low"] < d["drama"]).all() and (d["drama"] < d["drama_high"]).all()
    # every decided race has a drama value; runs here decide nearly every race
    assert (d["drama_races"] > 0.5 * 240).all()
    if res.cells["game"].iloc[0] == "mushroomwalk":  # greedy against random, per bot
        by_bot = pd.read_csv(out / "position_by_bot.csv")
        assert set(by_bot["bot"]) == {"greedy", "random"}
        assert (out / "bot_rounds_cell0.png").stat().st_size > 0
        late = by_bot[by_bot["round"] == 12].set_index("bot")  # about halfway
        assert late.at["greedy", "lead_rate"] > late.at["random", "lead_rate"]
    # per start slot, round by round: each round's seats are the races still running
    by_slot = pd.read_csv(out / "position_by_slot.csv")
    first = by_slot[by_slot["round"] == 1].groupby("cell")["seats"].sum()
    assert (first == 240 * res.cells.set_index("cell")["players"].astype(int)).all()


def test_compare_report_has_each_runs_drama(report, tmp_path):
    from simkit.report import build_comparison

    res, _ = report
    out = tmp_path / "compare"
    build_comparison(res, res, out)
    a = pd.read_csv(out / "a_drama.csv")
    assert a["cell"].tolist() == res.cells["cell"].tolist()
    assert "Drama" not in a.columns and a["uncertainty"].notna().all()
