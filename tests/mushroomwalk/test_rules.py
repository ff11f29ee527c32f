"""Rules one at a time on hand-made positions; each test cites the book section it checks.

The book is ``001_3be794a22b0ef5b2.txt``; rulings are RULINGS.md.
"""

import numpy as np

from simkit.games.mushroomwalk.cards import CARD_BASKET, CARD_MOON, CARD_POISON, NIGHT_BASE
from simkit.games.mushroomwalk.kernels import end_of_turn, hand_limit, hand_size, new, winner
from simkit.games.mushroomwalk.params import PRESETS
from simkit.games.mushroomwalk.records import (
    COOK,
    DECAY,
    DISCARD,
    PAN,
    POSITION,
    SELL,
    TAKE,
    as_records,
)
from tests.mushroomwalk.mw_helpers import EVC, NO_EV, act, key_of, play, plays_of, position

NINE, EIGHT = 7, 6  # kind codes: rank - 2
SEVEN = ["4", "4", "9", "9", "9", "pan", "pan"]  # a 7-card hand


def kinds(plays, kind):
    return plays[plays["kind"] == kind]


def test_book_example_four_nines_with_butter_score_19():
    # 'Playing a turn', example: two 9s and a night 9 (= four 9s), a pan and butter -> 19.
    _v, prma, arr = position(
        players=[{"hand": ["9", "9", "pan", "butter"], "night": ["9"], "pans": 0}, {}]
    )
    pos = arr[0]
    act(prma, arr, play(COOK, NINE, plain=2, night=1, butter=1, hand_pan=1))
    me = pos["seats"][0]
    assert (me["score"], me["cooked"], me["dishes"]) == (19, 4, 1)
    assert hand_size(arr, 0) == 0 and me["butter_used"] == 1
    assert (pos["outcome"][0]["n"], pos["outcome"][0]["gain"]) == (4, 19)


def test_book_example_three_eights_sell_for_nine_sticks():
    _v, prma, arr = position(players=[{"hand": ["8", "8", "8"]}, {}])
    pos = arr[0]
    act(prma, arr, play(SELL, EIGHT, plain=3))
    assert pos["seats"][0]["sticks"] == 9 and pos["discard"][EIGHT] == 3


def test_butter_and_cider_ratios():
    # 'Playing a turn' 3: one butter per 4 and one cider per 5, each mushroom counted once:
    # 8 -> 2 butter, 9 -> butter + cider, 10 -> 2 cider.
    for m, best in ((8, (2, 0)), (9, (1, 1)), (10, (0, 2))):
        _v, prma, arr = position(
            set={"hand_limit": 20, "mushroom_cards": [7, 7, 6, 5, 12, 4, 4, 4, 3]},
            players=[{"hand": ["6"] * m + ["butter", "butter", "cider", "cider"], "pans": 1}, {}],
        )
        full = kinds(plays_of(prma, arr), COOK)
        full = full[full["plain"] == m]
        extras = {(int(b), int(c)) for b, c in zip(full["butter"], full["cider"], strict=True)}
        allowed = {(b, c) for b in range(3) for c in range(3) if 4 * b + 5 * c <= m}
        assert extras == allowed
        points = [3 * m + 3 * b + 5 * c for b, c in extras]
        assert max(points) == 3 * m + 3 * best[0] + 5 * best[1]


def test_cook_and_sell_any_number_from_the_minimum_up():
    # 'Playing a turn' 3 and 4: 3 or more mushrooms cook, 2 or more sell; a night card
    # counts 2 (and alone is enough to sell). Every allowed number is its own play.
    _v, prma, arr = position(players=[{"hand": ["9"] * 4, "night": ["9"], "pans": 1}, {}])
    plays = plays_of(prma, arr)
    cook = {(int(p["plain"]), int(p["night"])) for p in kinds(plays, COOK)}
    sell = {(int(p["plain"]), int(p["night"])) for p in kinds(plays, SELL)}
    assert cook == {(a, n) for a in range(5) for n in range(2) if a + 2 * n >= 3}
    assert sell == {(a, n) for a in range(5) for n in range(2) if a + 2 * n >= 2}
    assert (0, 1) in sell and (1, 1) in cook


def test_cooking_needs_three_and_a_pan_selling_two_or_a_night_card():
    _v, prma, arr = position(players=[{"hand": ["9", "9"], "night": ["5"], "pans": 0}, {}])
    plays = plays_of(prma, arr)
    assert len(kinds(plays, COOK)) == 0  # no pan
    assert set(kinds(plays, SELL)["arg"]) == {NINE, 3}  # one night card alone may be sold
    _v, prma, arr = position(players=[{"hand": ["9", "9"], "pans": 1}, {}])
    assert len(kinds(plays_of(prma, arr), COOK)) == 0  # two are not enough


def test_the_pan_is_the_players_choice():
    # 'Playing a turn' 3: an empty display pan, or a pan played from the hand.
    _v, prma, arr = position(players=[{"hand": ["7", "7", "7", "pan"], "pans": 1}, {}])
    cook = kinds(plays_of(prma, arr), COOK)
    assert sorted(cook["hand_pan"]) == [0, 1]
    for hand_pan, pans_left, in_hand in ((1, 1, 0), (0, 0, 1)):
        _v, prma, arr = position(players=[{"hand": ["7", "7", "7", "pan"], "pans": 1}, {}])
        act(prma, arr, play(COOK, 5, plain=3, hand_pan=hand_pan))
        me = arr[0]["seats"][0]
        assert (me["pans"], me["hand"][13]) == (pans_left, in_hand)


def test_hand_limit_blocks_taking_but_not_baskets_or_poison():
    # 'Your hand': 8 cards (night cards count); baskets and poison are not hand cards.
    _v, prma, arr = position(
        forest=["2", "basket", "poison", "moon", "5", "6", "7", "8"],
        players=[{"hand": ["3", "3", "4", "4", "9", "9", "pan"], "night": ["2"], "sticks": 10}, {}],
    )
    takes = kinds(plays_of(prma, arr), TAKE)["arg"]
    assert list(takes) == [1, 2]  # the moon would bring a night card: no room


def test_a_basket_raises_the_limit_and_counts_first_for_the_decay_pile():
    _v, prma, arr = position(decay=["basket", "2", "3"], players=[{"hand": SEVEN}, {}])
    pos = arr[0]
    assert len(kinds(plays_of(prma, arr), DECAY)) == 1  # 7 + 2 <= 8 + 2
    act(prma, arr, play(DECAY))
    me = pos["seats"][0]
    assert me["baskets"] == 1 and hand_limit(arr, 0, prma) == 10 and hand_size(arr, 0) == 9
    _v, prma, arr = position(decay=["4", "2", "3"], players=[{"hand": SEVEN}, {}])
    assert len(kinds(plays_of(prma, arr), DECAY)) == 0


def test_moon_gives_the_top_night_card_face_up():
    _v, prma, arr = position(forest=["moon", "3"], night_pile=["night7", "night2"])
    pos = arr[0]
    act(prma, arr, play(TAKE, 0))
    me = pos["seats"][0]
    assert pos["outcome"][0]["night"] == NIGHT_BASE + 5 and me["hand"][NIGHT_BASE + 5] == 1
    assert me["seen"][NIGHT_BASE + 5] == 1  # night cards lie face up ('Your hand')
    assert pos["discard"][CARD_MOON] == 1 and hand_size(arr, 0) == 1


def test_poison_discards_are_plays_and_the_limit_lasts_until_the_next_turn_ends():
    # 'The poison mushroom': discard to 4 (+2 per basket) now, one card per play, the
    # player's choice; the lower limit holds until the end of the taker's next turn.
    _v, prma, arr = position(
        forest=["poison", "2", "3", "4", "5", "6", "7", "8"],
        players=[{"hand": ["9", "9", "9", "9", "10", "pan"]}, {}],
    )
    pos = arr[0]
    act(prma, arr, play(TAKE, 0))
    me = pos["seats"][0]
    assert pos["mover"] == 0 and hand_limit(arr, 0, prma) == 4  # seat 0 again: two discards owed
    discards = plays_of(prma, arr)
    assert set(discards["kind"]) == {DISCARD} and sorted(discards["arg"]) == [7, 8, 13]
    act(prma, arr, play(DISCARD, 13))
    assert pos["mover"] == 0
    act(prma, arr, play(DISCARD, 7))
    assert pos["mover"] == 1 and me["discarded"] == 2 and pos["discard"][13] == 1
    assert me["poison"] == 1 and hand_limit(arr, 0, prma) == 4  # the opponent's turn is next
    end_of_turn(arr, np.int64(1), prma, NO_EV, EVC)
    assert hand_limit(arr, 0, prma) == 4
    end_of_turn(arr, np.int64(0), prma, NO_EV, EVC)  # the end of the taker's next turn
    assert me["poison"] == 0 and hand_limit(arr, 0, prma) == 8
    assert pos["discard"][CARD_POISON] == 1


def test_no_discard_when_already_within_the_poison_limit():
    _v, prma, arr = position(forest=["2", "poison"], players=[{"hand": ["10"] * 3}, {}])
    act(prma, arr, play(TAKE, 1))
    assert arr[0]["mover"] == 1 and arr[0]["seats"][0]["discarded"] == 0


def test_decay_pile_holds_four_a_fifth_sends_the_four_to_the_discard():
    # 'After every turn' 1-3.
    _v, prma, arr = position(
        decay=["2", "3", "4", "5"], draw_pile=["9", "9"], players=[{"sticks": 6}, {}]
    )
    pos = arr[0]
    act(prma, arr, play(TAKE, 7))  # take the 10 at the far end for 6 sticks
    # the forest's 2 (next to the decay pile) decayed; the old four went to the discard
    assert pos["decay_n"] == 1 and pos["decay"][0] == 0
    assert list(pos["discard"][:4]) == [1, 1, 1, 1]
    assert list(pos["forest"][: pos["forest_n"]]) == [1, 2, 3, 4, 5, 6, 7, 7]


def test_the_game_ends_when_the_forest_is_empty():
    # 'End of the game': when the last card is taken, or drops into the decay pile.
    _v, prma, arr = position(forest=["2"], draw_pile=0)
    act(prma, arr, play(TAKE, 0))
    assert arr[0]["ended"] == 1 and arr[0]["mover"] == -1
    _v, prma, arr = position(forest=["2"], draw_pile=0, players=[{"hand": ["pan"]}, {}])
    act(prma, arr, play(PAN))
    assert arr[0]["ended"] == 1 and arr[0]["end_reason"] == 0


def test_tie_breaks_score_then_mushrooms_cooked_then_draw():
    _v, _prma, arr = position()
    a, b = arr[0]["seats"]
    a["score"], b["score"] = 10, 12
    assert winner(arr) == 1
    a["score"], a["cooked"], b["cooked"] = 12, 5, 4
    assert winner(arr) == 0
    b["cooked"] = 5
    assert winner(arr) == -1


SMALL = {"hand_limit": 2, "deal": 0, "poison_limit": 1}
FOREST = ["5", "6", "7", "8", "5", "6", "7", "8"]  # no card pairs with 2, 3 or 4


def test_stuck_player_opponent_takes_turns_until_they_can_act():
    # R-50: seat 0's hand is full with no pair and no pan, the forest all 9s.
    _v, prma, arr = position(
        set=SMALL,
        to_move=1,
        forest=FOREST,
        players=[{"hand": ["2", "4"], "pans": 0}, {"hand": [], "baskets": 1}],
    )
    pos = arr[0]
    act(prma, arr, play(TAKE, 0))
    assert pos["mover"] == 1 and pos["cur"] == 0  # seat 1 plays again, seat 0 keeps the turn
    assert pos["seats"][0]["turns_stuck"] == 1
    act(prma, arr, play(TAKE, 0))
    assert pos["mover"] == 1 and pos["seats"][0]["turns_stuck"] == 2


def test_neither_can_act_ends_the_game():
    _v, prma, arr = position(
        set=SMALL,
        to_move=1,
        forest=FOREST,
        players=[{"hand": ["2", "4"], "pans": 0}, {"hand": ["3"], "pans": 0}],
    )
    act(prma, arr, play(TAKE, 0))  # seat 1's hand is full now too
    assert arr[0]["ended"] == 1 and arr[0]["end_reason"] == 1


def test_setup_deals_three_and_handles_baskets_moons_and_poison():
    # 'Setup' 1-5, over many deals: every dealt card is in a hand, a display or the discard.
    v = PRESETS["mushroomwalk"].replace(poison_cards=12, basket_cards=12, moon_cards=12)
    prma = as_records(v.to_kernel())
    for seed in range(40):
        arr = np.zeros(1, dtype=POSITION)
        pos = arr[0]
        new(arr, prma, key_of(seed), np.int64(0), NO_EV, EVC)
        assert pos["forest_n"] == 8 and pos["draw_top"] == 8 + 6
        a, b = pos["seats"]
        night = sum(int(s["hand"][NIGHT_BASE : NIGHT_BASE + 9].sum()) for s in (a, b))
        assert night == pos["discard"][CARD_MOON]  # a moon is swapped for a night card
        assert a["poison"] + b["poison"] == 0  # dealt poison is discarded
        dealt = hand_size(arr, 0) + hand_size(arr, 1) + a["baskets"] + b["baskets"]
        assert dealt + pos["discard"][CARD_POISON] == 6
        assert a["pans"] == b["pans"] == 1  # starting pans
        assert a["hand"][CARD_BASKET] == 0
        # dealt cards are face down: the opponent has seen only the night cards
        assert a["seen"].sum() + b["seen"].sum() == night
