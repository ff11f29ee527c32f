"""Shared helpers and hypothesis strategies for the Mushroom Walk tests.

Kernels are called through their doors (``simkit.games.mushroomwalk.kernels``), which take
one-element arrays: ``prma`` for the variant, ``positions`` for a position."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from simkit import rng
from simkit.games.mushroomwalk.bots import parse_bots
from simkit.games.mushroomwalk.kernels import apply, choose, legal_plays, max_plays, new
from simkit.games.mushroomwalk.moves import state_from_json
from simkit.games.mushroomwalk.params import PRESETS
from simkit.games.mushroomwalk.records import ARM, EVENT, PLAY, POSITION, as_records

BOTS = st.sampled_from(["random", "greedy", "lookahead", "search:4"])
NO_EV = np.zeros(1, dtype=EVENT)
EVC = np.zeros(1, dtype=np.int64)


@st.composite
def variants(draw):
    """Presets with a few rule values moved (small limits make poison and R-50 frequent)."""
    v = PRESETS[draw(st.sampled_from(sorted(PRESETS)))]
    hand_limit = draw(st.integers(3, 10))
    return v.replace(
        hand_limit=hand_limit,
        poison_limit=draw(st.integers(0, min(5, hand_limit))),
        poison_turns=draw(st.integers(0, 2)),
        basket_bonus=draw(st.integers(0, 3)),
        decay_size=draw(st.integers(1, 5)),
        poison_cards=draw(st.integers(0, 12)),
        basket_cards=draw(st.integers(0, 8)),
        deal=draw(st.integers(0, min(5, hand_limit))),
        min_cook=draw(st.integers(1, 4)),
        min_sell=draw(st.integers(1, 3)),
    )


def key_of(seed: int, race: int = 0) -> np.uint64:
    return np.uint64(rng.race_key(np.uint64(seed), np.uint64(0), np.uint64(race)))


class Game:
    """A game stepped by a Python loop over the position functions (docs/positions.md)."""

    def __init__(self, variant, bots, key, race_index=0):
        self.variant = variant
        self.prma = as_records(variant.to_kernel())
        self.bots = parse_bots(tuple(bots))
        self.positions = np.zeros(1, dtype=POSITION)
        self.plays = np.zeros(max_plays(self.prma), dtype=PLAY)
        self.pool = np.zeros(3, dtype=POSITION)
        # choose's scratch plays and search arms
        self.scratch = (
            np.zeros(max_plays(self.prma), dtype=PLAY),
            np.zeros(max_plays(self.prma), dtype=ARM),
        )
        new(self.positions, self.prma, np.uint64(key), np.int64(race_index), NO_EV, EVC)

    @property
    def pos(self):
        return self.positions[0]

    def legal(self) -> np.ndarray:
        n = legal_plays(self.positions, self.prma, self.plays)
        return self.plays[:n].copy()

    def choice(self, positions=None) -> int:
        """Index in ``legal()`` of the play the bot of the seat to move of ``positions``
        (default: this game's) makes (draws its stream)."""
        positions = self.positions if positions is None else positions
        args = (self.bots, self.plays, self.pool, *self.scratch, NO_EV, EVC)
        return int(choose(positions, self.prma, *args))

    def apply(self, play) -> None:
        act(self.prma, self.positions, play)

    def step(self) -> None:
        i = self.choice()
        apply(self.positions, self.prma, self.plays, np.int64(i), NO_EV, EVC)


def midgame(variant, bots, key, plays):
    """A game after ``plays`` plays (or at its end, if sooner)."""
    g = Game(variant, bots, key)
    for _ in range(plays):
        if g.pos["ended"]:
            break
        g.step()
    return g


def play_out(variant, bots, key, after_play=None):
    """Play a game to its end by a Python loop, calling ``after_play(game)`` after each play."""
    g = Game(variant, bots, key)
    plays = 0
    while not g.pos["ended"]:
        g.step()
        plays += 1
        assert plays <= 2 * variant.deck_size() + 200, "a game must end"
        if after_play:
            after_play(g)
    return g


def position(**over):
    """A position for ``state_from_json``: seat 0 to move, an 8-card forest, empty hands.

    Returns (variant, one-element variant array ``prma``, one-element POSITION array)."""
    d = {
        "game": "mushroomwalk",
        "to_move": 0,
        "forest": ["2", "3", "4", "5", "6", "7", "8", "10"],
        "decay": [],
        "draw_pile": ["pan", "pan", "pan"],
        "players": [{"hand": [], "pans": 1}, {"hand": [], "pans": 1}],
    }
    d.update(over)
    v, arr = state_from_json(d)
    return v, as_records(v.to_kernel()), arr


def plays_of(prma, positions) -> np.ndarray:
    """Every legal play of the seat to move of ``positions[0]``."""
    out = np.zeros(max_plays(prma), dtype=PLAY)
    return out[: legal_plays(positions, prma, out)]


def play(kind, arg=0, plain=0, night=0, butter=0, cider=0, hand_pan=0) -> np.void:
    """One PLAY record."""
    rec = np.zeros(1, dtype=PLAY)
    rec[0] = (kind, arg, plain, night, butter, cider, hand_pan)
    return rec[0]


def act(prma, positions, play) -> None:
    """Carry out ``play`` (a PLAY record) for the seat to move of ``positions[0]``."""
    plays = np.zeros(1, dtype=PLAY)
    plays[0] = play
    apply(positions, prma, plays, np.int64(0), NO_EV, EVC)
