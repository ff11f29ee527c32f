"""The card table, the presets and the stick costs (RULINGS.md card table, book 'The cards')."""

import re

import pytest

from simkit.errors import ParamError
from simkit.games.mushroomwalk.cards import KINDS, NAME_TO_CODE, card_name
from simkit.games.mushroomwalk.params import PRESETS
from simkit.games.mushroomwalk.records import N_SLOTS, TAKE
from tests.mushroomwalk.mw_helpers import act, play, plays_of, position


def test_deck_totals_are_81_and_84():
    assert PRESETS["mushroomwalk"].deck_size() == 81
    assert PRESETS["morels"].deck_size() == 84


def test_table_meets_the_books_constraints():
    # 'Building the decks' and 'Deviations': 7 2s, 7 3s, 3 10s, 45 mushrooms; 'Tips': 3s
    # sell for 2 and 8s for 3; the example: 9s cook for 4; night cards for 2..9 only.
    by_rank = {k.rank: k for k in KINDS}
    assert [k.rank for k in KINDS] == list(range(2, 11))
    assert (by_rank[2].walk_cards, by_rank[3].walk_cards, by_rank[10].walk_cards) == (7, 7, 3)
    assert sum(k.walk_cards for k in KINDS) == 45
    assert (by_rank[2].morels_cards, by_rank[3].morels_cards) == (10, 8)
    assert by_rank[3].sell_sticks == 2 and by_rank[8].sell_sticks == 3
    assert by_rank[9].cook_points == 4
    assert [k.night_card for k in KINDS] == [True] * 8 + [False]


def test_morels_preset_is_the_original_numbers():
    m = PRESETS["morels"]
    assert m.mushroom_cards[:2] == (10, 8)
    counts = (m.butter_cards, m.cider_cards, m.basket_cards, m.poison_cards, m.pan_cards)
    assert counts == (3, 3, 5, 5, 11) and m.moon_cards == 8


def test_card_names_round_trip():
    for code in range(N_SLOTS):
        assert NAME_TO_CODE[card_name(code)] == code


def test_stick_costs_are_0_0_1_to_6_by_forest_position():
    # 'Playing a turn' 1: the two cards at your feet are free, then 1, 2, ... 6 sticks.
    _v, prma, arr = position(players=[{"sticks": 3}, {}])
    takes = plays_of(prma, arr)
    # with 3 sticks: positions 1-5 (costs 0,0,1,2,3) are open, 6-8 (4,5,6) are not
    assert list(takes[takes["kind"] == TAKE]["arg"]) == [0, 1, 2, 3, 4]
    paid = []
    for i in range(8):
        _v, prma, arr = position(players=[{"sticks": 10}, {}])
        act(prma, arr, play(TAKE, i))
        paid.append(int(arr[0]["outcome"][0]["cost"]))
        assert arr[0]["seats"][0]["sticks"] == 10 - paid[-1]
    assert paid == [0, 0, 1, 2, 3, 4, 5, 6]


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"stick_costs": [0, 1]}, "must have forest_size=8 entries (got 2)"),
        ({"who_starts": "loser"}, "mushroomwalk.who_starts must be one of"),
        ({"hand_limit": 0}, "mushroomwalk.hand_limit must be between 1 and 30 (got 0)"),
        ({"hand_limit": 2}, "mushroomwalk.deal=3 does not fit hand_limit=2"),
        ({"poison_limit": 9}, "mushroomwalk.poison_limit=9 must not exceed hand_limit=8"),
        (
            {
                "mushroom_cards": [0] * 9,
                "pan_cards": 0,
                "moon_cards": 0,
                "butter_cards": 0,
                "cider_cards": 0,
                "basket_cards": 0,
                "poison_cards": 3,
            },
            "the forest deck has 3 cards, fewer than forest_size=8",
        ),
    ],
)
def test_bad_variants_name_the_parameter(overrides, message):
    with pytest.raises(ParamError, match=re.escape(message)):
        PRESETS["mushroomwalk"].replace(**overrides)
