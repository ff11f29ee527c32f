"""Scenario validation: every class of error names the file and the key, exactly."""

from __future__ import annotations

import pytest

from simkit.errors import ScenarioError
from simkit.runner import expand, load_scenario
from simkit.runner.scenario import DEFAULT_CHUNK, DEFAULT_RACES, Precision

from .helpers import write


def _error(tmp_path, text: str) -> ScenarioError:
    path = write(tmp_path, text)
    with pytest.raises(ScenarioError) as info:
        expand(load_scenario(path))
    return info.value


@pytest.mark.parametrize(
    ("text", "key", "reason"),
    [
        ('game = "dicerace"\nraces = \n', None, "not valid TOML (Invalid value (at line 2"),
        ("races = 10\n", "game", "required; one of "),
        ('game = "dice"\n', "game", "unknown game 'dice'; one of "),
        (
            'game = "dicerace"\npreset = "long"\n',
            "preset",
            "dicerace: unknown preset 'long' (known: classic, short)",
        ),
        (
            'game = "dicerace"\n[set]\nlength = 1\n',
            "set.length",
            "dicerace.length must be between 5 and 200 (got 1)",
        ),
        (
            'game = "dicerace"\n[grid]\nfaces = []\n',
            "grid.faces",
            "must be a non-empty list of values to sweep (got [])",
        ),
        ('game = "dicerace"\n[grid]\nfaces = [4, 4]\n', "grid.faces", "value 4 listed twice"),
        (
            'game = "dicerace"\n[set]\nfaces = 4\n[grid]\nfaces = [4, 6]\n',
            "grid.faces",
            "also set in [set]; give a parameter either a fixed value or a grid",
        ),
        (
            'game = "dicerace"\nplayers = 3\n[grid]\nplayers = [2, 3]\n',
            "grid.players",
            "also set at top level as 'players'; give it either a fixed value or a grid",
        ),
        (
            'game = "dicerace"\n[grid]\nfaces = [4, 30]\n',
            "grid.faces",
            "dicerace.faces must be between 2 and 20 (got 30) (cell 'faces=30')",
        ),
        (
            'game = "dicerace"\n[grid]\nbonus = [true, "no"]\n',
            "grid.bonus",
            "dicerace.bonus must be bool (got 'no') (cell 'bonus=no')",
        ),
        (
            'game = "dicerace"\n[grid]\nplayers = [2, 7]\n',
            "grid.players",
            "dicerace: players must be between 2 and 6 (got 7) (cell 'players=7')",
        ),
        (
            'game = "dicerace"\n[grid]\npreset = ["classic", "long"]\n',
            "grid.preset",
            "dicerace: unknown preset 'long' (known: classic, short) (cell 'preset=long')",
        ),
        (
            'game = "dicerace"\nbots = ["bold", "bold", "bold", "bold", "bold", "bold", "bold"]\n',
            "bots",
            "dicerace: players must be between 2 and 6 (got 7)",
        ),
        (
            'game = "dicerace"\n[grid]\nbots = [["bold", "steady"], ["bold"]]\n',
            "grid.bots",
            "dicerace: players must be between 2 and 6 (got 1) (cell 'bots=bold')",
        ),
        (
            'game = "dicerace"\nbots = "clever"\n',
            "bots",
            "dicerace: unknown bot 'clever' (known: steady, bold)",
        ),
        (
            'game = "dicerace"\nbots = 3\n',
            "bots",
            "must be a bot name for every seat or a list of bot names, one per seat (got 3)",
        ),
        (
            'game = "dicerace"\nplayers = 3\nbots = ["bold", "steady"]\n',
            "bots",
            "dicerace: 3 players need 3 bots (got 2)",
        ),
        (
            'game = "dicerace"\nslots = [1, 1, 2]\n',
            "slots",
            "must be a list of distinct start slots from 1 to 64, e.g. [1, 2, 3, 5] "
            "(got [1, 1, 2])",
        ),
        (
            'game = "dicerace"\nslots = [1, 2, 9]\n',
            "slots",
            "dicerace: slots must be at least 3 of 1..6 (got (1, 2, 9))",
        ),
        (
            'game = "dicerace"\ntrack = "nutcracker"\n',
            "track",
            "dicerace is not played on a track (got track 'nutcracker')",
        ),
        (
            'game = "dicerace"\nplayers = "four"\n',
            "players",
            "must be an integer from 1 to 64 (got 'four')",
        ),
        (
            'game = "dicerace"\nraces = 0\n',
            "races",
            "must be an integer from 1 to 1_000_000_000 (got 0)",
        ),
        (
            'game = "dicerace"\nraces = 10\n[precision]\nwidth = 0.1\n',
            "races",
            "give either races (per cell) or [precision], not both",
        ),
        (
            'game = "dicerace"\nprecision = 0.1\n',
            "precision",
            "must be a table, e.g. [precision] width = 0.02",
        ),
        (
            'game = "dicerace"\n[precision]\nwidth = 2\n',
            "precision.width",
            "must be a number between 0 and 1 (got 2)",
        ),
        (
            'game = "dicerace"\n[precision]\nwidth = 0.1\nmax = 3\n',
            "precision.max",
            "unknown key; allowed: max_races, width",
        ),
        (
            'game = "dicerace"\n[precision]\nmax_races = 3\n',
            "precision.width",
            "required: the widest allowed win-rate 95% interval, e.g. 0.02",
        ),
        (
            'game = "dicerace"\nseed = -1\n',
            "seed",
            "must be an integer from 0 to 9_223_372_036_854_775_807 (got -1)",
        ),
        ('game = "dicerace"\ncrn = "yes"\n', "crn", "must be true or false (got 'yes')"),
        (
            'game = "dicerace"\nkeep = "rows"\n',
            "keep",
            "must be one of 'races', 'aggregates' (got 'rows')",
        ),
        ('game = "dicerace"\nheat = 1\n', "heat", "must be true or false (got 1)"),
        (
            'game = "dicerace"\nchunk_size = 0\n',
            "chunk_size",
            "must be an integer from 1 to 100_000 (got 0)",
        ),
        ('game = "dicerace"\ntitle = 3\n', "title", "must be a string (got 3)"),
        ('game = "dicerace"\nset = 3\n', "set", "must be a table of parameter = value"),
        ('game = "dicerace"\ngrid = [1]\n', "grid", "must be a table of key = [values]"),
    ],
)
def test_error_names_file_key_and_fix(tmp_path, text, key, reason):
    err = _error(tmp_path, text)
    assert err.path == str(tmp_path / "s.toml")
    assert err.key == key
    assert err.reason.startswith(reason)


def test_unknown_key_exact_message_suggests_close_match(tmp_path):
    err = _error(tmp_path, 'game = "dicerace"\nrace = 10\n')
    assert str(err) == (
        f"scenario '{tmp_path / 's.toml'}', key 'race': unknown key (did you mean 'races'?); "
        "allowed: bots, bots_file, check_levels, chunk_size, crn, description, game, grid, heat, "
        "keep, level_races, players, precision, preset, races, reference, reference_races, seed, "
        "set, skill, slots, title, track"
    )


def test_unknown_parameter_exact_message(tmp_path):
    err = _error(tmp_path, 'game = "dicerace"\n[set]\nlenght = 10\n')
    assert str(err) == (
        f"scenario '{tmp_path / 's.toml'}', key 'set.lenght': unknown key (did you mean "
        "'set.length'?); allowed: bonus, faces, head_start, length, max_rounds, points"
    )


def test_unknown_grid_key_lists_axes_and_parameters(tmp_path):
    err = _error(tmp_path, 'game = "dicerace"\n[grid]\nplayer = [2, 3]\n')
    assert str(err) == (
        f"scenario '{tmp_path / 's.toml'}', key 'grid.player': unknown key (did you mean "
        "'grid.players'?); allowed: bonus, bots, faces, head_start, length, max_rounds, "
        "players, points, preset, set, slots, track"
    )


def test_missing_file_exact_message(tmp_path):
    with pytest.raises(ScenarioError) as info:
        load_scenario(tmp_path / "nope.toml")
    assert str(info.value) == f"scenario '{tmp_path / 'nope.toml'}': file not found"


def test_defaults_and_resolved_round_trip(tmp_path):
    sc = load_scenario(write(tmp_path, 'game = "dicerace"\n'))
    assert (sc.races, sc.seed, sc.crn, sc.keep, sc.heat) == (DEFAULT_RACES, 0, True, "races", True)
    assert sc.chunk_size == DEFAULT_CHUNK and sc.precision is None
    text = (
        'game = "dicerace"\nplayers = 4\nbots = "bold"\n[set]\nhead_start = [0,0,0,1,2,3]\n'
        "[grid]\nfaces = [4, 6]\n[precision]\nwidth = 0.05\nmax_races = 5000\n"
    )
    sc = load_scenario(write(tmp_path, text))
    assert sc.precision == Precision(0.05, 5000)
    assert sc.max_races == 5000
    from simkit.runner.scenario_file import parse

    assert parse(sc.to_json(), sc.path) == sc


def test_command_line_races_replace_a_precision_target(tmp_path):
    text = 'game = "dicerace"\n[precision]\nwidth = 0.05\n'
    sc = load_scenario(write(tmp_path, text)).with_overrides(races=300, seed=9, chunk_size=7)
    assert (sc.precision, sc.races, sc.max_races, sc.seed, sc.chunk_size) == (None, 300, 300, 9, 7)


def _through_json(sc, races=None, seed=None, chunk_size=None):
    """The overrides as they were once made: the scenario serialised, edited, parsed again."""
    from dataclasses import replace

    from simkit.runner.scenario_file import parse

    data = sc.to_json()
    if races is not None:
        data.pop("precision", None)
        data["races"] = races
        for level in data.get("skill", []):
            if isinstance(level, dict):
                level["races"] = min(level["races"], races)
        for key in ("level_races", "reference_races"):
            if key in data:
                data[key] = min(data[key], races)
    if seed is not None:
        data["seed"] = seed
    if chunk_size is not None:
        data["chunk_size"] = chunk_size
    return replace(parse(data, sc.path), source=sc.source)


@pytest.mark.parametrize(
    "text",
    [
        'game = "dicerace"\n',
        'game = "dicerace"\nraces = 500\n',
        'game = "dicerace"\n[precision]\nwidth = 0.05\nmax_races = 400\n',
        'game = "dicerace"\nraces = 2500\nskill = ["steady", {bot = "bold", races = 1200}]\n',
        'game = "dicerace"\nskill = ["steady", "bold"]\nlevel_races = 40\ncheck_levels = false\n',
        'game = "dicerace"\nplayers = 3\n[set]\nhead_start = [0,0,1]\n[grid]\nfaces = [4, 6]\n',
    ],
)
@pytest.mark.parametrize(
    "kw", [{}, {"races": 300}, {"races": 3000}, {"seed": 9}, {"races": 30, "chunk_size": 7}]
)
def test_overrides_replace_fields_as_a_parse_of_the_edited_file_would(
    tmp_path, monkeypatch, text, kw
):
    import simkit.runner.scenario_file as scenario

    sc = load_scenario(write(tmp_path, text))
    expected = _through_json(sc, **kw)
    monkeypatch.setattr(scenario, "parse", None)  # no serialise-then-parse
    got = sc.with_overrides(**kw)
    assert got == expected
    assert (got.check_races, got.skill_races, got.source) == (
        expected.check_races,
        expected.skill_races,
        expected.source,
    )
    assert got.to_json() == expected.to_json()


@pytest.mark.parametrize(
    ("kw", "key", "reason"),
    [
        ({"races": 0}, "races", "must be an integer from 1 to 1_000_000_000 (got 0)"),
        ({"seed": -1}, "seed", "must be an integer from 0 to 9_223_372_036_854_775_807 (got -1)"),
        ({"chunk_size": 100_001}, "chunk_size", "must be an integer from 1 to 100_000"),
    ],
)
def test_bad_override_names_the_key_as_the_file_would(tmp_path, kw, key, reason):
    sc = load_scenario(write(tmp_path, 'game = "dicerace"\n'))
    with pytest.raises(ScenarioError) as info:
        sc.with_overrides(**kw)
    assert (info.value.path, info.value.key) == (sc.path, key)
    assert info.value.reason.startswith(reason)
