"""Shared helpers and hypothesis strategies for the Mushroom Walk tests."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from simkit import rng
from simkit.games.mushroomwalk import layout as L
from simkit.games.mushroomwalk.bots import parse_bots
from simkit.games.mushroomwalk.params import PRESETS
from simkit.games.mushroomwalk.play import N_RNG, play_turn, start_game
from simkit.games.mushroomwalk.state import state_from_json

BOTS = st.sampled_from(["random", "greedy", "lookahead"])


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
    )


def key_of(seed: int, race: int = 0) -> np.uint64:
    return np.uint64(rng.race_key(np.uint64(seed), np.uint64(0), np.uint64(race)))


def step_game(variant, bots, key, after_turn=None):
    """Play a game turn by turn with the engine's own kernels, calling ``after_turn(s)``."""
    prm = variant.to_kernel()
    kinds, bpar = parse_bots(bots)
    s = np.zeros(L.S_SIZE, dtype=np.int32)
    scratch = np.zeros(L.S_SIZE, dtype=np.int32)
    mask = np.zeros(L.N_ACTIONS, dtype=np.int8)
    streams = np.zeros(N_RNG, dtype=np.uint64)
    ev = np.zeros((1, L.E_WIDTH), dtype=np.int32)
    evc = np.zeros(1, dtype=np.int64)
    cur = start_game(key, 0, prm, streams, s, ev, evc)
    if after_turn:
        after_turn(s)
    turns = 0
    while not s[L.S_ENDED]:
        cur = play_turn(cur, prm, kinds, bpar, s, scratch, mask, streams, ev, evc, ev)
        turns += 1
        assert turns <= variant.deck_size(), "a game must end: every turn uses a forest card"
        if after_turn:
            after_turn(s)
    return s


def position(**over):
    """A position for ``state_from_json``: seat 0 to move, an 8-card forest, empty hands."""
    d = {
        "game": "mushroomwalk",
        "to_move": 0,
        "forest": ["2", "3", "4", "5", "6", "7", "8", "10"],
        "decay": [],
        "draw_pile": ["9", "9", "9"],
        "players": [{"hand": [], "pans": 1}, {"hand": [], "pans": 1}],
    }
    d.update(over)
    return state_from_json(d)
