"""The races a candidate of ``simkit tune`` plays, counted for its objective.

- **Common random numbers.** Every candidate plays races ``0, 1, 2, ...`` of the tuning's
  own key (:data:`TUNE_KEY`) in every cell: the same deals, dice and start slots, so
  candidates are compared on the same races, and a candidate's first rung is a prefix of
  its later ones.

:func:`play` plays one block of races of every cell of a candidate and :func:`add` adds
two blocks; which blocks a candidate plays, and when it stops, is the search's
(:mod:`simkit.tune.study`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simkit.games import get
from simkit.rng import chunk_keys
from simkit.tune import objective
from simkit.tune.tuning import Settings, cells

# Cell key of the races candidates play (race_key(seed, TUNE_KEY, i)): no run (cell key 0
# under crn) and no bot tuning plays these races.
TUNE_KEY = np.uint64(0x7475_6E65_5F72_756C)  # "tune_rul"


def play(
    s: Settings, values: dict[str, Any], lo: int, hi: int, threads: int | None = None
) -> list[objective.Counts]:
    """Races ``lo..hi-1`` of every cell of candidate ``values``, counted for the objective."""
    sc = s.base()
    g = get(sc.game)
    cols = _columns(s)
    out = []
    for pc in cells(s, values):
        counts = objective.Counts(pc.cell.players)
        for a in range(lo, hi, sc.chunk_size):
            b = min(a + sc.chunk_size, hi)
            keys = chunk_keys(s.seed, TUNE_KEY, a, b)
            counts.add(g.simulate(pc.cell, keys, threads, race_indices=np.arange(a, b)), cols)
        out.append(counts)
    return out


def _columns(s: Settings) -> tuple[str, ...]:
    """The result columns a candidate's counts keep: the terms', and the bounded measures'."""
    from simkit.analysis.side_effects import BY_NAME

    goal = s.goal()
    measured = [c for m in goal.measures() for c in BY_NAME[m].columns]
    return tuple(dict.fromkeys([*objective.columns(goal.terms), *measured]))


def add(a: list[objective.Counts], b: list[objective.Counts]) -> list[objective.Counts]:
    """The counts of two blocks of races of the same cells."""
    out = []
    for x, y in zip(a, b, strict=True):
        wins = {k: x.wins.get(k, 0) + y.wins.get(k, 0) for k in {*x.wins, *y.wins}}
        sums = {k: x.sums.get(k, 0.0) + y.sums.get(k, 0.0) for k in {*x.sums, *y.sums}}
        hist = {k: x.hist.get(k, 0) + y.hist.get(k, 0) for k in {*x.hist, *y.hist}}
        out.append(
            objective.Counts(x.players, x.races + y.races, x.decided + y.decided, wins, sums, hist)
        )
    return out
