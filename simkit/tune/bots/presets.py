"""Fitted presets in a game's presets file (``Game.bot_presets_file``): ``[base.preset]`` tables.

Each table holds the ``weights`` the game reads (in ``TunableBot.names`` order) and, beside
them, how they were found: the command, seed, field, players, track and rules preset, the
budget, the date and the confirmation. tomlkit rewrites the file keeping every other table
and every comment as they were, so hand-written notes survive a new fit.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import tomlkit

from simkit.errors import SimkitError
from simkit.runner.storage import write_atomic

HEADER = (
    "Fitted bot presets: written by `simkit bots tune` (docs/bots.md). Each [base.name] table\n"
    "is played as the bot 'base:name'; 'weights' are what the game reads, the rest says how\n"
    "they were found. Refit rather than edit the weights by hand."
)


def fitted_for(path: Path | None, base: str, name: str) -> str | None:
    """The game an existing ``[base.name]`` of the presets file was fitted for, if any.

    Games that share an engine share its presets file (Snow Tails and Mush! Mush!), so a fit
    for one must not silently replace the other's.
    """
    if path is None or not Path(path).is_file():
        return None
    try:
        doc = tomlkit.parse(Path(path).read_text(encoding="utf-8"))
    except tomlkit.exceptions.ParseError as exc:
        raise SimkitError(f"'{path}': {exc}; fix or remove the file, then tune again") from None
    entry = doc.get(base, {}).get(name)
    return None if entry is None else str(entry.get("game", ""))


def record(path: Path, base: str, name: str, weights: tuple[float, ...], facts: dict[str, Any]):
    """Write ``[base.name]`` into the presets file at ``path``, replacing an earlier fit."""
    path = Path(path)
    if path.exists():
        try:
            doc = tomlkit.parse(path.read_text(encoding="utf-8"))
        except tomlkit.exceptions.ParseError as exc:
            raise SimkitError(f"'{path}': {exc}; fix or remove the file, then tune again") from None
    else:
        doc = tomlkit.document()
        for line in HEADER.splitlines():
            doc.add(tomlkit.comment(line))
    if base not in doc:
        doc.add(base, tomlkit.table(is_super_table=True))
    entry = tomlkit.table()
    entry.add("weights", tomlkit.array([float(w) for w in weights]))
    for key, value in facts.items():
        entry.add(key, value)
    group = doc[base]
    if name in group:
        del group[name]
    group.add(name, entry)
    # tomlkit keeps the blank lines around a replaced table: drop the extra ones a refit adds.
    text = re.sub(r"\n{3,}", "\n\n", tomlkit.dumps(doc))
    write_atomic(path, text.encode("utf-8"), "tune again")
