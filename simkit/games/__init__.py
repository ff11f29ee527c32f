"""Games simkit can simulate, looked up by name in a registry (GLOSSARY: "game").

Each game is a subpackage of ``simkit.games`` that ends its ``__init__.py`` with
``register(GAME)`` (OpenSpiel's ``pyspiel.register_game``): ``GAME`` is an instance of a
subclass of :class:`simkit.games.base.Game` (docs/games.md, "adding a game").
:func:`names` and :func:`get` import every subpackage once (``pkgutil``) and ask the
registry, so the runner, CLI, docs, reports and bench never list games themselves: adding
a game touches only its own package, tests and docs.

Importing a game defines its kernels but compiles nothing (numba compiles on first call).
"""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

from simkit import _numba_link
from simkit.errors import SimkitError
from simkit.games.base import Game
from simkit.names import unknown
from simkit.tracks.library import shelve

_numba_link.install()  # before any game's kernel compiles: see simkit/_numba_link.py

_REGISTRY: dict[str, Game] = {}
_discovered = False


def register(game: Game) -> Game:
    """Make ``game`` known under ``game.name``; a second, different game of that name is a bug."""
    known = _REGISTRY.get(game.name)
    if known is not None and type(known) is not type(game):
        raise ValueError(f"two games are named '{game.name}': {known!r} and {game!r}")
    _REGISTRY[game.name] = game
    return game


def _discover() -> None:
    """Import every game subpackage once; each registers its games on import."""
    global _discovered
    if _discovered:
        return
    _discovered = True
    for info in pkgutil.iter_modules(__path__, f"{__name__}."):
        if info.ispkg:
            importlib.import_module(info.name)


def names() -> list[str]:
    """Names of the games this installation can simulate, sorted."""
    _discover()
    return sorted(_REGISTRY)


def games() -> list[Game]:
    """Every registered game, in :func:`names` order."""
    return [_REGISTRY[n] for n in names()]


def get(name: str) -> Game:
    """The game called ``name``; ``SimkitError`` (key ``game``) naming the known games otherwise."""
    if name not in _REGISTRY:
        _discover()
    if name not in _REGISTRY:
        raise SimkitError(unknown("game", name, names()), key="game")
    return _REGISTRY[name]


def _track_shelves() -> list[tuple[str, Path]]:
    """(family, folder) of every game that ships tracks, for the tracks library."""
    return [(g.name, g.extras.track_dir) for g in games() if g.extras.track_dir is not None]


shelve(_track_shelves)  # the tracks layer asks no registry: the registry tells it


def import_ref(ref: str) -> object:
    """The object a game declares as ``"module:attribute"`` (kernels, commands, sections)."""
    module, _, attr = ref.partition(":")
    return getattr(importlib.import_module(module), attr)


__all__ = ["Game", "games", "get", "import_ref", "names", "register"]
