"""Every command a balance report prints runs as printed (issues 23 and 25).

A small study of the test dice race on a skill axis, slot 2 two spaces ahead: ``bold``
plays 40 races, too few to decide, so the report advises playing the races that would
decide (from a scenario file it writes beside itself), and how to reproduce it all (an
unfair study's ``simkit tune`` advice is run by the slow test in test_skill_report.py).
Each command is taken from report.md and run as written, from the folder the study was run
in; the reproduced run's tables equal the original's.
"""

from __future__ import annotations

import shlex

import pandas as pd
import pytest
from click.testing import CliRunner

import simkit.games
from simkit.cli import main
from simkit.report import build
from simkit.results import load
from simkit.runner import load_scenario, start
from tests.runner.dicerace import GAME

SCENARIO = """
game = "dicerace"
players = 2
races = 2000
seed = 11
skill = ["steady", { bot = "bold", races = 40 }]
check_levels = false
[set]
faces = 6
length = 8
head_start = [0, 2, 0, 0, 0, 0]
"""


def _commands(md: str) -> list[str]:
    """The commands of report.md: backticked in its prose, and its code blocks' lines."""
    found, code = [], False
    for line in md.splitlines():
        if line.startswith("```"):
            code = not code
            continue
        if code and line.startswith("simkit "):
            found.append(line)
        elif not code:
            found += [part for part in line.split("`")[1::2] if part.startswith("simkit ")]
    return found


def test_every_command_the_report_prints_runs_as_printed(tmp_path, monkeypatch):
    monkeypatch.setitem(simkit.games._REGISTRY, "dicerace", GAME)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "study.toml").write_text(SCENARIO)
    start(load_scenario("study.toml"), "runs/study")
    original = load("runs/study")
    build(original, "reports/study")
    commands = _commands((tmp_path / "reports/study/report.md").read_text())
    kinds = [shlex.split(c)[1] for c in commands]
    # Issue 35: no command names the run folder, which a committed sample does not ship.
    assert not any("runs/study " in f"{c} " for c in commands), commands
    assert "reports/study/try-next-races.toml" in " ".join(commands), commands
    assert kinds.count("run") >= 2 and "report" in kinds, commands
    for command in commands:
        if command.startswith("simkit tune "):
            continue  # a search of 100,000 races: the slow test in test_skill_report.py
        result = CliRunner().invoke(main, shlex.split(command)[1:])
        assert result.exit_code == 0, f"{command}\n{result.output}"
    # The reproduced run is the run the report was made of; the one with more races begins
    # with the same races.
    pd.testing.assert_frame_equal(load("runs/study-again").races, original.races)
    more = load("runs/study-more").races
    assert len(more) > len(original.races)
    first = more.merge(original.races[["cell", "race"]].drop_duplicates(), on=["cell", "race"])
    pd.testing.assert_frame_equal(first, original.races.reset_index(drop=True))
    assert (tmp_path / "reports/study-again/index.html").is_file()


@pytest.mark.parametrize("text", ["run `simkit run --resume runs/x --races 9`.", "no command"])
def test_commands_are_found_in_prose_and_code(text):
    md = f"{text}\n```\nsimkit report runs/x\n```\n"
    want = ["simkit run --resume runs/x --races 9"] if "`" in text else []
    assert _commands(md) == [*want, "simkit report runs/x"]
