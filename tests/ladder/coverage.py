"""Coverage of the ladder's 95% bootstrap intervals on synthetic Plackett-Luce data.

``python -m tests.ladder.coverage RACES DATASETS REPLICATES [FIRST_SEED]`` draws DATASETS
data sets (3 bots rated 0.6, 0, -0.9; 2 players; the 6 ordered pairs as lineups; RACES
races per lineup, :func:`tests.ladder.synthetic.draw`), fits each as the ladder does
(:func:`simkit.analysis.ratings.fit`) and prints how often the intervals of the ratings
and of the adjacent differences cover the truth (docs/ladder.md "Checked").
"""

from __future__ import annotations

import sys
import time

import numpy as np

from simkit.analysis.ratings import fit
from tests.ladder.synthetic import draw

THETA = np.array([0.6, 0.0, -0.9])
LINEUPS = [(0, 1), (1, 0), (0, 2), (2, 0), (1, 2), (2, 1)]


def coverage(races: int, datasets: int, replicates: int, first: int = 0) -> tuple[float, ...]:
    """(ratings covered, of how many, differences covered, of how many)."""
    centred = THETA - THETA.mean()
    hits, diff_hits = [], []
    for s in range(first, first + datasets):
        o = draw(THETA, LINEUPS, races, seed=10_000 + s)
        r = fit(o, seed=s, replicates=replicates)
        t = r.table().set_index("bot").loc[list(o.bots)]
        hits += list((t["low"] <= centred) & (centred <= t["high"]))
        for a, b in [(0, 1), (1, 2)]:
            _, lo, hi = r.interval(a, b)
            diff_hits.append(lo <= THETA[a] - THETA[b] <= hi)
    return float(np.mean(hits)), len(hits), float(np.mean(diff_hits)), len(diff_hits)


if __name__ == "__main__":
    args = [int(a) for a in sys.argv[1:]]
    t0 = time.process_time()
    rate, n, diff_rate, m = coverage(*args)
    print(
        f"ratings {rate:.1%} of {n}, differences {diff_rate:.1%} of {m} "
        f"({time.process_time() - t0:.0f} s of CPU)"
    )
