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


def test_every_legal_action_with_its_outcome():
    moves = GAME.moves(ANNA).to_json()["moves"]
    names = [m["action"] for m in moves]
    # take 1-4 (4 costs 2 sticks; 5+ costs more), decay, cook 9, sell 3 and 9, put down a pan;
    # taking the poison asks for 3 discards: one line per choice (18 multisets of 3 of 7).
    assert names.count("take2") == 18
    assert [n for n in names if n != "take2"] == [
        "take1", "take3", "take4", "decay", "cook9", "sell3", "sell9", "pan",
    ]  # fmt: skip
    cook = next(m for m in moves if m["action"] == "cook9")
    assert cook["text"] == "cooks 4 mushrooms of rank 9 + 1 butter: 19 points"  # book example
    me = cook["result"]["players"][0]
    assert (me["score"], me["hand"], me["night"]) == (19, ["3", "3"], [])
    assert cook["result"]["forest"] == ["poison", "moon", "10", "pan", "3", "3", "8", "5"]
    assert cook["result"]["decay"] == ["2", "basket", "9"] and cook["result"]["to_move"] == 1
    moon = next(m for m in moves if m["action"] == "take3")
    assert moon["result"]["players"][0]["night"] == ["night4", "night9"]
    assert moon["result"]["players"][0]["sticks"] == 1


def test_moves_cli_text(tmp_path):
    # The last forest card: taking it ends the game at once ('End of the game').
    pos = {"game": "mushroomwalk", "to_move": 0, "forest": ["8"], "draw_pile": 0, "decay": [],
           "players": [{"hand": ["8", "8"], "pans": 1}, {"hand": [], "score": 9}]}  # fmt: skip
    f = tmp_path / "pos.json"
    f.write_text(json.dumps(pos))
    res = CliRunner().invoke(main, ["moves", str(f)])
    assert res.exit_code == 0, res.output
    assert res.output == (
        "seat 0 to move; forest 8; decay -; 2 legal actions\n"
        "take1    takes 8 from forest position 1 (free)\n"
        "         -> hand 8 8 8; sticks 0; score 0; forest -; decay -; game over: seat 1 wins\n"
        "sell8    sells 2 mushrooms of rank 8 for 6 sticks\n"
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
        ({"players": [{"hand": ["moon"]}, {}]}, "key 'hand': 'moon' is not a card allowed here"),
        ({"players": [{"sticks": -1}, {}]}, "key 'players[0].sticks': expected an integer"),
        ({"players": [{"cards": []}, {}]}, "unknown key 'players[0].cards'"),
        ({"preset": "fungi"}, "key 'preset': unknown preset 'fungi'"),
        ({"set": {"hand_limit": 0}}, "key 'set': mushroomwalk.hand_limit must be between"),
        ({"colour": 1}, "unknown key 'colour'"),
    ],
)
def test_bad_positions_name_the_key(change, message):
    with pytest.raises(StateError, match=re.escape(message)):
        GAME.moves({**ANNA, **change})


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
