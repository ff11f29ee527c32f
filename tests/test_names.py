"""Every name a user types gets a "did you mean" in its one-line error (issue 25, item 6)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from simkit.cli import main
from simkit.names import closest, did_you_mean, unknown

ST_BOTS = (
    "random, greedy, greedy:cautious, greedy:bold, greedy:tuned, policy:distilled, "
    "policy:broad, policy:mlp, greedy[w1/w2/...], search:N, search:NhH, search:NhHv, search:NhHw, "
    "search:NhHx@policy:NAME, search:6h2wp3c4@policy:distilled, search:6h2xp3c4@policy:broad"
)


def test_the_helper():
    assert closest("greedi", ["random", "greedy"]) == "greedy"
    assert closest("nope", ["random", "greedy"]) is None
    assert did_you_mean("nope", ["random"]) == ""
    assert unknown("bot", "greedi", ["random", "greedy"], prefix="g: ") == (
        "g: unknown bot 'greedi' (known: random, greedy); did you mean 'greedy'?"
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["race", "snowtails", "--bots", "greedy:tunned"],
            f"Error: snowtails: unknown bot 'greedy:tunned' (known: {ST_BOTS}); "
            "did you mean 'greedy:tuned'?",
        ),
        (
            ["race", "snowtails", "--bots", "serch:64"],
            "Error: snowtails: unknown bot 'serch:64' (known: random, greedy, search, policy); "
            "did you mean 'search:64'?",
        ),
        (
            ["race", "mushroomwalk", "--bots", "lookahed"],
            "Error: mushroomwalk: unknown bot 'lookahed' (known: random, greedy, lookahead, "
            "search); did you mean 'lookahead'?",
        ),
        (
            ["race", "mush", "--bots", "greedi"],
            "Error: mush: unknown bot 'greedi' (known: random, greedy, search); "
            "did you mean 'greedy'?",
        ),
        (
            ["variants", "snowtails", "--preset", "snowtail"],
            "Error: snowtails: unknown preset 'snowtail' (known: mushmush, mushmush-tournament, "
            "snowtails, snowtails-season); did you mean 'snowtails'?",
        ),
        (
            ["race", "snowtails", "--track", "nutcraker"],
            "Error: unknown track 'nutcraker' (did you mean 'nutcracker'?); `simkit tracks "
            "list` shows the library, or give a path to a .toml file",
        ),
        (
            ["race", "snowtails", "--set", "safety_speed=false"],
            "Error: snowtails: unknown parameter 'safety_speed' (did you mean 'safety_speeds'?)",
        ),
    ],
)
def test_cli_names(args, message):
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 1, res.output
    assert res.output == message + "\n"


def test_cli_game_name():
    res = CliRunner().invoke(main, ["race", "snowtail"])
    assert res.exit_code == 2
    assert res.output.splitlines()[-1] == (
        "Error: Invalid value for '[GAME]': 'snowtail' is not one of 'mush', "
        "'mushmush', 'mushroomwalk', 'snowtails'. Did you mean 'snowtails'?"
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            'game = "snowtail"\n',
            "key 'game': unknown game 'snowtail'; one of mush, mushmush, mushroomwalk, "
            "snowtails; did you mean 'snowtails'?",
        ),
        (
            'game = "snowtails"\nrcaes = 5\n',
            "key 'rcaes': unknown key (did you mean 'races'?); allowed: ",
        ),
        (
            'game = "snowtails"\nplayers = 2\nbots = ["greedy:tunned", "greedy"]\n',
            f"key 'bots': snowtails: unknown bot 'greedy:tunned' (known: {ST_BOTS}); "
            "did you mean 'greedy:tuned'?",
        ),
        (
            'game = "snowtails"\npreset = "mushmush-tournement"\n',
            "key 'preset': snowtails: unknown preset 'mushmush-tournement' (known: mushmush, "
            "mushmush-tournament, snowtails, snowtails-season); did you mean "
            "'mushmush-tournament'?",
        ),
        (
            'game = "snowtails"\ntrack = "hairpin"\n',
            "unknown track 'hairpin' (did you mean 'hairpins'?)",
        ),
    ],
)
def test_scenario_names(tmp_path, text, message):
    path = tmp_path / "s.toml"
    path.write_text(text)
    res = CliRunner().invoke(main, ["scenario", "check", str(path)])
    assert res.exit_code == 1, res.output
    assert len(res.output.splitlines()) == 1
    assert message in res.output


def test_compare_metric_name():
    from types import SimpleNamespace

    import pandas as pd

    from simkit.analysis.compare import _check_metrics
    from simkit.errors import RunError

    seat = pd.DataFrame({"metric": ["finish", "points", "win", "decided"]})
    race = pd.DataFrame({"metric": ["rounds"]})
    results = SimpleNamespace(agg={"seat_metric": seat, "race_metric": race})
    with pytest.raises(RunError, match=r"unknown seat metric 'pionts' .*did you mean 'points'\?"):
        _check_metrics(results, ["pionts"], None)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "[search]\nbudgett = 5\n[hand_size]\nlow = 4\nhigh = 7\n",
            "key 'search.budgett': unknown key; [search] takes budget, min_races, max_races, "
            "halving, sampler, top, confirm; did you mean 'budget'?",
        ),
        (
            "[hand_size]\nlow = 4\nhigh = 7\nstpe = 1\n",
            "key 'hand_size.stpe': unknown key; a space table takes low, high, step, values, "
            "elements, order; did you mean 'step'?",
        ),
    ],
)
def test_space_names(tmp_path, text, message):
    from simkit.errors import SpaceError
    from simkit.tune import space

    path = tmp_path / "space.toml"
    path.write_text(text)
    with pytest.raises(SpaceError) as info:
        space.load(path)
    assert str(info.value) == f"space '{path}', {message}"
