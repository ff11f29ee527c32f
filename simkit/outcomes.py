"""What a race's finish says: whether it was decided, who won (GLOSSARY: decided race), and
which of two groups of seats finished ahead (the ladder's head to head).

One rule for every game, below the runner (which derives the ``win`` and ``decided``
columns with it) and the analyses, tuners and ladders that count decided races, so none of
them decides by itself what counts as a win or who was ahead.
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
