"""A small real game for the runner's tests: an n-player dice race (not shipped in simkit).

Not a subpackage of ``simkit.games``: tests register it (``tests/runner/conftest.py``).

Seats take the start slots of the cell in a random order per race (R-06, from STREAM_SLOTS)
and move in slot order each round by one die roll (STREAM_DICE per seat). A slot's head
start is a variant parameter. A ``bold`` bot rerolls a 1 or 2 half of the time (the coin
comes from STREAM_BOT); three 1s in a row eliminate a seat. Heat counts landings per space.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numba
import numpy as np
from numba import njit, prange

from simkit.errors import SimkitError
from simkit.games.base import COMMON_RACE_COLUMNS, COMMON_SEAT_COLUMNS, Batch, Cell, Column
from simkit.params import Variant, param
from simkit.rng import STREAM_BOT, STREAM_DICE, STREAM_SLOTS, below, shuffle, stream_key

MAX_SEATS = 6
BLOCK = 64  # races per heat block: fixed, so heat sums do not depend on threads


@dataclass(frozen=True)
class DiceParams(Variant):
    game = "dicerace"
    length: int = param(30, "spaces to the finish", lo=5, hi=200)
    faces: int = param(6, "faces of the die", lo=2, hi=20)
    head_start: tuple = param((0, 0, 0, 0, 0, 0), "spaces ahead by slot", lo=0, hi=10, length=6)
    points: tuple = param((5, 3, 2, 1, 0, 0), "points by finish position", lo=0, length=6)
    max_rounds: int = param(200, "rounds before the race is stopped", lo=1, hi=1000)
    bonus: bool = param(False, "the top face moves one extra space")


@njit(cache=True)
def _one(
    key,
    slots,
    bold,
    length,
    faces,
    head,
    max_rounds,
    bonus,
    table,
    r,
    o_slot,
    o_finish,
    o_points,
    o_finished,
    o_elim,
    o_sixes,
    o_rounds,
    o_lead,
    heat,
):
    n = bold.shape[0]
    st = np.empty(2 * n + 1, np.uint64)
    st[0] = stream_key(key, STREAM_SLOTS, 0)
    for s in range(n):
        st[1 + s] = stream_key(key, STREAM_DICE, s)
        st[1 + n + s] = stream_key(key, STREAM_BOT, s)
    perm = slots.copy()
    shuffle(st, 0, perm, 0, perm.shape[0])
    pos = np.zeros(n, np.int64)
    ones = np.zeros(n, np.int64)
    done = np.zeros(n, np.bool_)
    out = np.zeros(n, np.bool_)
    out_seq = np.zeros(n, np.int64)
    for s in range(n):
        o_slot[r, s] = perm[s]
        pos[s] = head[perm[s] - 1]
        o_sixes[r, s] = 0
    order = np.argsort(perm[:n])
    rank = 1
    active = n
    n_out = 0
    leader = -1
    changes = 0
    rnd = 0
    while active > 0 and rnd < max_rounds:
        rnd += 1
        for t in range(n):
            s = order[t]
            if done[s] or out[s]:
                continue
            roll = 1 + below(st, 1 + s, faces)
            if bold[s] and roll <= 2 and below(st, 1 + n + s, 2) == 1:
                roll = 1 + below(st, 1 + s, faces)
            if roll == faces:
                o_sixes[r, s] += 1
                if bonus:
                    roll += 1
            ones[s] = ones[s] + 1 if roll == 1 else 0
            if ones[s] == 3:
                out[s] = True
                n_out += 1
                out_seq[s] = n_out
                active -= 1
                continue
            pos[s] += roll
            heat[min(pos[s], length)] += 1
            if pos[s] >= length:
                done[s] = True
                o_finish[r, s] = rank
                rank += 1
                active -= 1
            best = -1
            for q in range(n):
                if not out[q] and (best < 0 or pos[q] > pos[best]):
                    best = q
            if best != leader:
                if leader >= 0:
                    changes += 1
                leader = best
    # Unfinished seats by position, then turn order; eliminated last, latest out first.
    for _ in range(n):
        best = -1
        for t in range(n):
            s = order[t]
            if not done[s] and not out[s] and (best < 0 or pos[s] > pos[best]):
                best = s
        if best < 0:
            break
        done[best] = True
        o_finish[r, best] = rank
        rank += 1
    for k in range(n_out, 0, -1):
        for s in range(n):
            if out[s] and out_seq[s] == k:
                o_finish[r, s] = rank
                rank += 1
    for s in range(n):
        o_finished[r, s] = pos[s] >= length and not out[s]
        o_elim[r, s] = out[s]
        o_points[r, s] = table[o_finish[r, s] - 1]
    o_rounds[r] = rnd
    o_lead[r] = changes


@njit(cache=True, parallel=True)
def _batch(
    keys,
    slots,
    bold,
    length,
    faces,
    head,
    max_rounds,
    bonus,
    table,
    o_slot,
    o_finish,
    o_points,
    o_finished,
    o_elim,
    o_sixes,
    o_rounds,
    o_lead,
    heat_blocks,
):
    nb = heat_blocks.shape[0]
    for b in prange(nb):
        hi = min((b + 1) * BLOCK, keys.shape[0])
        for r in range(b * BLOCK, hi):
            _one(
                keys[r],
                slots,
                bold,
                length,
                faces,
                head,
                max_rounds,
                bonus,
                table,
                r,
                o_slot,
                o_finish,
                o_points,
                o_finished,
                o_elim,
                o_sixes,
                o_rounds,
                o_lead,
                heat_blocks[b],
            )


class DiceRace:
    """The game object the runner sees (simkit.games.base.Game)."""

    name = "dicerace"
    title = "Dice race (test game)"
    params = DiceParams
    presets: ClassVar = {"classic": DiceParams(), "short": DiceParams(length=12)}
    default_preset = "classic"
    min_players = 2
    max_players = MAX_SEATS
    default_players = 3
    bots = ("steady", "bold")
    uses_track = False
    default_track = None
    seat_columns: ClassVar = {
        **COMMON_SEAT_COLUMNS,
        "sixes": Column("int16", "rolls of the die's top face", "rolls"),
    }
    race_columns: ClassVar = {
        **COMMON_RACE_COLUMNS,
        "lead_changes": Column("int16", "times the leader changed", "changes"),
    }
    heat_kinds = ("landing",)
    kernels: ClassVar = {
        "simulate": ("tests.runner.dicerace:_batch",),
        "trace": ("tests.runner.dicerace:_batch",),
    }
    track_dir = None
    examples = ("simkit race --game dicerace --seed 7",)
    commands = ()
    report_section = None
    bench = None

    def check_cell(self, cell: Cell) -> None:
        slots = cell.slots or tuple(range(1, cell.players + 1))
        if len(slots) < cell.players or any(not 1 <= s <= MAX_SEATS for s in slots):
            raise SimkitError(
                f"dicerace: slots must be at least {cell.players} of 1..{MAX_SEATS} (got {slots})",
                key="slots",
            )

    def simulate(
        self,
        cell: Cell,
        keys: np.ndarray,
        threads: int | None = None,
        race_indices: np.ndarray | None = None,
    ) -> Batch:
        if threads:
            numba.set_num_threads(threads)
        v = cell.variant
        n, p = keys.shape[0], cell.players
        slots = np.array(cell.slots or range(1, p + 1), dtype=np.int64)
        bold = np.array([b == "bold" for b in cell.bots], dtype=np.bool_)
        seats = {
            "slot": np.zeros((n, p), np.int8),
            "finish": np.zeros((n, p), np.int8),
            "points": np.zeros((n, p), np.int16),
            "finished": np.zeros((n, p), np.bool_),
            "eliminated": np.zeros((n, p), np.bool_),
            "sixes": np.zeros((n, p), np.int16),
        }
        races = {"rounds": np.zeros(n, np.int16), "lead_changes": np.zeros(n, np.int16)}
        heat = np.zeros(((n + BLOCK - 1) // BLOCK, v.length + 1), np.int64)
        _batch(
            keys,
            slots,
            bold,
            v.length,
            v.faces,
            np.array(v.head_start, np.int64),
            v.max_rounds,
            v.bonus,
            np.array(v.points, np.int64),
            seats["slot"],
            seats["finish"],
            seats["points"],
            seats["finished"],
            seats["eliminated"],
            seats["sixes"],
            races["rounds"],
            races["lead_changes"],
            heat,
        )
        return Batch(seats, races, {"landing": heat.sum(axis=0)})


GAME = DiceRace()


class _Trace:
    """The replay of one race: what each seat got (enough to check ``--replay``)."""

    def __init__(self, batch: Batch):
        self.batch = batch

    def to_json(self) -> dict:
        return {k: v[0].tolist() for k, v in self.batch.seats.items()}

    def text(self) -> str:
        rows = self.to_json()
        return "\n".join(f"{k}: {' '.join(map(str, v))}" for k, v in rows.items())


def _trace(cell: Cell, key: int, race_index: int | None = None) -> _Trace:
    return _Trace(GAME.simulate(cell, np.array([key], dtype=np.uint64)))


DiceRace.trace = staticmethod(_trace)
