"""A test game whose fair compensation is known (not shipped in simkit): the slot race.

Each race ranks the seats by ``edge(slot) + comp(slot) / 10 + Gumbel noise``: a Plackett-Luce
draw (as ``tests/ladder/lucerace.py``), where start slot 1 has an edge of 0.6, slot 2 of 0.3
and slot 3 none. ``comp`` is a per-slot compensation table, so the slots are exactly fair
when ``comp = c + [0, 3, 6]``: with ``comp[1] = 0``, the table ``[0, 3, 6]``. A race lasts
``course`` rounds plus a roll of 0, 1 or 2, so its mean length is ``course + 1``: the target
``rounds=12`` is met by ``course = 11``. A longer course dilutes the start's edge (``edge *
8 / course``: the book's course of 8 keeps it whole), so fairness can be bought with race
length, the trade a tuning's Pareto front names. Randomness comes from the race key, as in
every game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np
from numba import njit

from simkit.games.base import Batch, Cell, Extras, Game
from simkit.params import Variant, param
from simkit.rng import STREAM_DICE, STREAM_SLOTS, below, shuffle, stream_key, uniform

EDGE = (0.6, 0.3, 0.0, 0.0)
FAIR = [0, 3, 6]


@dataclass(frozen=True)
class SlotParams(Variant):
    game = "slotrace"
    comp: tuple = param((0, 0, 0, 0), "compensation by start slot, tenths", lo=0, hi=10, length=4)
    course: int = param(8, "rounds every race lasts at least", lo=1, hi=30)


@njit(cache=True)
def _races(keys, slots, strength, course, o_slot, o_finish, o_rounds):
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
            score[s] = strength[perm[s] - 1] - np.log(-np.log(u))
        order = np.argsort(-score)
        for k in range(p):
            o_finish[r, order[k]] = k + 1
        o_rounds[r] = course + below(st, 0, np.int64(3))


class SlotRace(Game):
    """The game object (simkit.games.base.Game)."""

    name = "slotrace"
    title = "Slot race (test game)"
    params = SlotParams
    presets: ClassVar = {"slots": SlotParams()}
    default_preset = "slots"
    max_players = 4
    default_players = 3
    bots = ("any",)
    extras = Extras(
        kernels={"simulate": ("tests.tune.slotrace:_races",)},
    )

    def simulate(self, cell: Cell, keys, threads=None, race_indices=None) -> Batch:
        n, p = keys.shape[0], cell.players
        v = cell.variant
        strength = np.array([EDGE[k] * 8 / v.course + v.comp[k] / 10 for k in range(4)])
        seats = {
            "slot": np.zeros((n, p), np.int8),
            "finish": np.zeros((n, p), np.int8),
            "points": np.zeros((n, p), np.int16),
            "finished": np.ones((n, p), np.bool_),
            "eliminated": np.zeros((n, p), np.bool_),
        }
        rounds = np.zeros(n, np.int16)
        slots = np.arange(1, p + 1, dtype=np.int64)
        _races(keys, slots, strength, np.int64(v.course), seats["slot"], seats["finish"], rounds)
        return Batch(seats, {"rounds": rounds})


GAME = SlotRace()
