"""Causes ranked by ablation, and the smallest change among them (issue 35)."""

from __future__ import annotations

import dataclasses

import pandas as pd
import pytest

import simkit.games
from simkit.analysis import ablation
from tests.analysis.synthetic import synthetic_run


def test_every_part_of_a_track_that_may_favour_a_slot_is_an_element():
    nut = ablation.track_elements("nutcracker")
    assert [e.key for e in nut] == [f"track.corner.{k}.safety" for k in range(1, 7)]
    assert [e.book for e in nut] == [5, 4, 3, 5, 4, 2] and {e.value for e in nut} == {0}
    trees = [e for e in ablation.track_elements("mm1-old-faithful") if "tree" in e.what]
    assert len(trees) == 7
    first = trees[0]
    assert first.key == "track.segment.1.trees" and first.value == [[7, 3], [10, 0]]
    assert first.what == "the tree in segment 1, row 3, lane 2"
    # A planted closed space is an element of the derived track, and so is its removal.
    planted = ablation.track_elements("nutcracker?segment.1.closed=[[0,0]]")
    assert ("track.segment.1.closed", []) in [(e.key, e.value) for e in planted]


def test_a_key_fixed_in_the_study_moves_into_every_bundle():
    data = {"game": "snowtails", "set": {"tie_break": "speed", "hand_size": 6}, "grid": {}}
    out = ablation.with_bundles(data, [{}, {"tie_break": "inside"}])
    assert out["set"] == {"hand_size": 6}
    assert out["grid"]["set"] == [{"tie_break": "speed"}, {"tie_break": "inside"}]
    assert data["set"]["tie_break"] == "speed"  # the study's own data is left alone


def test_a_sweep_is_pinned_on_one_setting():
    data = {
        "game": "snowtails",
        "track": "nutcracker",
        "set": {},
        "grid": {"bonus_rule": ["position", "none"], "players": [3, 4]},
        "skill": ["greedy", "greedy:tuned"],
    }
    row = pd.Series({"bonus_rule": "none", "players": 4, "track": "nutcracker"})
    out = ablation.pinned(data, row, set())
    assert out["grid"] == {} and out["set"] == {"bonus_rule": "none"} and out["players"] == 4
    assert out["skill"] == ["greedy", "greedy:tuned"]
    derived = {"game": "snowtails", "set": {}, "grid": {"set": [{}, {"x": 1}]}}
    row = pd.Series({"x": 1, "track": "nutcracker?corner.1.safety=6"})
    out = ablation.pinned(derived, row, set())
    assert out["track"] == "nutcracker" and out["set"] == {"x": 1, "track.corner.1.safety": 6}


def _ablated(strengths: list[list[float]], races: int = 4000):
    """A synthetic ablation run: bundle 0 the study, bundle k element k."""
    cells = [{"players": 4, "label": f"b{k}", "strength": s} for k, s in enumerate(strengths)]
    run = synthetic_run(cells, races=races, seed=9)
    scenario = {"grid": {"set": [{}] + [{f"e{k}": 0} for k in range(1, len(strengths))]}}
    return dataclasses.replace(run, manifest={**run.manifest, "scenario": scenario})


def test_the_cause_that_makes_the_worst_slot_worst_ranks_first():
    run = _ablated([[0, 0, -0.6, 0], [0, 0, -0.6, 0], [0, 0, 0, 0], [0, 0, -0.6, 0.1]])
    elements = [ablation.Element(f"e{k}", 0, f"element {k}", ablation.RULE) for k in range(1, 4)]
    e = ablation.effects(run, elements, seed=1, resamples=500)
    assert e.attrs["slot"] == 3 and e.attrs["deviation"] < -0.05
    assert e.loc[0, "element"] == "element 2" and e.loc[0, "low"] > 3  # pp fairer
    assert e.loc[0, "effect_low"] > 3  # slot 3 itself comes that much closer to fair
    rest = e[e["element"] != "element 2"]
    assert (rest["low"] < 1).all()  # the others do not make it fairer by much


def test_the_changes_tried_come_smallest_first():
    safety = ablation.Element(
        "track.corner.2.safety", 0, "corner 2's safety speed 4 (R-15)", ablation.TRACK, 4
    )
    tree = ablation.Element(
        "track.segment.1.trees", [], "the tree in segment 1", ablation.TRACK, [[0, 0]]
    )
    changes = ablation.candidates([safety, tree])
    sizes = [c.size for c in changes]
    assert sizes == sorted(sizes)
    assert changes[0].values in ({"track.corner.2.safety": 5}, {"track.corner.2.safety": 3})
    assert {"track.segment.1.trees": []} in [c.values for c in changes if c.size == 1]
    assert changes[-1].values == {"track.corner.2.safety": 0, "track.segment.1.trees": []}
    # A per-slot table comes one step closer to its neutral value at a time.
    cards = ablation.Element(
        "extra_cards", [0, 0, 0], "extra start cards", ablation.RULE, [0, 1, 3]
    )
    assert [c.values["extra_cards"] for c in ablation.candidates([cards])] == [
        [0, 0, 2],
        [0, 0, 1],
        [0, 0, 0],
    ]


@pytest.fixture
def dicerace(monkeypatch):
    from tests.runner.dicerace import GAME

    monkeypatch.setitem(simkit.games._REGISTRY, "dicerace", GAME)
    return GAME


def test_why_finds_a_planted_head_start_and_a_fix_that_runs_when_pasted(
    tmp_path, monkeypatch, dicerace
):
    """Slot 2 starts three spaces ahead, more than slot 1's first move is worth: the head
    start ranks first, a smaller one is the fix, and the scenario file the report writes
    plays that measurement again, race for race."""
    import shlex

    from click.testing import CliRunner

    from simkit.cli import main
    from simkit.results import load

    monkeypatch.chdir(tmp_path)
    (tmp_path / "s.toml").write_text(
        'game = "dicerace"\nplayers = 2\nraces = 3000\nseed = 4\n'
        "[set]\nlength = 30\nhead_start = [0, 3, 0, 0, 0, 0]\n"
    )
    result = CliRunner().invoke(
        main, ["why", "s.toml", "--races", "3000", "--replays", "50", "-o", "why"]
    )
    assert result.exit_code == 0, result.output
    md = (tmp_path / "why/report/report.md").read_text()
    answer = md.split("## Answer", 1)[1].split("\n## ", 1)[0]
    assert "1. the head start by slot: -" in answer  # off, slot 1's first move wins more
    assert "Levers, whose removal moves slot 1 past fair" in answer
    assert "the head start by slot (shift +" in answer
    (line,) = [x for x in answer.splitlines() if x.startswith("Try next: the head start by slot")]
    command = line.split("`")[1]
    assert command == "simkit run why/report/try-next-fix.toml --out runs/s-fix"
    result = CliRunner().invoke(main, shlex.split(command)[1:])
    assert result.exit_code == 0, result.output
    again, fix = load("runs/s-fix"), load("why/setting-1/fix-1")
    pd.testing.assert_frame_equal(
        again.races.drop(columns="cell").reset_index(drop=True),
        fix.races[fix.races["cell"] < 2].drop(columns="cell").reset_index(drop=True),
    )
