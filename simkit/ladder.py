"""Ladders (GLOSSARY: ladder): bots played against each other on the runner, then rated.

A ladder is an ordinary run: :func:`scenario` turns the bots into a generated scenario whose
``[grid] bots`` lists the lineups of a balanced design (:func:`lineups`), with common random
numbers on, for :func:`simkit.runner.start` to play (chunks, resume, progress, Dask);
:func:`resume` finishes an interrupted ladder. :mod:`simkit.analysis.ladder` fits the
ratings from its tables and :mod:`simkit.report.ladder` draws the report. docs/ladder.md
explains the design.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from simkit.errors import SimkitError
from simkit.games import get
from simkit.games.cells import build_cell
from simkit.lineups import bots_of, lineup_count, lineups
from simkit.runner import RunSummary, Scenario
from simkit.runner import resume as _resume
from simkit.runner.scenario import MAX_CELLS, MAX_PLAYERS, parse

DEFAULT_RACES = 2_000  # per lineup: 4 Snow Tails bots rated to about ±0.03 (docs/ladder.md)
CHUNK = 1_000  # races per chunk: a slow bot's ladder resumes without losing much
WHERE = "simkit ladder"  # how a generated scenario names itself in errors and manifests


def scenario(
    game: str,
    bots: Sequence[str],
    *,
    players: int | None = None,
    races: int = DEFAULT_RACES,
    seed: int = 0,
    preset: str | None = None,
    track: str | None = None,
    overrides: Mapping[str, Any] | None = None,
) -> Scenario:
    """The generated scenario of a ladder, checked by the game like any cell.

    ``overrides`` are variant parameters on top of the preset, as a scenario's ``[set]``.

    Raises:
        SimkitError: fewer than two bots, a bot named twice, or a cell the game rejects
            (unknown bot, players out of range, track of a game without a board).
    """
    g = get(game)
    if len(set(bots)) != len(bots):
        twice = next(b for b in bots if list(bots).count(b) > 1)
        raise SimkitError(f"ladder: bot '{twice}' is named twice in --bots", key="bots")
    if len(bots) < 2:
        raise SimkitError(
            f"ladder: --bots needs at least two bots to rate against each other "
            f"(got {','.join(bots) or 'none'}; known: {', '.join(g.bots)})",
            key="bots",
        )
    n = g.default_players if players is None else players
    if not isinstance(n, int) or not 1 <= n <= MAX_PLAYERS:
        raise SimkitError(f"ladder: --players must be 1 to {MAX_PLAYERS} (got {n})", key="players")
    count = lineup_count(len(bots), n)
    if count > MAX_CELLS:  # counted, not built: 200 bots at 4 seats would be 258 million
        raise SimkitError(
            f"ladder: {len(bots)} bots at {n} players make {count:,} lineups, more than "
            f"{MAX_CELLS:,}; rate fewer bots at once (e.g. the strongest few, then the rest "
            "against the best of them)",
            key="bots",
        )
    design = lineups(bots, n)
    for b in bots:
        build_cell(game, preset=preset, overrides=overrides, track=track, players=n, bots=b)
    data: dict[str, Any] = {
        "title": f"Ladder: {', '.join(bots)} ({n} players)",
        "game": game,
        "players": n,
        "grid": {"bots": [list(lineup) for lineup in design]},
        "races": races,
        "seed": seed,
        "crn": True,
        "keep": "races",
        "heat": False,
        "chunk_size": min(CHUNK, races),
        "set": dict(overrides or {}),
    }
    if preset is not None:
        data["preset"] = preset
    if track is not None:
        data["track"] = track
    return parse(data, WHERE)


def design_of(manifest: dict[str, Any]) -> list[tuple[str, ...]]:
    """The lineups of the ladder run with this manifest; ``SimkitError`` if it is no ladder."""
    sc = manifest.get("scenario", {})
    grid = sc.get("grid", {})
    design = [tuple(b) for b in grid.get("bots", []) if isinstance(b, list)]
    players = sc.get("players")
    if (
        not design
        or set(grid) != {"bots"}
        or not sc.get("crn")
        or design != lineups(bots_of(design), players)
    ):
        raise SimkitError("not a ladder run (make one with `simkit ladder GAME --bots A,B`)")
    return design


def recorded_bootstrap(manifest: dict[str, Any]) -> int | None:
    """The ``--bootstrap`` the ladder was started with (None: a ladder of an older simkit,
    which recorded none)."""
    value = (manifest.get("options") or {}).get("bootstrap")
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def resume(
    out: str | Path, *, threads: int | None = None, dask: str | None = None, progress: bool = False
) -> RunSummary:
    """Finish an interrupted ladder run; a finished one is left as it is."""
    from simkit.runner.storage import RunDir

    design_of(RunDir(out).read_manifest())
    return _resume(out, threads=threads, dask=dask, progress=progress)
