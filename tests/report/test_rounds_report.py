"""A report of a real run of the test dice race: who wins from where, hidden columns, and
no verdict where few races are decided."""

from __future__ import annotations

import pandas as pd
import pytest

import simkit.games
from simkit.analysis.fairness import FEW_DECIDED
from simkit.analysis.rounds import round_measures, win_by_position
from simkit.analysis.track import track_summary
from simkit.report import build
from tests.runner.dicerace import GAME

SCENARIO = """
title = "Dice race <rounds>"
description = "Who wins from where, & does the bonus rule matter?"
game = "dicerace"
seed = 3
races = 600
chunk_size = 300
players = 3
[grid]
bonus = [false, true]
max_rounds = [200, 4]
"""


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    from simkit.results import load
    from simkit.runner import load_scenario, start

    simkit.games.names()  # discover the real games first, so none is missing afterwards
    with pytest.MonkeyPatch.context() as mp:
        mp.setitem(simkit.games._REGISTRY, "dicerace", GAME)
        tmp = tmp_path_factory.mktemp("dice")
        (tmp / "s.toml").write_text(SCENARIO)
        start(load_scenario(tmp / "s.toml"), tmp / "run")
        res = load(tmp / "run")
        out = tmp / "report"
        build(res, out)
        track = track_summary(res)
        yield res, out, track


def test_win_probability_grows_with_the_lead(run):
    res, _, _ = run
    w = win_by_position(res)
    full = res.cells.query("max_rounds == 200")["cell"].tolist()
    r3 = w[(w["cell"] == full[0]) & (w["round"] == 3)].set_index("position")["win_rate"]
    assert r3[1] > r3[2] > r3[3]  # the leader after round 3 wins most often
    m = round_measures(res).set_index("cell")
    # the dice race is short (about 9 rounds): the leader becomes a near-certain winner
    assert 1 <= m.at[full[0], "decided_round"] <= m.at[full[0], "median_rounds"] + 2
    assert 0 < m.at[full[0], "comeback_rate"] < 0.6
    assert m.at[full[0], "decided_rate"] > 0.99  # a race where all roll three 1s is not


def test_report_sections_titles_and_hidden_columns(run):
    res, out, track = run
    md = (out / "report.md").read_text(encoding="utf-8")
    html = (out / "index.html").read_text(encoding="utf-8")
    assert "<title>Dice race &lt;rounds&gt;</title>" in html
    assert "Who wins from where, &amp; does the bonus rule matter?" in html
    assert md.index("## Answer") < md.index("## Start-slot fairness") < md.index("## Run settings")
    assert "## Who wins from where" in md and (out / "rounds.csv").exists()
    assert any(p.name.startswith("rounds_cell") for p in out.glob("*.png"))
    # bonus_spaces applies only where the bonus rule is on (Column.applies)
    bonus = res.cells.set_index("cell")["bonus"]
    shown = set(track.loc[track["metric"] == "bonus_spaces", "cell"])
    assert shown == {c for c, on in bonus.items() if on}


def test_cells_nobody_finishes_get_no_verdict(run):
    res, out, _ = run
    f = pd.read_csv(out / "fairness.csv").set_index("cell")
    short = res.cells.query("max_rounds == 4")["cell"].tolist()
    assert (f.loc[short, "verdict"] == FEW_DECIDED).all()
    assert (f.loc[short, "decided"] == 0).all()
    md = (out / "report.md").read_text(encoding="utf-8")
    assert "no verdict: only 0.0% of races were decided" in md
    assert "play it with bots that finish races" not in md  # a sweep names its fairest cell
