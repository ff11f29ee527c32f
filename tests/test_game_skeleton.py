"""One skeleton per game (issues 27, 38): every engine answers the same calls the same way.

The behaviour tests below ask every game (each engine and the variant package) the same
questions through ``Game`` and its position functions, and hold each answer to one
contract: a batch's columns, shapes and totals; races that depend on their key only, for
any thread count; a trace of the race the batch played; the position functions of
``docs/positions.md``. ``docs/games.md`` ("Adding a game") describes each module; a new
game copies any engine.
A package of ``simkit.games`` is either an engine (its ``GAME`` is a class of its own
``game.py``, and it has every module of ``SKELETON``) or a variant package of an engine
(only ``__init__.py`` and data, its ``GAME`` a subclass of an engine's: ``mushmush`` is the
Snow Tails engine with Mush! Mush!'s defaults, track files and fitted bots).
"""

from __future__ import annotations

import functools
import importlib
import json
import pkgutil
from pathlib import Path

import numpy as np
import pytest

import simkit.games
from simkit.games.base import Batch, Game, race_rows
from simkit.games.cells import build_cell
from simkit.games.round_counts import MEASURES

GAMES = Path(simkit.games.__file__).resolve().parent
DOC = GAMES.parents[1] / "docs" / "games.md"
PACKAGES = sorted(p.name for p in GAMES.iterdir() if (p / "__init__.py").exists())

# docs/positions.md, "The functions": what every engine's position.py defines.
POSITION_FUNCTIONS = (
    "new",
    "legal_plays",
    "apply",
    "to_move",
    "is_over",
    "result",
    "observe",
    "determinize",
)
# Module: role, as docs/games.md describes them.
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
    "report": "its section of a report (Game.extras.report_section)",
    "analysis": "the numbers its report section shows",
    "search": "the search bot, search:N",
    "cli": "the commands it adds to simkit (Game.extras.commands)",
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


KEYS = np.arange(1, 41, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15)


@functools.cache
def _played(package: str, threads: int) -> Batch:
    game = _game(package)
    return game.simulate(build_cell(package), KEYS, threads=threads)


def _same(a: Batch, b: Batch, rows: slice = slice(None)) -> None:
    for part in ("seats", "races"):
        mine, other = getattr(a, part), getattr(b, part)
        assert list(mine) == list(other), part
        for name in mine:
            np.testing.assert_array_equal(mine[name][rows], other[name], err_msg=name)


@pytest.mark.parametrize("package", PACKAGES)
def test_a_batch_has_the_games_columns_shapes_and_totals(package):
    game, cell = _game(package), build_cell(package)
    batch = _played(package, 1)
    n, players = len(KEYS), cell.players
    assert list(batch.seats) == list(game.seat_columns)
    assert list(batch.races) == list(game.race_columns)
    for name, col in game.seat_columns.items():
        assert batch.seats[name].shape == (n, players), name
        assert batch.seats[name].dtype == np.dtype(col.dtype), name
    for name, col in game.race_columns.items():
        assert batch.races[name].shape == (n,), name
        assert batch.races[name].dtype == np.dtype(col.dtype), name
    assert list(batch.heat) == list(game.heat_kinds)
    # Every seat of every race is counted once in the first round (docs/tables.md,
    # "round_position"), by start slot and by seat alike; each race has one row of measures.
    assert batch.round_position[0].sum() == n * players
    assert batch.seat_position[0].sum() == n * players
    assert batch.end_position[0].sum() == n * players
    assert list(batch.round_measures) == list(MEASURES)
    assert all(m.shape == (n,) for m in batch.round_measures.values())
    # A seat finishes at a place of 1..players.
    finish = batch.seats["finish"]
    assert finish.min() >= 1 and finish.max() <= players


@pytest.mark.parametrize("package", PACKAGES)
def test_a_race_depends_on_its_key_only_for_any_thread_count(package):
    whole = _played(package, 1)
    _same(whole, _played(package, 2))
    part = _game(package).simulate(build_cell(package), KEYS[7:12], threads=1)
    _same(whole, part, slice(7, 12))


@pytest.mark.parametrize("package", PACKAGES)
def test_a_trace_replays_the_race_the_batch_played(package):
    game, cell = _game(package), build_cell(package)
    key = int(KEYS[3])
    trace = game.trace(cell, key)
    data = json.loads(json.dumps(trace.to_json()))
    assert data["game"] == package and data["key"] == key
    assert trace.rows() == race_rows(_played(package, 1), 3)


@pytest.mark.parametrize("package", ["mush", "mushroomwalk", "snowtails"])
def test_every_engine_has_the_position_functions(package):
    position = importlib.import_module(f"simkit.games.{package}.position")
    missing = [f for f in POSITION_FUNCTIONS if not callable(getattr(position, f, None))]
    assert missing == [], f"simkit/games/{package}/position.py lacks {missing} (docs/positions.md)"


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
    section = game.extras.report_section
    assert ("report" in modules) == (section is not None and section.startswith(own)), section
    if "analysis" in modules:
        assert "report" in modules
    for ref in game.extras.commands:
        assert ref.startswith(own + "cli:"), ref
    assert ("cli" in modules) == bool(game.extras.commands)


def test_the_doc_describes_every_module():
    text = DOC.read_text()
    for module in [*SKELETON, *OPTIONAL]:
        assert f"`{module}.py`" in text, module
