"""Golden Mush! Mush! races and CLI outputs, checked in under tests/golden/mushmush/.

After an intended rule change: ``make golden``, review the diff, commit it.
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from simkit.cli import main
from tests.golden.kit import ROOT, CliCase, TraceCase

DIR = ROOT / "tests" / "golden" / "mushmush"
MM_STATE_EXAMPLE = ROOT / "docs" / "examples" / "state-mushmush.json"
MM_TOUR_TRACKS = ["mm2-tighter-than-i-thought", "mm3-ever-decreasing-circles"]

TRACES = [
    TraceCase(
        DIR / "mm1-6-mixed-s4.json",
        "mushmush",
        "mm1-old-faithful",
        ("greedy", "random", "greedy:bold", "greedy:cautious", "greedy", "random"),
        4,
        race=2,
        preset="mushmush",
    ),
    TraceCase(
        DIR / "tournament-4-greedy-s5.json",
        "mushmush",
        "mm1-old-faithful",
        ("greedy", "greedy:bold", "greedy:cautious", "random"),
        5,
        preset="mushmush-tournament",
        overrides={"race_tracks": MM_TOUR_TRACKS},
    ),
]
CLI = [
    CliCase(DIR / "race-seed7.txt", ("race", "mushmush", "--seed", "7")),
    CliCase(DIR / "moves-example.txt", ("moves", str(MM_STATE_EXAMPLE))),
]
GOLDEN = [*TRACES, *CLI]


@pytest.mark.parametrize("case", TRACES, ids=[c.id for c in TRACES])
def test_golden_trace(case):
    want = json.loads(case.read())
    got = json.loads(case.render())
    assert got["result"] == want["result"]
    assert got == want


@pytest.mark.parametrize("case", CLI, ids=[c.id for c in CLI])
def test_golden_cli_output(case):
    assert case.render() == case.read()


def run(*args):
    return CliRunner().invoke(main, list(args))


@pytest.mark.parametrize("tournament", [False, True], ids=["race", "tournament"])
def test_race_json_and_png(tmp_path, tournament):
    # `simkit race mushmush` traces a race or a 3-race tournament (ST2 E) as JSON
    # and draws the last race on its own track.
    extra = []
    if tournament:
        tracks = json.dumps(MM_TOUR_TRACKS)
        extra = ["--preset", "mushmush-tournament", "--set", f"race_tracks={tracks}"]
    png = tmp_path / "race.png"
    res = run("race", "mushmush", "-p", "5", "-s", "3", *extra, "--json", "--png", str(png))
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout[: res.stdout.rindex("}") + 1])
    assert data["game"] == "mushmush" and data["track"] == "mm1-old-faithful"
    assert sorted(data["result"]["seats"]["finish"]) == [1, 2, 3, 4, 5]
    races = {t.get("race", 1) for t in data["turns"]}
    assert races == ({1, 2, 3} if tournament else {1})
    assert all(0 <= t.get("die", 0) <= 6 for t in data["turns"])  # 0 is left out
    assert png.stat().st_size > 10_000


def test_moves_cli_json_for_a_mushmush_position(tmp_path):
    res = run("moves", str(MM_STATE_EXAMPLE), "--json")
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["race_position"] == 3  # the repairing red sled still counts
    assert data["die"] == 2 and 25 not in data["trees"]
    plays = {(p["cards"][0], tuple(p["onto"])) for p in data["plays"]}
    assert all(len(onto) <= 2 and "brake" not in onto for _, onto in plays)  # ST2 B.1
    state = json.loads(MM_STATE_EXAMPLE.read_text())
    state["turn"] = 2
    path = tmp_path / "s.json"
    path.write_text(json.dumps(state))
    res = run("moves", str(path))
    assert res.exit_code == 1
    assert res.output.startswith("Error: state: turn names sleds[2], which is repairing")
