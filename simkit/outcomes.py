"""What a race's finish says: whether it was decided, who won (GLOSSARY: decided race),
which seats drew (as the ``slot_finish`` aggregate counts them), and which of two groups of
seats finished ahead (the ladder's head to head).

One rule for every game, below the runner (which derives the ``win`` and ``decided``
columns and counts ``slot_finish`` with it) and the analyses, tuners and ladders that count
decided races and draws, so none of them decides by itself what counts as a win, a draw or
who was ahead. Building and storing the tables is the runner's (:mod:`simkit.runner.tables`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def decided(finish: np.ndarray, finished: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Which races are decided, and which seats won them, from (races, seats) arrays.

    A decided race has exactly one seat in finish position 1 and that seat finished; a
    race nobody finished (every sled out, a timed-out MUSH race) or a draw has no winner.
    """
    first = np.asarray(finish) == 1
    won = first & np.asarray(finished, dtype=bool)
    ok = (first.sum(axis=1) == 1) & won.any(axis=1)
    return ok, won & ok[:, None]


# ``slot_finish``'s finish for a seat whose finish position another seat of its race shares.
DRAW_FINISH = 0


def tabulated_finish(cell: np.ndarray, race: np.ndarray, finish: np.ndarray) -> np.ndarray:
    """The finish position as the ``slot_finish`` aggregate counts it, from long rows.

    A seat that shares its finish position with another seat of its race (a draw: Mushroom
    Walk gives both players 1) is counted under :data:`DRAW_FINISH`, not as that position,
    so each race counts once in every slot's row and a draw is never a first place for
    two (docs/tables.md). Every other seat keeps its position.
    """
    cell, race = np.asarray(cell, np.int64), np.asarray(race, np.int64)
    finish = np.asarray(finish, np.int64)
    if len(finish) == 0:
        return finish
    # Sorted by (cell, race, finish), a shared position stands next to its twin.
    order = np.lexsort((finish, race, cell))
    c, r, f = cell[order], race[order], finish[order]
    twin = (c[1:] == c[:-1]) & (r[1:] == r[:-1]) & (f[1:] == f[:-1])
    shared = np.zeros(len(finish), dtype=bool)
    shared[order[1:][twin]] = True
    shared[order[:-1][twin]] = True
    return np.where(shared, DRAW_FINISH, finish)


def pair_counts(
    finish: np.ndarray, finished: np.ndarray, mine: Sequence[int], theirs: Sequence[int]
) -> tuple[np.ndarray, np.ndarray]:
    """Per race: how many (mine, theirs) pairs of seats mine finished ahead of, and behind.

    As the ladder's head-to-head (docs/ladder.md): a seat is ahead when it finished and the
    other did not, or finished earlier; a pair neither of which finished is not counted, and
    undecided races (no single winner who finished) count nothing.
    """
    ok, _ = decided(finish, finished)
    ahead = np.zeros(len(finish), np.int64)
    behind = np.zeros(len(finish), np.int64)
    for s in mine:
        for t in theirs:
            ahead += finished[:, s] & (~finished[:, t] | (finish[:, s] < finish[:, t]))
            behind += finished[:, t] & (~finished[:, s] | (finish[:, t] < finish[:, s]))
    return ahead * ok, behind * ok
