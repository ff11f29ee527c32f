"""``simkit moves`` on arbitrary Mush! Mush! positions: either a one-line ``StateError`` or
plays whose outcomes obey the rules (hypothesis)."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as hs

from simkit.errors import StateError
from simkit.games.snowtails.moves import moves
from simkit.games.snowtails.records import S_BLOCKED, S_TREE, kernel_track
from simkit.tracks import load

TRACK = load("mm5-what-goes-up")
TAB = kernel_track(TRACK, True, "effects")[0]
OPEN = [s for s in range(TRACK.n_spaces) if not TAB[s, S_BLOCKED] and TAB[s, S_TREE] < 0]
TREES = np.flatnonzero(TAB[:, S_TREE] >= 0).tolist()


@hs.composite
def position(draw):
    n = draw(hs.integers(1, 8))
    spaces = draw(hs.lists(hs.sampled_from(OPEN), min_size=n, max_size=n, unique=True))
    sleds = []
    for s in spaces:
        dents = draw(hs.integers(0, 4))
        sleds.append(
            {
                "space": s,
                "dogs": [draw(hs.integers(0, 5)), draw(hs.integers(0, 5))],
                "hand": draw(hs.lists(hs.integers(0, 5), min_size=0, max_size=5 - dents)),
                "dents": dents,
                "die": draw(hs.integers(0, 6)),
                "repairing": draw(hs.booleans()) and draw(hs.booleans()),
                "fives": draw(hs.integers(0, 2)),
            }
        )
    trees = draw(hs.lists(hs.sampled_from(TREES), unique=True))
    return {
        "game": "mushmush",
        "track": TRACK.name,
        "round": draw(hs.integers(1, 12)),
        "turn": draw(hs.integers(0, n - 1)),
        "trees": trees,
        "sleds": sleds,
    }


@given(position())
def test_any_position_gives_rule_abiding_outcomes(state):
    try:
        res = moves(state)
    except StateError as exc:
        assert "\n" not in str(exc) and str(exc).startswith("state: ")
        assert state["sleds"][state["turn"]].get("repairing")
        return
    me = state["sleds"][state["turn"]]
    assert 1 <= res.race_position <= len(state["sleds"])
    if not me["hand"]:
        assert res.note and not res.plays
    for play in res.plays:
        assert len(play["onto"]) <= 2 and play["brake"] == 0  # ST2 B.1: no brake
        assert 0 <= play["bonus_offered"] <= 6
        assert play["bonus_offered"] >= me["die"]  # never lowered by the play
        for o in play["outcomes"]:
            assert not TAB[o["end"], S_BLOCKED]
            assert 0 <= o["die_after"] <= 6 and 0 <= o["dents_after"] <= 4
            assert set(o["trees_after"]) == set(state["trees"]) - set(o["trees_hit"])
            assert o["bonus_distance"] <= o["bonus_tried"] <= play["bonus_offered"]
            if o["repair"]:
                assert o["dents_after"] == 0 and o["draws"] == 5
            else:
                assert o["dents_after"] == me["dents"] + o["dents_tree"] + o["dents_wall"] - sum(
                    b["detail"] for b in o["buildings"] if b["building"] == "chapel"
                )
            assert not o["out"]  # never out of the race
