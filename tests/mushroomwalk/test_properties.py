"""Properties of whole games under random variants, seeds and bots (hypothesis)."""

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from simkit.games.cells import build_cell
from simkit.games.mushroomwalk import GAME
from simkit.games.mushroomwalk import layout as L
from simkit.games.mushroomwalk.cards import (
    CARD_BASKET,
    CARD_PAN,
    CARD_POISON,
    N_FOREST_CODES,
    N_KINDS,
    NIGHT_BASE,
)
from simkit.games.mushroomwalk.rules import hand_limit, hand_size
from simkit.rng import race_keys
from tests.mushroomwalk.mw_helpers import BOTS, key_of, step_game, variants


def census(s):
    """Where every card is: counts per code over all piles, hands and displays."""
    n = np.zeros(L.N_SLOTS, dtype=np.int64)
    for lo, top, end in ((L.S_DRAW, L.S_DRAW_TOP, L.S_DRAW_END),
                         (L.S_NIGHT, L.S_NIGHT_TOP, L.S_NIGHT_END)):  # fmt: skip
        for c in s[lo + s[top] : lo + s[end]]:
            n[c] += 1
    for c in s[L.S_FOREST : L.S_FOREST + s[L.S_FOREST_N]]:
        n[c] += 1
    for c in s[L.S_DECAY : L.S_DECAY + s[L.S_DECAY_N]]:
        n[c] += 1
    n += s[L.S_DISCARD : L.S_DISCARD + L.N_SLOTS]
    for p in (0, 1):
        b = L.player_base(p)
        n += s[b + L.PL_HAND : b + L.PL_HAND + L.N_SLOTS]
        n += s[b + L.PL_DISH : b + L.PL_DISH + L.N_SLOTS]
        n[CARD_BASKET] += s[b + L.PL_BASKETS]
        n[CARD_POISON] += s[b + L.PL_POISON]
        n[CARD_PAN] += s[b + L.PL_PANS]
    return n


def expected(v):
    n = np.zeros(L.N_SLOTS, dtype=np.int64)
    n[:N_FOREST_CODES] = v.forest_counts()
    n[CARD_PAN] += 2 * v.starting_pans  # the starting pans are spare cards ('Setup' 1)
    n[NIGHT_BASE : NIGHT_BASE + N_KINDS] = v.night_cards
    return n


@given(variants(), st.integers(0, 2**32), BOTS, BOTS)
def test_cards_are_conserved_limits_hold_and_the_game_ends(v, seed, b0, b1):
    want = expected(v)
    seen = {"turns": 0}

    def check(s):
        seen["turns"] += 1
        assert (census(s) == want).all()
        assert s[L.S_DECAY_N] <= v.decay_size  # 'After every turn' 1
        assert s[L.S_FOREST_N] <= v.forest_size
        if not s[L.S_ENDED]:
            for p in (0, 1):  # 'Your hand', 'The poison mushroom' (lower limit included)
                assert hand_size(s, p) <= hand_limit(s, p, v.to_kernel(), 0)
        for p in (0, 1):
            assert s[L.player_base(p) + L.PL_STICKS] >= 0

    s = step_game(v, (b0, b1), key_of(seed), check)
    assert s[L.S_ENDED] == 1
    if s[L.S_END_REASON] == 0:  # 'End of the game': the forest is empty
        assert s[L.S_FOREST_N] == 0 and s[L.S_DRAW_TOP] == s[L.S_DRAW_END]


@given(st.integers(0, 2**32), BOTS, BOTS)
def test_stepping_and_the_batch_kernel_agree(seed, b0, b1):
    # step_game (used by the property test above) must be the engine's own game loop.
    cell = build_cell("mushroomwalk", bots=[b0, b1])
    key = key_of(seed)
    s = step_game(cell.variant, cell.bots, key)
    t = GAME.trace(cell, int(key))
    assert (t.state == s).all()
    batch = GAME.simulate(cell, np.array([key], dtype=np.uint64))
    assert list(batch.seats["score"][0]) == [s[L.player_base(p) + L.PL_SCORE] for p in (0, 1)]


def _tables(threads, bots, n=300, preset=None):
    cell = build_cell("mushroomwalk", preset=preset, bots=bots)
    batch = GAME.simulate(cell, race_keys(11, 0, np.arange(n)), threads=threads)
    return batch


def test_results_are_identical_for_1_and_2_threads():
    for bots in (["greedy", "lookahead"], ["random", "random"]):
        a, b = _tables(1, bots), _tables(2, bots)
        for name in GAME.seat_columns:
            assert np.array_equal(a.seats[name], b.seats[name]), name
        for name in GAME.race_columns:
            assert np.array_equal(a.races[name], b.races[name]), name


def test_columns_have_the_declared_dtypes_and_shapes():
    batch = _tables(None, "greedy", n=50, preset="morels")
    for name, col in GAME.seat_columns.items():
        assert batch.seats[name].dtype == np.dtype(col.dtype) and batch.seats[name].shape == (50, 2)
    for name, col in GAME.race_columns.items():
        assert batch.races[name].dtype == np.dtype(col.dtype) and batch.races[name].shape == (50,)
    slot, finish, draw = batch.seats["slot"], batch.seats["finish"], batch.races["draw"]
    assert (np.sort(slot, axis=1) == [1, 2]).all()
    assert ((finish == 1).sum(axis=1) == np.where(draw, 2, 1)).all()
    assert (batch.seats["points"] == batch.seats["score"]).all()
