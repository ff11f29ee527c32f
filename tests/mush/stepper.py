"""A MUSH race held in records and stepped from Python, for the position and search tests."""

from __future__ import annotations

import numpy as np

from simkit.games.mush import position
from simkit.games.mush import records as R
from simkit.games.mush.choose import choose

CAP = 4096  # rows for legal_plays: more than any bid or marker list in these races


class Stepper:
    """A race held in records and stepped from Python, as a search bot would."""

    def __init__(self, game, cell, key):
        self.inp = game.inputs(cell)
        self.prm, self.cell, self.rt = self.inp.prm[0], self.inp.cell[0], self.inp.rt[0]
        self.P = np.zeros(1, R.POSITION)
        self.rec = np.zeros(1, R.RECORDER)[0]
        self.work = np.zeros(1, R.WORK)[0]
        self.play = np.zeros(1, R.PLAY)[0]
        self.out = np.zeros((CAP, R.PLAY_WIDTH), dtype=np.int64)
        position.new(self.pos, self.prm, self.cell, np.uint64(key), self.rec)

    @property
    def pos(self):
        return self.P[0]

    def legal(self, pos=None):
        n = position.legal_plays(self.pos if pos is None else pos, self.prm, self.rt, self.out)
        assert 0 < n <= CAP
        return self.out[:n].copy()

    def choose(self, pos=None):
        """The bot's play for ``pos`` (default: the race's), on a copy: choosing may draw."""
        tmp = np.zeros(1, R.POSITION)
        tmp[0] = self.pos if pos is None else pos
        s = position.to_move(tmp[0])
        choose(self.cell.bots[s], tmp[0], self.prm, self.cell, self.rt, s, self.work, self.play)
        return self.play.row.copy()

    def step(self):
        """The seat to move plays its bot's choice (drawing from its stream, as in a race)."""
        s = position.to_move(self.pos)
        choose(self.cell.bots[s], self.pos, self.prm, self.cell, self.rt, s, self.work, self.play)
        position.apply(self.pos, self.prm, self.rt, self.play, self.rec)

    def result(self, n):
        seats = np.zeros(n, R.STAT)
        race = np.zeros(1, R.RACE)
        position.result(self.pos, seats, race)
        return seats, race[0]
