"""``simkit run --resume DIR --races N``: a finished or interrupted run extended to N races
per cell has the tables of one uninterrupted run of that many races (issue 23, item 2)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from simkit.cli import main
from simkit.errors import RunError
from simkit.results import load
from simkit.runner import load_scenario, resume, start

from .helpers import assert_same_tables, part_files, write
from .test_resume import _cli

BASE = """
game = "dicerace"
seed = 11
chunk_size = 200
[grid]
players = [2, 3]
"""


def _fresh(tmp_path, races: int, name: str, extra: str = ""):
    sc = load_scenario(write(tmp_path, f"races = {races}\n{extra}{BASE}", f"{name}.toml"))
    start(sc, tmp_path / name)
    return tmp_path / name


@pytest.mark.parametrize("first", [500, 400])  # a last chunk cut short, or none
def test_extended_run_equals_a_fresh_run_of_that_many_races(tmp_path, first):
    ref = _fresh(tmp_path, 900, "ref")
    out = _fresh(tmp_path, first, "run")
    res = CliRunner().invoke(main, ["run", "--resume", str(out), "--races", "900"])
    assert res.exit_code == 0, res.output
    # races 0..399 stay; a chunk cut short at 500 is played again whole
    assert res.stdout.startswith(f"{out}: 1,800 races in 2 cells (1,000 simulated now")
    assert part_files(out) == part_files(ref)
    assert_same_tables(load(out), load(ref))
    m = load(out).manifest
    assert (m["races_per_cell"], m["scenario"]["races"], m["status"]) == (900, 900, "complete")
    # fewer races than the run has: nothing to do, nothing lost
    again = CliRunner().invoke(main, ["run", "--resume", str(out), "--races", "300"])
    assert again.output == f"{out}: already complete (1,800 races); nothing to do\n"
    assert part_files(out) == part_files(ref)


def test_an_interrupted_run_is_extended(tmp_path):
    ref = _fresh(tmp_path, 1000, "ref")
    scenario = write(tmp_path, "races = 500\n" + BASE)
    out = tmp_path / "run"
    killed = _cli(["run", str(scenario), "--out", str(out)], crash="3:agg.tmp")
    assert killed.returncode == -9, killed.stderr
    summary = resume(out, races=1000)
    assert summary.races == 2000
    assert part_files(out) == part_files(ref)


def test_a_level_with_its_own_races_keeps_them_unless_level_names_it(tmp_path):
    """``--races N`` on a fresh run caps a level's own count; on a resume it raises the
    scenario's count and leaves a level's own (a cost the file chose) as it is, saying so,
    until ``--level`` names that level (issue 35: a pasted --races N had raised a search
    level capped at 200 races to N, multiplying the cost without a word)."""
    out = _fresh(tmp_path, 500, "run", 'skill = ["steady", {bot = "bold", races = 300}]\n')
    res = CliRunner().invoke(main, ["run", "--resume", str(out), "--races", "700"])
    assert res.exit_code == 0, res.output
    assert "levels with their own races per cell keep them (bold 300); --races N --level " in (
        res.stderr
    )
    assert load(out).manifest["races_done"] == [700, 300, 700, 300]
    resume(out, races=700, level="bold")
    assert load(out).manifest["races_done"] == [700, 700, 700, 700]
    ref = _fresh(tmp_path, 700, "ref", 'skill = ["steady", "bold"]\n')
    assert_same_tables(load(out), load(ref))
    wrong = CliRunner().invoke(
        main, ["run", "--resume", str(out), "--races", "800", "--level", "bolt"]
    )
    assert wrong.exit_code == 1
    assert wrong.output == (
        f"Error: '{out}': --level bolt is not a skill level of this run; its levels: steady, bold\n"
    )
    alone = CliRunner().invoke(main, ["run", "--resume", str(out), "--level", "bold"])
    assert (
        alone.output == "Error: --level bold says which level --races N raises; give --races too\n"
    )


def test_a_precision_run_is_extended_to_a_fixed_count(tmp_path):
    """The target goes; every cell plays N races: a cell it stopped early carries on."""
    text = BASE + "[precision]\nwidth = 0.2\nmax_races = 1000\n"
    sc = load_scenario(write(tmp_path, text))
    start(sc, tmp_path / "run")
    done = load(tmp_path / "run").manifest["races_done"]
    assert max(done) < 1000  # stopped early
    with pytest.raises(RunError) as info:
        resume(tmp_path / "run", races=max(done) - 1)
    assert str(info.value) == (
        f"'{tmp_path / 'run'}': a cell of this run already has {max(done):,} races (its "
        f"precision target stopped it there), more than --races {max(done) - 1:,}; give "
        f"--races {max(done)} or more"
    )
    resume(tmp_path / "run", races=1100)
    ref = _fresh(tmp_path, 1100, "ref")
    assert part_files(tmp_path / "run") == part_files(ref)
    assert load(tmp_path / "run").manifest["precision"] is None
