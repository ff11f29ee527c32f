"""A test game whose bots have known strengths: finish orders drawn from Plackett-Luce.

Bot ``luce:X`` has rating X: each race ranks the seats by ``X + bonus + Gumbel noise``,
which is exactly a Plackett-Luce draw with strengths ``exp(X + bonus)`` (the Gumbel-max
trick). The seat in start slot 1 gets ``slot_bonus``, so a design that gave one bot slot 1
more often would bias its rating. With probability ``undecided`` nobody finishes (every
seat eliminated): an undecided race. Randomness comes from the race key (STREAM_SLOTS for
the seating, STREAM_DICE per seat for the noise), as in every simkit game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np
from numba import njit

from simkit.errors import SimkitError
from simkit.games.base import Batch, Cell, Extras, Game
from simkit.params import Variant, param
from simkit.rng import STREAM_DICE, STREAM_SLOTS, shuffle, stream_key, uniform


@dataclass(frozen=True)
class LuceParams(Variant):
    game = "lucerace"
    slot_bonus: float = param(0.5, "rating added to the seat in start slot 1", lo=0.0, hi=5.0)
    undecided: float = param(
        0.0, "share of races in which every seat is eliminated", lo=0.0, hi=1.0
    )


@njit(cache=True)
def _races(keys, slots, strength, bonus, undecided, o_slot, o_finish, o_finished, o_rounds):
    n, p = o_finish.shape
    st = np.empty(p + 1, np.uint64)
    score = np.empty(p)
    for r in range(n):
        st[0] = stream_key(keys[r], STREAM_SLOTS, 0)
        for s in range(p):
            st[1 + s] = stream_key(keys[r], STREAM_DICE, s)
        perm = slots.copy()
        shuffle(st, 0, perm, 0, p)
        for s in range(p):
            o_slot[r, s] = perm[s]
            u = max(uniform(st, 1 + s), 1e-300)
            score[s] = strength[s] + (bonus if perm[s] == 1 else 0.0) - np.log(-np.log(u))
        out = uniform(st, 0) < undecided
        order = np.argsort(-score)
        for k in range(p):
            o_finish[r, order[k]] = k + 1
            o_finished[r, order[k]] = not out
        o_rounds[r] = 1


class LuceRace(Game):
    """The game object the runner sees (simkit.games.base.Game)."""

    name = "lucerace"
    title = "Luce race (test game)"
    params = LuceParams
    presets: ClassVar = {"luce": LuceParams()}
    default_preset = "luce"
    max_players = 6
    default_players = 3
    bots = ("luce",)
    extras = Extras(
        kernels={"simulate": ("tests.ladder.lucerace:_races",)},
        examples=("simkit ladder lucerace --bots luce:1,luce:0",),
    )

    def construction(self, bot: str) -> str:
        """Every rating its own player: a field of two luce bots is two constructions."""
        return bot

    def check_cell(self, cell: Cell) -> None:
        for b in cell.bots:
            try:
                float(b.partition(":")[2] or 0)
            except ValueError:
                raise SimkitError(f"lucerace: bot '{b}' must be luce:RATING") from None

    def simulate(self, cell: Cell, keys, threads=None, race_indices=None) -> Batch:
        n, p = keys.shape[0], cell.players
        strength = np.array([float(b.partition(":")[2] or 0) for b in cell.bots])
        seats = {
            "slot": np.zeros((n, p), np.int8),
            "finish": np.zeros((n, p), np.int8),
            "points": np.zeros((n, p), np.int16),
            "finished": np.zeros((n, p), np.bool_),
        }
        rounds = np.zeros(n, np.int16)
        v = cell.variant
        slots = np.arange(1, p + 1, dtype=np.int64)
        out = (seats["slot"], seats["finish"], seats["finished"], rounds)
        _races(keys, slots, strength, v.slot_bonus, v.undecided, *out)
        seats["eliminated"] = ~seats["finished"]
        return Batch(seats, {"rounds": rounds})


GAME = LuceRace()
