"""The skill axis: ``skill = [...]`` expands into one cell per level and combination."""

from __future__ import annotations

import pytest

from simkit.errors import ScenarioError
from simkit.runner import expand, load_scenario
from simkit.runner.scenario import parse

from .helpers import run, write


def test_each_level_is_one_cell_per_combination_fastest_of_all(tmp_path):
    text = """
game = "dicerace"
skill = ["steady", "bold"]
[grid]
players = [2, 3]
bonus = [false, true]
"""
    cells = expand(load_scenario(write(tmp_path, text)))
    assert [pc.label for pc in cells] == [
        "players=2, bonus=false, skill=steady",
        "players=2, bonus=false, skill=bold",
        "players=2, bonus=true, skill=steady",
        "players=2, bonus=true, skill=bold",
        "players=3, bonus=false, skill=steady",
        "players=3, bonus=false, skill=bold",
        "players=3, bonus=true, skill=steady",
        "players=3, bonus=true, skill=bold",
    ]
    assert [pc.skill for pc in cells] == ["steady", "bold"] * 4
    assert cells[5].cell.bots == ("bold",) * 3 and cells[5].cell.variant.bonus is False
    assert cells[0].spec()["skill"] == "steady"


def test_skill_without_a_grid_and_the_cells_table(tmp_path):
    res = run(tmp_path, 'game = "dicerace"\nraces = 10\nskill = ["steady", "bold"]\n', "r")
    assert list(res.cells["label"]) == ["skill=steady", "skill=bold"]
    assert list(res.cells["skill"]) == ["steady", "bold"]
    assert list(res.cells["bots"]) == ["steady,steady,steady", "bold,bold,bold"]
    plain = run(tmp_path, 'game = "dicerace"\nraces = 10\n', "p")
    assert plain.cells["skill"].isna().all()
    assert "skill" not in plain.manifest["cells"][0]


def test_the_resolved_scenario_keeps_its_levels(tmp_path):
    sc = load_scenario(write(tmp_path, 'game = "dicerace"\nskill = ["bold", "steady"]\n'))
    again = parse(sc.to_json(), sc.path)
    assert again.skill == ["bold", "steady"]
    assert [pc.spec() for pc in expand(again)] == [pc.spec() for pc in expand(sc)]


@pytest.mark.parametrize(
    ("text", "key", "reason"),
    [
        (
            'skill = ["steady"]\nbots = "bold"\n',
            "skill",
            "give either skill (every seat played by one bot per level) or bots, not both",
        ),
        (
            'skill = ["steady"]\n[grid]\nbots = ["bold", "steady"]\n',
            "skill",
            "give either skill (every seat played by one bot per level) or grid.bots, not both",
        ),
        (
            '[grid]\nskill = ["steady"]\n',
            "grid.skill",
            "skill is a top-level list (skill = [...]): each level is already one cell per "
            "combination of the grid",
        ),
        (
            'skill = "steady"\n',
            "skill",
            'must be a list of bot names, one per skill level, e.g. ["greedy", "greedy:tuned"] '
            "(got 'steady')",
        ),
        ('skill = ["bold", "bold"]\n', "skill", "level 'bold' listed twice"),
        (
            'skill = ["steady", "wild"]\n',
            "skill",
            "dicerace: unknown bot 'wild' (known: steady, bold) (cell 'skill=wild')",
        ),
    ],
)
def test_skill_errors_name_the_key(tmp_path, text, key, reason):
    path = write(tmp_path, 'game = "dicerace"\n' + text)
    with pytest.raises(ScenarioError) as err:
        expand(load_scenario(path))
    assert str(err.value) == f"scenario '{path}', key '{key}': {reason}"
    assert err.value.key == key
