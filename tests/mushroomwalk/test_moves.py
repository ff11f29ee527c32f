"""``simkit moves`` on Mushroom Walk positions: every legal action and its outcome."""

import json
import re

import pytest
from click.testing import CliRunner

from simkit.cli import main
from simkit.errors import StateError
from simkit.games.mushroomwalk import GAME

ANNA = {
    "game": "mushroomwalk",
    "to_move": 0,
    "forest": ["9", "poison", "moon", "10", "pan", "3", "3", "8"],
    "decay": ["2", "basket"],
    "draw_pile": ["5", "cider", "7"],
    "night_pile": ["night4"],
    "players": [
        {"hand": ["9", "9", "pan", "butter", "3", "3"], "night": ["9"], "pans": 0, "sticks": 2},
        {"hand": ["8", "8", "8"], "pans": 1},
    ],
}


def test_every_legal_play_with_its_outcome():
    moves = GAME.moves(ANNA).to_json()["moves"]
    names = [m["play"] for m in moves]
    # take 1-4 (4 costs 2 sticks; 5+ costs more), the decay pile, every dish of 9s (four
    # with or without the butter, or three), every sale of 3s and 9s, put down the pan.
    assert names == [
        "take1",
        "take2",
        "take3",
        "take4",
        "decay",
        "cook9:2+n:b1:hand",
        "cook9:2+n:hand",
        "cook9:1+n:hand",
        "sell3:2",
        "sell9:2+n",
        "sell9:1+n",
        "sell9:0+n",
        "sell9:2",
        "pan",
    ]
    cook = moves[names.index("cook9:2+n:b1:hand")]
    assert cook["text"] == (  # the book's example
        "cooks 4 mushrooms of rank 9 (9 9 night9) + 1 butter in a pan from the hand: 19 points"
    )
    assert cook["fields"] == {
        "kind": 2,
        "arg": 7,
        "plain": 2,
        "night": 1,
        "butter": 1,
        "cider": 0,
        "hand_pan": 1,
    }
    me = cook["result"]["players"][0]
    assert (me["score"], me["hand"], me["night"]) == (19, ["3", "3"], [])
    assert cook["result"]["forest"] == ["poison", "moon", "10", "pan", "3", "3", "8", "5"]
    assert cook["result"]["decay"] == ["2", "basket", "9"] and cook["result"]["to_move"] == 1
    moon = moves[names.index("take3")]
    assert moon["result"]["players"][0]["night"] == ["night4", "night9"]
    assert moon["result"]["players"][0]["sticks"] == 1
    assert moon["text"].endswith(", moon gives night4")
    # the poison: seat 0 is over its lower limit 4 and discards next, one card per play
    poison = moves[names.index("take2")]["result"]
    assert poison["to_move"] == 0 and poison["players"][0]["poison"] == 1
    again = GAME.moves(poison).to_json()["moves"]
    assert [m["play"] for m in again] == [
        "discard:3",
        "discard:9",
        "discard:butter",
        "discard:pan",
        "discard:night9",
    ]
    assert all(m["result"]["to_move"] == 0 for m in again)  # 7 cards: three to discard


def test_moves_cli_text(tmp_path):
    # The last forest card: taking it ends the game at once ('End of the game').
    pos = {
        "game": "mushroomwalk",
        "to_move": 0,
        "forest": ["8"],
        "draw_pile": 0,
        "decay": [],
        "players": [{"hand": ["8", "8"], "pans": 1}, {"hand": [], "score": 9}],
    }
    f = tmp_path / "pos.json"
    f.write_text(json.dumps(pos))
    res = CliRunner().invoke(main, ["moves", str(f)])
    assert res.exit_code == 0, res.output
    assert res.output == (
        "seat 0 to move; forest 8; decay -; 2 legal plays\n"
        "take1    takes 8 from forest position 1 (free)\n"
        "         -> hand 8 8 8; sticks 0; score 0; forest -; decay -; game over: seat 1 wins\n"
        "sell8:2  sells 2 mushrooms of rank 8 (8 8) for 6 sticks\n"
        "         -> hand -; sticks 6; score 0; forest -; decay 8; game over: seat 1 wins\n"
    )


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"forest": []}, "key 'forest': expected 1 to 8 cards (got 0)"),
        ({"forest": ["11"]}, "key 'forest': '11' is not a card allowed here"),
        ({"decay": ["2"] * 5}, "key 'decay': at most 4 cards (got 5)"),
        ({"to_move": 2}, "key 'to_move': expected an integer 0..1 (got 2)"),
        ({"players": [{}]}, "key 'players': expected a list of 2 players"),
        (
            {"players": [{"hand": ["moon"]}, {}]},
            "key 'players[0].hand': 'moon' is not a card allowed here",
        ),
        ({"players": [{"sticks": -1}, {}]}, "key 'players[0].sticks': expected an integer"),
        ({"players": [{"cards": []}, {}]}, "unknown key 'players[0].cards'"),
        ({"preset": "fungi"}, "key 'preset': unknown preset 'fungi'"),
        ({"set": {"hand_limit": 0}}, "key 'set': mushroomwalk.hand_limit must be between"),
        ({"colour": 1}, "unknown key 'colour'"),
        # positions no game can reach (issue 16): more copies than the decks hold ...
        (
            {"players": [{"hand": ["8"] * 12}, {}]},
            "key 'players[0].hand': 13 cards '8' where the decks hold 4",
        ),
        (
            {"players": [{"night": ["9"]}, {"night": ["9"]}]},
            "key 'players[1].night': 2 cards 'night9' where the decks hold 1",
        ),
        ({"players": [{"pans": 14}, {}]}, "key 'players[0].pans': 15 cards 'pan'"),
        ({"draw_pile": ["basket"] * 5}, "key 'draw_pile': 6 cards 'basket' where the decks"),
        (
            {"draw_pile": 70},  # every hand card was drawn from the forest deck
            "key 'draw_pile': 89 forest-deck cards in the forest, decay pile, draw pile and "
            "hands where the deck holds 81",
        ),
        # ... and hands over their limits
        (
            {"players": [{"hand": ["2", "3", "4", "5", "6", "7", "butter", "cider", "pan"]}, {}]},
            "key 'players[0].hand': 9 hand cards (night cards included) are over the hand limit 8",
        ),
        (
            {"players": [{}, {"hand": ["2", "4", "5", "6", "7"], "poison": 1}]},
            "key 'players[1].hand': 5 hand cards are over the poison's lower limit 4",
        ),
    ],
)
def test_bad_positions_name_the_key(change, message):
    with pytest.raises(StateError, match=re.escape(message)) as err:
        GAME.moves({**ANNA, **change})
    assert f"key '{err.value.key}'" in message  # the error carries the key it names


def test_missing_draw_pile_is_named():
    bad = {k: v for k, v in ANNA.items() if k != "draw_pile"}
    with pytest.raises(StateError, match="key 'draw_pile' is missing"):
        GAME.moves(bad)


def test_results_are_positions_again():
    # Every outcome can be fed back to `simkit moves` (unknown night cards included).
    pos = {**ANNA, "night_pile": 1}
    for m in GAME.moves(pos).to_json()["moves"]:
        if not m["ended"]:
            again = GAME.moves(m["result"]).to_json()["position"]
            assert again == m["result"]
