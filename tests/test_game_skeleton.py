"""One skeleton per game (issue 27): every engine package has the same module names and roles.

``docs/games.md`` ("Adding a game") describes each module; a new game copies any engine.
A package of ``simkit.games`` is either an engine (its ``GAME`` is a class of its own
``game.py``, and it has every module of ``SKELETON``) or a variant package of an engine
(only ``__init__.py`` and data, its ``GAME`` a subclass of an engine's: ``mushmush`` is the
Snow Tails engine with Mush! Mush!'s defaults, track files and fitted bots).
"""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

import pytest

import simkit.games
from simkit.games.base import Game

GAMES = Path(simkit.games.__file__).resolve().parent
DOC = GAMES.parents[1] / "docs" / "games.md"
PACKAGES = sorted(p.name for p in GAMES.iterdir() if (p / "__init__.py").exists())

# Module: role. Every engine package has all of them.
SKELETON = {
    "__init__": "registers GAME (simkit.games.register)",
    "game": "the Game record: cells in, result arrays and traces out",
    "params": "the variant parameters and presets",
    "records": "the record layouts the kernels share (position, plays, inputs, results)",
    "position": "the position functions (docs/positions.md)",
    "rules": "the small rule kernels, each citing its source",
    "bots": "bot names, specs and presets (Python)",
    "policy": "the heuristic bots' kernels (greedy and its kin)",
    "choose": "the one kernel that gives a decision to the seat's bot",
    "batch": "many races on threads (simkit.games.blocks)",
    "kernels": "Python's doors into the internal kernels",
    "trace": "one race with the event log on (simkit race)",
    "moves": "the simkit moves oracle: positions as JSON, every legal play and its outcome",
}
# Modules a game has only if it has the part; the role is fixed when it does.
OPTIONAL = {
    "report": "its section of a report (Game.report_section)",
    "analysis": "the numbers its report section shows",
    "search": "the search bot, search:N",
    "cli": "the commands it adds to simkit (Game.commands)",
}


def _modules(package: str) -> set[str]:
    names = {m.name for m in pkgutil.iter_modules([str(GAMES / package)]) if not m.ispkg}
    return names | {"__init__"}


def _game(package: str) -> Game:
    return importlib.import_module(f"simkit.games.{package}").GAME


def _engines() -> list[str]:
    return [p for p in PACKAGES if type(_game(p)).__module__ == f"simkit.games.{p}.game"]


def test_the_engines_and_the_variant_package():
    assert _engines() == ["mush", "mushroomwalk", "snowtails"]
    assert [p for p in PACKAGES if p not in _engines()] == ["mushmush"]


@pytest.mark.parametrize("package", ["mush", "mushroomwalk", "snowtails"])
def test_every_engine_has_the_skeleton(package):
    missing = sorted(set(SKELETON) - _modules(package))
    assert missing == [], f"simkit/games/{package} lacks {missing} (docs/games.md)"


@pytest.mark.parametrize("package", PACKAGES)
def test_every_package_is_an_engine_or_a_variant_of_one(package):
    game = _game(package)
    assert isinstance(game, Game)  # the defaults of the optional parts come from Game
    if package in _engines():
        return
    # A variant package: no module of its own, its game a subclass of an engine's Game.
    assert _modules(package) == {"__init__"}, package
    bases = {c.__module__ for c in type(game).__mro__[1:]}
    assert {f"simkit.games.{e}.game" for e in _engines()} & bases, package


@pytest.mark.parametrize("package", PACKAGES)
def test_optional_modules_are_what_the_game_declares(package):
    game, modules = _game(package), _modules(package)
    own = f"simkit.games.{package}."
    section = game.report_section
    assert ("report" in modules) == (section is not None and section.startswith(own)), section
    if "analysis" in modules:
        assert "report" in modules
    for ref in game.commands:
        assert ref.startswith(own + "cli:"), ref
    assert ("cli" in modules) == bool(game.commands)


def test_the_doc_describes_every_module():
    text = DOC.read_text()
    for module in [*SKELETON, *OPTIONAL]:
        assert f"`{module}.py`" in text, module
