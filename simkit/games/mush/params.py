"""MUSH variant parameters: the text's numbers, R-40..R-47's defaults, and the presets.

Sources: "text" is ``seeds/003_2d1ca65949ad5234.txt`` (section named by its French
heading), "pub" is a published description adopted by a ruling, anything else is a
ruling's assumption. Kernels read the record ``Variant.to_kernel()`` lays out from these
fields (``prm.dogs``, ``prm.dog_faces[c]``, ``prm.rest_town_n``, ...).
"""

from __future__ import annotations

from dataclasses import dataclass

from simkit.errors import ParamError
from simkit.params import Variant, param

WARM, MILD, COLD = 0, 1, 2
FINISH_RULES = ("nome", "first_north")


@dataclass(frozen=True)
class MushParams(Variant):
    """Every rule of MUSH that a number or a switch can change."""

    game = "mush"

    route: str = param(
        "standard",
        "route: a shipped route name or a TOML path",
        source="R-40",
        kernel=False,  # compiled into the route arrays (route.py)
    )
    dogs: int = param(8, "dogs per sled (one die each while uncovered)", lo=1, hi=12, source="text")
    dog_faces: tuple = param(
        (4, 3, 2),
        "dog faces on a green, red, blue die (of die_sides)",
        lo=0,
        hi=12,
        length=3,
        source="R-41 (pub)",
    )
    die_sides: int = param(6, "faces of a dog die", lo=1, hi=12, source="R-41 (pub)")
    dice_colour: tuple = param(
        (0, 1, 2, 1, 0, 1, 2, 1, 0),
        "die colour (0 green, 1 red, 2 blue) by training (rows warm, mild, cold) x weather",
        lo=0,
        hi=2,
        length=9,
        source="R-41",
    )
    weather_south: tuple = param(
        (0, 0, 0, 1, 1, 2),
        "South d6 weather table (0 warm, 1 mild, 2 cold)",
        lo=0,
        hi=2,
        length=6,
        source="R-43",
    )
    weather_central: tuple = param(
        (0, 0, 1, 1, 2, 2), "Central d6 weather table", lo=0, hi=2, length=6, source="R-43"
    )
    weather_north: tuple = param(
        (0, 1, 1, 2, 2, 2), "North d6 weather table", lo=0, hi=2, length=6, source="R-43"
    )
    bonus_on_match: bool = param(
        True, "roll the d6 bonus table when weather matches training", source="R-42"
    )
    bonus_table: tuple = param(
        (-1, 0, 0, 1, 1, 2),
        "bonus d6: extra spaces per face, -1 = cover one more dog",
        lo=-1,
        hi=6,
        length=6,
        source="text (results), R-42 (faces)",
    )
    start_tokens: int = param(
        20, "action tokens each sled starts with", lo=0, hi=200, source="text"
    )
    training_limits: tuple = param(
        (1, 0, 1, 1, 1, 1, 2, 1, 1, 2, 2, 1, 2, 2, 2),
        "most sleds per training (warm, mild, cold) for 2, 3, 4, 5, 6 players",
        lo=0,
        hi=6,
        length=15,
        source="text (training table), R-44",
    )
    reroll_cost: int = param(
        3, "tokens to force any roll to be rolled again", lo=0, hi=50, source="text"
    )
    max_rerolls: int = param(
        2, "most rerolls of one roll (the text sets no limit)", lo=0, hi=10, source="assumption"
    )
    reduce_cost: int = param(2, "tokens per opponent die removed", lo=1, hi=50, source="text")
    reduce_max_dice: int = param(
        3, "most dice removed from one roll (text: up to 6 tokens)", lo=0, hi=12, source="text"
    )
    pass_cost: int = param(
        4, "tokens to pass occupied wilderness for the rest of a turn", lo=0, hi=50, source="text"
    )
    rough_target: int = param(4, "d6 needed to enter rough terrain", lo=1, hi=7, source="R-46")
    rough_token_max: int = param(
        2, "most +1 tokens bought on a rough-terrain roll", lo=0, hi=6, source="text"
    )
    avalanche_target: int = param(6, "d6 needed to cross an avalanche", lo=1, hi=7, source="text")
    avalanche_token_max: int = param(
        4, "most +1 tokens bought on an avalanche roll", lo=0, hi=6, source="text"
    )
    avalanche_cost: int = param(
        5, "tokens to place, move or remove an avalanche marker", lo=0, hi=50, source="text"
    )
    avalanche_markers: int = param(
        4, "avalanche markers in the box", lo=0, hi=20, source="assumption"
    )
    rest_start_tokens: int = param(
        1, "tokens gained by a rest in the start town (Anchorage)", lo=0, hi=20, source="text"
    )
    rest_checkpoint: tuple = param(
        (2, 0, 0, 4, 1, 2),
        "rest options at Nikolai and Unalakleet as (dogs, tokens) pairs",
        lo=0,
        hi=20,
        length=(2, 16),
        source="text",
    )
    rest_town: tuple = param(
        (3, 0, 0, 6, 2, 2, 1, 4),
        "rest options at every other town as (dogs, tokens) pairs",
        lo=0,
        hi=20,
        length=(2, 16),
        source="text",
    )
    bidding: bool = param(True, "secret token bids decide the order of play", source="R-47")
    bid_extra: int = param(
        1, "extra spaces for the highest bidder", lo=0, hi=6, source="R-47 (pub)"
    )
    finish: str = param(
        "nome",
        "race ends when a sled reaches: nome | first_north (short game 1)",
        choices=FINISH_RULES,
        source="text (shorter games)",
    )
    skip_central: bool = param(
        False,
        "reaching Nikolai or the Central zone jumps to Unalakleet (short game 2)",
        source="text (shorter games)",
    )
    full_move: bool = param(
        False,
        "a racing sled must use all its movement (else it may stop early)",
        source="assumption",
    )
    max_rounds: int = param(
        400,
        "safety stop: rounds before an unfinished race ends",
        lo=1,
        hi=10000,
        source="simkit",
    )

    def check(self) -> None:
        for name in ("rest_checkpoint", "rest_town"):
            if len(getattr(self, name)) % 2:
                raise ParamError(
                    f"mush.{name} must list (dogs, tokens) pairs (an even count)", key=name
                )
        if max(self.dog_faces) > self.die_sides:
            raise ParamError(
                f"mush.dog_faces must be at most die_sides={self.die_sides} "
                f"(got {list(self.dog_faces)})",
                key="dog_faces",
            )

    def limits(self, players: int) -> tuple[int, int, int]:
        """The training table row for ``players`` (text, R-44)."""
        i = 3 * (players - 2)
        return tuple(self.training_limits[i : i + 3])  # type: ignore[return-value]

    def check_players(self, players: int) -> None:
        """Every seat must find a training within the limits (R-44)."""
        if sum(self.limits(players)) < players:
            raise ParamError(
                f"mush.training_limits allow {sum(self.limits(players))} trainings for "
                f"{players} players; raise the limits for {players} players",
                key="training_limits",
            )


# Shortened game 1 (text, "deux manières de raccourcir"): nobody may train for cold and
# the race ends at the first North space. The text keeps the limits table silent on where
# the cold places go; here they go to mild, so every seat still finds a training
# (assumption, documented in docs/rules-mush.md).
_NO_COLD_LIMITS = (1, 1, 0, 1, 2, 0, 2, 2, 0, 2, 3, 0, 2, 4, 0)

PRESETS: dict[str, MushParams] = {
    "mush": MushParams(),
    "mush-short-north": MushParams(finish="first_north", training_limits=_NO_COLD_LIMITS),
    "mush-skip-central": MushParams(skip_central=True),
}
