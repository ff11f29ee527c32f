"""The ``simkit`` command line: a thin layer over the library (DESIGN §1).

Each command module parses arguments, calls the library and prints. Library errors
(:class:`simkit.errors.SimkitError`) become one-line ``click.ClickException`` messages;
anything else is a bug and keeps its traceback. A game may add commands of its own
(``Game.extras.commands``); they are looked up in the registry only when asked for.
"""

from __future__ import annotations

import importlib

import click

from simkit import __version__
from simkit.cli.common import SimkitGroup

CONTEXT_SETTINGS = {"help_option_names": ["-h", "--help"], "max_content_width": 100}

# (module, attribute) of every command group or command; one line per command module.
_COMMANDS = [
    ("simkit.cli.games", "games"),
    ("simkit.cli.games", "variants"),
    ("simkit.cli.games", "race"),
    ("simkit.cli.games", "moves"),
    ("simkit.cli.tracks", "tracks"),
    ("simkit.cli.run", "run"),
    ("simkit.cli.run", "scenario"),
    ("simkit.cli.report", "report"),
    ("simkit.cli.report", "compare"),
    ("simkit.cli.why", "why"),
    ("simkit.cli.ladder", "ladder"),
    ("simkit.cli.bots", "bots"),
    ("simkit.cli.tune", "tune"),
    ("simkit.cli.serve", "serve"),
]


class _Main(SimkitGroup):
    """The top-level group: simkit's own commands, then those the games add."""

    def _game_commands(self) -> dict[str, click.Command]:
        from simkit.games import games, import_ref

        found = {}
        for g in games():
            for ref in g.extras.commands:
                cmd = import_ref(ref)
                found[cmd.name] = cmd
        return found

    def list_commands(self, ctx: click.Context) -> list[str]:
        return [*super().list_commands(ctx), *sorted(self._game_commands())]

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        return super().get_command(ctx, cmd_name) or self._game_commands().get(cmd_name)


@click.group(cls=_Main, context_settings=CONTEXT_SETTINGS)
@click.version_option(__version__, "-V", "--version", prog_name="simkit")
def main() -> None:
    """Simulate board-game rules variants at scale and report on their balance.

    \b
    Typical use:
      simkit games                           the games simkit plays
      simkit race GAME --seed 7              one race, turn by turn
      simkit run scenarios/demo.toml         a Monte Carlo study into parquet tables
      simkit report runs/demo                an HTML + Markdown balance report

    Every command has its own --help.
    """


for _module, _attr in _COMMANDS:
    main.add_command(getattr(importlib.import_module(_module), _attr))
