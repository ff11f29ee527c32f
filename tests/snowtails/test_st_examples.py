"""The book's worked examples and rule paragraphs, as exact tests.

Sources: ``seeds/002_68b12fdd004c4f12.txt`` (ST1, sections named in each test) and
``RULINGS.md``. Positions are on hand-built tracks (``st_trackkit``) because the book's
pictures are not in the text: what is tested is the arithmetic and the rule, not a board.
"""

from __future__ import annotations

import pytest

from simkit.errors import StateError
from simkit.games.snowtails.moves import moves
from tests.snowtails.st_helpers import sled, state
from tests.snowtails.st_trackkit import build, space


def find_play(result, value, onto):
    for play in result.plays:
        if play["cards"][0] == value and play["onto"] == onto:
            return play
    raise AssertionError(f"no play of {value} onto {onto}")


def lane_of(track, s):
    return int(track.lane[s])


@pytest.fixture(scope="module")
def book_round(example_track):
    """ST1 "Example of a round of play": yellow alone in front, blue and red level with
    blue on the inside of the coming (right-hand) corner."""
    t = example_track
    yellow = space(t, 0, 3)
    blue = space(t, 3, 1)
    red = space(t, 1, 1)
    return t, yellow, blue, red


def yellow_after(t, yellow):
    """Where yellow's 2+4-3 play leaves her when she drifts first (drift, drift, forward)."""
    res = moves(state([sled(yellow, (3, 4), 3, [2, 1, 5, 5, 3])]), t)
    for o in find_play(res, 2, ["left"])["outcomes"]:
        if o["moves"] == ["drift", "drift", "straight"]:
            return o["end"]
    raise AssertionError("yellow cannot drift early")


def test_round_example_yellow(book_round):
    # ST1 "Example of a round of play": a 2 onto the left dog: 2+4-3 = speed 3, drift 2 right;
    # she stays within the corner's safety speed, so no dents.
    t, yellow, blue, red = book_round
    pos = state(
        [
            sled(yellow, (3, 4), 3, [2, 1, 5, 5, 3], colour="yellow"),
            sled(blue, (3, 3), 3, [2, 2, 2, 4, 1], colour="blue"),
            sled(red, (3, 5), 3, [4, 4, 1, 1, 3], colour="red"),
        ]
    )
    res = moves(pos, t)
    assert res.race_position == 1
    play = find_play(res, 2, ["left"])
    assert (play["dogs"], play["brake"], play["speed"], play["drift"]) == ([2, 4], 3, 3, 2)
    assert play["drift_side"] == "right"
    assert play["bonus_offered"] == 0  # not balanced
    assert play["outcomes"]
    for o in play["outcomes"]:
        assert o["collision"] is None
        assert o["moves"].count("drift") == 2 and len(o["moves"]) == 3
        assert lane_of(t, o["end"]) == lane_of(t, yellow) + 2  # two lanes right
        assert o["dents_overspeed"] == 0  # speed 3 <= safety 4
        assert t.corners_passed[o["end"]] == 1  # it did cross the entry line
        assert o["draws"] == 1


def test_round_example_blue_bonus(book_round):
    # ST1 "Example of a round of play": blue and red are level, blue is on the inside for the
    # next corner so he is 2nd; a 2 on each dog and the brake: 2+2-2 = 2, balanced, bonus =
    # position 2, taken: total speed 4, no drift.
    t, yellow, blue, red = book_round
    pos = state(
        [
            sled(yellow_after(t, yellow), (2, 4), 3, [1, 5, 5, 3, 4], colour="yellow"),
            sled(blue, (3, 3), 3, [2, 2, 2, 4, 1], colour="blue"),
            sled(red, (3, 5), 3, [4, 4, 1, 1, 3], colour="red"),
        ],
        turn=1,
    )
    res = moves(pos, t)
    assert res.race_position == 2
    red_res = moves(dict(pos, turn=2), t)
    assert red_res.race_position == 3
    play = find_play(res, 2, ["left", "right", "brake"])
    assert (play["speed"], play["drift"], play["bonus_offered"]) == (2, 0, 2)
    with_bonus = [o for o in play["outcomes"] if o["bonus_taken"]]
    without = [o for o in play["outcomes"] if not o["bonus_taken"]]
    assert len(with_bonus) == 1 and len(without) == 1
    assert with_bonus[0]["speed"] == 4
    assert with_bonus[0]["moves"] == ["straight", "straight", "bonus", "bonus"]
    assert with_bonus[0]["dents_overspeed"] == 0  # 4 does not exceed safety 4
    assert without[0]["moves"] == ["straight", "straight"]
    assert with_bonus[0]["draws"] == 3  # three cards played


def test_round_example_red_overspeed(book_round):
    # ST1 "Example of a round of play": a 4 onto the left dog and a 4 onto the brake:
    # 4+5-4 = speed 5, drift 1 right; one over the corner's safety speed: one dent.
    t, yellow, _blue, red = book_round
    pos = state(
        [
            sled(yellow_after(t, yellow), (2, 4), 3, [1, 5, 5, 3, 4], colour="yellow"),
            sled(space(t, 3, 5), (2, 2), 2, [4, 1, 3, 3, 5], colour="blue"),  # after bonus
            sled(red, (3, 5), 3, [4, 4, 1, 1, 3], colour="red"),
        ],
        turn=2,
    )
    res = moves(pos, t)
    play = find_play(res, 4, ["left", "brake"])
    assert (play["dogs"], play["brake"], play["speed"], play["drift"]) == ([4, 5], 4, 5, 1)
    assert play["drift_side"] == "right"
    crossing = [o for o in play["outcomes"] if t.corners_passed[o["end"]] == 1]
    assert crossing
    for o in crossing:
        assert o["dents_overspeed"] == 1
        assert o["dents_after"] == 1 + o["dents_wall"]
    clean = [o for o in crossing if o["collision"] is None]
    assert clean and all(o["draws"] == 1 for o in clean)  # 2 played, 1 dent in hand


def test_drifting_on_a_corner(example_track):
    # ST1 "Example of Drifting on a Corner": 3+5-2 = speed 6, drift 2 right; the sled
    # crosses two black lines, i.e. ends two lanes to the right.
    t = example_track
    start = space(t, 0, 5)  # first space of the corner, outside lane
    res = moves(state([sled(start, (3, 5), 3, [2, 1, 1, 4, 4])]), t)
    play = find_play(res, 2, ["brake"])
    assert (play["speed"], play["drift"], play["drift_side"]) == (6, 2, "right")
    for o in play["outcomes"]:
        assert o["collision"] is None
        assert lane_of(t, o["end"]) == 2
        lanes = [lane_of(t, s) for s in o["path"]]
        for a, b, kind in zip(lanes, lanes[1:], o["moves"], strict=False):
            assert b - a == (1 if kind == "drift" else 0)  # every drift crosses one line


def test_drift_timing_free_choice_on_a_straight():
    # ST1 "Moves their sled": speed 5, drift 2 left, drifts at any time (e.g. drift,
    # forward, drift, forward twice): on a straight every pattern ends on one space.
    t = build([("straight", 20)], width=4)
    start = space(t, 3, 2)
    res = moves(state([sled(start, (4, 3), 3, [1, 2, 4, 5, 5])]), t)
    play = find_play(res, 5, ["brake"])  # 4+3-5: speed 2, drift 1 left
    assert (play["speed"], play["drift"]) == (2, 1)
    play = find_play(res, 4, ["brake"])  # 4+3-4 = 3, drift 1 left
    assert [o["end"] for o in play["outcomes"]] == [space(t, 2, 5)]
    res = moves(state([sled(start, (2, 4), 1, [5, 1, 1, 3, 3])]), t)
    play = find_play(res, 5, ["right"])  # 2+5-1 = 6, drift 3 right from the right lane
    assert play["drift_side"] == "right"
    assert all(o["collision"] == "wall" for o in play["outcomes"])


def test_drift_latest_start_and_cap():
    # ST1 "Moves their sled": with as many drifts as moves left, every move drifts; R-01:
    # drift above the speed is ignored.
    t = build([("straight", 20)], width=5)
    start = space(t, 0, 2)
    res = moves(state([sled(start, (1, 5), 4, [2, 2, 3, 1, 1])]), t)
    play = find_play(res, 3, ["brake"])  # 1+5-3 = 3, drift 4 -> capped at 3
    assert (play["speed"], play["drift"]) == (3, 3)
    assert len(play["outcomes"]) == 1
    assert play["outcomes"][0]["moves"] == ["drift"] * 3
    assert lane_of(t, play["outcomes"][0]["end"]) == 3


def test_speed_zero_no_move_no_bonus():
    # R-13 / ST1 "Moves their sled": speed 0 or less does not move, and gets no bonus.
    t = build([("straight", 20)], width=3)
    start = space(t, 1, 2)
    res = moves(state([sled(start, (2, 2), 3, [5, 1, 1, 2, 2])], rnd=4), t)
    play = find_play(res, 5, ["brake"])  # 2+2-5 < 0
    assert play["speed"] == 0 and play["bonus_offered"] == 0
    assert [o["path"] for o in play["outcomes"]] == [[start]]


def test_bonus_rules():
    # ST1 "Balanced Sleds get Bonus Movement" / R-14: balanced, speed >= 1, not in round 1,
    # size = race position, all or nothing, straight ahead, counts toward the safety speed.
    t = build([("straight", 6), ("corner", "L", 90, 1, 3), ("straight", 10)], width=3)
    lead = space(t, 0, 12)
    me = space(t, 0, 3)
    sleds = [sled(lead, (3, 3), 3, [1, 1, 1, 1, 1]), sled(me, (3, 3), 3, [3, 2, 4, 5, 5])]
    first = moves(state(sleds, turn=1, rnd=1), t)
    assert all(p["bonus_offered"] == 0 for p in first.plays)  # "Read this again"
    res = moves(state(sleds, turn=1, rnd=2), t)
    assert res.race_position == 2
    play = find_play(res, 3, ["left"])  # 3+3-3 = 3, balanced, bonus 2
    assert play["bonus_offered"] == 2
    taken = [o for o in play["outcomes"] if o["bonus_taken"]]
    assert len(taken) == 1 and len(taken[0]["moves"]) == 5  # all of it, not part
    assert taken[0]["moves"][-2:] == ["bonus", "bonus"]
    # 3 moves from row 3 reach the entry line only with the bonus: speed 5 over safety 3.
    assert taken[0]["dents_overspeed"] == 2
    plain = [o for o in play["outcomes"] if not o["bonus_taken"]]
    assert plain[0]["dents_overspeed"] == 0
    unbalanced = find_play(res, 4, ["left"])
    assert unbalanced["bonus_offered"] == 0
    none = moves(state(sleds, turn=1, rnd=2, bonus_rule="none"), t)
    assert all(p["bonus_offered"] == 0 for p in none.plays)


def test_sled_collision_stays_no_dent_no_refill():
    # ST1 "Colliding with another sled" / R-16: stays on the space before, turn ends, no
    # dent, no refill, but discards down to 5 (dents are never discarded).
    t = build([("straight", 20)], width=3)
    me, other = space(t, 1, 2), space(t, 1, 5)
    hand = [3, 3, 1, 1, 2, 2, 4]  # 7 cards: a slot-5 start
    res = moves(state([sled(me, (3, 3), 3, hand, dents=1), sled(other, (3, 3), 3, [1])]), t)
    play = find_play(res, 4, ["left"])  # 4+3-3 = 4, drift 1 right
    hit = [o for o in play["outcomes"] if o["collision"] == "sled"]
    assert hit
    for o in hit:
        assert o["end"] == space(t, 1, 4)
        assert o["dents_after"] == 1 and o["draws"] == 0
        assert len(o["discards"]) == 2  # 6 canine + 1 dent -> 4 canine + 1 dent
    refill = moves(
        state(
            [sled(me, (3, 3), 3, [3, 1], dents=1), sled(other, (3, 3), 3, [1])],
            sled_collision_refill=True,
        ),
        t,
    )
    play = find_play(refill, 3, ["brake"])  # 3+3-3 = 3 straight into the sled
    assert play["outcomes"][0]["collision"] == "sled" and play["outcomes"][0]["draws"] == 3


def test_wall_collision_one_dent_then_refill():
    # ST1 "Colliding with the side of the track" / R-17: movement ends, one dent, refill.
    t = build([("straight", 20)], width=3)
    me = space(t, 2, 2)
    res = moves(state([sled(me, (3, 3), 3, [4, 1, 1, 2, 2])]), t)
    play = find_play(res, 4, ["right"])  # 3+4-3 = 4, drift 1 right from the right lane
    for o in play["outcomes"]:
        assert o["collision"] == "wall"
        assert o["dents_wall"] == 1 and o["dents_after"] == 1
        assert o["draws"] == 0  # 4 canine + 1 dent = 5


def test_fifth_dent_out_and_past_finish_exception():
    # ST1 "You Only Have 4 Dent Cards" / R-18: a 5th dent takes the sled out, unless it has
    # already crossed the finish line (then it stays where it was).
    t = build([("straight", 12)], width=3, finish=9)
    me = space(t, 2, 2)
    res = moves(state([sled(me, (3, 3), 3, [4, 1], dents=4)]), t)
    play = find_play(res, 4, ["right"])
    assert all(o["out"] for o in play["outcomes"])
    late = space(t, 1, 8)  # two rows before the end of the run-off, line at 9
    res = moves(state([sled(late, (3, 3), 3, [5], dents=4)]), t)
    play = find_play(res, 5, ["left"])  # 5+3-3 = 5 drift 2 left: crosses, then the wall
    assert play["outcomes"]
    for o in play["outcomes"]:
        assert o["collision"] == "wall" and o["past_finish"]
        assert not o["out"] and o["dents_after"] == 4


def test_state_errors_name_the_key(example_track):
    good = sled(3, (3, 3), 3, [1, 2])
    with pytest.raises(StateError, match=r"sleds\[0\]\.space"):
        moves(state([dict(good, space=10_000)]), example_track)
    with pytest.raises(StateError, match=r"sleds\[1\]\.space 3 already holds"):
        moves(state([good, good]), example_track)
    with pytest.raises(StateError, match=r"sleds\[0\]\.hand\[1\]"):
        moves(state([dict(good, hand=[1, 9])]), example_track)
    with pytest.raises(StateError, match="turn"):
        moves(state([good], turn=3), example_track)
    with pytest.raises(StateError, match="dogs"):
        moves(state([dict(good, dogs=[3])]), example_track)
    with pytest.raises(StateError, match="unknown key 'bogus'"):
        moves(dict(state([good]), bogus=1), example_track)
    with pytest.raises(StateError, match="hand_size"):
        moves(state([good], hand_size=99), example_track)


def test_no_canine_cards_is_reported(example_track):
    res = moves(state([sled(3, (3, 3), 3, [], dents=2)]), example_track)
    assert res.plays == [] and "R-19" in res.note
