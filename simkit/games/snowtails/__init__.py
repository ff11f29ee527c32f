"""Snow Tails: the sled race with dog cards, on the compiled tracks (the ``snowtails`` game).

One engine for the Snow Tails family (DESIGN §1): ``params`` (variant knobs and presets),
``rules``/``movement``/``engine`` (numba kernels of every rule), ``bots``, ``batch``
(parallel simulation), ``trace`` (one race, turn by turn) and ``oracle`` (every legal play
from a position). Rules: ``docs/rules-snowtails.md``.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

import numpy as np

from simkit.errors import SimkitError
from simkit.games.base import Batch, Cell
from simkit.games.snowtails.batch import RACE_COLUMNS, SEAT_COLUMNS, run_batch
from simkit.games.snowtails.bots import BOT_NAMES, GREEDY_PRESETS
from simkit.games.snowtails.layout import HEAT_KINDS, MAX_SEATS
from simkit.games.snowtails.params import PRESETS, SnowTailsParams
from simkit.tracks.compiled import CompiledTrack


@functools.lru_cache(maxsize=16)
def load_track(name: str) -> CompiledTrack:
    """A compiled track by library name or path (cached: compiling is not free)."""
    from simkit.tracks import load

    return load(name)


def cell_slots(cell: Cell) -> tuple[int, ...]:
    """The start slots a cell races from (R-06): its own list, or 1..players."""
    return tuple(cell.slots) if cell.slots is not None else tuple(range(1, cell.players + 1))


class SnowTailsGame:
    """The ``GAME`` object: what the runner, the CLI and reports know of Snow Tails."""

    name = "snowtails"
    title = "Snow Tails"
    params = SnowTailsParams
    presets: Mapping[str, SnowTailsParams] = PRESETS
    default_preset = "snowtails"
    min_players = 2
    max_players = MAX_SEATS
    default_players = 4
    bots = BOT_NAMES
    uses_track = True
    default_track = "nutcracker"
    seat_columns = SEAT_COLUMNS
    race_columns = RACE_COLUMNS
    heat_kinds = HEAT_KINDS

    def check_cell(self, cell: Cell) -> None:
        """Game checks beyond ``build_cell``: bot presets, track grid, slots, tables."""
        for b in cell.bots:
            if b != "random" and b not in GREEDY_PRESETS:
                known = ", ".join(["random", *GREEDY_PRESETS])
                raise SimkitError(f"snowtails: unknown bot '{b}' (known: {known})")
        if cell.track is None:
            raise SimkitError("snowtails needs a track (e.g. --track nutcracker)")
        track = load_track(cell.track)
        grid = [int(s) for s in track.start_slots]
        slots = cell_slots(cell)
        if len(slots) != cell.players:
            raise SimkitError(
                f"snowtails: {cell.players} players need {cell.players} slots (got {len(slots)})"
            )
        if len(set(slots)) != len(slots):
            raise SimkitError(f"snowtails: start slots must differ (got {list(slots)})")
        for s in slots:
            if not 1 <= s <= len(grid) or grid[s - 1] < 0:
                have = [i + 1 for i, g in enumerate(grid) if g >= 0]
                raise SimkitError(
                    f"snowtails: track '{cell.track}' has no start slot {s} "
                    f"(slots: {have}); choose slots among them"
                )
        v = cell.variant
        if max(slots) > len(v.extra_cards):
            raise SimkitError(
                f"snowtails.extra_cards has {len(v.extra_cards)} entries; slot {max(slots)} "
                "needs one"
            )
        if cell.players > len(v.points):
            raise SimkitError(
                f"snowtails.points has {len(v.points)} entries; {cell.players} players need "
                f"{cell.players}"
            )

    def simulate(
        self,
        cell: Cell,
        keys: np.ndarray,
        threads: int | None = None,
        race_indices: np.ndarray | None = None,
    ) -> Batch:
        """Play one race per root key; rows in key order, seats in seat order.

        No Snow Tails rule depends on a race's index, so ``race_indices`` is not used.
        """
        track = load_track(cell.track)
        return run_batch(track, cell.variant, cell.bots, cell_slots(cell), keys, threads)

    def trace(self, cell: Cell, key: int, race_index: int | None = None) -> Any:
        """Replay race ``key`` with the event log on (see ``trace.RaceTrace``)."""
        from simkit.games.snowtails.trace import trace_race

        track = load_track(cell.track)
        return trace_race(track, cell.variant, cell.bots, cell_slots(cell), key)

    def moves(self, state: Mapping[str, Any]) -> Any:
        """Every legal play from a position and its exact outcome (docs/state.md)."""
        from simkit.games.snowtails.oracle import moves

        return moves(state)


GAME = SnowTailsGame()

__all__ = ["GAME", "SnowTailsGame", "SnowTailsParams"]
