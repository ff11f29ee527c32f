"""The CLI shell: version, help on every command."""

import click
from click.testing import CliRunner

from simkit import __version__
from simkit.cli import main


def test_version():
    res = CliRunner().invoke(main, ["--version"])
    assert res.exit_code == 0
    assert res.output == f"simkit, version {__version__}\n"


def _commands(group, prefix=()):
    for name, cmd in group.commands.items():
        yield (*prefix, name), cmd
        if isinstance(cmd, click.Group):
            yield from _commands(cmd, (*prefix, name))


def test_every_command_has_help_text():
    for path, cmd in _commands(main):
        assert cmd.help and len(cmd.help.strip()) > 20, f"'simkit {' '.join(path)}' lacks help"
        res = CliRunner().invoke(main, [*path, "-h"])
        assert res.exit_code == 0, path
        assert "Usage: " in res.output
