"""The worked examples of Mush! Mush! (``seeds/000_5b9c8f35afea07d2.txt``) as exact tests.

Moves come from the state oracle (``simkit moves``), which resolves each outcome with the
engine's own ``resolve_play``; race order from the engine's ``rules.race_order``. The
book's pictures are not in the text, so positions are on hand-built tracks (``st_trackkit``)
or on track 1's first straight: what is tested is the rule, not a picture.
"""

from __future__ import annotations

import numpy as np
import pytest

from simkit.errors import StateError
from simkit.games.snowtails.kernels import race_order, race_position
from simkit.games.snowtails.moves import moves, parse_state
from simkit.games.snowtails.params import PRESETS
from simkit.games.snowtails.records import (
    M_LEFT,
    MV_STRAIGHT,
    S_LEVEL,
    S_TIE,
    T_DONE,
    kernel_track,
)
from simkit.tracks import load
from tests.mushmush.mm_kit import (
    engine_play,
    find_play,
    lane_index,
    race_setup,
    sled,
    state,
    with_trees,
)
from tests.snowtails.st_trackkit import build, space

STRAIGHT = build([("straight", 24)], width=5, name="straight")


def at(lane, j, track=STRAIGHT):
    return space(track, lane, j)


def clean(play):
    return [o for o in play["outcomes"] if o["collision"] is None and not o["bonus_taken"]]


def test_robyn_corners_like_a_dream():
    # ST2 B.3 "Corners like a dream": a 1 onto the right dog gives 4 left, 1 right:
    # forward 5 (4+1), drift 3 to the left (4-1); drifting early in a corner gets further.
    t = build([("straight", 4), ("corner", "L", 90, 2, 0), ("straight", 10)], width=4)
    robyn = space(t, 3, 3)
    res = moves(state([sled(robyn, (4, 3), [1, 2, 3, 3, 4], colour="robyn")]), t)
    play = find_play(res, 1, ["right"])
    assert (play["dogs"], play["speed"], play["drift"]) == ([4, 1], 5, 3)
    assert play["drift_side"] == "left"
    assert play["bonus_offered"] == 0  # not balanced, and no dice
    ends = {}
    for o in clean(play):
        assert len(o["moves"]) == 5 and o["moves"].count("drift") == 3
        assert t.lane[o["end"]] == 0  # three lanes to the left
        ends[o["end"]] = o["moves"]
    # The early-drift ("circle") route and the late-drift ("star") one are both legal.
    early = walk(t, robyn, "DDDSS")
    late = walk(t, robyn, "SSDDD")
    assert early in ends and late in ends
    assert t.progress[early] > t.progress[late]


def walk(t, s, pattern):
    for m in pattern:
        s = int(t.drift_left[s] if m == "D" else t.next_straight[s])
    return s


def test_daniel_drifts_through_the_trees():
    # ST2 B.3: dogs 4 left, 2 right: forward 6, drift 2 to the left; he drifts on his third
    # and last moves to pass between the trees: only that route avoids every tree.
    route = [(4, 1), (4, 2), (3, 3), (3, 4), (3, 5), (2, 6)]  # S S D S S D from (4, 0)
    trees = [at(lane, j) for j in range(1, 6) for lane in (2, 3, 4) if (lane, j) not in route]
    t = with_trees(STRAIGHT, trees)
    res = moves(state([sled(at(4, 0), (4, 3), [2, 1, 3, 3, 4], colour="daniel")]), t)
    play = find_play(res, 2, ["right"])
    assert (play["dogs"], play["speed"], play["drift"]) == ([4, 2], 6, 2)
    assert play["drift_side"] == "left"
    unhurt = [o for o in clean(play) if not o["trees_hit"]]
    assert len(unhurt) == 1
    o = unhurt[0]
    assert o["moves"] == ["straight", "straight", "drift", "straight", "straight", "drift"]
    assert [lane_index(t, s) for s in o["path"][1:]] == route
    assert o["dents_after"] == 0 and o["trees_after"] == sorted(trees)
    # On a straight every pattern ends on the same space: the oracle keeps the route with
    # the fewest tree dents, and the late (star) route runs into a tree.
    assert len(clean(play)) == 1
    assert walk(t, at(4, 0), "SSS") in trees


def test_ruaridh_uses_three_of_his_four():
    # ST2 B.4 "Using the bonus": after moving he may use up to 4; 4 would crash into red,
    # so he uses 3; the dice is spent all the same (R-23: die 0 afterwards).
    pos = state(
        [
            sled(at(2, 0), (2, 2), [2, 1, 3, 4, 4], die=4, colour="ruaridh"),
            sled(at(2, 8), (3, 3), [1, 1, 1, 1, 1], colour="red"),
        ]
    )
    res = moves(pos, STRAIGHT)
    assert res.race_position == 2
    play = find_play(res, 2, ["left"])
    assert (play["dogs"], play["speed"], play["drift"]) == ([2, 2], 4, 0)
    assert play["bonus_offered"] == 4  # balanced in 2nd: 2 would lower it, so it stays 4
    by_tried = {o["bonus_tried"]: o for o in play["outcomes"]}
    assert sorted(by_tried) == [0, 1, 2, 3, 4]  # none, or any distance up to 4
    three = by_tried[3]
    assert three["bonus_distance"] == 3 and three["collision"] is None
    assert three["end"] == at(2, 7)
    assert three["die_after"] == 0
    assert three["die_changes"] == [{"from": 4, "to": 0, "why": "spent"}]
    four = by_tried[4]
    assert four["collision"] == "sled" and four["end"] == at(2, 7)  # stays before red
    assert four["bonus_distance"] == 3 and four["die_after"] == 0
    kept = by_tried[0]
    assert kept["end"] == at(2, 4) and kept["die_after"] == 4  # unused: still there


def test_iona_hits_the_side():
    # ST2 C "Side of track": she stays in the space before the collision and takes one
    # dent into her hand; the turn ends with the hand returned to five (dents count).
    res = moves(state([sled(at(0, 2), (5, 3), [3, 1, 2, 4, 4], colour="iona")]), STRAIGHT)
    play = find_play(res, 3, ["right"])
    assert (play["speed"], play["drift"], play["drift_side"]) == (8, 2, "left")
    hits = [o for o in play["outcomes"] if o["collision"] == "wall"]
    assert hits
    for o in hits:
        assert o["end"] == o["path"][-1]  # the space before the side
        assert o["collided_move"] == "drift"
        assert o["dents_wall"] == 1 and o["dents_after"] == 1
        assert o["draws"] == 0  # 4 canine cards + 1 dent = 5
        assert not o["repair"]
    assert {o["end"] for o in hits} == {at(0, j) for j in range(2, 9)}


def test_glenn_crashes_through_two_trees():
    # ST2 C "A tree": each tree entered is removed, gives a dent, and movement goes on.
    t = with_trees(STRAIGHT, [at(1, 2), at(1, 5)])
    res = moves(state([sled(at(1, 0), (4, 4), [4, 1, 2, 3, 3], colour="glenn")]), t)
    play = find_play(res, 4, ["left"])
    (o,) = [o for o in clean(play)]
    assert o["moves"] == ["straight"] * 8 and o["end"] == at(1, 8)
    assert o["trees_hit"] == [at(1, 2), at(1, 5)]
    assert o["dents_tree"] == 2 and o["dents_after"] == 2
    assert o["trees_after"] == []
    assert o["draws"] == 0  # one card played, two dents in: 4 + 2 > 5, discard one
    assert len(o["discards"]) == 1


def test_a_tree_that_would_be_the_fifth_dent_stops_the_sled_for_repairs():
    # R-21 with R-25: the tree's dent is the fifth: the sled stops in the tree's space, all
    # dents go back and it draws a new hand of five; the tree is gone.
    t = with_trees(STRAIGHT, [at(1, 2)])
    res = moves(state([sled(at(1, 0), (4, 4), [4], dents=4, colour="glenn")]), t)
    (o,) = find_play(res, 4, ["left"])["outcomes"]
    assert o["end"] == at(1, 2) and o["repair"] and not o["out"]
    assert o["dents_after"] == 0 and o["draws"] == 5 and o["trees_after"] == []


def test_glenn_ploughs_into_iona():
    # ST2 C "Another sled", R-24: he stays in the space before her, his bonus dice goes
    # from 4 to 3, Iona is not affected, and he refills to five.
    pos = state(
        [
            sled(at(3, 0), (3, 3), [4, 1, 2, 2, 3], die=4, colour="glenn"),
            sled(at(3, 5), (2, 2), [1, 1, 1, 1, 1], dents=1, die=2, colour="iona"),
        ],
        turn=0,
        rnd=1,  # no adjustment in the first round: the dice shows 4 either way
    )
    res = moves(pos, STRAIGHT)
    play = find_play(res, 4, ["left"])
    assert (play["speed"], play["drift"]) == (7, 1)
    crash = [o for o in play["outcomes"] if o["collision"] == "sled"]
    assert crash
    for o in crash:
        assert o["end"] == at(3, 4)  # the space directly behind Iona
        assert o["die_changes"] == [{"from": 4, "to": 3, "why": "hit a sled"}]
        assert o["die_after"] == 3 and o["dents_after"] == 0
        assert o["draws"] == 1  # refill to five
    # The engine's own turn (five straight moves, the fifth into her) leaves Iona as she was.
    position = parse_state(pos, STRAIGHT)
    code, after = engine_play(position, 4, M_LEFT, [MV_STRAIGHT] * 5)
    assert code == T_DONE
    for field in ("space", "left", "right", "dents", "die", "hand"):
        assert np.array_equal(after[field][1], position.pos[field][1])
    assert list(after["space"][:2]) == [at(3, 4), at(3, 5)]  # her space, and his behind it
    assert (after["space"][0], after["die"][0]) == (at(3, 4), 3)


def test_race_order_example():
    # ST2 "Race Order": blue furthest; black (3+4) before yellow (2+1), level; then green;
    # red and orange level at equal speed: the flag is on the right, so orange first.
    t = load("mm1-old-faithful")
    assert t.flag_side == -1  # the flag on the right: lane 4 is the flag side
    lanes = {lane: np.flatnonzero(t.lane == lane) for lane in range(5)}

    def where(lane, row):
        return int(lanes[lane][row])

    seats = {  # on the first straight, row r of each lane is level with the others
        "blue": (where(2, 9), (3, 3)),
        "yellow": (where(4, 7), (2, 1)),  # on the flag side, but slower
        "black": (where(0, 7), (3, 4)),
        "green": (where(2, 5), (2, 2)),
        "red": (where(1, 3), (2, 3)),
        "orange": (where(3, 3), (3, 2)),
    }
    tab = kernel_track(t, True, "effects")[0]
    levels = {c: tab[s, S_LEVEL] for c, (s, _) in seats.items()}
    assert levels["yellow"] == levels["black"] and levels["red"] == levels["orange"]
    names = list(seats)
    cfga, positions = race_setup(t, PRESETS["mushmush"], [seats[c] for c in names])
    out = np.zeros(16, dtype=np.int64)
    n = race_order(cfga, positions, False, out)
    assert [names[i] for i in out[:n]] == ["blue", "black", "yellow", "green", "orange", "red"]
    assert [race_position(cfga, positions, p) for p in range(6)] == [1, 3, 2, 4, 6, 5]
    # ST1's tie-break (inside of the coming corner, R-03) ignores speed: the level pairs
    # go by the track's inside flag instead.
    cfga, positions = race_setup(t, PRESETS["snowtails"], [seats[c] for c in names])
    n = race_order(cfga, positions, False, out)
    st1 = [names[i] for i in out[:n]]
    inside = {c: tab[seats[c][0], S_TIE] for c in names}
    for a, b in (("black", "yellow"), ("orange", "red")):
        assert (st1.index(a) < st1.index(b)) == (inside[a] < inside[b])


def test_race_end_example():
    # ST2 D: yellow moves first and crosses; blue crosses later in the round and gets
    # further; green does not cross. Positions by race order: blue, yellow, green.
    t = build([("straight", 16)], width=3, finish=10.0, name="finish")
    yellow = sled(space(t, 0, 6), (3, 2), [3, 1, 1, 2, 2], colour="yellow")
    blue = sled(space(t, 2, 5), (4, 4), [4, 1, 1, 2, 2], colour="blue")
    green = sled(space(t, 1, 2), (2, 2), [2, 1, 1, 1, 1], colour="green")
    first = moves(state([yellow, blue, green], turn=0), t)
    assert first.race_position == 1
    (y,) = clean(find_play(first, 3, ["right"]))  # 3+3 = 6 straight on
    assert y["past_finish"] and y["end"] == space(t, 0, 12)
    yellow["space"] = y["end"]
    second = moves(state([yellow, blue, green], turn=1), t)
    assert second.race_position == 2  # yellow, across the line, is ahead of him
    (b,) = clean(find_play(second, 4, ["left"]))  # 4+4 = 8
    assert b["past_finish"] and t.progress[b["end"]] > t.progress[y["end"]]
    blue["space"] = b["end"]
    third = moves(state([yellow, blue, green], turn=2), t)
    (g,) = clean(find_play(third, 2, ["left"]))  # 2+2 = 4: short of the line
    assert not g["past_finish"]
    green["space"] = g["end"]
    seats = [(s["space"], tuple(s["dogs"])) for s in (yellow, blue, green)]
    cfga, positions = race_setup(t, PRESETS["mushmush"], seats)
    out = np.zeros(16, dtype=np.int64)
    n = race_order(cfga, positions, False, out)
    assert [int(x) for x in out[:n]] == [1, 0, 2]  # blue 1st, yellow 2nd, green 3rd


def test_bad_mushmush_states_name_the_key():
    t = with_trees(STRAIGHT, [at(1, 2)])
    good = [sled(at(0, 0), (2, 2), [1, 2])]
    with pytest.raises(StateError, match=r"sleds\[0\].die must be between 0 and 6"):
        moves(state([sled(at(0, 0), (2, 2), [1], die=7)]), t)
    with pytest.raises(StateError, match="space 3 has no tree"):
        moves(state(good, trees=[3]), t)
    with pytest.raises(StateError, match="holds a standing tree"):
        moves(state([sled(at(1, 2), (2, 2), [1])]), t)
    with pytest.raises(StateError, match="repairing"):
        moves(state([sled(at(0, 0), (2, 2), [1], repairing=True)]), t)
    with pytest.raises(StateError, match=r"sleds\[0\].die must be between 0 and 0"):
        moves(dict(state([sled(at(0, 0), (2, 2), [1], die=2, brake=3)]), game="snowtails"), t)
