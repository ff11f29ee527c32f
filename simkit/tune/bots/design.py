"""Who plays whom on which races: the tuner's lineups, race keys and objective.

A candidate's weights are played in one seat against the field in the others, once in every
seat (a rotation per seat), on one block of race keys that every rotation and every
candidate of a generation shares (common random numbers). A race's key fixes which seat
starts from which slot (R-06 for Snow Tails, every game alike), so across the rotations the
candidate starts from every slot once per key: slot luck cancels within an evaluation, and
the deals and dice that remain are the same for every candidate it is ranked against.

Keys move between generations: generation ``g`` plays race indices ``g * K .. g * K + K - 1``
of the tuning key (:data:`TUNE_KEY`), so the search is never fitted to one set of races (a
weight that is lucky on a fixed block would keep winning it). The confirmation plays under
its own key (:data:`CONFIRM_KEY`): fresh races no generation has seen.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from simkit.games.cells import build_cell

# Cell keys of the races the tuner plays (``race_key(seed, KEY, index)``). Runs and
# ladders under common random numbers use cell key 0, so these never replay their races.
TUNE_KEY = np.uint64(0x7475_6E65_5F62_6F74)  # "tune_bot"
CONFIRM_KEY = np.uint64(0x636F_6E66_6972_6D21)  # "confirm!"


def rotations(candidate: str, field: Sequence[str], players: int) -> list[tuple[str, ...]]:
    """One lineup per seat: the candidate in seat ``r`` of lineup ``r``, the field elsewhere.

    The field fills the other seats in its given order from the seat after the candidate's,
    repeated as needed (``--field A,B`` with 4 players: candidate, A, B, A), so every field bot
    also moves round the seats.
    """
    out = []
    for r in range(players):
        seats = [candidate if j == r else field[(j - r - 1) % len(field)] for j in range(players)]
        out.append(tuple(seats))
    return out


def play(
    s: Any, lineup: Sequence[str], keys: np.ndarray, threads: int | None, *, track, players: int
) -> Any:
    """The races ``keys`` of one lineup at one (track, players) setting of the tuning ``s``
    (its game, rules preset and ``--set`` values), numbered from 0: the batch."""
    cell = build_cell(
        s.game, preset=s.preset, overrides=s.overrides, track=track, players=players, bots=lineup
    )
    return s.game_obj.simulate(cell, keys, threads, race_indices=np.arange(len(keys)))


def share(ahead: np.ndarray, behind: np.ndarray) -> float:
    """The objective: the share of head-to-head comparisons won (NaN if none was decided)."""
    a, b = int(np.sum(ahead)), int(np.sum(behind))
    return a / (a + b) if a + b else float("nan")
