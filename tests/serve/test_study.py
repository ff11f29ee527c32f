"""The page's inputs go through the scenario checks, and its scenario round-trips."""

import tomllib
from pathlib import Path

import pytest

from simkit.serve.study import InputError, Setting, base_of, setting_of_run, with_inputs

DEMO = Path(__file__).resolve().parents[2] / "scenarios" / "demo.toml"


@pytest.fixture(scope="module")
def demo() -> Setting:
    return Setting(base_of(tomllib.loads(DEMO.read_text())))


def test_the_demo_study_opens_on_its_first_setting(demo):
    assert demo.base["track"] == "nutcracker"
    assert demo.base["players"] == 4
    assert demo.skill == "greedy"  # the first skill level


@pytest.mark.parametrize(
    ("inputs", "field", "words"),
    [
        ({"change": "track.corner.1.safety = 400"}, "change", "'safety' must be between 0 and 99"),
        ({"change": "hand_siz = 3"}, "change", "did you mean 'grid.set.hand_size'"),
        ({"change": "= 3"}, "change", "not TOML"),
        ({"change": "track.segment.3.length = 2"}, "change", "a corner has no 'length'"),
        ({"players": "x"}, "players", "must be a whole number (got 'x')"),
        ({"players": 99}, "players", "must be an integer from 1 to 64 (got 99)"),
        ({"skill": "gredy"}, "skill", "unknown bot 'gredy'"),
        ({"tolerance": "2"}, "tolerance", "must be between 0 and 0.5"),
    ],
)
def test_a_bad_input_names_its_field_and_says_why(demo, inputs, field, words):
    with pytest.raises(InputError) as err:
        with_inputs(demo, **inputs)
    assert err.value.field == field
    assert words in str(err.value)


def test_a_change_to_a_fixed_parameter_moves_the_base_value_into_a(demo):
    base = Setting({**demo.base, "set": {"hand_size": 5}})
    s = with_inputs(base, change="hand_size = 6\ntrack.corner.1.safety = 4")
    data = s.scenario_data(1000)
    assert data["set"] == {}
    assert data["grid"]["set"] == [{"hand_size": 5}, {"hand_size": 6, "track.corner.1.safety": 4}]
    assert data["crn"] is True  # A and B play the same race keys


def test_a_page_run_gives_its_setting_back(demo):
    s = with_inputs(demo, change="track.corner.1.safety = 4", players=3, skill="greedy:tuned")
    back = setting_of_run({"scenario": s.scenario_data(4000)})
    assert back.change == {"track.corner.1.safety": 4}
    assert back.base["players"] == 3
    assert back.skill == "greedy:tuned"


@pytest.mark.parametrize(
    ("change", "b_track"),
    [
        ("hand_size = 6", "nutcracker"),  # a rules parameter
        ("track.corner.1.safety = 4", "nutcracker?corner.1.safety=4"),
        ("track.segment.4.length = 6", "nutcracker?segment.4.length=6"),
        ("track.segment.4.trees = [[1, 0]]", "nutcracker?segment.4.trees=[[1,0]]"),
        (
            'track.segment.4.buildings = [{kind = "tavern", row = 1, side = "left"}]',
            'nutcracker?segment.4.buildings=[{"kind":"tavern","row":1,"side":"left"}]',
        ),
    ],
)
def test_each_what_if_of_the_issue_plays_as_b_beside_an_unchanged_a(demo, change, b_track):
    """Issue 36 item 2: a rules parameter, a corner, a segment's length, a tree, a building,
    the players and the skill level, as the cells the runner will play."""
    from simkit.runner import expand
    from simkit.runner.scenario_file import parse

    s = with_inputs(demo, change=change, players=3, skill="greedy:tuned")
    a, b = (c.cell for c in expand(parse(s.scenario_data(100), "page")))
    assert a.track == "nutcracker" and b.track == b_track
    assert a.players == b.players == 3
    assert a.bots == b.bots == ("greedy:tuned",) * 3
    if not change.startswith("track."):
        assert a.variant != b.variant  # the rules parameter is B's alone
    else:
        assert a.variant == b.variant
