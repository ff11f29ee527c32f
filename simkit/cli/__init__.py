"""The ``simkit`` command line: a thin layer over the library (DESIGN §1).

Each command module parses arguments, calls the library and prints. Library errors
(:class:`simkit.errors.SimkitError`) become one-line ``click.ClickException`` messages;
anything else is a bug and keeps its traceback.
"""

from __future__ import annotations

import importlib

import click

from simkit import __version__
from simkit.cli.common import SimkitGroup

CONTEXT_SETTINGS = {"help_option_names": ["-h", "--help"], "max_content_width": 100}

# (module, attribute) of every command group or command; one line per command module.
_COMMANDS = [
    ("simkit.cli.games", "variants"),
    ("simkit.cli.games", "race"),
    ("simkit.cli.games", "moves"),
    ("simkit.cli.tracks", "tracks"),
    ("simkit.cli.run", "run"),
    ("simkit.cli.run", "scenario"),
    ("simkit.cli.report", "report"),
    ("simkit.cli.report", "compare"),
    ("simkit.cli.mush", "routes"),
    ("simkit.cli.ladder", "ladder"),
]


@click.group(cls=SimkitGroup, context_settings=CONTEXT_SETTINGS)
@click.version_option(__version__, "-V", "--version", prog_name="simkit")
def main() -> None:
    """Simulate board-game rules variants at scale and report on their balance.

    \b
    Typical use:
      simkit tracks list                     the tracks simkit ships
      simkit race --game snowtails --seed 7  one race, turn by turn
      simkit run scenarios/demo.toml         a Monte Carlo study into parquet tables
      simkit report runs/demo                an HTML + Markdown balance report

    Every command has its own --help.
    """


for _module, _attr in _COMMANDS:
    main.add_command(getattr(importlib.import_module(_module), _attr))
