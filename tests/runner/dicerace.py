"""A small real game for the runner's tests: an n-player dice race (not shipped in simkit).

Not a subpackage of ``simkit.games``: tests register it (``tests/runner/conftest.py``).

Seats take the start slots of the cell in a random order per race (R-06, from STREAM_SLOTS)
and move in slot order each round by one die roll (STREAM_DICE per seat). A slot's head
start is a variant parameter. A ``bold`` bot rerolls a 1 or 2 half of the time (the coin
comes from STREAM_BOT); three 1s in a row eliminate a seat. Heat counts landings per space;
``round_position`` counts race positions at the end of every round (Batch's contract).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numba
import numpy as np
from numba import njit, prange

from simkit.errors import SimkitError
from simkit.games.base import (
    COMMON_RACE_COLUMNS,
    COMMON_SEAT_COLUMNS,
    Batch,
    Cell,
    Column,
    Extras,
    Game,
    RuleElement,
)
from simkit.params import Variant, param
from simkit.rng import STREAM_BOT, STREAM_DICE, STREAM_SLOTS, below, shuffle, stream_key

MAX_SEATS = 6
BLOCK = 64  # races per heat block: fixed, so heat sums do not depend on threads


@dataclass(frozen=True)
class DiceParams(Variant):
    game = "dicerace"
    length: int = param(30, "spaces to the finish", lo=5, hi=200)
    faces: int = param(6, "faces of the die", lo=2, hi=20)
    head_start: tuple = param(
        (0, 0, 0, 0, 0, 0), "spaces ahead by slot", lo=0, hi=10, length=6, favours="higher"
    )
    points: tuple = param((5, 3, 2, 1, 0, 0), "points by finish position", lo=0, length=6)
    max_rounds: int = param(200, "rounds before the race is stopped", lo=1, hi=1000)
    bonus: bool = param(False, "the top face moves one extra space")


# Seat outputs share one int16 array (race, seat, column), in this column order.
SEAT_OUT = ("slot", "finish", "points", "finished", "eliminated", "sixes", "bonus_spaces")
SLOT, FINISH, POINTS, FINISHED, ELIM, SIXES, BONUS = range(len(SEAT_OUT))
ROUND_CAP = 64  # rounds recorded in round_position


@njit(cache=True)
def _rank(n, order, pos, done_rank, out_seq, rank_out):
    """Race position of every seat now: finished seats by finish rank, then the rest by
    position (ties: turn order), then eliminated seats, the latest out first."""
    k = 0
    for f in range(1, n + 1):
        for s in range(n):
            if done_rank[s] == f:
                k += 1
                rank_out[s] = k
    taken = np.zeros(n, np.bool_)
    for _ in range(n):
        best = -1
        for t in range(n):
            s = order[t]
            free = done_rank[s] == 0 and out_seq[s] == 0 and not taken[s]
            if free and (best < 0 or pos[s] > pos[best]):
                best = s
        if best < 0:
            break
        taken[best] = True
        k += 1
        rank_out[best] = k
    for q in range(n, 0, -1):
        for s in range(n):
            if out_seq[s] == q:
                k += 1
                rank_out[s] = k


@njit(cache=True)
def _one(key, slots, bold, prm, head, table, r, o_seat, o_rounds, o_lead, heat, rp):
    length, faces, max_rounds, bonus = prm[0], prm[1], prm[2], prm[3] != 0
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
    done_rank = np.zeros(n, np.int64)  # finish rank of seats that crossed, else 0
    out_seq = np.zeros(n, np.int64)  # order of elimination, else 0
    ranks = np.zeros((ROUND_CAP, n), np.int64)
    for s in range(n):
        o_seat[r, s, SLOT] = perm[s]
        pos[s] = head[perm[s] - 1]
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
            if done_rank[s] > 0 or out_seq[s] > 0:
                continue
            roll = 1 + below(st, 1 + s, faces)
            if bold[s] and roll <= 2 and below(st, 1 + n + s, 2) == 1:
                roll = 1 + below(st, 1 + s, faces)
            if roll == faces:
                o_seat[r, s, SIXES] += 1
                if bonus:
                    roll += 1
                    o_seat[r, s, BONUS] += 1
            ones[s] = ones[s] + 1 if roll == 1 else 0
            if ones[s] == 3:
                n_out += 1
                out_seq[s] = n_out
                active -= 1
                continue
            pos[s] += roll
            heat[min(pos[s], length)] += 1
            if pos[s] >= length:
                done_rank[s] = rank
                rank += 1
                active -= 1
            best = -1
            for q in range(n):
                if out_seq[q] == 0 and (best < 0 or pos[q] > pos[best]):
                    best = q
            if best != leader:
                if leader >= 0:
                    changes += 1
                leader = best
        if rnd <= ROUND_CAP:
            _rank(n, order, pos, done_rank, out_seq, ranks[rnd - 1])
    # Final ranks: the race position after the last round (R-05's order).
    final = np.zeros(n, np.int64)
    _rank(n, order, pos, done_rank, out_seq, final)
    winners = 0
    for s in range(n):
        o_seat[r, s, FINISH] = final[s]
        o_seat[r, s, FINISHED] = done_rank[s] > 0
        o_seat[r, s, ELIM] = out_seq[s] > 0
        o_seat[r, s, POINTS] = table[final[s] - 1]
        if final[s] == 1 and done_rank[s] > 0:
            winners += 1
    # Batch.round_position: finish 0 for every seat of a race without a winner who finished.
    for q in range(min(rnd, ROUND_CAP)):
        for s in range(n):
            f = final[s] if winners == 1 else 0
            rp[q, perm[s] - 1, ranks[q, s] - 1, f] += 1
    o_rounds[r] = rnd
    o_lead[r] = changes


@njit(cache=True, parallel=True)
def _batch(keys, slots, bold, prm, head, table, o_seat, o_rounds, o_lead, heat_blocks, rp_blocks):
    nb = heat_blocks.shape[0]
    for b in prange(nb):
        hi = min((b + 1) * BLOCK, keys.shape[0])
        for r in range(b * BLOCK, hi):
            _one(
                keys[r],
                slots,
                bold,
                prm,
                head,
                table,
                r,
                o_seat,
                o_rounds,
                o_lead,
                heat_blocks[b],
                rp_blocks[b],
            )


class DiceRace(Game):
    """The game object the runner sees (simkit.games.base.Game)."""

    name = "dicerace"
    title = "Dice race (test game)"
    params = DiceParams
    presets: ClassVar = {"classic": DiceParams(), "short": DiceParams(length=12)}
    default_preset = "classic"
    max_players = MAX_SEATS
    default_players = 3
    bots = ("steady", "bold")
    seat_columns: ClassVar = {
        **COMMON_SEAT_COLUMNS,
        "sixes": Column("int16", "rolls of the die's top face", "rolls"),
        "bonus_spaces": Column(
            "int16", "extra spaces from the bonus rule", "spaces", applies=lambda v: v.bonus
        ),
    }
    race_columns: ClassVar = {
        **COMMON_RACE_COLUMNS,
        "lead_changes": Column("int16", "times the leader changed", "changes"),
    }
    heat_kinds = ("landing",)
    # The rules that may favour a slot, for `simkit why` on the test game (issue 35).
    extras = Extras(
        rule_elements=(
            RuleElement("head_start", lambda v: (0,) * len(v.head_start), "the head start by slot"),
            RuleElement("bonus", False, "the top face's extra space"),
        ),
        kernels={
            "simulate": ("tests.runner.dicerace:_batch",),
            "trace": ("tests.runner.dicerace:_batch",),
        },
        examples=("simkit race dicerace --seed 7",),
    )

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
        prm = np.array([v.length, v.faces, v.max_rounds, int(v.bonus)], np.int64)
        o_seat = np.zeros((n, p, len(SEAT_OUT)), np.int16)
        races = {"rounds": np.zeros(n, np.int16), "lead_changes": np.zeros(n, np.int16)}
        blocks = (n + BLOCK - 1) // BLOCK
        heat = np.zeros((blocks, v.length + 1), np.int64)
        rp = np.zeros((blocks, ROUND_CAP, int(slots.max()), p, p + 1), np.int64)
        _batch(
            keys,
            slots,
            bold,
            prm,
            np.array(v.head_start, np.int64),
            np.array(v.points, np.int64),
            o_seat,
            races["rounds"],
            races["lead_changes"],
            heat,
            rp,
        )
        seats = {
            name: o_seat[:, :, k].astype(self.seat_columns[name].dtype)
            for k, name in enumerate(SEAT_OUT)
        }
        return Batch(seats, races, {"landing": heat.sum(axis=0)}, rp.sum(axis=0))


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
