"""Track parts in scenarios: ``track.…`` keys in [set], [grid] and ``grid.set`` tables."""

from __future__ import annotations

import pytest

from simkit import tracks
from simkit.errors import ScenarioError
from simkit.runner import expand, load_scenario
from simkit.runner.scenario_file import parse

from .helpers import write

HEAD = """
game = "snowtails"
track = "nutcracker"
players = 4
"""


def test_set_changes_the_track_of_every_cell_and_the_manifest_says_so(tmp_path):
    text = HEAD + "[set]\ntrack.corner.1.safety = 6\nhand_size = 6\n[grid]\nplayers = [3, 4]\n"
    text = text.replace("players = 4\n", "", 1)
    cells = expand(load_scenario(write(tmp_path, text)))
    assert [pc.cell.track for pc in cells] == ["nutcracker?corner.1.safety=6"] * 2
    assert cells[0].cell.variant.hand_size == 6
    spec = cells[0].spec()
    assert spec["track"] == "nutcracker?corner.1.safety=6"
    assert spec["track_base"] == "nutcracker"
    assert spec["track_overrides"] == {"corner.1.safety": 6}
    assert tracks.load(spec["track"]).corner_safety[0] == 6


def test_grid_sweeps_a_part_like_a_parameter(tmp_path):
    text = HEAD + "[grid]\ntrack.corner.2.safety = [3, 4, 5]\nbrake = [true, false]\n"
    cells = expand(load_scenario(write(tmp_path, text)))
    assert [pc.label for pc in cells][:2] == [
        "track.corner.2.safety=3, brake=true",
        "track.corner.2.safety=3, brake=false",
    ]
    assert [tracks.load(pc.cell.track).corner_safety[1] for pc in cells] == [3, 3, 4, 4, 5, 5]
    # a value equal to the library's still names the change: the cell says what it raced
    assert cells[2].cell.track == "nutcracker?corner.2.safety=4"


def test_grid_set_lists_whole_tables_one_cell_each(tmp_path):
    text = (
        HEAD
        + """
[[grid.set]]

[[grid.set]]
track.corner.1.safety = 4
track.corner.2.safety = 3

[[grid.set]]
extra_cards = [0, 0, 0, 2, 2]
track.segment.0.length = 3
"""
    )
    sc = load_scenario(write(tmp_path, text))
    cells = expand(sc)
    assert [pc.label for pc in cells] == [
        "snowtails",
        "track.corner.1.safety=4, track.corner.2.safety=3",
        "extra_cards=[0,0,0,2,2], track.segment.0.length=3",
    ]
    assert cells[0].cell.track == "nutcracker"
    assert cells[1].cell.track == "nutcracker?corner.1.safety=4&corner.2.safety=3"
    assert cells[2].cell.variant.extra_cards[3] == 2
    # the manifest's copy of the scenario reads back to the same cells
    again = expand(parse(sc.to_json(), sc.path))
    assert [pc.spec() for pc in again] == [pc.spec() for pc in cells]


@pytest.mark.parametrize(
    ("body", "key", "says"),
    [
        ("[set]\ntrack.corner.1.saftey = 3\n", "set.track.corner.1.saftey", "did you mean"),
        ("[grid]\ntrack.corner.9.safety = [3]\n", "grid.track.corner.9.safety", "corners 1-6"),
        (
            "[grid]\ntrack.corner.1.safety = [3, 100]\n",
            "grid.track.corner.1.safety",
            "'safety' must be between 0 and 99 (got 100) (cell 'track.corner.1.safety=100')",
        ),
        ("[set]\ntrack.segment.3.length = 2\n", "set.track.segment.3.length", "is corner 1"),
        (
            "[set]\ntrack.corner.1.safety = 3\n[[grid.set]]\ntrack.corner.1.safety = 4\n",
            "grid.set",
            "also in [set]",
        ),
        ("[[grid.set]]\ntrack.corner.1.safety = -1\n", "grid.set", "between 0 and 99"),
        ("[grid]\nset = [1, 2]\n", "grid.set", "must be a list of tables"),
        ("[[grid.set]]\n[[grid.set]]\n", "grid.set", "listed twice"),
    ],
)
def test_mistakes_name_the_key(tmp_path, body, key, says):
    with pytest.raises(ScenarioError) as err:
        expand(load_scenario(write(tmp_path, HEAD + body)))
    assert err.value.key == key
    assert says in str(err.value)


def test_a_game_without_a_track_refuses_track_parts(tmp_path):
    text = 'game = "dicerace"\n[set]\ntrack.corner.1.safety = 3\n'
    with pytest.raises(ScenarioError) as err:
        expand(load_scenario(write(tmp_path, text)))
    assert err.value.key == "set.track.corner.1.safety"
    assert "dicerace is not played on a track" in str(err.value)
