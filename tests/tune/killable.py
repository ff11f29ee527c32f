"""A search worker for the kill test: ``python -m tests.tune.killable DIR`` works on the
tuning in DIR with the slot race registered.

Once it has started its fourth candidate, the first time a candidate goes on to a later
rung (it has played a rung, so it is in the middle) it writes ``DIR/playing`` and sleeps:
a SIGKILL sent once that file exists lands in the middle of a candidate, at the same point
of the search in every run (the search is seeded), whatever the machine's speed.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import simkit.games
from simkit.tune import study
from tests.tune.slotrace import GAME

MARKER = "playing"
AFTER = 4  # candidates started before the worker waits for its kill

if __name__ == "__main__":
    simkit.games.names()
    simkit.games._REGISTRY["slotrace"] = GAME
    out = Path(sys.argv[1])
    real = study.play
    started = 0

    def waiting(s, values, lo, hi, threads=None):
        global started
        started += lo == 0
        if lo > 0 and started >= AFTER:
            (out / MARKER).write_text(f"{lo} {hi}\n")
            time.sleep(120)
        return real(s, values, lo, hi, threads)

    study.play = waiting
    study.search(out)
