"""A tuning records its input files by content (issue 26 item 1): a track file edited after
the start changes nothing, and the resume says so."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from simkit.tune import study

ROOT = Path(__file__).resolve().parents[2]
TRACK = ROOT / "simkit/games/snowtails/tracks/nutcracker.toml"
SCENARIO = (
    'game = "snowtails"\ntrack = "trk/mytrack.toml"\nplayers = 2\nseed = 2\nchunk_size = 20\n'
)
SPACE = "[track.corner.1.safety]\nlow = 3\nhigh = 5\n"
SMALL = {"budget": 200, "min_races": 10, "max_races": 20, "confirm": 40, "top": 1}
OPTS = [f"--{k.replace('_', '-')}={v}" for k, v in SMALL.items()]


def test_a_resume_after_the_track_changed_plays_the_recorded_track(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "trk").mkdir()
    track = tmp_path / "trk" / "mytrack.toml"
    track.write_bytes(TRACK.read_bytes())
    (tmp_path / "s.toml").write_text(SCENARIO)
    (tmp_path / "space.toml").write_text(SPACE)
    s = study.settings("s.toml", "space.toml", **SMALL)
    assert {e["use"] for e in s.inputs.values()} >= {"scenario", "space", "read"}
    study.create(s, Path("a"))
    study.create(s, Path("b"))
    recorded = json.loads((tmp_path / "b" / "tune.json").read_text())["inputs"]
    copy = tmp_path / "b" / recorded["trk/mytrack.toml"]["copy"]
    assert copy.read_bytes() == TRACK.read_bytes()
    plain = _cli("tune", "--resume", "a")
    # Straights one row longer: every race on the edited track would be another race.
    track.write_text(TRACK.read_text().replace('tile = "straight-a"', 'tile = "straight-b"'))
    (tmp_path / "space.toml").write_text("[hand_size]\nlow = 1\nhigh = 9\n")
    edited = _cli("tune", "--resume", "b")
    assert [line for line in edited.stderr.splitlines() if "since" in line] == [
        "'space.toml' has changed since the tuning started; the tuning uses the space it recorded",
        f"'trk/mytrack.toml' has changed since the tuning started; the tuning uses its copy "
        f"b/{recorded['trk/mytrack.toml']['copy']}",
    ]
    assert edited.stdout.replace("b/", "a/").replace("b:", "a:") == plain.stdout
    # and a tuning that reads the edited track decides otherwise: the check can fail
    assert _cli("tune", "s.toml", "--space", "space.toml", *OPTS, "--out", "c").stdout != (
        plain.stdout.replace("a/", "c/").replace("a:", "c:")
    )


def _cli(*args: str) -> subprocess.CompletedProcess:
    """simkit in a fresh process: a process keeps the tracks it compiled, by name."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    res = subprocess.run(
        [sys.executable, "-m", "simkit", *args], capture_output=True, text=True, env=env
    )
    assert res.returncode == 0, res.stderr
    return res
