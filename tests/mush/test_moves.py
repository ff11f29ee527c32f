"""``simkit moves`` for MUSH: exact output, the three decisions, and positions no race reaches."""

import copy
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from simkit.cli import main
from simkit.errors import StateError
from simkit.games import get
from tests.golden.kit import ROOT, CliCase

EXAMPLE = Path(__file__).parents[2] / "docs" / "examples" / "state-mush.json"
MOVES = CliCase(
    Path(__file__).parent / "golden" / "moves_state_mush.txt",
    ("moves", str(EXAMPLE.relative_to(ROOT))),
)
GOLDEN = [MOVES]  # make golden rewrites it


def test_moves_lists_every_path_exactly(monkeypatch):
    monkeypatch.chdir(ROOT)
    out = MOVES.render()
    assert out == MOVES.read()
    lines = out.splitlines()
    assert lines[0].endswith("7 legal plays") and sum(x.startswith("*") for x in lines) == 1


def _state(**changes):
    s = json.loads(EXAMPLE.read_text())
    for k, v in changes.items():
        seat, _, field = k.partition("__")
        if field:
            s["sleds"][int(seat[1:])][field] = v
        else:
            s[k] = v
    return s


def test_passing_needs_the_tokens():
    # text, Passer un adversaire: Peter holds the only space ahead; without 4 tokens
    # Karsten cannot pass him, so staying put is the only play
    m = get("mush").moves(_state(s1__tokens=3))
    assert [p["text"].split(":")[0] for p in m.plays] == ["move 0"]


def test_bids_and_rests():
    bid = get("mush").moves(_state(decision="bid", to_move=2))
    assert [p["play"][1] for p in bid.plays] == list(range(21))  # 0..20 tokens
    rest = get("mush").moves(_state(decision="rest", to_move=2))
    texts = [p["text"] for p in rest.plays]
    # text, Repos: any other town gives 3 dogs | 6 tokens | 2 dogs + 2 | 1 dog + 4; one is covered
    assert texts == [
        "race",
        "rest (option 1): uncover 1 dogs, gain 0 tokens",
        "rest (option 2): uncover 0 dogs, gain 6 tokens",
        "rest (option 3): uncover 1 dogs, gain 2 tokens",
        "rest (option 4): uncover 1 dogs, gain 4 tokens",
    ]


@pytest.mark.parametrize(
    ("changes", "key", "message"),
    [
        ({"s1__tokens": 90}, "sleds[1].tokens", "90 is more than a sled can hold in round 3"),
        ({"s2__space": 14}, "sleds[2].space", "sleds[0] is on wilderness space 14 already"),
        ({"s1__covered": 9}, "sleds[1].covered", "must be between 0 and 8 (got 9)"),
        ({"s2__training": "cold"}, "sleds[2].training", "more sleds train for cold than 3"),
        ({"round": 1}, "sleds[0].space", "takes 1 round(s) of moves from the start"),
        ({"s1__space": "Nome"}, "sleds[1].space", "Nome ends the race"),
        ({"dice": 7}, "dice", "7 dog faces need as many dice; sleds[1] has 6 uncovered"),
        ({"decision": "rest"}, "decision", "sleds[1] is not in a town where it may rest"),
        ({"avalanches": [[14, 18]]}, "avalanches[0]", "no line from 14 to 18"),
        ({"colour": 1}, "colour", "unknown key 'colour'"),
    ],
)
def test_positions_no_race_reaches_are_refused(changes, key, message):
    with pytest.raises(StateError) as err:
        get("mush").moves(_state(**changes))
    assert err.value.key == key and message in str(err.value)
    assert str(err.value).startswith("state: ") and "\n" not in str(err.value)


def test_cli_error_is_one_line(tmp_path):
    bad = tmp_path / "s.json"
    bad.write_text(json.dumps(_state(s2__space=14)))
    res = CliRunner().invoke(main, ["moves", str(bad)])
    assert res.exit_code == 1 and res.output.count("\n") == 1
    assert res.output.startswith("Error: state: sleds[2].space: ")


def test_json_plays_are_legal_rows():
    m = get("mush").moves(copy.deepcopy(_state()))
    greedy = [p for p in m.plays if p["greedy"]]
    assert len(greedy) == 1 and greedy[0]["play"][:2] == [8, 3]  # a move of 3 lines
