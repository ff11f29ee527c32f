"""A run's inputs are recorded by content: a resume after a track file changed, moved or is
shadowed by another folder's file finishes on the track the run started with (issue 26)."""

from __future__ import annotations

import dataclasses
import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from simkit.errors import RunError
from simkit.games import get
from simkit.runner import load_scenario, replay_cell, start
from simkit.runner.inputs import of_run
from simkit.tracks import load as load_track

from .helpers import part_files
from .test_resume import _cli

TRACK = get("snowtails").extras.track_dir / "nutcracker.toml"
SCENARIO = """
game = "snowtails"
track = "trk/mytrack.toml"
players = 3
bots = "greedy"
seed = 3
races = 300
chunk_size = 100
"""


def _edit(path: Path) -> None:
    """Change the first corner (the compiled track has other spaces and a safety speed)."""
    text = path.read_text()
    path.write_text(text.replace('tile = "corner-a"', 'tile = "corner-b"', 1))


def _copy(run: Path) -> str:
    return json.loads((run / "manifest.json").read_text())["inputs"]["trk/mytrack.toml"]["copy"]


@pytest.fixture
def folder(tmp_path, monkeypatch):
    """A folder holding the scenario and its track; the tests run there (relative paths)."""
    (tmp_path / "trk").mkdir()
    shutil.copy(TRACK, tmp_path / "trk" / "mytrack.toml")
    (tmp_path / "s.toml").write_text(SCENARIO)
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture
def reference(folder):
    """The uninterrupted run on the original track."""
    start(load_scenario("s.toml"), "ref", threads=1)
    return part_files(folder / "ref")


def test_inputs_are_copied_with_their_hash(folder, reference):
    m = json.loads((folder / "ref" / "manifest.json").read_text())
    entry = m["inputs"]["trk/mytrack.toml"]
    assert entry["use"] == "read" and entry["bytes"] == TRACK.stat().st_size
    assert (folder / "ref" / entry["copy"]).read_bytes() == TRACK.read_bytes()
    assert m["inputs"]["s.toml"]["use"] == "scenario"


def test_resume_after_the_track_changed_finishes_on_the_recorded_track(folder, reference):
    killed = _cli(["run", "s.toml", "--out", "run", "--threads", "1"], crash="2:agg", cwd=folder)
    assert killed.returncode == -9, killed.stderr
    _edit(folder / "trk" / "mytrack.toml")
    done = _cli(["run", "--resume", "run", "--threads", "1"], cwd=folder)
    assert done.returncode == 0, done.stderr
    changed = [line for line in done.stderr.splitlines() if "has changed" in line]
    assert changed == [
        "'trk/mytrack.toml' has changed since the run started; the run uses its copy "
        f"run/{_copy(folder / 'run')}"
    ]
    assert part_files(folder / "run") == reference


def test_resume_from_another_folder_uses_the_recorded_track(
    folder, reference, tmp_path_factory, monkeypatch
):
    killed = _cli(["run", "s.toml", "--out", "run", "--threads", "1"], crash="2:agg", cwd=folder)
    assert killed.returncode == -9, killed.stderr
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    (elsewhere / "trk").mkdir()
    shutil.copy(TRACK, elsewhere / "trk" / "mytrack.toml")
    _edit(elsewhere / "trk" / "mytrack.toml")  # a different file of the same name
    done = _cli(["run", "--resume", str(folder / "run"), "--threads", "1"], cwd=elsewhere)
    assert done.returncode == 0, done.stderr
    assert part_files(folder / "run") == reference
    # `race --replay` and reports read the same copy, even with no such file at all
    shutil.rmtree(elsewhere / "trk")
    monkeypatch.chdir(elsewhere)
    with of_run(folder / "run") as notices:
        built, _ = replay_cell(folder / "run", 0, 5)
        replayed = load_track(built.track)
    gone = "is gone (or no longer a readable file) since the run started; the run uses"
    assert notices == [
        f"'s.toml' {gone} the scenario it recorded",
        f"'trk/mytrack.toml' {gone} its copy {folder / 'run' / _copy(folder / 'run')}",
    ]
    assert np.array_equal(replayed.progress, load_track(str(TRACK)).progress)


def test_a_damaged_copy_refuses_the_resume(folder, reference):
    from simkit.runner import resume

    m = json.loads((folder / "ref" / "manifest.json").read_text())
    copy = folder / "ref" / m["inputs"]["trk/mytrack.toml"]["copy"]
    copy.write_text("x = 1\n")
    with pytest.raises(RunError, match=r"the run's copy of 'trk/mytrack\.toml' is missing or"):
        resume(folder / "ref")


def test_a_changed_presets_file_refuses_a_resume_and_is_named_by_a_report(tmp_path, monkeypatch):
    """A presets file is read by bots, not replayed: a resume after a refit would play other
    bots, so it is refused; a report plays no race, and only says so."""
    from simkit.runner import resume
    from tests.runner.dicerace import GAME

    presets = tmp_path / "bots.toml"
    presets.write_text("[steady.tuned]\nweights = [1.0]\n")
    extras = dataclasses.replace(GAME.extras, bot_presets_file=presets)
    monkeypatch.setattr(type(GAME), "extras", extras)
    (tmp_path / "s.toml").write_text('game = "dicerace"\nraces = 40\nchunk_size = 20\n')
    start(load_scenario(tmp_path / "s.toml"), tmp_path / "run")
    entry = json.loads((tmp_path / "run" / "manifest.json").read_text())["inputs"][str(presets)]
    assert entry["use"] == "check"
    presets.write_text("[steady.tuned]\nweights = [2.0]\n")  # a refit
    with pytest.raises(RunError, match=r"has changed since the run started .* the run's bots"):
        resume(tmp_path / "run", races=60)
    with of_run(tmp_path / "run", plays=False) as notices:
        assert notices == [
            f"'{presets}' has changed since the run started; the run uses it only to play "
            "races, and this command plays none"
        ]
