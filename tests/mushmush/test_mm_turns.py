"""Mush! Mush! turn rules through ``simkit moves`` on library tracks: buildings (ST2 F,
R-27), the finish line (R-26), the fifth dent (R-25) and tight corners (R-29)."""

from __future__ import annotations

import numpy as np

from simkit.games.snowtails.kernels import race_order
from simkit.games.snowtails.moves import moves
from simkit.games.snowtails.params import PRESETS
from simkit.games.snowtails.records import S_TIGHT_IN, kernel_track
from simkit.tracks import load
from simkit.tracks.compiled import (
    F_TRIG_BOTHY,
    F_TRIG_CHAPEL,
    F_TRIG_KENNELS,
    F_TRIG_TAVERN,
)
from tests.mushmush.mm_kit import find_play, race_setup, sled, state, with_trees
from tests.snowtails.st_trackkit import build, space

MM2 = load("mm2-tighter-than-i-thought")  # bothy, tavern
MM5 = load("mm5-what-goes-up")  # kennels, chapel, tavern


def trigger(track, flag):
    return [int(s) for s in np.flatnonzero(track.flags & flag)]


def back(track, target, k):
    """A space ``k`` straight moves behind ``target`` (no tree or building on the way)."""
    for s in range(track.n_spaces):
        cur, ok = s, True
        for _ in range(k):
            cur = int(track.next_straight[cur])
            ok = ok and cur >= 0
            if not ok:
                break
        if ok and cur == target:
            return s
    raise AssertionError(f"nothing {k} behind {target}")


def ending_on(track, flag, k=4):
    """A trigger space of ``flag`` reachable by ``k`` straight moves, and where from."""
    for t in trigger(track, flag):
        try:
            return t, back(track, t, k)
        except AssertionError:
            continue
    raise AssertionError("no reachable trigger space")


def outcome_at(res, value, onto, end, tried=0):
    for o in find_play(res, value, onto)["outcomes"]:
        if o["end"] == end and o["bonus_tried"] == tried and o["collision"] is None:
            return o
    raise AssertionError(f"no outcome ending at {end}")


def test_chapel_drops_every_dent_before_the_refill():
    # the chapel discards all dents, then the hand goes back to five: with 2 dents
    # and 3 cards, playing one leaves 2 cards, so 3 are drawn (1 if the refill came first).
    end, start = ending_on(MM5, F_TRIG_CHAPEL)
    pos = state([sled(start, (2, 2), [2, 1, 3], dents=2)], rnd=1, trees=[])
    o = outcome_at(moves(pos, MM5), 2, ["left"], end)
    assert o["buildings"] == [{"building": "chapel", "detail": 2}]
    assert o["dents_after"] == 0 and o["draws"] == 3


def test_tavern_adds_two_after_the_bonus_is_spent():
    # tavern +2 (max 6) or set to 2; it comes after the bonus movement (which spends
    # the dice, R-23), so a sled that used its dice leaves with 2.
    end, start = ending_on(MM5, F_TRIG_TAVERN, k=4)
    pos = state([sled(start, (2, 2), [2, 1, 3, 4, 4], die=5)], rnd=1, trees=[])
    res = moves(pos, MM5)
    o = outcome_at(res, 2, ["left"], end)
    assert o["die_changes"] == [{"from": 5, "to": 6, "why": "tavern +2"}] and o["die_after"] == 6
    end2, start2 = ending_on(MM5, F_TRIG_TAVERN, k=5)
    pos = state([sled(start2, (2, 2), [2, 1, 3, 4, 4], die=3)], rnd=1, trees=[])
    o = outcome_at(moves(pos, MM5), 2, ["left"], end2, tried=1)
    assert o["die_changes"] == [
        {"from": 3, "to": 0, "why": "spent"},
        {"from": 0, "to": 2, "why": "tavern +2"},
    ]


def test_kennels_add_a_set_aside_five_never_a_third():
    # ST2 F "Kennels" / R-27: a set-aside 5 joins the draw deck; with none left, nothing.
    end, start = ending_on(MM5, F_TRIG_KENNELS)
    pos = state([sled(start, (2, 2), [2, 1, 3, 4, 4], fives=2)], rnd=1, trees=[])
    o = outcome_at(moves(pos, MM5), 2, ["left"], end)
    assert o["buildings"] == [{"building": "kennels", "detail": 1}]
    pos = state([sled(start, (2, 2), [2, 1, 3, 4, 4], fives=0)], rnd=1, trees=[])
    o = outcome_at(moves(pos, MM5), 2, ["left"], end)
    assert o["buildings"] == []


def test_bothy_discards_before_the_refill():
    # at the bothy any canine cards may be discarded (the greedy bot drops its 0s),
    # then the hand is refilled to five.
    end, start = ending_on(MM2, F_TRIG_BOTHY)
    pos = state([sled(start, (2, 2), [2, 0, 0, 3, 4])], rnd=1, trees=[])
    o = outcome_at(moves(pos, MM2), 2, ["left"], end)
    assert o["buildings"] == [{"building": "bothy", "detail": 2}]
    assert o["hand_kept"] == [3, 4] and o["draws"] == 3


def test_no_dents_past_the_finish_line():
    # R-26 / ST2 D: past the line a tree still falls but gives no dent.
    t = build([("straight", 24)], width=3, finish=20.0)
    t = with_trees(t, [space(t, 1, 21)])
    res = moves(state([sled(space(t, 1, 16), (3, 3), [3, 1, 2, 2, 4], dents=4)]), t)
    o = outcome_at(res, 3, ["left"], space(t, 1, 22))
    assert o["trees_hit"] == [space(t, 1, 21)] and o["dents_tree"] == 0
    assert o["dents_after"] == 4 and not o["repair"] and o["past_finish"]


def test_fifth_dent_repair_or_second_with_two_sleds():
    # a fifth dent sends the sled to repair; in a 2-sled race it finishes 2nd.
    t = build([("straight", 24)], width=3)
    me = sled(space(t, 0, 2), (3, 3), [4, 1, 1, 2], dents=4)
    other = sled(space(t, 2, 10), (2, 2), [1])
    third = sled(space(t, 2, 12), (2, 2), [1])
    for sleds, second in (([me, other], True), ([me, other, third], False)):
        res = moves(state(sleds), t)
        play = find_play(res, 4, ["left"])  # 4-3: drift 1 left from lane 0: the side
        for o in play["outcomes"]:
            assert o["collision"] == "wall"
            assert (o["second"], o["repair"]) == (second, not second)
            assert not o["out"]
            if o["repair"]:
                assert o["dents_after"] == 0 and o["draws"] == 5


def test_tight_corner_inside_lane_goes_first():
    # R-29 / ST2 G: on a tight corner the inside lane moves first, even if a sled in
    # another lane of that corner is further by the level lines.
    t = load("mm-lamont-spur")
    tab = kernel_track(t)[0]
    inside, outer = 55, 53  # lane 4 (inside, level 16) and lane 3 (level 22), one corner
    assert tab[inside, S_TIGHT_IN] == 1 and tab[outer, S_TIGHT_IN] == 0
    assert t.segment[55] == t.segment[53]
    seats = [(outer, (2, 2)), (inside, (2, 2))]
    out = np.zeros(16, dtype=np.int64)
    race_order(*race_setup(t, PRESETS["mushmush"], seats), False, out)
    assert list(out[:2]) == [1, 0]
    off = PRESETS["mushmush"].replace(tight_corner_order=False)
    race_order(*race_setup(t, off, seats), False, out)
    assert list(out[:2]) == [0, 1]


def test_first_round_entry_from_the_start_row():
    # ST2 B: in round 1 a sled starts on any space before the start line, one at a time,
    # "so sleds may use the same starting space if they want": taken spaces too. A sled
    # not on the board yet is given with space null and comes after every sled on it.
    mm1 = load("mm1-old-faithful")
    row = [int(x) for x in mm1.start_row]
    me = sled(None, (2, 2), [1, 2, 3, 4, 4], die=1)
    placed = [sled(s, (2, 2), [1], die=1) for s in row[:3]]
    res = moves(state([*placed, me], turn=3, rnd=1), mm1)
    assert res.race_position == 4
    assert {pl["enter"] for pl in res.plays} == set(row)  # shared ones too
    assert all(pl["bonus_offered"] == 1 for pl in res.plays)  # no adjustment in round 1
    full = [sled(s, (2, 2), [1], die=1) for s in row] + [sled(row[0], (2, 2), [1])]
    res = moves(state([*full, me], turn=len(full), rnd=1), mm1)
    assert {pl["enter"] for pl in res.plays} == set(row)
    text = res.text()
    assert "off the board: it enters on a start-row space (ST2 B)" in text
    assert f"1. enter at {row[0]}, 1x1 on left" in text
