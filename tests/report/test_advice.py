""" "Try next" gives one answer and a command that does something new (issue 35).

The defects it fixes: a sweep named a "fairest" cell that was still unfair, with no command;
the bonus sweep recommended one setting at one skill level and the other at the other; the
MUSH and Mushroom Walk "sweep" commands reran the unchanged scenario.
"""

from __future__ import annotations

import dataclasses
import tomllib

import pytest

from simkit.analysis.fairness import fairness
from simkit.report.try_next import try_next
from simkit.runner import expand, load_scenario
from tests.analysis.synthetic import synthetic_run


def _levels(specs: list[tuple[str, str, list[float]]], races: int = 6000):
    """A synthetic sweep of ``bonus_rule`` on a skill axis: (setting, level, strength)."""
    cells = [
        {
            "players": 4,
            "label": f"bonus_rule={rule}, skill={level}",
            "strength": strength,
            "params": {"bonus_rule": rule},
            "bots": [level] * 4,
        }
        for rule, level, strength in specs
    ]
    run = synthetic_run(cells, races=races, seed=5)
    run = dataclasses.replace(run, cells=run.cells.assign(skill=[s[1] for s in specs]))
    scenario = {
        "title": "bonus",
        "game": "snowtails",
        "preset": "snowtails",
        "track": "nutcracker",
        "players": 4,
        "set": {},
        "grid": {"bonus_rule": ["position", "none"]},
        "skill": ["greedy", "greedy:tuned"],
        "races": races,
        "seed": 5,
    }
    return dataclasses.replace(run, manifest={**run.manifest, "scenario": scenario})


def _summary(run):
    s = fairness(run)
    return s.assign(skill=s["cell"].map(run.cells.set_index("cell")["skill"]))


def test_a_sweep_gets_one_answer_across_levels(tmp_path):
    """Greedy finds `position` fairer, greedy:tuned `none`: the answer is the setting fairest
    at its worst level (`none`), said once, with the level that ranks otherwise named."""
    run = _levels(
        [
            ("position", "greedy", [0.3, 0, 0, 0]),
            ("position", "greedy:tuned", [0.9, 0, 0, 0]),
            ("none", "greedy", [0.6, 0, 0, 0]),
            ("none", "greedy:tuned", [0.5, 0, 0, 0]),
        ]
    )
    lines = try_next(run, _summary(run), 0.02, tmp_path)
    assert not any("Fairest of" in line for line in lines)
    sweep = [line for line in lines if "settings with 4 players" in line]
    assert len(sweep) == 1
    assert sweep[0].startswith(
        "None of the 2 settings with 4 players is fair at every skill level at ±2 pp; the "
        "fairest at its worst level, bonus_rule=none, is still unfair with greedy: slot 1 wins "
    )
    assert "(greedy alone finds bonus_rule=position fairer: the answer is" in sweep[0]
    assert "Its worst slot is closer to fair than the next, bonus_rule=position's: " in sweep[0]


def test_a_fairest_setting_still_unfair_comes_with_a_command(tmp_path):
    """The sweep's keys are searched further: a scenario without them in its grid and a
    space over them, written beside the report, and the command naming both."""
    from simkit import tune

    run = _levels(
        [
            ("position", "greedy", [0.5, 0, 0, 0]),
            ("position", "greedy:tuned", [0.5, 0, 0, 0]),
            ("none", "greedy", [0.4, 0, 0, 0]),
            ("none", "greedy:tuned", [0.4, 0, 0, 0]),
        ]
    )
    lines = try_next(run, _summary(run), 0.02, tmp_path)
    (search,) = [line for line in lines if line.startswith("`simkit tune ")]
    command = search.split("`")[1].split()
    assert command[2:] == [
        str(tmp_path / "try-next-tune.toml"),
        "--space",
        str(tmp_path / "try-next-space.toml"),
    ]
    space = tomllib.loads((tmp_path / "try-next-space.toml").read_text())
    assert space["bonus_rule"] == {"values": ["position", "none", "dice"]}
    s = tune.settings(tmp_path / "try-next-tune.toml", tmp_path / "try-next-space.toml")
    assert s.search_space().keys == ["bonus_rule"] and s.scenario["skill"] == [
        "greedy",
        "greedy:tuned",
    ]


@pytest.mark.parametrize(
    ("game", "preset", "players", "rules"),
    [
        ("mush", "mush", 3, {"training_limits", "bidding", "bid_extra", "bonus_on_match"}),
        ("mushroomwalk", "mushroomwalk", 2, {"stick_costs", "decay_size", "starting_pans"}),
    ],
)
def test_a_game_without_a_compensation_table_gets_a_sweep_of_its_rules(
    tmp_path, game, preset, players, rules
):
    """Issue 35: the "sweep" command of MUSH and Mushroom Walk reran the unchanged scenario.
    Now it plays the study with each rule that may favour a slot switched off in turn."""
    run = synthetic_run(
        [{"players": players, "label": preset, "strength": [0.8] + [0.0] * (players - 1)}],
        races=3000,
        seed=2,
    )
    cells = run.cells.assign(game=game, preset=preset).drop(columns="track")
    scenario = {
        "title": "study",
        "game": game,
        "preset": preset,
        "players": players,
        "set": {},
        "grid": {},
        "races": 3000,
        "seed": 2,
    }
    manifest = {**run.manifest, "scenario": scenario, "scenario_path": "scenarios/study.toml"}
    run = dataclasses.replace(run, cells=cells, manifest=manifest)
    (line,) = [x for x in try_next(run, fairness(run), 0.02, tmp_path) if "why is it" in x]
    command = line.split("`")[1]
    assert command == f"simkit run {tmp_path / 'try-next-rules.toml'} --out runs/study-rules"
    written = load_scenario(tmp_path / "try-next-rules.toml")
    bundles = written.grid["set"]
    assert bundles[0] == {} and {k for b in bundles[1:] for k in b} == rules
    assert len(expand(written)) == 1 + len(rules)  # the book's rules, then one off at a time
