"""A search worker for the kill test: ``python -m tests.tune.killable DIR`` works on the
tuning in DIR with the slot race registered, each block of races slowed down so that a
SIGKILL lands in the middle of a candidate."""

from __future__ import annotations

import sys
import time

import simkit.games
from simkit.tune import study
from tests.tune.slotrace import GAME

if __name__ == "__main__":
    simkit.games.names()
    simkit.games._REGISTRY["slotrace"] = GAME
    real = study.play

    def slow(*args, **kwargs):
        time.sleep(0.5)
        return real(*args, **kwargs)

    study.play = slow
    study.search(sys.argv[1])
