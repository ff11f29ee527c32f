"""Bots files: fitted presets as ``[base.preset]`` tables, written by ``simkit bots tune``
into its tuning folder and read where a scenario (``bots_file``) or ``--bots-file`` names one.

Each table holds the ``weights`` the game reads (in ``TunableBot.names`` order) and, beside
them, how they were found: the command, seed, field, players, track and rules preset, the
budget, the date and the confirmation. tomlkit rewrites the file keeping every other table
and every comment as they were, so hand-written notes survive a new fit.

A fit is played by name, ``base:preset`` (``greedy:fitted``), once a bots file is named:
:func:`aliases` reads it (through :mod:`simkit.files`, so a run records it by content) and
:func:`played_as` turns each such name into the explicit spec of its weights
(``greedy[1/0.27/...]``, :meth:`simkit.games.base.TunableBot.spec`), which every game
plays wherever it takes bots: a run's cells, a Dask worker and a resume need nothing else.
A bots file may not rename a preset simkit ships: ``greedy:tuned`` is always the same bot.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from simkit.errors import SimkitError
from simkit.files import read_toml
from simkit.runner.storage import write_atomic

HEADER = (
    "Fitted bot presets: written by `simkit bots tune` into its tuning folder (docs/bots.md).\n"
    "Each [base.name] table is played as the bot 'base:name' by a scenario whose bots_file\n"
    "names this file, or with --bots-file; 'weights' are what the game reads, the rest says\n"
    "how they were found. Refit rather than edit the weights by hand."
)


def aliases(path: str | Path, game: str) -> dict[str, str]:
    """The fitted presets of the bots file at ``path`` for ``game``: the name each is played
    by (``greedy:fitted``) -> the spec of its weights (``greedy[1/0.27/...]``).

    Raises:
        SimkitError: (key ``bots_file``) a file that is no bots file, a table of a bot the
            game cannot fit, weights of the wrong count or not finite, or a name the game
            already plays (a preset simkit ships).
    """
    from simkit.games import get
    from simkit.games.cells import build_cell

    where = f"bots file '{path}'"

    def error(msg: str) -> SimkitError:
        return SimkitError(f"{where}: {msg}", key="bots_file")

    data = read_toml(path, error)
    g = get(game)
    out: dict[str, str] = {}
    for base, table in data.items():
        t = g.extras.tunable.get(base)
        if t is None or not isinstance(table, dict):
            can = ", ".join(g.extras.tunable) or "none"
            raise error(f"[{base}] is not a bot {game} can fit (it fits: {can})")
        for name, entry in table.items():
            weights = entry.get("weights") if isinstance(entry, dict) else None
            if (
                not isinstance(weights, list)
                or len(weights) != len(t.names)
                or not all(_finite(w) for w in weights)
            ):
                raise error(
                    f"[{base}.{name}] needs weights = [...] of {len(t.names)} finite numbers "
                    f"({', '.join(t.names)})"
                )
            try:
                build_cell(game, bots=f"{base}:{name}")
            except SimkitError:
                out[f"{base}:{name}"] = t.spec(weights)
                continue
            raise error(
                f"[{base}.{name}] has the name of a bot simkit ships ('{base}:{name}'); "
                "rename the table"
            )
    return out


def _finite(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def played_as(bots: str | Sequence[str], fits: dict[str, str]) -> str | list[str]:
    """``bots`` (one name, or one per seat) with every fitted preset of ``fits``
    (:func:`aliases`) replaced by its spec, also after a search's ``@``
    (``search:32@greedy:fitted``)."""

    def one(spec: str) -> str:
        head, at, tail = spec.partition("@")
        if spec in fits:
            return fits[spec]
        return f"{head}@{fits[tail]}" if at and tail in fits else spec

    return one(bots) if isinstance(bots, str) else [one(b) for b in bots]


def record(path: Path, base: str, name: str, weights: tuple[float, ...], facts: dict[str, Any]):
    """Write ``[base.name]`` into the bots file at ``path``, replacing an earlier fit."""
    import tomlkit  # only a tuning writes; reading a bots file needs tomllib alone

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
