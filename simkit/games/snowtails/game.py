"""``GAME``: Snow Tails behind simkit's one game interface (:class:`simkit.games.base.Game`).

Cells in, result arrays and traces out: the checks a cell must pass (start slots, tracks,
the variant's tables), the tracks of a unit (``unit_tracks``) and the calls into ``batch``,
``trace`` and ``moves``. Mush! Mush! (``simkit.games.mushmush``) is this class with ST2
defaults.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any

import numpy as np

from simkit.errors import SimkitError
from simkit.games.base import Batch, BenchSpec, Cell, Extras, Game, RuleElement
from simkit.games.snowtails.batch import (
    RACE_COLUMNS,
    SEAT_COLUMNS,
    cell_slots,
    load_track,
    run_batch,
    unit_tracks,
)
from simkit.games.snowtails.bots import BOT_NAMES, PRESETS_FILE, TUNABLE, parse_bot
from simkit.games.snowtails.choose import expect_search, guided, searches
from simkit.games.snowtails.params import PRESETS, SnowTailsParams
from simkit.games.snowtails.records import HEAT_KINDS, MAX_SEATS
from simkit.tracks.compiled import F_TREE


def _zeros(key: str):
    """A per-slot table of zeros as long as the variant's ``key``."""
    return lambda v: tuple(0 for _ in getattr(v, key))


def _level_dice(v) -> tuple[int, ...]:
    """Every slot's bonus dice at the table's rounded mean: no slot starts ahead (R-23)."""
    table = v.bonus_dice_start
    return (round(sum(table) / len(table)),) * len(table)


def _has_trees(cell: Cell) -> bool:
    return any(bool((t.flags & F_TREE).any()) for t in unit_tracks(cell))


def _has_buildings(cell: Cell) -> bool:
    return any(bool(t.buildings) for t in unit_tracks(cell))


# The rules that may favour a start slot (Game.extras.rule_elements), each switched off in turn.
RULE_ELEMENTS = (
    RuleElement("extra_cards", _zeros("extra_cards"), "extra start cards by slot (R-11)"),
    RuleElement("bonus_rule", "none", "the balanced-sled bonus (R-14, R-23)"),
    RuleElement("bonus_dice_start", _level_dice, "bonus dice start values by slot (R-23)"),
    RuleElement(
        "tie_break",
        lambda v: "speed" if v.tie_break == "inside" else "inside",
        "the tie-break between level sleds (R-03)",
    ),
    RuleElement("tight_corner_order", False, "inside lane first on tight corners (R-29)"),
    RuleElement(
        "safety_speeds", False, "dents for entering corners too fast (R-15)", covers="safety"
    ),
    RuleElement("trees", False, "the trees (R-21)", _has_trees, covers="trees"),
    RuleElement(
        "buildings", "none", "the buildings (ST2 F, R-27)", _has_buildings, covers="buildings"
    ),
    RuleElement("wall_dents", 0, "dents for hitting the side of the track (R-17)"),
    RuleElement("sled_collision_die", 0, "bonus dice lost for hitting a sled (R-24)"),
)


class SnowTailsGame(Game):
    """The ``GAME`` object: what the runner, the CLI and reports know of Snow Tails."""

    name = "snowtails"
    title = "Snow Tails"
    params = SnowTailsParams
    presets: Mapping[str, SnowTailsParams] = PRESETS
    default_preset = "snowtails"
    max_players = MAX_SEATS
    default_players = 4
    bots = BOT_NAMES
    uses_track = True
    default_track = "nutcracker"
    seat_columns = SEAT_COLUMNS
    race_columns = RACE_COLUMNS
    heat_kinds = HEAT_KINDS
    extras = Extras(
        tunable=MappingProxyType({"greedy": TUNABLE}),
        bot_presets_file=PRESETS_FILE,
        reference_bot="search:64",  # model-free: rollouts to the end, no fitted part but greedy's
        rule_elements=RULE_ELEMENTS,
        kernels={
            "simulate": ("simkit.games.snowtails.batch:_block",),
            "trace": (
                "simkit.games.snowtails.kernels:new",
                "simkit.games.snowtails.kernels:_step",
                "simkit.games.snowtails.kernels:result",
            ),
        },
        track_dir=Path(__file__).parent / "tracks",
        examples=(
            "simkit race snowtails --seed 7",
            "simkit race snowtails --track nutcracker --players 4 --seed 7 --png race.png",
            "simkit race snowtails --bots greedy,random,random --json",
            "simkit variants snowtails",
            "simkit variants snowtails --set hand_size=6",
            "simkit moves docs/examples/state-snowtails.json",
            "simkit tracks list --family snowtails",
            "simkit ladder snowtails --bots random,greedy,greedy:cautious,greedy:bold",
            "simkit ladder snowtails --bots greedy,greedy:tuned,search --races 2000",
            "simkit bots tune snowtails greedy --field greedy,greedy:cautious,greedy:bold",
        ),
        bench=BenchSpec(
            "4 greedy bots, nutcracker",
            {"players": 4, "bots": "greedy", "track": "nutcracker"},
            races=20_000,
            nojit_races=3,
            extra={
                "4 search bots (search:64, the default budget)": {
                    "players": 4,
                    "bots": "search",
                    "track": "nutcracker",
                },
                "4 greedy:tuned bots": {
                    "players": 4,
                    "bots": "greedy:tuned",
                    "track": "nutcracker",
                },
            },
            runner=True,
        ),
    )

    def construction(self, bot: str) -> str:
        """A search on a distilled policy (``search:...@policy:NAME``) and the policy itself
        are one construction, the policy's; every model-free ``search:N`` is ``search``."""
        if bot.startswith("policy:"):
            return bot
        _, _, after = bot.partition("@")
        return after if after.startswith("policy:") else super().construction(bot)

    def expect(self, bots: Iterable[str]) -> None:
        """A run that will search in some cell compiles only the searching kernels, with
        the policy and the values where some bot is guided (``choose.expect_search``)."""
        settings = [parse_bot(b, self.name) for b in bots]
        if any(searches(s) for s in settings):
            expect_search(any(guided(s) for s in settings))

    def check_cell(self, cell: Cell) -> None:
        """Game checks beyond ``build_cell``: bot presets, tracks, start places, tables."""
        g = self.name
        for b in cell.bots:
            parse_bot(b, g)
        if cell.track is None:
            raise SimkitError(f"{g} needs a track (e.g. --track {self.default_track})")
        slots = cell_slots(cell)
        if len(slots) != cell.players:
            raise SimkitError(
                f"{g}: {cell.players} players need {cell.players} slots (got {len(slots)})"
            )
        if len(set(slots)) != len(slots):
            raise SimkitError(f"{g}: start slots must differ (got {list(slots)})")
        v = cell.variant
        for track in unit_tracks(cell):
            if v.start_rule == "grid":
                grid = [int(s) for s in track.start_slots]
                for s in slots:
                    if not 1 <= s <= len(grid) or grid[s - 1] < 0:
                        have = [i + 1 for i, x in enumerate(grid) if x >= 0] or "none"
                        raise SimkitError(
                            f"{g}: track '{track.name}' has no start slot {s} (slots: {have}); "
                            'choose slots among them, or start_rule = "row" on an ST2 track'
                        )
            elif len(track.start_row) == 0:
                raise SimkitError(
                    f"{g}: track '{track.name}' has no start row (ST2 B); "
                    'use start_rule = "grid" on an ST1 track'
                )
        if max(slots) > MAX_SEATS:
            raise SimkitError(f"{g}: start places run 1..{MAX_SEATS} (got {max(slots)})")
        for name, table in (
            ("extra_cards", v.extra_cards),
            ("bonus_dice_start", v.bonus_dice_start),
        ):
            if name == "bonus_dice_start" and v.bonus_rule != "dice":
                continue
            if max(slots) > len(table):
                raise SimkitError(
                    f"{g}.{name} has {len(table)} entries; slot {max(slots)} needs one"
                )
        if cell.players > len(v.points):
            raise SimkitError(
                f"{g}.points has {len(v.points)} entries; {cell.players} players need "
                f"{cell.players}"
            )

    def check_fit(self, cell: Cell, what: str = "a fit") -> None:
        """Refuse a held-out ground (``grounds.refuse``: ``heldout.toml``)."""
        from simkit.games.snowtails.grounds import refuse

        refuse(cell, what)

    def simulate(
        self,
        cell: Cell,
        keys: np.ndarray,
        threads: int | None = None,
        race_indices: np.ndarray | None = None,
    ) -> Batch:
        """Play one race per root key; rows in key order, seats in seat order.

        A unit is one race, or a whole season / tournament (``races``). No rule of the
        family depends on a race's index, so ``race_indices`` is not used.
        """
        return run_batch(
            unit_tracks(cell), cell.variant, cell.bots, cell_slots(cell), keys, threads
        )

    def trace(self, cell: Cell, key: int, race_index: int | None = None) -> Any:
        """Replay race ``key`` with the event log on (see ``trace.RaceTrace``)."""
        from simkit.games.snowtails.trace import trace_race

        return trace_race(
            unit_tracks(cell), cell.variant, cell.bots, cell_slots(cell), key, self.title
        )

    def seat_events(
        self, cell: Cell, keys: np.ndarray, race_indices: np.ndarray | None = None
    ) -> tuple[Any, Any]:
        """Where each seat gained or lost, race by race (``events.seat_events``)."""
        from simkit.games.snowtails.events import seat_events

        return seat_events(cell, keys, race_indices)

    def moves(self, state: Mapping[str, Any]) -> Any:
        """Every legal play from a position and its exact outcome (docs/state.md)."""
        from simkit.games.snowtails.moves import moves

        return moves(state)


GAME = SnowTailsGame()

__all__ = ["GAME", "SnowTailsGame", "cell_slots", "load_track", "unit_tracks"]
