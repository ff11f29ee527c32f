"""Shared helpers and hypothesis strategies for the Mushroom Walk tests."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from simkit import rng
from simkit.games.mushroomwalk.bots import parse_bots
from simkit.games.mushroomwalk.choose import choose
from simkit.games.mushroomwalk.params import PRESETS
from simkit.games.mushroomwalk.position import apply, legal_plays, max_plays, new
from simkit.games.mushroomwalk.records import ARM, EVENT, PLAY, POSITION, as_records
from simkit.games.mushroomwalk.state import state_from_json

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
        self.prm = as_records(variant.to_kernel())[0]
        self.bots = parse_bots(tuple(bots))
        self.positions = np.zeros(1, dtype=POSITION)
        self.plays = np.zeros(max_plays(self.prm), dtype=PLAY)
        self.pool = np.zeros(3, dtype=POSITION)
        # choose's scratch plays and search arms
        self.scratch = (
            np.zeros(max_plays(self.prm), dtype=PLAY),
            np.zeros(max_plays(self.prm), dtype=ARM),
        )
        new(self.pos, self.prm, np.uint64(key), np.int64(race_index), NO_EV, EVC)

    @property
    def pos(self):
        return self.positions[0]

    def legal(self) -> np.ndarray:
        n = legal_plays(self.pos, self.prm, self.plays)
        return self.plays[:n].copy()

    def choice(self) -> int:
        """Index in ``legal()`` of the play the seat to move's bot makes (draws its stream)."""
        return int(
            choose(self.pos, self.prm, self.bots, self.plays, self.pool, *self.scratch, NO_EV, EVC)
        )

    def apply(self, play) -> None:
        apply(self.pos, self.prm, play, NO_EV, EVC)

    def step(self) -> None:
        i = self.choice()
        apply(self.pos, self.prm, self.plays[i], NO_EV, EVC)


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

    Returns (variant, prm record, one-element POSITION array)."""
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
    return v, as_records(v.to_kernel())[0], arr


def plays_of(prm, pos) -> np.ndarray:
    """Every legal play of the seat to move."""
    out = np.zeros(max_plays(prm), dtype=PLAY)
    return out[: legal_plays(pos, prm, out)]


def play(kind, arg=0, plain=0, night=0, butter=0, cider=0, hand_pan=0) -> np.void:
    """One PLAY record."""
    rec = np.zeros(1, dtype=PLAY)
    rec[0] = (kind, arg, plain, night, butter, cider, hand_pan)
    return rec[0]
