"""Build a validated :class:`~simkit.games.base.Cell` from user-facing names.

Shared by the CLI (``simkit race``) and the scenario expander, so both accept and reject
exactly the same things. Every rejection carries the ``key`` of the input to blame
(``preset``, a parameter, ``players``, ``bots``, ``slots``, ``track``), which a scenario
maps to its own line without reading the message.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from simkit.errors import SimkitError
from simkit.games import get
from simkit.games.base import Cell
from simkit.names import closest
from simkit.tracks.override import DerivedTrack


def build_cell(
    game: str,
    *,
    preset: str | None = None,
    overrides: Mapping[str, Any] | None = None,
    track: str | DerivedTrack | None = None,
    players: int | None = None,
    bots: Sequence[str] | str | None = None,
    slots: Sequence[int] | None = None,
    cell_id: int = 0,
) -> Cell:
    """A cell of ``game``: preset (default: the game's) plus overrides, track, seats, bots.

    ``bots`` may be one bot name for every seat or one per seat; default ``greedy``.
    """
    g = get(game)
    variant = g.params.resolve(g.presets, preset or g.default_preset, overrides)
    n = g.default_players if players is None else int(players)
    if not g.min_players <= n <= g.max_players:
        raise SimkitError(
            f"{game}: players must be between {g.min_players} and {g.max_players} (got {n})",
            key="players",
        )
    if bots is None:
        bots = "greedy" if "greedy" in g.bots else g.bots[0]
    seat_bots = (bots,) * n if isinstance(bots, str) else tuple(bots)
    if len(seat_bots) != n:
        raise SimkitError(f"{game}: {n} players need {n} bots (got {len(seat_bots)})", key="bots")
    for b in seat_bots:
        base = re.split(r"[:\[]", b)[0]  # "greedy:bold", "greedy[1/0.3/...]"
        if base not in g.bots:
            close = closest(base, g.bots)
            hint = f"; did you mean '{close + b[len(base) :]}'?" if close else ""
            known = ", ".join(g.bots)
            raise SimkitError(f"{game}: unknown bot '{b}' (known: {known}){hint}", key="bots")
    if g.uses_track:
        track = track or g.default_track
    elif track is not None:
        raise SimkitError(f"{game} is not played on a track (got track '{track}')", key="track")
    cell = Cell(
        game=game,
        variant=variant,
        track=track,
        players=n,
        bots=seat_bots,
        slots=None if slots is None else tuple(int(s) for s in slots),
        cell_id=cell_id,
    )
    g.check_cell(cell)
    return cell
