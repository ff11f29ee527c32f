"""``simkit scenario check``, ``simkit run`` and ``simkit race --replay``: exact output."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from simkit.cli import main
from simkit.results import load

from .helpers import write

SMALL = """
title = "head starts"
game = "dicerace"
races = 1500
[grid]
players = [2, 3]
head_start = [[0,0,0,0,0,0], [0,1,2,3,4,5]]
"""


def _invoke(args):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def test_scenario_check_prints_cells_and_total(tmp_path):
    path = write(tmp_path, SMALL)
    res = _invoke(["scenario", "check", path])
    assert res.exit_code == 0
    assert res.output == (
        f"{path}: game dicerace, 4 cells, 1,500 races per cell, 6,000 races in all\n"
        "cell  label\n"
        "----  -----------------------------------\n"
        "0     players=2, head_start=[0,0,0,0,0,0]\n"
        "1     players=2, head_start=[0,1,2,3,4,5]\n"
        "2     players=3, head_start=[0,0,0,0,0,0]\n"
        "3     players=3, head_start=[0,1,2,3,4,5]\n"
    )


def test_scenario_check_precision_target(tmp_path):
    path = write(tmp_path, 'game = "dicerace"\n[precision]\nwidth = 0.01\nmax_races = 50000\n')
    res = _invoke(["scenario", "check", path])
    assert res.output.splitlines()[0] == (
        f"{path}: game dicerace, 1 cell, up to 50,000 races per cell, until every start "
        "slot's win-rate 95% interval is narrower than 0.01, at most 50,000 races in all"
    )


def test_scenario_check_bad_file_one_line_error(tmp_path):
    path = write(tmp_path, 'game = "dicerace"\n[grid]\nfaces = [6, 40]\n')
    res = _invoke(["scenario", "check", path])
    assert res.exit_code == 1
    assert res.output == (
        f"Error: scenario '{path}', key 'grid.faces': dicerace.faces must be between 2 and 20 "
        "(got 40) (cell 'faces=40')\n"
    )


def test_run_writes_tables_and_reports(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = write(tmp_path, SMALL, "study.toml")
    res = _invoke(["run", path, "--races", 300, "--seed", 3, "--chunk-size", 128])
    assert res.exit_code == 0, res.output
    assert res.stdout.startswith("runs/study: 1,200 races in 4 cells (1,200 simulated now in ")
    r = load(tmp_path / "runs" / "study")
    assert (r.manifest["seed"], r.manifest["races_per_cell"], r.manifest["chunk_size"]) == (
        3,
        300,
        128,
    )
    assert r.manifest["scenario"]["title"] == "head starts" and len(r.races) == 300 * 10
    again = _invoke(["run", path, "--races", 300])
    assert again.exit_code == 1
    assert again.output == (
        "Error: 'runs/study' holds a finished run; use --force to overwrite it or --out to "
        "write elsewhere\n"
    )
    bad = _invoke(["run", "--resume", "runs/study", "--seed", 4])
    assert bad.exit_code == 2 and "--seed cannot be used with --resume" in bad.output


def test_replay_prints_the_race_of_the_run(tmp_path):
    path = write(tmp_path, "seed = 8\n" + SMALL)
    out = tmp_path / "run"
    assert _invoke(["run", path, "--races", 50, "--out", out]).exit_code == 0
    rows = load(out).races
    race = rows[(rows.cell == 3) & (rows.race == 41)]
    res = _invoke(["race", "--replay", out, "--cell", 3, "--race", 41])
    assert res.exit_code == 0, res.output
    lines = dict(line.split(": ") for line in res.stdout.splitlines())
    assert lines["slot"] == " ".join(map(str, race.slot))
    assert lines["finish"] == " ".join(map(str, race.finish))
    assert lines["sixes"] == " ".join(map(str, race.sixes))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--cell", 9, "--race", 0], "has cells 0 to 3 (got --cell 9)"),
        (["--cell", 0, "--race", 50], "has races 0 to 49 in cell 0 (got --race 50)"),
    ],
)
def test_replay_out_of_range(tmp_path, args, message):
    path = write(tmp_path, SMALL)
    out = tmp_path / "run"
    _invoke(["run", path, "--races", 50, "--out", out])
    res = _invoke(["race", "--replay", out, *args])
    assert res.exit_code == 1 and res.output == f"Error: '{out}' {message}\n"


def test_resume_takes_a_run_directory_and_no_run_options(tmp_path):
    path = write(tmp_path, SMALL)
    res = _invoke(["run", "--resume", path])
    assert res.exit_code == 2 and f"--resume takes a run directory (got '{path}')" in res.output
    res = _invoke(["run", "--resume", tmp_path, "--seed", 5, "--force"])
    assert res.exit_code == 2 and "--seed, --force cannot be used with --resume" in res.output
    res = _invoke(["run"])
    assert res.exit_code == 2 and "give a scenario file TARGET (or --resume DIR)" in res.output
    res = _invoke(["run", path, "--resume", tmp_path])
    assert res.exit_code == 2 and "TARGET cannot be used with --resume" in res.output


def test_a_folder_where_a_scenario_is_expected_says_what_to_type(tmp_path):
    """A run folder given to `simkit run` is resumed or reported on; the line says how."""
    run = tmp_path / "fairness"
    assert _invoke(["run", write(tmp_path, SMALL), "--out", run]).exit_code == 0
    res = _invoke(["run", run])
    assert res.exit_code == 1
    assert res.output == (
        f"Error: '{run}' is a run folder, not a scenario file: to finish or extend that run, "
        f"`simkit run --resume {run}`; to report on it, `simkit report {run}`\n"
    )
    assert _invoke(["run", "--resume", run]).exit_code == 0  # the remedy works
    res = _invoke(["run", tmp_path])
    assert res.exit_code == 1
    assert res.output == (
        f"Error: '{tmp_path}' is a folder, not a scenario file; give a scenario file "
        "(`simkit run FILE.toml`), or a run folder to finish with `simkit run --resume DIR`\n"
    )
