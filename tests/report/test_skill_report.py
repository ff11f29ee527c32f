"""Verdicts across skill levels on a real run of the test dice race (tests/runner/dicerace.py).

Two players race 8 spaces on a six-sided die; slot 1 moves first, which is worth about 19 pp
to ``steady`` and 22 pp to ``bold`` (which rerolls low rolls). A two-space head start for
slot 2 makes the race fair for ``bold`` but not for ``steady``, whose slot 1 then wins about
47%. Both bots play the same race keys, 20,000 races a cell, so the 3 pp between them is a
tested difference: both combinations are skill-dependent, each with its size. The head
start itself moves slot 1's wins by about 22 pp at both levels: a robust comparison.
(The three labels on studies whose truth is known: tests/analysis/test_skill_labels.py.)
"""

from __future__ import annotations

import json

import pandas as pd
import pytest

import simkit.games
from simkit.analysis.fairness import fairness, fairness_by_slot
from simkit.analysis.skill import fairness_across
from simkit.analysis.skill_levels import combinations, with_combinations
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
GROWS = (
    "skill-dependent: slot 1's edge grows from +18.7 pp with steady to +21.8 pp with bold, "
    "difference +3.1 pp [+2.6, +3.6], beyond ±2 pp"
)
SHRINKS = (
    "skill-dependent: slot 1's deficit shrinks from -3.3 pp with steady to -0.3 pp with bold, "
    "difference +3.0 pp [+2.5, +3.5], beyond ±2 pp"
)


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


def test_both_verdicts_change_measurably_with_skill(run):
    res, _ = run
    combos = combinations(res.cells)
    assert list(combos["combination"]) == [0, 0, 1, 1]
    assert (
        list(combos["label"]) == ["head_start=[0,0,0,0,0,0]"] * 2 + ["head_start=[0,2,0,0,0,0]"] * 2
    )
    across, tests = fairness_across(
        res,
        with_combinations(fairness(res), res.cells),
        with_combinations(fairness_by_slot(res), res.cells),
        SHORT,
        0.02,
    )
    assert list(across["across_skill"]) == [GROWS, SHRINKS]
    assert list(across["across"]) == ["skill-dependent"] * 2
    assert list(across["verdict steady"]) == ["unfair", "unfair"]
    assert list(across["verdict bold"]) == ["unfair", "fair"]
    # Two players: slot 1's difference only, paired on the 19,999 races decided at both.
    assert list(tests["slot"]) == [1, 1] and list(tests["shared"]) == [19999, 19999]


def test_the_report_states_it_first_and_next_to_each_verdict(run):
    _, out = run
    md = (out / "report.md").read_text()
    head, answer = md.split("## Answer", 1)
    assert (
        "skill levels: steady, bold: 2 fairness verdicts, 0 robust, 2 skill-dependent, "
        "0 style-dependent, 0 undetermined" in head
    )
    assert (
        "Across the 2 skill levels (steady, bold), 2 fairness verdicts: 0 robust, 2 "
        "skill-dependent, 0 style-dependent, 0 undetermined." in answer
    )
    assert f"- **head_start=[0,0,0,0,0,0]: {GROWS}.** 2 players" in answer
    assert f"- **head_start=[0,2,0,0,0,0]: {SHRINKS}.** 2 players" in answer
    # One answer across the levels (issue 35: the bonus sweep named one setting at one level
    # and another at the other): the setting fairest at its worst level, since every level
    # plays the rule; fair with bold, still unfair with steady, so a search goes further.
    tried = [x for x in answer.splitlines() if x.startswith("Try next")]
    assert tried[0].startswith(
        "Try next: None of the 2 settings with 2 players is fair at every skill level at ±2 pp; "
        "the fairest at its worst level, head_start=[0,2,0,0,0,0], is still unfair with steady: "
        "slot 1 wins "
    )
    assert (
        "Its worst slot is closer to fair than the next, head_start=[0,0,0,0,0,0]'s: " in (tried[0])
    )
    assert tried[1].startswith(f"Try next: `simkit tune {out / 'try-next-tune.toml'} --space ")
    assert tried[2].startswith("Try next: Why, and what to change: `simkit why ")
    assert len(tried) == 3
    # Next to each cell's own verdict: the label, and which combination's sentence above.
    assert answer.count("across skill levels: skill-dependent (above: head_start=[0,0,") == 2
    assert answer.count("across skill levels: skill-dependent (above: head_start=[0,2,") == 2
    first = answer.split("\n## ")[0]  # the Answer section alone: each sentence stands once
    assert first.count(GROWS) == 1 and first.count(SHRINKS) == 1
    # The head start moves slot 1's wins the same way at both levels, by amounts that do not
    # differ significantly: a robust difference.
    compared = [line for line in answer.splitlines() if line.startswith("Compared: ")]
    assert len(compared) == 1
    assert compared[0].startswith(
        "Compared: head_start=[0,2,0,0,0,0] vs head_start=[0,0,0,0,0,0], "
    )
    assert "slot 1 wins -" in compared[0] and "with steady" in compared[0]
    assert "with bold (robust)" in compared[0]
    lines = json.loads((out / "summary.json").read_text())["cells"]
    assert [x["across_skill"] for x in lines] == [GROWS, GROWS, SHRINKS, SHRINKS]
    assert study_line(json.loads((out / "summary.json").read_text())) == (
        "unfair",
        "4 cells: 3 unfair, 1 fair; across skill levels, 2 verdicts: 0 robust, "
        "2 skill-dependent, 0 style-dependent, 0 undetermined.",
    )
    assert (out / "skill_2.png").is_file() and (out / "fairness_across_skill.csv").is_file()
    assert (out / "fairness_across_skill_tests.csv").is_file()
    assert "skill" in (out / "fairness.csv").read_text().splitlines()[0]
    pooled = pd.read_csv(out / "fairness_by_players.csv")  # per level, tested across levels
    assert list(pooled["skill"]) == ["bold", "steady"]
    assert pooled["across_skill"].str.startswith("skill-dependent: slot 1's edge grows").all()


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


def _try_next(tmp_path, skill: str, head_start: str = "[0, 0, 0, 0, 0, 0]", out=None) -> list[str]:
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
        if out is not None:
            out.mkdir()
        return try_next(res, summary, 0.02, out)


def test_try_next_names_the_slot_the_table_and_the_races_that_would_decide(tmp_path):
    """Slot 1 is ~19 pp ahead at both levels: each level's line says slot 2 needs more head
    start (slot 1's is at its lowest), and one `simkit tune` line searches it. With slot 2's head
    start (fair for bold, not for steady) a bold level of 30 races is inconclusive, and its
    advice plays the study with the races that would decide, from a scenario file written
    beside the report (issue 35: a pasted ``--resume runs/...`` fails where the run is not
    shipped)."""
    both = _try_next(tmp_path / "a", '["steady", "bold"]')
    assert len(both) == 4
    assert both[3].startswith("Why, and what to change: `simkit why ")
    for line, level in zip(both, ["steady", "bold"], strict=False):
        assert line.startswith(f"skill={level}: slot 2 wins ")
        assert "give it more `head_start` (now 0); slot 1 wins " in line
        assert "its `head_start` is already at its lowest (0): give the others more" in line
    scenario = tmp_path / "a" / "s.toml"
    assert both[2].startswith(
        f"`simkit tune {scenario} --space try-next-head_start.toml` searches `head_start` "
        "for slot 2 ("
    )
    out = tmp_path / "b" / "report"
    own = _try_next(
        tmp_path / "b", '["steady", { bot = "bold", races = 30 }]', "[0, 2, 0, 0, 0, 0]", out
    )
    (bold,) = [line for line in own if line.startswith("skill=bold: ")]
    assert bold.startswith("skill=bold: run about ") and "(this level plays 30 now)" in bold
    need = int(bold.split("about ")[1].split()[0].replace(",", ""))
    (command,) = [line.split("`")[1] for line in own if line.startswith("`simkit run ")]
    assert command == f"simkit run {out / 'try-next-races.toml'} --out runs/s-more"
    assert "--resume" not in " ".join(own)
    # The command works as printed: the level plays the races named, on the run's keys.
    from click.testing import CliRunner

    from simkit.cli import main
    from simkit.results import load

    with pytest.MonkeyPatch.context() as mp:
        mp.setitem(simkit.games._REGISTRY, "dicerace", GAME)
        mp.chdir(tmp_path / "b")
        result = CliRunner().invoke(main, command.split()[1:])
        assert result.exit_code == 0, result.output
        more = load("runs/s-more")
    bold_cell = int(more.cells.loc[more.cells["skill"] == "bold", "cell"].iloc[0])
    assert more.races.loc[more.races["cell"] == bold_cell, "race"].nunique() == need
    first = load(tmp_path / "b" / "run").races
    pd.testing.assert_frame_equal(
        more.races[(more.races["cell"] == bold_cell) & (more.races["race"] < 30)].reset_index(
            drop=True
        ),
        first[first["cell"] == bold_cell].reset_index(drop=True),
    )


@pytest.mark.slow
def test_the_tune_command_the_report_prints_runs_as_printed(tmp_path, monkeypatch):
    """An unfair study writes its space file beside its report and prints the command that
    searches it: the command works as printed (slow: the search's default budget of 100,000
    races and its confirmation)."""
    from click.testing import CliRunner

    from simkit.cli import main
    from simkit.results import load
    from simkit.runner import load_scenario, start

    monkeypatch.setitem(simkit.games._REGISTRY, "dicerace", GAME)
    text = 'game = "dicerace"\nplayers = 2\nraces = 2000\nskill = ["steady", "bold"]\n'
    (tmp_path / "s.toml").write_text(text + "[set]\nfaces = 6\nlength = 8\n")
    start(load_scenario(tmp_path / "s.toml"), tmp_path / "run")
    out = tmp_path / "report"
    build(load(tmp_path / "run"), out)
    md = (out / "report.md").read_text()
    (line,) = [x for x in md.splitlines() if x.startswith("Try next: `simkit tune ")]
    command = line.split("`")[1]
    space = out / "try-next-head_start.toml"
    assert command == f"simkit tune {tmp_path / 's.toml'} --space {space}"
    assert "[head_start]\nelements = [2]\nlow = 0\nhigh = 10\n" in space.read_text()
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, command.split()[1:])
    assert result.exit_code == 0, result.output
    assert "best head_start=" in result.output
