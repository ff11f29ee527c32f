"""``simkit variants snowtails``, ``simkit race`` and ``simkit moves`` for Snow Tails."""

from __future__ import annotations

import json

from click.testing import CliRunner

from simkit.cli import main
from simkit.games.snowtails.params import SnowTailsParams


def run(*args):
    return CliRunner().invoke(main, list(args))


def test_variants_lists_every_parameter():
    res = run("variants", "snowtails")
    assert res.exit_code == 0, res.output
    assert res.output.startswith(
        "Snow Tails: preset 'snowtails'\n"
        "presets: mushmush, mushmush-tournament, snowtails, snowtails-season\n"
    )
    for name in SnowTailsParams.names():
        assert f"\n{name} " in res.output
    assert "R-11" in res.output and "[0,0,0,1,2]" in res.output


def test_variants_rejects_bad_override():
    res = run("variants", "snowtails", "--set", "hand_size=0")
    assert res.exit_code == 1
    assert "snowtails.hand_size must be between 1 and 10 (got 0)" in res.output


def test_race_short_form_defaults_and_is_repeatable():
    a = run("race", "snowtails", "--seed", "7")
    assert a.exit_code == 0, a.output
    assert a.stdout.startswith("Snow Tails on 'nutcracker', 4 sleds, race key ")
    assert "Round 1\n" in a.stdout and "Result after" in a.stdout
    assert a.stdout == run("race", "snowtails", "--seed", "7").stdout
    b = run("race", "snowtails", "--seed", "7", "--race", "1")
    assert b.stdout != a.stdout


def test_race_json_and_png(tmp_path):
    res = run(
        "race",
        "snowtails",
        "-p",
        "3",
        "-b",
        "greedy,random,greedy:bold",
        "-s",
        "3",
        "--json",
        "--png",
        str(tmp_path / "race.png"),
    )
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout[: res.stdout.rindex("}") + 1])
    assert data["bots"] == ["greedy", "random", "greedy:bold"]
    assert sorted(data["result"]["seats"]["finish"]) == [1, 2, 3]
    assert (tmp_path / "race.png").stat().st_size > 10_000


def test_race_errors_are_one_line():
    res = run("race", "snowtails", "--bots", "greedy:sleepy")
    assert res.exit_code == 1
    assert "unknown bot 'greedy:sleepy'" in res.output
    res = run("race", "snowtails", "--players", "9")
    assert res.exit_code == 1 and "players must be between 2 and 8" in res.output
    res = run("race", "snowtails", "--players", "6")
    assert res.exit_code == 1
    assert res.output == (
        "Error: snowtails: track 'nutcracker' has no start slot 6 (slots: [1, 2, 3, 4, 5]); "
        'choose slots among them, or start_rule = "row" on an ST2 track\n'
    )


def test_moves_json_and_bad_state(tmp_path):
    state = {
        "game": "snowtails",
        "track": "nutcracker",
        "round": 2,
        "sleds": [{"space": 5, "dogs": [3, 3], "brake": 3, "hand": [2, 4]}],
    }
    path = tmp_path / "s.json"
    path.write_text(json.dumps(state))
    res = run("moves", str(path), "--json")
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert [p["cards"] for p in data["plays"]] == [[2], [2], [2], [4], [4], [4]]
    state["sleds"][0]["brake"] = 7
    path.write_text(json.dumps(state))
    res = run("moves", str(path))
    assert res.exit_code == 1
    assert res.output == "Error: state: sleds[0].brake must be between 0 and 5 (got 7)\n"
