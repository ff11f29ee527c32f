"""MUSH behind the shared game interface: cells in, result arrays and traces out.

The route is a variant parameter (``route``: a shipped name or a TOML path), so MUSH is
not a track game for the runner (``uses_track`` is False) and a scenario chooses the
route the same way it chooses any other rule. ``slot`` is a seat's place in the
clockwise order, counted from the player who chooses training first (R-06 analogue:
seats take slots 1..n in a random order per race; R-44).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from simkit.errors import ParamError, SimkitError
from simkit.games.base import (
    COMMON_RACE_COLUMNS,
    COMMON_SEAT_COLUMNS,
    Batch,
    BenchSpec,
    Cell,
    Column,
    Extras,
    Game,
    RuleElement,
)
from simkit.games.mush import batch, records
from simkit.games.mush.arrays import kernel_cell, kernel_route
from simkit.games.mush.bots import BOT_KINDS
from simkit.games.mush.params import PRESETS, MushParams
from simkit.games.mush.route import load_route

_SEAT_OWN: dict[str, Column] = {
    "training": Column("int8", "training chosen: 0 warm, 1 mild, 2 cold (R-44)"),
    "initiative_first": Column("bool", "held the polar bear (initiative) in round 1"),
    "tokens_left": Column("int16", "action tokens at the end", "tokens"),
    "tokens_spent": Column("int16", "action tokens spent on anything", "tokens"),
    "tokens_gained": Column("int16", "action tokens gained by resting", "tokens"),
    "rests": Column("int16", "turns spent resting in a town", "turns"),
    "dogs_covered_max": Column("int8", "most dogs covered at once (fatigue)", "dogs"),
    "dogs_covered_end": Column("int8", "dogs covered at the end", "dogs"),
    "spaces": Column("int16", "spaces moved", "spaces"),
    "to_go": Column("int16", "moves still to the goal at the end (0 for the winner)", "spaces"),
    "rough_rolls": Column("int16", "rough-terrain rolls, rerolls included", "rolls"),
    "rough_fails": Column("int16", "moves ended by failing to enter rough terrain", "moves"),
    "avalanche_rolls": Column("int16", "avalanche rolls, rerolls included", "rolls"),
    "avalanche_fails": Column("int16", "moves ended by an avalanche", "moves"),
    "rerolls": Column("int16", "rerolls paid for (own or forced on others)", "rerolls"),
    "dice_removed": Column("int16", "opponents' dice this sled paid to remove", "dice"),
    "dice_lost": Column("int16", "own dice removed by opponents", "dice"),
    "avalanches_placed": Column("int16", "avalanche markers placed or moved", "markers"),
    "avalanches_removed": Column("int16", "avalanche markers removed from its path", "markers"),
    "passes": Column("int16", "turns it paid to pass occupied wilderness", "turns"),
    "bid_tokens": Column("int16", "action tokens bid for the order of play (R-47)", "tokens"),
    "bids_won": Column("int16", "rounds it was the highest bidder", "rounds"),
}
_RACE_OWN: dict[str, Column] = {
    "timed_out": Column("bool", "nobody reached the goal within max_rounds"),
    "warm_rounds": Column("int16", "rounds of warm weather", "rounds"),
    "mild_rounds": Column("int16", "rounds of mild weather", "rounds"),
    "cold_rounds": Column("int16", "rounds of cold weather", "rounds"),
    "lead_changes": Column("int16", "rounds after which the leader had changed", "rounds"),
}


@dataclass(frozen=True)
class Inputs:
    """What MUSH kernel functions read besides the position, each a one-element record
    array (take ``[0]``): the variant (``prm``), the cell (``cell``), the route (``rt``)."""

    prm: np.ndarray
    cell: np.ndarray
    rt: np.ndarray


def _no_training_limits(v) -> tuple[int, ...]:
    """Every training open to every sled, for 2 to 6 players: choosing first gains nothing."""
    return tuple(n for n in range(2, 7) for _ in range(3))


# The rules that may favour a slot (the order of choosing training), each switched off.
RULE_ELEMENTS = (
    RuleElement("training_limits", _no_training_limits, "the limits on each training (R-44)"),
    RuleElement("bidding", False, "secret bids for the order of play (R-47)"),
    RuleElement("bid_extra", 0, "the highest bidder's extra spaces (R-47)"),
    RuleElement("bonus_on_match", False, "the bonus roll when weather matches training (R-42)"),
)


class MushGame(Game):
    """The ``GAME`` object of MUSH (see :class:`simkit.games.base.Game`)."""

    name = "mush"
    title = "MUSH (1994)"
    params = MushParams
    presets: Mapping[str, MushParams] = PRESETS
    default_preset = "mush"
    max_players = records.MAX_SEATS
    default_players = 4
    bots = BOT_KINDS
    seat_columns: Mapping[str, Column] = {**COMMON_SEAT_COLUMNS, **_SEAT_OWN}
    race_columns: Mapping[str, Column] = {**COMMON_RACE_COLUMNS, **_RACE_OWN}
    heat_kinds = records.HEAT_KINDS
    extras = Extras(
        reference_bot="search:16",  # the model-free search (docs/bots.md: in MUSH it barely pays)
        kernels={
            "simulate": ("simkit.games.mush.batch:blocks",),
            "trace": ("simkit.games.mush.batch:blocks",),
        },
        examples=(
            "simkit race mush --seed 7",
            "simkit race mush --set route=sprint --players 3 --seed 4",
            "simkit variants mush",
        ),
        commands=("simkit.games.mush.cli:routes",),
        report_section="simkit.games.mush.report:section",
        slots_mean="slot k is the k-th sled to choose its training (R-44): MUSH has no start grid",
        rule_elements=RULE_ELEMENTS,
        bench=BenchSpec(
            "4 greedy bots, standard route",
            {"players": 4, "bots": "greedy"},
            races=20_000,
            nojit_races=4,
            unit="games",
            # About 20 games per CPU second: this row's 4,000 games take a few minutes.
            extra={
                "search (default budget) and 3 greedy bots": {
                    "players": 4,
                    "bots": ["search", "greedy", "greedy", "greedy"],
                }
            },
        ),
    )

    def check_cell(self, cell: Cell) -> None:
        if not isinstance(cell.variant, MushParams):
            raise ParamError(f"mush: the variant must be MUSH parameters (got {cell.variant!r})")
        if not self.min_players <= cell.players <= self.max_players:
            raise SimkitError(f"mush: players must be between 2 and 6 (got {cell.players})")
        if cell.slots is not None and tuple(sorted(cell.slots)) != tuple(
            range(1, cell.players + 1)
        ):
            raise SimkitError(
                f"mush: slots are the order of choosing training and must be 1..{cell.players} "
                f"(got {list(cell.slots)}); leave slots out"
            )
        cell.variant.check_players(cell.players)
        self.inputs(cell)

    def inputs(self, cell: Cell) -> Inputs:
        """The records a MUSH kernel reads for ``cell`` (see ``position.py``)."""
        if len(cell.bots) != cell.players:
            raise SimkitError(f"mush: {cell.players} players need {cell.players} bots")
        route = load_route(cell.variant.route)
        rt = kernel_route(route, cell.variant)
        prm = cell.variant.to_kernel()
        prm = prm.view(np.dtype((np.record, prm.dtype)))  # fields as attributes: records.record
        return Inputs(prm, kernel_cell(route, rt, prm, cell.bots), rt)

    def simulate(
        self,
        cell: Cell,
        keys: np.ndarray,
        threads: int | None = None,
        race_indices: np.ndarray | None = None,
    ) -> Batch:
        # No MUSH rule depends on a race's index: ``race_indices`` is not used.
        inp = self.inputs(cell)
        keys = np.ascontiguousarray(keys, dtype=np.uint64)
        st, rs, counts = batch.run(keys, inp, cell.players, threads)
        seats = {name: st[name].astype(col.dtype) for name, col in self.seat_columns.items()}
        races = {name: rs[name].astype(col.dtype) for name, col in self.race_columns.items()}
        total = counts.heat_total()
        heat_cols = {k: total[i] for i, k in enumerate(records.HEAT_KINDS)}
        return counts.into(Batch(seats, races, heat_cols))

    def trace(self, cell: Cell, key: int, race_index: int | None = None) -> Any:
        from simkit.games.mush.trace import run_trace

        self.check_cell(cell)
        return run_trace(cell, int(key), self.inputs(cell), self.seat_columns, self.race_columns)

    def moves(self, state: Mapping[str, Any]) -> Any:
        from simkit.games.mush.moves import legal_moves

        return legal_moves(state)


GAME = MushGame()
