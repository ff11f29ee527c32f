"""A test game with a tunable bot whose best weights are known (not shipped in simkit).

Bot ``aim[x/y/z]`` has the Plackett-Luce rating ``-SLOPE * ((x - 0.8)^2 + (y + 0.5)^2)``:
the weights (0.8, -0.5) play best, and ``z`` is fixed (lo == hi), as Snow Tails' progress
weight is. ``aim`` plays the defaults (0, 0, 1); ``aim:NAME`` a preset of the presets file
(``GAME.bot_presets_file``, set by each test). Races are the Luce race's
(``tests/ladder/lucerace.py``): a Plackett-Luce draw from the race key, slot 1 a head start.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from simkit.errors import SimkitError
from simkit.games.base import Batch, Cell, Extras, Game, TunableBot
from simkit.params import Variant, param
from tests.ladder.lucerace import _races

BEST = (0.8, -0.5)
SLOPE = 2.0
TUNABLE = TunableBot("aim", ("x", "y", "z"), (0.0, 0.0, 1.0), (-2.0, -2.0, 1.0), (2.0, 2.0, 1.0))


@dataclass(frozen=True)
class AimParams(Variant):
    game = "aimrace"
    slot_bonus: float = param(0.3, "rating added to the seat in start slot 1", lo=0.0, hi=5.0)


def rating(w: tuple[float, ...]) -> float:
    return -SLOPE * ((w[0] - BEST[0]) ** 2 + (w[1] - BEST[1]) ** 2)


class AimRace(Game):
    """The game object (simkit.games.base.Game) with one tunable bot."""

    name = "aimrace"
    title = "Aim race (test game)"
    params = AimParams
    presets: ClassVar = {"aim": AimParams()}
    default_preset = "aim"
    max_players = 6
    default_players = 3
    bots = ("aim",)
    extras = Extras(
        kernels={"simulate": ("tests.ladder.lucerace:_races",)},
        examples=("simkit bots tune aimrace aim",),
        tunable={"aim": TUNABLE},
        bot_presets_file=None,
    )

    def weights(self, bot: str) -> tuple[float, ...]:
        if bot == "aim":
            return TUNABLE.default
        if bot.startswith("aim[") and bot.endswith("]"):
            return tuple(float(x) for x in bot[4:-1].split("/"))
        if (
            bot.startswith("aim:")
            and self.extras.bot_presets_file
            and self.extras.bot_presets_file.exists()
        ):
            with self.extras.bot_presets_file.open("rb") as fh:
                entry = tomllib.load(fh).get("aim", {}).get(bot[4:])
            if entry:
                return tuple(entry["weights"])
        raise SimkitError(f"aimrace: unknown bot '{bot}'", key="bots")

    def check_cell(self, cell: Cell) -> None:
        for b in cell.bots:
            self.weights(b)

    def simulate(self, cell, keys, threads=None, race_indices=None) -> Batch:
        n, p = len(keys), cell.players
        slots = np.array(cell.slots or range(1, p + 1), dtype=np.int64)
        strength = np.array([rating(self.weights(b)) for b in cell.bots])
        seats = {
            "slot": np.zeros((n, p), np.int8),
            "finish": np.zeros((n, p), np.int8),
            "finished": np.zeros((n, p), np.bool_),
        }
        rounds = np.zeros(n, np.int16)
        _races(
            np.ascontiguousarray(keys, dtype=np.uint64),
            slots,
            strength,
            cell.variant.slot_bonus,
            0.0,
            seats["slot"],
            seats["finish"],
            seats["finished"],
            rounds,
        )
        seats["points"] = np.zeros((n, p), np.int16)
        seats["eliminated"] = np.zeros((n, p), np.bool_)
        return Batch(seats, {"rounds": rounds})


GAME = AimRace()
