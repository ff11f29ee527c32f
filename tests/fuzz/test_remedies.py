"""Each remedy an error line suggests works when followed, as the line gives it (issue 26:
"Each suggested remedy in an error message works when followed").

Each test makes the error happen, checks the line, does exactly what it says, and checks
that this succeeds and ends where an uninterrupted command would have. Remedies followed
elsewhere: a failing disk during a run and before its first manifest
(tests/runner/test_integrity.py), a full disk during a tuning (tests/tune/test_tune.py),
a full disk while writing a report or a picture (test_disk_full.py), a second writer
(test_paths.py), a ladder's `simkit ladder --resume` (test_paths.py).
"""

from __future__ import annotations

import dataclasses
import json
import re
import shutil

import pytest
from click.testing import CliRunner

from simkit.cli import main
from simkit.runner import storage
from tests.runner.helpers import part_files

SCENARIO = 'game = "dicerace"\nraces = 60\nchunk_size = 20\n[grid]\nplayers = [2, 3]\n'


def _invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def _error(res) -> str:
    assert res.exit_code in (1, 2), res.output
    lines = [line for line in res.output.splitlines() if line.startswith("Error: ")]
    assert len(lines) == 1, res.output
    return lines[0]


def _command(line: str) -> list[str]:
    """The command a line quotes in backticks, as words."""
    found = re.search(r"`(simkit [^`]+)`", line)
    assert found, line
    return found.group(1).split()[1:]


@pytest.fixture
def here(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "s.toml").write_text(SCENARIO)
    return tmp_path


@pytest.fixture
def reference(here):
    assert _invoke("run", "s.toml", "--out", "ref").exit_code == 0
    return part_files(here / "ref")


def test_a_finished_run_add_force(here, reference):
    assert _invoke("run", "s.toml", "--out", "run").exit_code == 0
    line = _error(_invoke("run", "s.toml", "--out", "run"))
    assert line.endswith(
        "holds a finished run; use --force to overwrite it or --out to write elsewhere"
    )
    assert _invoke("run", "s.toml", "--out", "run", "--force").exit_code == 0
    assert part_files(here / "run") == reference


def test_an_unfinished_run_continue_it_with_the_command_given(here, reference):
    real, calls = storage._write_file, {"n": 0}

    def interrupted(path, data):
        calls["n"] += 1
        if calls["n"] == 6:  # a chunk file: the run stops with chunks done and to do
            raise KeyboardInterrupt
        real(path, data)

    with pytest.MonkeyPatch.context() as m:
        m.setattr(storage, "_write_file", interrupted)
        line = _error(_invoke("run", "s.toml", "--out", "run"))
    assert line == "Error: interrupted; finish the run with `simkit run --resume run`"
    line = _error(_invoke("run", "s.toml", "--out", "run"))
    assert "holds an unfinished run; continue it with `simkit run --resume run`" in line
    assert _invoke(*_command(line)).exit_code == 0
    assert part_files(here / "run") == reference


def test_a_foreign_report_folder_add_force(here, reference):
    (here / "site").mkdir()
    (here / "site" / "notes.txt").write_text("mine")
    line = _error(_invoke("report", "ref", "--out", "site"))
    assert line.endswith(
        "add --force to write the report there (files of the same names are replaced)"
    )
    res = _invoke("report", "ref", "--out", "site", "--force")
    assert res.exit_code == 0, res.output
    assert (here / "site" / "index.html").is_file()
    assert (here / "site" / "notes.txt").read_text() == "mine"  # a file of another name stays


def test_a_scenario_with_no_folder_name_name_the_folder_with_out(here, reference):
    shutil.copy(here / "s.toml", here / "...toml")
    line = _error(_invoke("run", "...toml"))
    assert line.endswith("gives no folder name for the run; name the folder with --out")
    assert _invoke("run", "...toml", "--out", "named").exit_code == 0
    assert part_files(here / "named") == reference


def test_a_damaged_copy_start_the_run_again_with_force(here, reference):
    m = json.loads((here / "ref" / "manifest.json").read_text())
    (here / "ref" / m["inputs"]["s.toml"]["copy"]).write_text("x")
    shutil.copytree(here / "ref", here / "run")
    (here / "run" / "agg" / sorted(p.name for p in (here / "run" / "agg").iterdir())[0]).unlink()
    line = _error(_invoke("run", "--resume", "run"))
    assert line.endswith("start the run again with --force")
    assert _invoke("run", "s.toml", "--out", "run", "--force").exit_code == 0
    assert part_files(here / "run") == reference


def test_an_edited_manifest_start_it_again_with_force(here, reference):
    m = json.loads((here / "ref" / "manifest.json").read_text())
    m["seed"] = 99
    (here / "ref" / "manifest.json").write_text(json.dumps(m))
    line = _error(_invoke("run", "--resume", "ref"))
    assert line.endswith("simkit will not trust this run: start it again with --force")
    assert _invoke("run", "s.toml", "--out", "ref", "--force").exit_code == 0


def test_a_changed_presets_file_put_back_the_copy(here, monkeypatch):
    from tests.runner.dicerace import GAME

    presets = here / "bots.toml"
    presets.write_text("[steady.tuned]\nweights = [1.0]\n")
    extras = dataclasses.replace(GAME.extras, bot_presets_file=presets)
    monkeypatch.setattr(type(GAME), "extras", extras)
    assert _invoke("run", "s.toml", "--out", "run").exit_code == 0
    presets.write_text("[steady.tuned]\nweights = [2.0]\n")  # a refit
    line = _error(_invoke("run", "--resume", "run", "--races", 80))
    copy = re.search(r"put back the run's copy \(([^)]+)\) to continue", line)
    assert copy, line
    shutil.copy(copy.group(1), presets)
    res = _invoke("run", "--resume", "run", "--races", 80)
    assert res.exit_code == 0, res.output
    # the other remedy: start the run again with --force
    presets.write_text("[steady.tuned]\nweights = [3.0]\n")
    _error(_invoke("run", "--resume", "run", "--races", 100))
    assert _invoke("run", "s.toml", "--out", "run", "--force").exit_code == 0


def test_a_ladder_interrupted_finish_it_with_the_command_given(here):
    args = ["ladder", "dicerace", "--bots", "steady,bold", "--races", 40, "--out", "lad"]
    assert _invoke(*args[:-1], "ref").exit_code == 0
    real, calls = storage._write_file, {"n": 0}

    def interrupted(path, data):
        calls["n"] += 1
        if calls["n"] == 6:
            raise KeyboardInterrupt
        real(path, data)

    with pytest.MonkeyPatch.context() as m:
        m.setattr(storage, "_write_file", interrupted)
        line = _error(_invoke(*args))
    assert line == "Error: interrupted; finish the ladder with `simkit ladder --resume lad`"
    res = _invoke(*_command(line))
    assert res.exit_code == 0, res.output
    tables = [name for name in part_files(here / "ref") if not name.startswith("report/")]
    assert [part_files(here / "lad")[n] for n in tables] == [
        part_files(here / "ref")[n] for n in tables
    ]
