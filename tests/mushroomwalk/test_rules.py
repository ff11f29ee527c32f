"""Rules one at a time on hand-made positions; each test cites the book section it checks.

The book is ``001_3be794a22b0ef5b2.txt``; rulings are RULINGS.md.
"""

import numpy as np

from simkit.games.mushroomwalk import layout as L
from simkit.games.mushroomwalk.bots import parse_bots
from simkit.games.mushroomwalk.cards import (
    CARD_BASKET,
    CARD_MOON,
    CARD_POISON,
    NIGHT_BASE,
)
from simkit.games.mushroomwalk.params import PRESETS
from simkit.games.mushroomwalk.play import N_RNG, play_turn, start_game
from simkit.games.mushroomwalk.rules import (
    do_action,
    end_of_turn,
    hand_limit,
    hand_size,
    legal,
    winner,
)
from tests.mushroomwalk.mw_helpers import key_of, position

EV = np.zeros((1, L.E_WIDTH), dtype=np.int32)
EVC = np.zeros(1, dtype=np.int64)
B0 = L.player_base(0)
B1 = L.player_base(1)


def act(s, prm, a, p=0):
    return do_action(s, p, a, prm, EV, EVC)


def mask_of(s, prm, p=0):
    m = np.zeros(L.N_ACTIONS, dtype=np.int8)
    legal(s, p, prm, m)
    return m


def test_book_example_four_nines_with_butter_score_19():
    # 'Playing a turn', example: two 9s and a night 9 (= four 9s), a pan and butter -> 19.
    v, s = position(players=[{"hand": ["9", "9", "pan", "butter"], "night": ["9"], "pans": 0},
                             {"hand": []}])  # fmt: skip
    prm = v.to_kernel()
    _card, n, gain, _cost, butter, cider, _owed = act(s, prm, L.A_COOK + 7)
    assert (n, gain, butter, cider) == (4, 19, 1, 0)
    assert s[B0 + L.PL_SCORE] == 19 and s[B0 + L.PL_COOKED] == 4 and s[B0 + L.PL_DISHES] == 1
    assert hand_size(s, 0) == 0


def test_book_example_three_eights_sell_for_nine_sticks():
    v, s = position(players=[{"hand": ["8", "8", "8"]}, {"hand": []}])
    prm = v.to_kernel()
    assert act(s, prm, L.A_SELL + 6)[2] == 9
    assert s[B0 + L.PL_STICKS] == 9 and s[L.S_DISCARD + 6] == 3


def test_butter_and_cider_ratios():
    # 'Playing a turn' 3: 8 -> 2 butter, 9 -> butter + cider, 10 -> 2 cider.
    for m, hand_extra, want in (
        (8, ["butter", "butter", "cider"], 8 * 3 + 6),
        (9, ["butter", "butter", "cider", "cider"], 9 * 3 + 3 + 5),
        (10, ["butter", "butter", "cider", "cider"], 10 * 3 + 10),
    ):
        v, s = position(players=[{"hand": ["6"] * m + hand_extra}, {"hand": []}])
        v = v.replace(hand_limit=20)
        assert act(s, v.to_kernel(), L.A_COOK + 4)[2] == want


def test_cooking_needs_three_and_a_pan_selling_two_or_a_night_card():
    v, s = position(players=[{"hand": ["9", "9"], "night": ["5"], "pans": 0}, {"hand": []}])
    m = mask_of(s, v.to_kernel())
    assert not m[L.A_COOK + 7] and not m[L.A_COOK + 3]  # no pan
    assert m[L.A_SELL + 7] and m[L.A_SELL + 3]  # one night card alone may be sold
    v, s = position(players=[{"hand": ["9", "9"], "pans": 1}, {"hand": []}])
    assert not mask_of(s, v.to_kernel())[L.A_COOK + 7]  # two are not enough


def test_cooking_uses_the_hand_pan_first():
    v, s = position(players=[{"hand": ["7", "7", "7", "pan"], "pans": 1}, {"hand": []}])
    act(s, v.to_kernel(), L.A_COOK + 5)
    assert s[B0 + L.PL_PANS] == 1 and s[B0 + L.PL_HAND + 13] == 0


def test_hand_limit_blocks_taking_but_not_baskets_or_poison():
    # 'Your hand': 8 cards (night cards count); baskets and poison are not hand cards.
    v, s = position(
        forest=["2", "basket", "poison", "moon", "5", "6", "7", "8"],
        players=[{"hand": ["10"] * 7, "night": ["2"], "sticks": 10}, {"hand": []}],
    )
    m = mask_of(s, v.to_kernel())
    assert list(m[:4]) == [0, 1, 1, 0]  # the moon would bring a night card: no room


def test_a_basket_raises_the_limit_and_counts_first_for_the_decay_pile():
    v, s = position(decay=["basket", "2", "3"], players=[{"hand": ["10"] * 7}, {"hand": []}])
    prm = v.to_kernel()
    assert mask_of(s, prm)[L.A_DECAY]  # 7 + 2 <= 8 + 2
    act(s, prm, L.A_DECAY)
    assert s[B0 + L.PL_BASKETS] == 1 and hand_limit(s, 0, prm, 0) == 10 and hand_size(s, 0) == 9
    v, s = position(decay=["4", "2", "3"], players=[{"hand": ["10"] * 7}, {"hand": []}])
    assert not mask_of(s, v.to_kernel())[L.A_DECAY]


def test_moon_gives_the_top_night_card():
    v, s = position(forest=["moon", "3"], night_pile=["night7", "night2"])
    prm = v.to_kernel()
    r = act(s, prm, L.A_TAKE)
    assert r[4] == NIGHT_BASE + 5 and s[B0 + L.PL_HAND + NIGHT_BASE + 5] == 1
    assert s[L.S_DISCARD + CARD_MOON] == 1 and hand_size(s, 0) == 1


def test_poison_lower_limit_lasts_until_the_end_of_the_next_turn():
    # 'The poison mushroom': discard to 4 (+2 per basket) now; limit back after next turn.
    v, s = position(
        forest=["poison", "2", "3", "4", "5", "6", "7", "8"],
        players=[{"hand": ["10"] * 6, "baskets": 0}, {"hand": []}],
    )
    prm = v.to_kernel()
    owed = act(s, prm, L.A_TAKE)[6]
    assert owed == 2 and hand_limit(s, 0, prm, 0) == 4
    s[B0 + L.PL_HAND + 8] -= 2
    end_of_turn(s, 0, prm, True, EV, EVC)
    assert s[B0 + L.PL_POISON] == 1 and hand_limit(s, 0, prm, 0) == 4  # opponent's turn next
    end_of_turn(s, 1, prm, True, EV, EVC)
    assert hand_limit(s, 0, prm, 0) == 4
    end_of_turn(s, 0, prm, True, EV, EVC)  # end of the taker's next turn
    assert s[B0 + L.PL_POISON] == 0 and hand_limit(s, 0, prm, 0) == 8
    assert s[L.S_DISCARD + CARD_POISON] == 1


def test_no_discard_when_already_within_the_poison_limit():
    v, s = position(forest=["2", "poison"], players=[{"hand": ["10"] * 3}, {"hand": []}])
    assert act(s, v.to_kernel(), L.A_TAKE + 1)[6] == 0


def test_decay_pile_holds_four_a_fifth_sends_the_four_to_the_discard():
    # 'After every turn' 1-3.
    v, s = position(decay=["2", "3", "4", "5"], draw_pile=["9", "9"],
                    players=[{"hand": [], "sticks": 6}, {"hand": []}])  # fmt: skip
    prm = v.to_kernel()
    act(s, prm, L.A_TAKE + 7)  # take the 10 at the far end for 6 sticks
    end_of_turn(s, 0, prm, True, EV, EVC)
    # the forest's 2 (next to the decay pile) decays; the old four went to the discard
    assert s[L.S_DECAY_N] == 1 and s[L.S_DECAY] == 0
    assert [s[L.S_DISCARD + c] for c in (0, 1, 2, 3)] == [1, 1, 1, 1]
    forest = list(s[L.S_FOREST : L.S_FOREST + s[L.S_FOREST_N]])
    assert forest == [1, 2, 3, 4, 5, 6, 7, 7]  # 3..8 slid down, refilled with two 9s


def test_the_game_ends_when_the_forest_is_empty():
    # 'End of the game': when the last card is taken, or drops into the decay pile.
    v, s = position(forest=["2"], draw_pile=0)
    act(s, v.to_kernel(), L.A_TAKE)
    assert s[L.S_ENDED] == 1
    v, s = position(forest=["2"], draw_pile=0, players=[{"hand": ["pan"]}, {"hand": []}])
    prm = v.to_kernel()
    act(s, prm, L.A_PAN)
    assert s[L.S_ENDED] == 0
    end_of_turn(s, 0, prm, True, EV, EVC)
    assert s[L.S_ENDED] == 1


def test_tie_breaks_score_then_mushrooms_cooked_then_draw():
    _v, s = position()
    s[B0 + L.PL_SCORE], s[B1 + L.PL_SCORE] = 10, 12
    assert winner(s) == 1
    s[B0 + L.PL_SCORE] = 12
    s[B0 + L.PL_COOKED], s[B1 + L.PL_COOKED] = 5, 4
    assert winner(s) == 0
    s[B1 + L.PL_COOKED] = 5
    assert winner(s) == -1


def _turn(s, prm, cur):
    kinds, bpar = parse_bots(("greedy", "greedy"))
    scratch = np.zeros_like(s)
    mask = np.zeros(L.N_ACTIONS, dtype=np.int8)
    streams = np.zeros(N_RNG, dtype=np.uint64)
    return play_turn(cur, prm, kinds, bpar, s, scratch, mask, streams, EV, EVC, EV)


def test_stuck_player_opponent_takes_turns_until_they_can_act():
    # seat 0 holds 8 different cards and no pan or sticks for anything but full cards.
    full = ["2", "3", "4", "5", "6", "7", "8", "10"]
    v, s = position(
        forest=["9", "9", "9", "9", "9", "9", "9", "9"],
        players=[{"hand": full, "pans": 0}, {"hand": [], "pans": 1}],
    )
    prm = v.to_kernel()
    assert _turn(s, prm, 0) == 0  # seat 1 played instead, seat 0 is still to move
    assert s[B0 + L.PL_TURNS_STUCK] == 1 and s[B1 + L.PL_TURNS] == 1


def test_neither_can_act_ends_the_game():
    full = ["2", "3", "4", "5", "6", "7", "8", "10"]
    v, s = position(
        forest=["9"] * 8,
        players=[{"hand": full, "pans": 0}, {"hand": full, "pans": 0}],
    )
    _turn(s, v.to_kernel(), 0)
    assert s[L.S_ENDED] == 1 and s[L.S_END_REASON] == 1


def test_setup_deals_three_and_handles_baskets_moons_and_poison():
    # 'Setup' 1-5, over many deals: every dealt card is in a hand, a display or the discard.
    v = PRESETS["mushroomwalk"].replace(poison_cards=12, basket_cards=12, moon_cards=12)
    prm = v.to_kernel()
    for seed in range(40):
        s = np.zeros(L.S_SIZE, dtype=np.int32)
        start_game(key_of(seed), 0, prm, np.zeros(N_RNG, np.uint64), s, EV, EVC)
        assert s[L.S_FOREST_N] == 8 and s[L.S_DRAW_TOP] == 8 + 6
        moons = s[L.S_DISCARD + CARD_MOON]
        night = sum(s[L.player_base(p) + L.PL_HAND + NIGHT_BASE + k]
                    for p in (0, 1) for k in range(9))  # fmt: skip
        baskets = s[B0 + L.PL_BASKETS] + s[B1 + L.PL_BASKETS]
        poison = s[L.S_DISCARD + CARD_POISON]
        assert night == moons  # a moon is swapped for a night card
        assert s[B0 + L.PL_POISON] + s[B1 + L.PL_POISON] == 0  # dealt poison is discarded
        assert hand_size(s, 0) + hand_size(s, 1) + baskets + poison == 6
        assert s[B0 + L.PL_PANS] == s[B1 + L.PL_PANS] == 1  # starting pans
        assert s[B0 + L.PL_HAND + CARD_BASKET] == 0
