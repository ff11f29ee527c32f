"""The skill axis: ``skill = [...]`` expands into one cell per level and combination."""

from __future__ import annotations

import pytest

from simkit.errors import ScenarioError
from simkit.runner import expand, load_scenario
from simkit.runner.scenario_file import parse

from .helpers import run, write

EXAMPLE = (
    '["greedy", "greedy:tuned", {bot = "search", races = 2000}, {field = ["search:64", '
    '"search:6h2wp3c4@policy:distilled"], races = 1000}]'
)


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


def test_a_level_with_its_own_races_plays_a_prefix_of_the_others(tmp_path):
    """``{bot = ..., races = N}``: a costly level plays N races per cell; under common random
    numbers they are the first N races of the same cell at the scenario's count."""
    from simkit.runner import resume

    head = 'game = "dicerace"\nraces = 25\nchunk_size = 10\n'
    res = run(tmp_path, head + 'skill = ["steady", {bot = "bold", races = 12}]\n', "own")
    per_cell = res.races.groupby("cell")["race"].nunique()
    assert list(per_cell) == [25, 12]
    assert res.manifest["races_done"] == [25, 12]
    assert res.manifest["chunks_total"] == 3 + 2
    assert res.manifest["cells"][1]["races"] == 12 and "races" not in res.manifest["cells"][0]
    full = run(tmp_path, head + 'skill = ["steady", "bold"]\n', "full")
    a = res.races[res.races["cell"] == 1].reset_index(drop=True)
    b = full.races[(full.races["cell"] == 1) & (full.races["race"] < 12)].reset_index(drop=True)
    assert a.equals(b)
    assert resume(tmp_path / "own").new_races == 0  # the manifest's checks accept it
    sc = load_scenario(tmp_path / "own.toml")
    assert parse(sc.to_json(), sc.path).skill_races == {"bold": 12}
    capped = sc.with_overrides(races=5)  # --races caps a level's own count too
    assert [capped.level_races(b) for b in capped.skill] == [None, 5]


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
            f"must be a list of skill levels, one bot name each, e.g. {EXAMPLE} (a table "
            "gives a level its own races per cell, a field plays one level with several "
            "bots; got 'steady')",
        ),
        (
            'skill = ["steady", {bot = "bold", race = 5}]\n',
            "skill",
            f"must be a list of skill levels, one bot name each, e.g. {EXAMPLE} (a table "
            "gives a level its own races per cell, a field plays one level with several "
            "bots; got ['steady', {'bot': 'bold', 'race': 5}])",
        ),
        (
            'skill = ["steady", {bot = "bold", races = 0}]\n',
            "skill.bold.races",
            "must be an integer from 1 to 1_000_000_000 (got 0)",
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
