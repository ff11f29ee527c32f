"""``GAME``: Mushroom Walk behind simkit's one game interface (simkit.games.base.Game).

Results per seat: ``slot`` 1 is the player who starts (R-51), 2 the other; ``finish`` 1
for the winner, 2 for the loser and 1 for both on a draw (the race column ``draw`` tells
draws apart); ``points`` is the score. ``rounds`` counts rounds of two turns, rounded up;
``turns`` counts every turn (stuck players' extra turns included, R-50).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from simkit.errors import SimkitError
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
from simkit.games.blocks import BlockCounts
from simkit.games.mushroomwalk.batch import ROUND_CAP, play_games, run
from simkit.games.mushroomwalk.bots import BOTS, parse_bots
from simkit.games.mushroomwalk.params import PRESETS, MushroomWalkParams
from simkit.games.mushroomwalk.records import EVENT, MAX_DECAY, POSITION, RACE, SEAT, as_records

_OWN_SEAT: dict[str, Column] = {
    "score": Column("int16", "points from dishes ('End of the game')", "points"),
    "mushrooms_cooked": Column("int16", "mushrooms cooked, night cards counting 2", "mushrooms"),
    "dishes": Column("int8", "dishes cooked (pans used)", "dishes"),
    "sticks_left": Column("int16", "walking sticks held at the end", "sticks"),
    "sticks_earned": Column("int16", "walking sticks gained by selling", "sticks"),
    "sticks_paid": Column("int16", "walking sticks paid for deep-forest cards", "sticks"),
    "poison_taken": Column("int8", "poison mushrooms taken", "cards"),
    "pans_taken": Column("int8", "pan cards taken from the forest or decay pile", "cards"),
    "baskets": Column("int8", "baskets in the display at the end", "cards"),
    "night_cards": Column("int8", "night cards taken for moons (deal included)", "cards"),
    "butter_used": Column("int8", "butter added to dishes", "cards"),
    "cider_used": Column("int8", "cider added to dishes", "cards"),
    "mushrooms_sold": Column("int16", "mushrooms sold, night cards counting 2", "mushrooms"),
    "decay_takes": Column("int8", "times the whole decay pile was taken", "turns"),
    "cards_discarded": Column("int8", "hand cards discarded to a poison's lower limit", "cards"),
    "hand_left": Column("int8", "hand cards (night cards included) at the end", "cards"),
    "turns_taken": Column("int16", "turns this seat played", "turns"),
    "turns_stuck": Column("int16", "turns this seat could not act (R-50)", "turns"),
    "first_pan_turn": Column("int16", "game turn of the first pan taken; -1 never", "turn"),
    "first_dish_turn": Column("int16", "game turn of the first dish cooked; -1 never", "turn"),
}
_OWN_RACE: dict[str, Column] = {
    "draw": Column("bool", "equal score and equal mushrooms cooked ('End of the game')"),
    "turns": Column("int16", "turns played by both seats", "turns"),
    "both_stuck": Column("bool", "ended because neither seat could act (R-50)"),
    "starter_seat": Column("int8", "seat that took the first turn (R-51)"),
    "margin": Column("int16", "winner's score minus loser's", "points"),
}
_SEAT_DOCS = {
    "slot": "1 = the starting player (R-51), 2 = the other",
    "finish": "1 = winner, 2 = loser; 1 for both on a draw (see race column 'draw')",
    "points": "the score: points from dishes",
    "finished": "always True: every game is played out (both stuck: as if the forest were "
    "empty, R-50)",
    "eliminated": "always False: nobody leaves a Mushroom Walk game",
}


def _seat_columns() -> dict[str, Column]:
    common = {k: Column(c.dtype, _SEAT_DOCS[k], c.unit) for k, c in COMMON_SEAT_COLUMNS.items()}
    return {**common, **_OWN_SEAT}


# The rules that may favour the player who starts (slot 1), each switched off in turn.
RULE_ELEMENTS = (
    RuleElement(
        "stick_costs", lambda v: tuple(0 for _ in v.stick_costs), "stick costs ('Playing a turn' 1)"
    ),
    RuleElement("decay_size", 8, "the small decay pile ('After every turn' 1)"),
    RuleElement("starting_pans", 0, "the empty pan each player starts with ('Setup' 1)"),
)


class MushroomWalk(Game):
    """Mushroom Walk (``001_…``) and the Morels numbers: two players, no track."""

    name = "mushroomwalk"
    title = "Mushroom Walk"
    params = MushroomWalkParams
    presets: Mapping[str, MushroomWalkParams] = PRESETS
    default_preset = "mushroomwalk"
    max_players = 2
    default_players = 2
    bots = BOTS
    seat_columns: Mapping[str, Column] = _seat_columns()
    race_columns: Mapping[str, Column] = {**COMMON_RACE_COLUMNS, **_OWN_RACE}
    extras = Extras(
        reference_bot="search:32",  # the model-free search (docs/bots.md, the frontier)
        kernels={
            "simulate": ("simkit.games.mushroomwalk.batch:play_games",),
            "trace": ("simkit.games.mushroomwalk.batch:play_games",),
        },
        examples=(
            "simkit race mushroomwalk --seed 7 --bots greedy,lookahead",
            "simkit variants mushroomwalk --preset morels",
            "simkit ladder mushroomwalk --bots greedy,lookahead,search:16,search:64 --races 2000",
        ),
        report_section="simkit.games.mushroomwalk.report:section",
        slots_mean="slot 1 is the player who takes the first turn (R-51), slot 2 the other",
        rule_elements=RULE_ELEMENTS,
        bench=BenchSpec(
            "2 greedy bots, preset mushroomwalk",
            {"bots": "greedy"},
            races=50_000,
            nojit_races=10,
            unit="games",
            extra={
                "lookahead vs greedy": {"bots": ["lookahead", "greedy"]},
                "search (default budget) vs greedy": {"bots": ["search", "greedy"]},
            },
        ),
    )

    def check_cell(self, cell: Cell) -> None:
        """Two seats, known bots, no track; start slots are the variant's ``who_starts``."""
        if cell.players != 2:
            raise SimkitError(f"mushroomwalk is for exactly 2 players (got {cell.players})")
        if cell.track is not None:
            raise SimkitError(f"mushroomwalk is not played on a track (got '{cell.track}')")
        if cell.slots is not None and sorted(cell.slots) != [1, 2]:
            raise SimkitError(
                "mushroomwalk: slots must be [1, 2]; choose who starts with the variant "
                "parameter who_starts (R-51)"
            )
        if not isinstance(cell.variant, MushroomWalkParams):
            raise SimkitError("mushroomwalk: the cell's variant is not a Mushroom Walk variant")
        parse_bots(cell.bots)

    def simulate(
        self,
        cell: Cell,
        keys: np.ndarray,
        threads: int | None = None,
        race_indices: np.ndarray | None = None,
    ) -> Batch:
        """Play one game per root key. ``race_indices`` is needed for who_starts='alternate'."""
        self.check_cell(cell)
        keys = np.ascontiguousarray(keys, dtype=np.uint64)
        idx = self._indices(cell, len(keys), race_indices)
        prm = as_records(cell.variant.to_kernel())
        bots = parse_bots(cell.bots)
        n = len(keys)
        seat_out = np.zeros((n, 2), dtype=SEAT)
        race_out = np.zeros(n, dtype=RACE)
        counts = run(keys, idx, prm, bots, (seat_out, race_out), threads)
        return counts.into(_batch(seat_out, race_out))

    def trace(self, cell: Cell, key: int, race_index: int | None = None) -> Any:
        """Replay the game with root ``key`` through the batch's own kernel, with events."""
        from simkit.games.mushroomwalk.trace import Trace

        self.check_cell(cell)
        idx = self._indices(cell, 1, None if race_index is None else np.array([race_index]))
        prm = as_records(cell.variant.to_kernel())
        bots = parse_bots(cell.bots)
        v = cell.variant
        # bound on events: per turn (at most one per forest card) a turn row, a stuck row,
        # night cards and poison rows (<= 2 per decay card) and discards (<= a full hand)
        hand_max = v.hand_limit + v.basket_bonus * v.basket_cards
        rows = (v.deck_size() + 10) * (4 + 2 * MAX_DECAY + hand_max)
        ev = np.zeros(rows, dtype=EVENT)
        evc = np.zeros(1, dtype=np.int64)
        last = np.zeros(1, dtype=POSITION)
        seat_out = np.zeros((1, 2), dtype=SEAT)
        race_out = np.zeros(1, dtype=RACE)
        keys = np.array([key], dtype=np.uint64)
        rounds = BlockCounts.new(1, ROUND_CAP, 2).of_block(0)
        play_games(keys, idx, prm, bots, seat_out, race_out, rounds, ev, evc, last)
        result = _batch(seat_out, race_out)
        winner = int(race_out[0]["winner"])
        return Trace(cell, int(key), ev[: evc[0]].copy(), last[0], result, winner)

    def moves(self, state: Mapping[str, Any]) -> Any:
        """Every legal action from a position (docs/state-mushroomwalk.md) and its outcome."""
        from simkit.games.mushroomwalk.moves import legal_moves

        return legal_moves(state)

    @staticmethod
    def _indices(cell: Cell, n: int, race_indices: np.ndarray | None) -> np.ndarray:
        if race_indices is not None:
            idx = np.asarray(race_indices, dtype=np.int64)
            if idx.shape != (n,):
                raise SimkitError(f"mushroomwalk: {n} keys need {n} race indices")
            return idx
        if cell.variant.who_starts == "alternate":
            raise SimkitError(
                "mushroomwalk: who_starts='alternate' needs the race indices; "
                "use who_starts='random' or pass race_indices"
            )
        return np.zeros(n, dtype=np.int64)


# Per-seat result columns and the SEAT record field each comes from.
_SEAT_FIELDS = {
    "score": "score",
    "mushrooms_cooked": "cooked",
    "dishes": "dishes",
    "sticks_left": "sticks",
    "sticks_earned": "sticks_earned",
    "sticks_paid": "sticks_paid",
    "poison_taken": "poison_taken",
    "pans_taken": "pans_taken",
    "baskets": "baskets",
    "night_cards": "night_taken",
    "butter_used": "butter_used",
    "cider_used": "cider_used",
    "mushrooms_sold": "sold",
    "decay_takes": "decay_takes",
    "cards_discarded": "discarded",
    "turns_taken": "turns",
    "turns_stuck": "turns_stuck",
    "first_pan_turn": "first_pan_turn",
    "first_dish_turn": "first_dish_turn",
}


def _batch(seat_out: np.ndarray, race_out: np.ndarray) -> Batch:
    cols = MushroomWalk.seat_columns
    winner = race_out["winner"]
    starter = race_out["starter"]
    draw = winner < 0
    seats = np.arange(2)[None, :]
    finish = np.where(draw[:, None] | (seats == winner[:, None]), 1, 2)
    score = seat_out["score"]
    end = race_out["end_reason"]
    turns = race_out["turns"]
    out = {
        "slot": np.where(seats == starter[:, None], 1, 2),
        "finish": finish,
        "points": score,
        # a game both players are stuck in ends "as if the forest were empty", so it
        # is played out like any other: the runner's decided races (GLOSSARY) are then
        # exactly the games that are not drawn, the one count every table uses.
        "finished": np.ones_like(finish, dtype=bool),
        "eliminated": np.zeros_like(finish, dtype=bool),
        "hand_left": seat_out["hand"].sum(axis=-1),
    }
    for name, field in _SEAT_FIELDS.items():
        out[name] = seat_out[field]
    seats_t = {k: np.asarray(out[k]).astype(cols[k].dtype) for k in cols}
    rcols = MushroomWalk.race_columns
    races = {
        "rounds": (turns + 1) // 2,
        "draw": draw,
        "turns": turns,
        "both_stuck": end == 1,
        "starter_seat": starter,
        "margin": np.abs(score[:, 0] - score[:, 1]),
    }
    races_t = {k: np.asarray(v).astype(rcols[k].dtype) for k, v in races.items()}
    return Batch(seats=seats_t, races=races_t, heat={})


GAME = MushroomWalk()
