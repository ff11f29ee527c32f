"""Games simkit can simulate, looked up by name (GLOSSARY: "game").

Each game lives in its own subpackage and exposes a module-level ``GAME`` object that
satisfies :class:`simkit.games.base.Game`. Importing is lazy so that ``simkit --help``
does not compile kernels.
"""

from __future__ import annotations

import importlib

from simkit.errors import SimkitError
from simkit.games.base import Game

_MODULES = {
    "snowtails": "simkit.games.snowtails",
    "mushmush": "simkit.games.mushmush",
    "mushroomwalk": "simkit.games.mushroomwalk",
    "mush": "simkit.games.mush",
}


def names() -> list[str]:
    """Names of the games this installation can simulate."""
    out = []
    for name, module in _MODULES.items():
        if importlib.util.find_spec(module) is not None:
            out.append(name)
    return out


def get(name: str) -> Game:
    """The game called ``name``; ``SimkitError`` naming the known games otherwise."""
    known = names()
    if name not in known:
        raise SimkitError(f"unknown game '{name}' (known: {', '.join(known)})")
    return importlib.import_module(_MODULES[name]).GAME


__all__ = ["Game", "get", "names"]
