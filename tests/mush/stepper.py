"""A MUSH race held in records and stepped from Python, for the position and search tests."""

from __future__ import annotations

import numpy as np

from simkit.games.mush import kernels as K
from simkit.games.mush import records as R

CAP = 4096  # rows for legal_plays: more than any bid or marker list in these races


class Stepper:
    """A race held in records and stepped from Python, as a search bot would, through the
    kernels' doors (``kernels.py``: one-element arrays, never records)."""

    def __init__(self, game, cell, key):
        self.inp = game.inputs(cell)
        self.prm, self.cell, self.rt = self.inp.prm[0], self.inp.cell[0], self.inp.rt[0]
        self.P = np.zeros(1, R.POSITION)
        self.rec = np.zeros(1, R.RECORDER)
        self.work = np.zeros(1, R.WORK)
        self.play = np.zeros(1, R.PLAY)
        self.out = np.zeros((CAP, R.PLAY_WIDTH), dtype=np.int64)
        K.new(self.P, self.inp.prm, self.inp.cell, np.uint64(key), self.rec)

    @property
    def pos(self):
        return self.P[0]

    def legal(self, P=None):
        """The legal plays of ``P[0]`` (default: the race's position)."""
        n = K.legal_plays(self.P if P is None else P, self.inp.prm, self.inp.rt, self.out)
        assert 0 < n <= CAP
        return self.out[:n].copy()

    def choose(self, P=None):
        """The bot's play for ``P[0]`` (default: the race's), on a copy: choosing may draw."""
        tmp = (self.P if P is None else P).copy()
        s = K.to_move(tmp)
        K.choose(tmp, self.inp.prm, self.inp.cell, self.inp.rt, s, self.work, self.play)
        return self.play[0]["row"].copy()

    def step(self):
        """The seat to move plays its bot's choice (drawing from its stream, as in a race)."""
        s = K.to_move(self.P)
        K.choose(self.P, self.inp.prm, self.inp.cell, self.inp.rt, s, self.work, self.play)
        K.apply(self.P, self.inp.prm, self.inp.rt, self.play, self.rec)

    def result(self, n):
        seats = np.zeros(n, R.STAT)
        race = np.zeros(1, R.RACE)
        K.result(self.P, seats, race)
        return seats, race[0]
