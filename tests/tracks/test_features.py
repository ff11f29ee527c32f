"""Features and the less obvious parts of the model: width changes, tight corners,
buildings and their trigger spaces, tie-breaks, the finish line."""

from __future__ import annotations

import numpy as np
import pytest

from simkit.errors import TrackError
from simkit.tracks import compile_spec, load
from simkit.tracks.compile import compile_board
from simkit.tracks.compiled import (
    F_BUILDING,
    F_CLOSED,
    F_PAST_FINISH,
    F_TIGHT_INSIDE,
    F_TREE,
    F_TRIG_BOTHY,
    F_TRIG_CHAPEL,
    F_TRIG_TAVERN,
)
from simkit.tracks.reverse import reverse
from simkit.tracks.spec import parse


def _at(t, g, row, lane):
    """The space at (row, lane) of segment g."""
    ids = np.flatnonzero((t.segment == g) & (t.lane == lane))
    return int(ids[np.argsort(t.progress[ids])][row])


def _spec(*segments, lanes=3, flag="left"):
    start = {"type": "start", "lanes": lanes, "length": 2}
    return {"flag": flag, "segment": [start, *segments]}


def test_narrowing_ends_lanes_in_a_wall_and_continues_the_rest():
    t = compile_spec(
        _spec(
            {"type": "straight", "length": 2, "lanes": 5, "continues": [-1, 0, 1, 2, -1]},
            {"type": "straight", "length": 2, "lanes": 3, "continues": [1, 2, 3]},
            {"type": "finish", "length": 2},
        )
    )
    # start lane k continues into lane k+1 of the wider segment
    assert t.next_straight[_at(t, 0, 1, 0)] == _at(t, 1, 0, 1)
    # new lanes 0 and 4 are reached by drift only
    assert t.drift_left[_at(t, 0, 1, 0)] == _at(t, 1, 0, 0)
    assert t.drift_right[_at(t, 0, 1, 2)] == _at(t, 1, 0, 4)
    assert not np.isin([_at(t, 1, 0, 0), _at(t, 1, 0, 4)], t.next_straight).any()
    # at the narrowing the outer lanes end in a wall ...
    assert t.next_straight[_at(t, 1, 1, 0)] == -1
    assert t.next_straight[_at(t, 1, 1, 4)] == -1
    # ... but a sled there can still drift into the lane that goes on
    assert t.drift_right[_at(t, 1, 1, 0)] == _at(t, 2, 0, 0)
    assert t.drift_left[_at(t, 1, 1, 4)] == _at(t, 2, 0, 2)
    # drifting outward from the kept edge lanes at the narrowing hits the wall
    assert t.drift_left[_at(t, 1, 1, 1)] == -1
    assert t.next_straight[_at(t, 1, 1, 1)] == _at(t, 2, 0, 0)


def test_drift_into_a_corner_goes_to_the_first_space_ahead():
    t = compile_spec(
        _spec(
            {"type": "corner", "turn": "left", "angle": 90, "radius": 1},
            {"type": "finish", "length": 2},
        )
    )
    # lanes 0/1/2 of the corner have 2/4/5 spaces; the corner's centreline is pi/2 * 2.5
    s = _at(t, 1, 0, 2)  # first outside space: front edge 2 + L/5
    assert t.drift_left[s] == _at(t, 1, 0, 1)  # lane 1's first space ends at 2 + L/4
    s = _at(t, 1, 1, 2)  # front at 2 + 2L/5, lane 1 fronts at 2 + L/4, 2 + 2L/4
    assert t.drift_left[s] == _at(t, 1, 1, 1)
    s = _at(t, 1, 1, 1)  # front 2 + L/2: level with the end of lane 0's first space
    assert t.level[s] == t.level[_at(t, 1, 0, 0)]
    assert t.drift_left[s] == _at(t, 1, 1, 0)  # strictly ahead: lane 0's second space
    assert t.drift_right[_at(t, 1, 0, 0)] == _at(t, 1, 2, 1)  # lane 1 fronts L/4, L/2, 3L/4


def test_tight_corner_model():
    t = compile_spec(
        _spec(
            {"type": "corner", "turn": "left", "angle": 90, "radius": 2, "tight": True},
            {"type": "finish", "length": 2},
        )
    )
    inside = _at(t, 1, 0, 0)
    assert t.flags[inside] & F_TIGHT_INSIDE
    assert not np.any(t.flags[(t.segment == 1) & (t.lane > 0)] & F_TIGHT_INSIDE)
    # going straight carries the sled one lane outward (left turn: outward is right)
    for ln in (0, 1):
        s = _at(t, 1, 0, ln)
        assert t.lane[t.next_straight[s]] == ln + 1
        assert t.level[t.next_straight[s]] > t.level[s]
        # drifting inward keeps the lane
        assert t.drift_left[s] == _at(t, 1, 1, ln)
    assert t.next_straight[_at(t, 1, 0, 2)] == -1  # straight on runs into the outer side
    assert t.lane[t.drift_right[_at(t, 1, 0, 0)]] == 2  # drifting outward: two lanes
    assert t.drift_right[_at(t, 1, 0, 1)] == -1
    # the last space of each lane leaves the corner normally
    for ln in range(3):
        last = int(np.flatnonzero((t.segment == 1) & (t.lane == ln))[-1])
        assert t.next_straight[last] == _at(t, 2, 0, ln)


def test_buildings_and_their_trigger_spaces():
    t = compile_spec(
        _spec(
            {
                "type": "straight",
                "length": 5,
                "buildings": [
                    {"kind": "chapel", "row": 0, "lane": 1},
                    {"kind": "tavern", "row": 4, "side": "right"},
                ],
            },
            {"type": "finish", "length": 2},
            lanes=4,
        )
    )
    cover = {_at(t, 1, r, ln) for r in (0, 1) for ln in (1, 2)}
    assert set(np.flatnonzero(t.flags & F_BUILDING)) == cover
    trig = set(np.flatnonzero(t.flags & F_TRIG_CHAPEL))
    expect = {_at(t, 0, 1, 1), _at(t, 0, 1, 2), _at(t, 1, 2, 1), _at(t, 1, 2, 2)}  # behind, ahead
    expect |= {_at(t, 1, r, ln) for r in (0, 1) for ln in (0, 3)}  # beside
    assert trig == expect and len(trig) == 8
    kind, covered, triggers = t.buildings[0]
    assert kind == "chapel" and set(covered) == cover and set(triggers) == expect
    tav = t.buildings[1]
    assert tav[0] == "tavern" and tav[1] == ()
    assert list(tav[2]) == [_at(t, 1, 4, ln) for ln in (3, 2, 1, 0)]  # from its side
    assert set(np.flatnonzero(t.flags & F_TRIG_TAVERN)) == set(tav[2])
    assert not np.any(t.flags & F_TRIG_BOTHY)


def test_features_flags_and_finish_line():
    t = compile_spec(
        _spec(
            {"type": "straight", "length": 3, "trees": [[1, 1]], "closed": [[2, 0]]},
            {"type": "corner", "turn": "right", "angle": 90, "radius": 1, "finish": True},
            {"type": "straight", "length": 1},
            flag="right",
        )
    )
    assert t.flags[_at(t, 1, 1, 1)] & F_TREE
    assert t.flags[_at(t, 1, 2, 0)] & F_CLOSED
    assert t.finish_progress == 5.0
    past = np.flatnonzero(t.flags & F_PAST_FINISH)
    assert set(t.segment[past]) == {2, 3}
    assert t.flag_side == -1
    # ST2 tie-break: the flag is on the right, so the rightmost lane is 0
    assert [t.tie_flag[_at(t, 1, 0, ln)] for ln in range(3)] == [2, 1, 0]
    # ST1: the next corner turns right, so on the straight before it the right lane is inside
    assert [t.tie_inside[_at(t, 1, 0, ln)] for ln in range(3)] == [2, 1, 0]
    # slot 1 on the inside of the first corner
    assert t.lane[t.start_slots[0]] == 2


def test_tie_inside_on_the_final_straight_is_the_flag_side():
    t = compile_spec(
        _spec(
            {"type": "corner", "turn": "right", "angle": 90, "radius": 1},
            {"type": "finish", "length": 3},
            flag="left",
        )
    )
    assert [t.tie_inside[_at(t, 1, 0, ln)] for ln in range(3)] == [2, 1, 0]  # corner: right
    assert [t.tie_inside[_at(t, 2, 0, ln)] for ln in range(3)] == [0, 1, 2]  # flag: left


def test_custom_start_grid():
    slots = [[1, 2], [1, 0], [0, 1], [0, 2], [0, 0]]
    t = compile_spec(
        {
            "segment": [
                {"type": "start", "lanes": 3, "length": 2, "slots": slots},
                {"type": "finish", "length": 2},
            ]
        }
    )
    assert [(int(t.lane[s]), int(t.level[s])) for s in t.start_slots] == [
        (2, 1),
        (0, 1),
        (1, 0),
        (2, 0),
        (0, 0),
    ]


def test_reversed_track_races_the_same_board_backwards():
    for name in ("mm1-old-faithful", "mm8-breath-in"):
        fwd, rev = load(name), load(f"{name}-reversed")
        assert rev.n_spaces == fwd.n_spaces
        assert rev.n_corners == fwd.n_corners and rev.corner_tight.all()
        assert list(rev.corner_turn) == [-x for x in fwd.corner_turn[::-1]]
        # the old start line is the new finish line
        start_len = np.ptp(np.r_[fwd.back[fwd.segment == 0], fwd.progress[fwd.segment == 0]])
        assert np.isclose(rev.finish_progress, fwd.progress.max() - start_len)
        widths = [int(fwd.lane[fwd.segment == g].max()) + 1 for g in range(len(fwd.segment_kinds))]
        rwidths = [int(rev.lane[rev.segment == g].max()) + 1 for g in range(len(rev.segment_kinds))]
        assert rwidths == widths[::-1]
        assert np.sum(rev.flags & F_TREE != 0) == np.sum(fwd.flags & F_TREE != 0)
        assert sorted(b[0] for b in rev.buildings) == sorted(b[0] for b in fwd.buildings)


def test_reversing_a_spec_flips_lanes_rows_and_corners():
    base = _spec(
        {"type": "straight", "length": 4, "trees": [[0, 0]], "closed": [[3, 2]]},
        {"type": "corner", "turn": "left", "angle": 90, "radius": 1, "tight": True},
        {"type": "finish", "length": 3},
    )
    fwd = parse(base, "base.toml", {}, ())
    rev = reverse(fwd, parse({"name": "rev", "reverse_of": "base.toml"}, "rev.toml", {}, ()))
    assert [s.kind for s in rev.segments] == ["start", "corner", "straight", "straight"]
    corner = rev.segments[1]
    assert corner.turn == -1 and not corner.tight  # a tight corner raced backwards is ordinary
    straight = rev.segments[2]
    assert straight.trees == ((3, 2),) and straight.closed == ((0, 0),)
    assert rev.segments[3].finish and not any(s.finish for s in rev.segments[:3])
    t = compile_board(rev)
    assert t.flags[_at(t, 2, 3, 2)] & F_TREE and t.flags[_at(t, 2, 0, 0)] & F_CLOSED


def test_reverse_errors(tmp_path):
    with pytest.raises(TrackError, match="takes its segments from that track"):
        compile_spec({"reverse_of": "nutcracker", "segment": []}, "r.toml")
    with pytest.raises(TrackError, match="unknown track 'mm1-old-faithfull' \\(did you mean"):
        compile_spec({"reverse_of": "mm1-old-faithfull"}, "r.toml")
    with pytest.raises(TrackError, match="itself a reversed track"):
        compile_spec({"reverse_of": "mm1-old-faithful-reversed"}, "r.toml")
    corner_end = tmp_path / "c.toml"
    corner_end.write_text(
        '[[segment]]\ntype = "start"\nlanes = 3\nlength = 2\n'
        '[[segment]]\ntype = "corner"\nturn = "left"\nfinish = true\n'
    )
    with pytest.raises(TrackError, match="its last segment becomes the start"):
        compile_spec({"reverse_of": "c.toml"}, str(tmp_path / "r.toml"))
