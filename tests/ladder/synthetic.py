"""Plackett-Luce finish orders drawn directly in numpy, for the rating tests.

Kept apart from simkit's code on purpose: the tests compare simkit's fit against strengths
chosen here, so nothing in the truth is computed the way simkit computes its estimate.
"""

from __future__ import annotations

import numpy as np

from simkit.analysis.ratings import Outcomes


def draw(theta, lineups, races: int, seed: int, undecided: float = 0.0) -> Outcomes:
    """``races`` races of every lineup (tuples of bot indices) with ratings ``theta``.

    Race ``i`` of every lineup shares its key, as under common random numbers. A share
    ``undecided`` of races has nobody finishing.
    """
    rng = np.random.default_rng(seed)
    theta = np.asarray(theta, float)
    bot = np.repeat(np.asarray(lineups, np.int64), races, axis=0)
    key = np.tile(np.arange(races), len(lineups))
    noise = theta[bot] + rng.gumbel(size=bot.shape)  # Gumbel-max: a Plackett-Luce draw
    place = np.argsort(np.argsort(-noise, axis=1), axis=1) + 1
    place[rng.random(len(bot)) < undecided] = 0
    names = tuple(f"bot{i}" for i in range(len(theta)))
    return Outcomes(names, bot, place, key, (place == 1).sum(axis=1) == 1)
