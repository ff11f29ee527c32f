"""Verdicts across skill levels on a real run of the test dice race (tests/runner/dicerace.py).

Two players race 8 spaces on a six-sided die; slot 1 moves first, which is worth about 19 pp
to either bot. A two-space head start for slot 2 makes the race fair for ``bold`` (which
rerolls low rolls) but not for ``steady``, whose slot 1 then wins about 47%: the first
combination is robustly unfair, the second skill-dependent. 20,000 races a cell put every
interval within about 0.7 pp, far from the edges of the 2 pp tolerance.
"""

from __future__ import annotations

import json

import pandas as pd
import pytest

import simkit.games
from simkit.analysis.fairness import fairness
from simkit.analysis.skill import combinations, fairness_across, sentence
from simkit.report import build
from simkit.report.index import study_line
from simkit.report.summary import SHORT
from tests.runner.dicerace import GAME

SCENARIO = """
title = "Head start across skill"
game = "dicerace"
players = 2
races = 20000
skill = ["steady", "bold"]
[set]
faces = 6
length = 8
[grid]
head_start = [[0, 0, 0, 0, 0, 0], [0, 2, 0, 0, 0, 0]]
"""
ROBUST = "robust: unfair at every skill level (steady, bold)"
DEPENDENT = "skill-dependent: unfair with steady, fair with bold"


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    from simkit.results import load
    from simkit.runner import load_scenario, start

    simkit.games.names()  # discover the real games first, so none is missing afterwards
    with pytest.MonkeyPatch.context() as mp:
        mp.setitem(simkit.games._REGISTRY, "dicerace", GAME)
        tmp = tmp_path_factory.mktemp("skill")
        (tmp / "s.toml").write_text(SCENARIO)
        start(load_scenario(tmp / "s.toml"), tmp / "run")
        res = load(tmp / "run")
        build(res, tmp / "report")
        yield res, tmp / "report"


def test_sentences_group_levels_by_verdict():
    assert sentence({"a": "fair", "b": "fair"}) == "robust: fair at every skill level (a, b)"
    assert sentence({"greedy": "unfair", "greedy:tuned": "unfair", "search:64": "fair"}) == (
        "skill-dependent: unfair with greedy and greedy:tuned, fair with search:64"
    )
    assert sentence({"a": "fair", "b": "inconclusive", "c": "fair"}) == (
        "skill-dependent: fair with a and c, inconclusive with b"
    )


def test_a_robust_and_a_skill_dependent_verdict(run):
    res, _ = run
    combos = combinations(res.cells)
    assert list(combos["combination"]) == [0, 0, 1, 1]
    assert (
        list(combos["label"]) == ["head_start=[0,0,0,0,0,0]"] * 2 + ["head_start=[0,2,0,0,0,0]"] * 2
    )
    across = fairness_across(fairness(res), res.cells, SHORT)
    assert list(across["across_skill"]) == [ROBUST, DEPENDENT]
    assert list(across["robust"]) == [True, False]
    assert list(across["verdict steady"]) == ["unfair", "unfair"]
    assert list(across["verdict bold"]) == ["unfair", "fair"]


def test_the_report_states_it_first_and_next_to_each_verdict(run):
    _, out = run
    md = (out / "report.md").read_text()
    head, answer = md.split("## Answer", 1)
    assert "skill levels: steady, bold: 1 of 2 fairness verdicts robust, 1 skill-dependent" in head
    assert (
        "Across the 2 skill levels (steady, bold): 1 of 2 fairness verdicts are robust (the same "
        "at every level), 1 skill-dependent." in answer
    )
    assert f"- **head_start=[0,0,0,0,0,0]: {ROBUST}.** 2 players" in answer
    assert f"- **head_start=[0,2,0,0,0,0]: {DEPENDENT}.** 2 players" in answer
    # The fairest cell is sought at each level: who plays is no setting to choose.
    assert [x.split(" (cell")[0] for x in answer.splitlines() if x.startswith("Try next")] == [
        "Try next: Fairest of the 2 cells with 2 players at skill level steady: "
        "head_start=[0,2,0,0,0,0], skill=steady",
        "Try next: Fairest of the 2 cells with 2 players at skill level bold: "
        "head_start=[0,2,0,0,0,0], skill=bold",
    ]
    # Next to each cell's own verdict.
    assert answer.count(f"across skill levels: {ROBUST}") == 2
    assert answer.count(f"across skill levels: {DEPENDENT}") == 2
    # The head start moves slot 1's wins the same way at both levels: a robust difference.
    compared = [line for line in answer.splitlines() if line.startswith("Compared: ")]
    assert len(compared) == 1
    assert compared[0].startswith(
        "Compared: head_start=[0,2,0,0,0,0] vs head_start=[0,0,0,0,0,0]: "
    )
    assert "slot 1 wins -" in compared[0] and "with steady" in compared[0]
    assert "with bold (robust)" in compared[0]
    lines = json.loads((out / "summary.json").read_text())["cells"]
    assert [x["across_skill"] for x in lines] == [ROBUST, ROBUST, DEPENDENT, DEPENDENT]
    assert study_line(json.loads((out / "summary.json").read_text())) == (
        "unfair",
        "4 cells: 3 unfair, 1 fair; 1 of 2 verdicts robust across skill levels, 1 skill-dependent.",
    )
    assert (out / "skill_2.png").is_file() and (out / "fairness_across_skill.csv").is_file()
    assert "skill" in (out / "fairness.csv").read_text().splitlines()[0]
    pooled = pd.read_csv(out / "fairness_by_players.csv")  # per level, not across levels
    assert list(pooled["skill"]) == ["bold", "steady"]
    assert list(pooled["across_skill"]) == [ROBUST, ROBUST]


def test_without_a_skill_axis_the_report_says_it_was_not_measured(run, tmp_path):
    from simkit.results import load
    from simkit.runner import load_scenario, start

    with pytest.MonkeyPatch.context() as mp:
        mp.setitem(simkit.games._REGISTRY, "dicerace", GAME)
        (tmp_path / "s.toml").write_text('game = "dicerace"\nraces = 200\n')
        start(load_scenario(tmp_path / "s.toml"), tmp_path / "run")
        build(load(tmp_path / "run"), tmp_path / "report")
    md = (tmp_path / "report" / "report.md").read_text()
    assert "skill levels: one per cell (robustness across skill levels not measured)" in md
    assert "across skill levels:" not in md


def _try_next(tmp_path, skill: str, head_start: str = "[0, 0, 0, 0, 0, 0]") -> list[str]:
    from simkit.report.summary import try_next
    from simkit.results import load
    from simkit.runner import load_scenario, start

    text = f'game = "dicerace"\nplayers = 2\nraces = 2000\nskill = {skill}\n'
    text += f"[set]\nfaces = 6\nlength = 8\nhead_start = {head_start}\n"
    with pytest.MonkeyPatch.context() as mp:
        mp.setitem(simkit.games._REGISTRY, "dicerace", GAME)
        tmp_path.mkdir()
        (tmp_path / "s.toml").write_text(text)
        start(load_scenario(tmp_path / "s.toml"), tmp_path / "run")
        res = load(tmp_path / "run")
        summary = fairness(res)  # with each cell's level, as the report passes it
        summary["skill"] = summary["cell"].map(res.cells.set_index("cell")["skill"])
        return try_next(res, summary, 0.02)


def test_try_next_gives_shared_advice_once_and_asks_a_level_for_its_own_races(tmp_path):
    """Slot 1 is ~19 pp ahead at both levels: one sweep line names both. With slot 2's head
    start (fair for bold, not for steady) a bold level of 30 races is inconclusive, and its
    advice raises that level's own count (``--races`` would cap every level instead)."""
    both = _try_next(tmp_path / "a", '["steady", "bold"]')
    assert len(both) == 1 and both[0].startswith("skill=steady; skill=bold: to find a fairer")
    own = _try_next(
        tmp_path / "b", '["steady", { bot = "bold", races = 30 }]', "[0, 2, 0, 0, 0, 0]"
    )
    (bold,) = [line for line in own if line.startswith("skill=bold: ")]
    assert bold.startswith("skill=bold: run about ") and "races at this level" in bold
    assert '{ bot = "bold", races = ' in bold and "(now 30)" in bold
    assert "--races" not in bold
