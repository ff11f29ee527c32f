"""The position functions of docs/positions.md: a Python loop over them is the batch
kernel; ``observe`` and ``determinize`` keep what a seat has seen and only that."""

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from simkit.games.cells import build_cell
from simkit.games.mushroomwalk import GAME
from simkit.games.mushroomwalk.cards import CARD_UNKNOWN
from simkit.games.mushroomwalk.game import _SEAT_FIELDS
from simkit.games.mushroomwalk.kernels import copy, determinize, max_plays, observe
from simkit.games.mushroomwalk.params import PRESETS
from simkit.games.mushroomwalk.records import N_RNG, POSITION, R_BOT
from tests.mushroomwalk.mw_helpers import BOTS, Game, key_of, midgame, play_out
from tests.mushroomwalk.test_properties import census

BOOK = PRESETS["mushroomwalk"]


def one(pos):
    arr = np.zeros(1, dtype=POSITION)
    arr[0] = pos
    return arr


def same(a, b):
    """Two positions equal in every field."""
    return all(np.array_equal(a[name], b[name]) for name in POSITION.names)


@given(st.integers(0, 2**32), BOTS, BOTS, st.sampled_from(sorted(PRESETS)))
def test_a_python_loop_over_the_position_is_the_batch_row(seed, b0, b1, preset):
    cell = build_cell("mushroomwalk", preset=preset, bots=[b0, b1])
    key = key_of(seed)
    g = play_out(cell.variant, cell.bots, key)
    batch = GAME.simulate(cell, np.array([key], dtype=np.uint64))
    for column, field in _SEAT_FIELDS.items():
        assert list(batch.seats[column][0]) == [s[field] for s in g.pos["seats"]], column
    assert batch.races["turns"][0] == g.pos["turn"]
    assert batch.races["starter_seat"][0] == g.pos["starter"]
    assert same(GAME.trace(cell, int(key)).position, g.pos)


def test_copy_copies_every_field():
    rnd = np.random.default_rng(1)
    src = np.zeros(1, dtype=POSITION)
    src.view(np.uint8)[:] = rnd.integers(0, 256, src.nbytes)
    dst = np.zeros(1, dtype=POSITION)
    copy(dst, src)
    assert same(dst[0], src[0])


@given(st.integers(0, 2**32), st.integers(0, 60), BOTS, st.sampled_from([0, 1]))
def test_observe_erases_the_hidden_cards_and_keeps_the_rest(seed, plays, bot, seat):
    g = midgame(BOOK, (bot, bot), key_of(seed), plays)
    pos = g.pos
    out = np.zeros(1, dtype=POSITION)
    observe(g.positions, np.int64(seat), out, 0)
    o = out[0]
    assert (o["draw"][o["draw_top"] : o["draw_end"]] == CARD_UNKNOWN).all()
    assert (o["night"][o["night_top"] : o["night_end"]] == CARD_UNKNOWN).all()
    me, opp = o["seats"][seat], o["seats"][1 - seat]
    assert np.array_equal(me["hand"], pos["seats"][seat]["hand"])  # its own hand
    assert opp["hand"].sum() == pos["seats"][1 - seat]["hand"].sum()  # the size is public
    assert np.array_equal(opp["hand"][:CARD_UNKNOWN], pos["seats"][1 - seat]["seen"][:CARD_UNKNOWN])
    for name in ("forest", "forest_n", "decay", "decay_n", "discard", "turn", "mover"):
        assert np.array_equal(o[name], pos[name]), name
    kept = [r == R_BOT + seat for r in range(N_RNG)]
    assert all(
        (o["rng"][r] == pos["rng"][r]) == k or pos["rng"][r] == 0 for r, k in enumerate(kept)
    )


def seen_by(positions, seat):
    out = np.zeros(1, dtype=POSITION)
    observe(positions, np.int64(seat), out, 0)
    return out[0]


@given(
    st.integers(0, 2**32),
    st.integers(0, 60),
    BOTS,
    st.sampled_from([0, 1]),
    st.integers(0, 2**63),
    st.integers(0, 2**63),
)
def test_determinize_keeps_what_the_seat_has_seen(seed, plays, bot, seat, k1, k2):
    g = midgame(BOOK, (bot, bot), key_of(seed), plays)
    pos, s = g.pos, np.int64(seat)
    a = np.zeros(2, dtype=POSITION)
    determinize(g.positions, s, np.uint64(k1), a, 0)
    # the same cards in all, and nothing the seat saw changed
    assert (census(a[0]) == census(pos)).all()
    assert same(seen_by(a[:1], seat), seen_by(g.positions, seat))
    # the sample depends only on what the seat saw: a position it cannot tell apart from
    # this one gives the same sample for the same key
    determinize(a, s, np.uint64(k1), a, 1)
    b = np.zeros(1, dtype=POSITION)
    determinize(g.positions, s, np.uint64(k1), b, 0)
    assert same(a[1], b[0])
    # and the hidden cards are dealt again: other keys give other samples
    if pos["draw_end"] - pos["draw_top"] > 5:
        determinize(g.positions, s, np.uint64(k2), b, 0)
        rest = slice(pos["draw_top"], pos["draw_end"])
        assert not np.array_equal(b[0]["draw"][rest], a[0]["draw"][rest]) or k1 == k2


@given(st.integers(0, 2**32), BOTS, st.integers(0, 2**63))
def test_a_bots_choice_does_not_change_when_hidden_parts_are_dealt_again(seed, bot, k):
    # at every decision of a game: the bot chooses on the real position and on a sample of
    # everything its seat cannot see (the draw and night piles, the opponent's hand)
    g = Game(BOOK, (bot, bot), key_of(seed))
    other = np.zeros(1, dtype=POSITION)
    while not g.pos["ended"]:
        seat = np.int64(g.pos["mover"])
        determinize(g.positions, seat, np.uint64(k), other, 0)
        real = one(g.pos)
        a = g.choice(real)
        play_a = g.plays[a].copy()
        b = g.choice(other)
        assert a == b and play_a == g.plays[b]
        g.step()


def test_legal_plays_fit_the_bound_of_the_variant():
    # the batch kernel sizes its buffer with max_plays; a hand full of one kind, butter and
    # cider with pans in hand and display gives the most plays of the book's variant
    v = BOOK.replace(hand_limit=20)
    g = Game(v, ("random", "random"), key_of(1))
    me = g.pos["seats"][0]
    me["hand"][:] = 0
    me["hand"][[0, 9, 10, 13, 15]] = [7, 4, 4, 2, 1]  # 2s, butter, cider, pans, night2
    me["pans"] = 1
    g.pos["mover"] = 0
    n = len(g.legal())
    assert 80 < n <= max_plays(g.prma)
