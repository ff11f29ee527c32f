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


def test_games_lists_every_registered_game():
    from simkit.games import names

    res = CliRunner().invoke(main, ["games"])
    assert res.exit_code == 0, res.output
    rows = res.output.splitlines()
    assert rows[0].split()[:3] == ["game", "title", "players"]
    assert [r.split()[0] for r in rows[2:]] == names()


def test_race_needs_a_game_and_help_shows_the_games_examples():
    res = CliRunner().invoke(main, ["race"])
    assert res.exit_code == 2
    assert "give --game GAME (`simkit games` lists them), or --replay" in res.output
    res = CliRunner().invoke(main, ["race", "--game", "snowtail"])
    assert res.exit_code == 2 and "'snowtail' is not one of " in res.output
    assert "'mushroomwalk', 'snowtails'" in res.output
    res = CliRunner().invoke(main, ["race", "-h"])
    examples = res.output.split("Examples from the games:\n")[1].splitlines()
    assert "  simkit race --game snowtails --seed 7" in examples
    assert all(line.startswith("  simkit race ") for line in examples if line)


def test_a_game_adds_its_own_commands():
    from simkit.games import get

    assert "simkit.games.mush.cli:routes" in get("mush").commands
    res = CliRunner().invoke(main, ["routes", "list"])
    assert res.exit_code == 0 and res.output.startswith("name")
    assert "routes" in CliRunner().invoke(main, ["-h"]).output


def test_variants_resolves_presets_like_every_other_command():
    res = CliRunner().invoke(main, ["variants", "mush", "--preset", "nope"])
    assert res.exit_code == 1
    assert (
        res.output
        == "Error: mush: unknown preset 'nope' (known: mush, mush-short-north, mush-skip-central)\n"
    )
