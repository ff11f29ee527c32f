"""Bots: spec parsing, strength order on fixed seeds, and no peeking at hidden cards."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from simkit.errors import SimkitError
from simkit.games.cells import build_cell
from simkit.games.mushroomwalk import GAME
from simkit.games.mushroomwalk import layout as L
from simkit.games.mushroomwalk.bots import parse_bot, parse_bots
from simkit.games.mushroomwalk.cards import CARD_BUTTER, CARD_PAN, N_KINDS
from simkit.games.mushroomwalk.params import PRESETS
from simkit.games.mushroomwalk.play import N_RNG, R_BOT, play_turn, start_game
from simkit.games.mushroomwalk.policy import B_COOK_AT, B_OPP, BOT_LOOKAHEAD, choose
from simkit.games.mushroomwalk.rules import legal
from simkit.rng import race_keys
from tests.mushroomwalk.mw_helpers import BOTS, key_of


def test_bot_specs_and_their_errors():
    kind, vec = parse_bot("lookahead:opp=2:cook_at=3")
    assert kind == BOT_LOOKAHEAD and vec[B_OPP] == 2.0 and vec[B_COOK_AT] == 3.0
    for spec, msg in (
        ("smart", "unknown bot 'smart'"),
        ("greedy:opp", "expected NAME=VALUE"),
        ("greedy:speed=1", "expected NAME=VALUE"),
        ("greedy:opp=x", "opp must be a number"),
        ("greedy:opp=99", "opp must be between 0 and 10"),
    ):
        with pytest.raises(SimkitError, match=msg):
            parse_bot(spec)


def _win_share(a, b, n):
    """Share of games bot ``a`` wins against ``b`` (draws half), over both seatings."""
    keys = race_keys(2024, 0, np.arange(n))
    won = 0.0
    for bots, seat in (([a, b], 0), ([b, a], 1)):
        batch = GAME.simulate(build_cell("mushroomwalk", bots=bots), keys)
        fin = batch.seats["finish"]
        draw = batch.races["draw"]
        won += ((fin[:, seat] == 1) & ~draw).sum() + 0.5 * draw.sum()
    return won / (2 * n)


def test_greedy_beats_random_and_lookahead_beats_greedy():
    assert _win_share("greedy", "random", 200) > 0.9
    assert _win_share("lookahead", "greedy", 1000) > 0.65


def _midgame(seed, turns, bots):
    v = PRESETS["mushroomwalk"]
    prm = v.to_kernel()
    kinds, bpar = parse_bots(bots)
    s = np.zeros(L.S_SIZE, dtype=np.int32)
    streams = np.zeros(N_RNG, dtype=np.uint64)
    ev, evc = np.zeros((1, L.E_WIDTH), dtype=np.int32), np.zeros(1, dtype=np.int64)
    cur = start_game(key_of(seed), 0, prm, streams, s, ev, evc)
    scratch = np.zeros_like(s)
    mask = np.zeros(L.N_ACTIONS, dtype=np.int8)
    for _ in range(turns):
        if s[L.S_ENDED]:
            break
        cur = play_turn(cur, prm, kinds, bpar, s, scratch, mask, streams, ev, evc, ev)
    return s, cur, prm, kinds, bpar, streams


@given(st.integers(0, 2**32), st.integers(0, 40), BOTS, st.randoms(use_true_random=False))
def test_bots_do_not_peek_at_the_draw_pile_or_the_opponents_hand(seed, turns, bot, rnd):
    s, cur, prm, kinds, bpar, streams = _midgame(seed, turns, (bot, bot))
    if s[L.S_ENDED]:
        return
    ev, evc = np.zeros((1, L.E_WIDTH), dtype=np.int32), np.zeros(1, dtype=np.int64)
    mask = np.zeros(L.N_ACTIONS, dtype=np.int8)
    if not legal(s, cur, prm, mask):
        return
    hidden = s.copy()
    top, end = hidden[L.S_DRAW_TOP], hidden[L.S_DRAW_END]
    pile = list(hidden[L.S_DRAW + top : L.S_DRAW + end])
    rnd.shuffle(pile)
    hidden[L.S_DRAW + top : L.S_DRAW + end] = pile
    night = list(hidden[L.S_NIGHT + hidden[L.S_NIGHT_TOP] : L.S_NIGHT + hidden[L.S_NIGHT_END]])
    rnd.shuffle(night)
    hidden[L.S_NIGHT + hidden[L.S_NIGHT_TOP] : L.S_NIGHT + hidden[L.S_NIGHT_END]] = night
    # the opponent's hand: same size, other cards
    ob = L.player_base(1 - cur) + L.PL_HAND
    size = hidden[ob : ob + L.N_SLOTS].sum()
    hidden[ob : ob + L.N_SLOTS] = 0
    for _ in range(size):
        hidden[ob + rnd.choice([*range(N_KINDS), CARD_BUTTER, CARD_PAN])] += 1
    picks = []
    for state in (s, hidden):
        r = streams.copy()
        t = state.copy()
        picks.append(
            choose(t, cur, prm, kinds[cur], bpar[cur], r, R_BOT + cur, mask, t.copy(), ev, evc)
        )
    assert picks[0] == picks[1]
