"""Every count a command takes is bounded before any work (issue 37): an option or argument
holding a number has an upper bound, and a fraction refuses NaN."""

from __future__ import annotations

import click
import pytest
from click.testing import CliRunner

from simkit.cli import main


def _commands(group: click.Group, ctx: click.Context, prefix: str = ""):
    for name in group.list_commands(ctx):
        cmd = group.get_command(ctx, name)
        if isinstance(cmd, click.Group):
            yield from _commands(cmd, ctx, f"{prefix}{name} ")
        else:
            yield f"{prefix}{name}", cmd


def _numbers():
    with click.Context(main) as ctx:
        for path, cmd in _commands(main, ctx):
            for param in cmd.params:
                if isinstance(param.type, click.types._NumberParamTypeBase):
                    yield f"{path} {param.name}", param.type


@pytest.mark.parametrize(("where", "kind"), list(_numbers()), ids=lambda x: str(x))
def test_every_number_has_an_upper_bound(where, kind):
    assert isinstance(kind, click.IntRange | click.FloatRange), f"{where}: unbounded {kind}"
    assert kind.max is not None, f"{where}: no upper bound"


@pytest.mark.parametrize("command", [["report", "."], ["compare", ".", "."]])
def test_a_tolerance_of_nan_is_refused(command):
    res = CliRunner().invoke(main, [*command, "--tolerance", "nan"])
    assert res.exit_code == 2
    assert "Invalid value for '--tolerance': nan is not in the range 0.0<x<=1.0." in res.output
