"""Inputs that once hung simkit or ended in a traceback (issue 26): a FIFO given where a file
is read, a 200-bot ladder, numbers no bound was checked on. Each is one line now (a FIFO is
refused before it is opened, so nothing waits on it)."""

from __future__ import annotations

import os
import tomllib

import pytest

from simkit.errors import SimkitError, SpaceError
from simkit.runner import load_scenario, start
from tests.fuzz.kit import one_line_or_success

FIFO = "is not a regular file (a named pipe); give a file"


@pytest.fixture
def fifo(tmp_path):
    def make(name: str):
        path = tmp_path / name
        os.mkfifo(path)
        return path

    return make


@pytest.mark.parametrize(
    ("name", "command"),
    [
        ("s.toml", ["scenario", "check"]),
        ("s.toml", ["run"]),
        ("t.toml", ["tracks", "check"]),
        ("state.json", ["moves"]),
        ("r.toml", ["race", "mush", "--set"]),
    ],
)
def test_a_fifo_is_refused_at_once(fifo, name, command):
    path = fifo(name)
    arg = f"route={path}" if command[-1] == "--set" else str(path)
    err = one_line_or_success([*command, arg])
    assert FIFO in err and str(path) in err


def test_a_fifo_as_manifest_or_space_file_is_refused(tmp_path, fifo):
    (tmp_path / "s.toml").write_text('game = "dicerace"\nraces = 20\n')
    start(load_scenario(tmp_path / "s.toml"), tmp_path / "run")
    (tmp_path / "run" / "manifest.json").unlink()
    os.mkfifo(tmp_path / "run" / "manifest.json")
    for command in (["run", "--resume"], ["report"]):
        err = one_line_or_success([*command, str(tmp_path / "run")])
        assert FIFO in err and "manifest.json" in err
    space = fifo("space.toml")
    err = one_line_or_success(
        ["tune", str(tmp_path / "s.toml"), "--space", str(space), "--out", str(tmp_path / "t")]
    )
    assert FIFO in err and f"space '{space}'" in err


def test_a_200_bot_ladder_is_refused_before_its_lineups_are_made(tmp_path):
    import simkit.report.ladder  # noqa: F401 (imported first: the bound is timed, not scipy)

    bots = ",".join(["steady", "bold", *(f"x{i}" for i in range(198))])
    err = one_line_or_success(
        ["ladder", "dicerace", "--bots", bots, "--players", "4", "--out", str(tmp_path / "l")]
    )
    assert "ladder: 200 bots at 4 players make 258,739,800 lineups, more than 10,000" in err


def test_a_set_value_of_5000_digits_is_one_line():
    err = one_line_or_success(["race", "dicerace", "--set", "faces=" + "9" * 5000])
    assert "--set 'faces': the value is 5,000 characters long, more than 1,000" in err
    err = one_line_or_success(["race", "dicerace", "--set", "faces=NaN"])
    assert "--set 'faces': NaN is not a number a parameter takes" in err


@pytest.mark.parametrize(
    ("text", "key", "message"),
    [
        ("[faces]\nlow = 2\nhigh = 20\nstep = 1e-300\n", "faces.step", "1.8e+301 steps"),
        ("[faces]\nlow = 2\nhigh = 1e308\nstep = 1e-10\n", "faces.step", "inf steps"),
        (
            "[faces]\nlow = 2\nhigh = 9\n[[reference]]\nfaces = 4\n[[reference]]\nfaces = 4\n",
            "reference",
            "reference 2 repeats reference 1",
        ),
    ],
)
def test_space_files_are_checked_whole_up_front(text, key, message):

    from simkit.files import read_toml
    from simkit.tune.space import parse

    with pytest.raises(SpaceError) as info:
        parse(tomllib.loads(text), "sp.toml")
    assert f"key '{key}'" in str(info.value) and message in str(info.value)
    del read_toml


@pytest.mark.parametrize("text", ["1e999*fairness", "inf*fairness", "nan*fairness", "2e9*fairness"])
def test_objective_weights_are_finite_and_bounded(text):
    from simkit.tune.objective import parse

    with pytest.raises(SimkitError, match="must be above 0 and at most 1e\\+06"):
        parse(text, {}, {})
