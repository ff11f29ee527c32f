"""Properties of whole games under random variants, seeds and bots (hypothesis)."""

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from simkit.games.cells import build_cell
from simkit.games.mushroomwalk import GAME
from simkit.games.mushroomwalk.cards import (
    CARD_BASKET,
    CARD_PAN,
    CARD_POISON,
    N_FOREST_CODES,
    N_KINDS,
    NIGHT_BASE,
)
from simkit.games.mushroomwalk.kernels import hand_limit, hand_size
from simkit.games.mushroomwalk.records import COOK, N_SLOTS, SELL
from simkit.rng import race_keys
from tests.mushroomwalk.mw_helpers import BOTS, Game, key_of, play_out, variants


def census(pos):
    """Where every card is: counts per code over all piles, hands and displays."""
    n = np.zeros(N_SLOTS, dtype=np.int64)
    piles = (
        pos["draw"][pos["draw_top"] : pos["draw_end"]],
        pos["night"][pos["night_top"] : pos["night_end"]],
        pos["forest"][: pos["forest_n"]],
        pos["decay"][: pos["decay_n"]],
    )
    for pile in piles:
        np.add.at(n, pile.astype(np.int64), 1)
    n += pos["discard"]
    for me in pos["seats"]:
        n += me["hand"] + me["dish"]
        n[CARD_BASKET] += me["baskets"]
        n[CARD_POISON] += me["poison"]
        n[CARD_PAN] += me["pans"]
    return n


def expected(v):
    n = np.zeros(N_SLOTS, dtype=np.int64)
    n[:N_FOREST_CODES] = v.forest_counts()
    n[CARD_PAN] += 2 * v.starting_pans  # the starting pans are spare cards ('Setup' 1)
    n[NIGHT_BASE : NIGHT_BASE + N_KINDS] = v.night_cards
    return n


@given(variants(), st.integers(0, 2**32), BOTS, BOTS)
def test_cards_are_conserved_limits_hold_and_the_game_ends(v, seed, b0, b1):
    # Random bots play every kind of play, partial cooks and sales and discards included.
    want = expected(v)

    def check(g):
        pos = g.pos
        assert (census(pos) == want).all()
        assert pos["decay_n"] <= v.decay_size  # 'After every turn' 1
        assert pos["forest_n"] <= v.forest_size
        for p, me in enumerate(pos["seats"]):
            assert me["sticks"] >= 0
            # 'Your hand': never over the limit; over the poison's lower limit only while
            # the seat to move discards ('The poison mushroom')
            assert hand_size(g.positions, p) <= v.hand_limit + v.basket_bonus * me["baskets"]
            if not pos["ended"] and p != pos["mover"]:
                assert hand_size(g.positions, p) <= hand_limit(g.positions, p, g.prma)
            # what the opponent saw of a hand is there; night cards are always seen
            assert (me["seen"] <= me["hand"]).all()
            night = slice(NIGHT_BASE, NIGHT_BASE + N_KINDS)
            assert (me["seen"][night] == me["hand"][night]).all()

    g = play_out(v, (b0, b1), key_of(seed), check)
    pos = g.pos
    assert pos["ended"] == 1 and pos["mover"] == -1
    if pos["end_reason"] == 0:  # 'End of the game': the forest is empty
        assert pos["forest_n"] == 0 and pos["draw_top"] == pos["draw_end"]


def test_partial_cooks_and_sales_happen_and_conserve_cards():
    # Random bots pick uniformly among the plays, so most dishes and sales they make keep
    # some mushrooms of the kind back; the cards must still add up after every play.
    v = build_cell("mushroomwalk").variant.replace(min_cook=2, min_sell=1)
    want = expected(v)
    partial = {int(COOK): 0, int(SELL): 0}
    for seed in range(10):
        g = Game(v, ("random", "random"), key_of(seed))
        while not g.pos["ended"]:
            play = g.legal()[g.choice()]
            me = g.pos["seats"][g.pos["mover"]]
            g.apply(play)
            k = play["arg"]
            if play["kind"] in partial and me["hand"][k] + me["hand"][NIGHT_BASE + k] > 0:
                partial[int(play["kind"])] += 1
            assert (census(g.pos) == want).all()
    assert partial[int(COOK)] > 0 and partial[int(SELL)] > 0


def _tables(threads, bots, n=300, preset=None):
    cell = build_cell("mushroomwalk", preset=preset, bots=bots)
    return GAME.simulate(cell, race_keys(11, 0, np.arange(n)), threads=threads)


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
