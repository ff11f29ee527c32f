"""The track model's geometry (DESIGN §2): corners, drift, straight moves, level lines."""

import numpy as np
import pytest

from simkit.tracks import compile_spec, load
from simkit.tracks.compiled import F_CORNER, F_PAST_FINISH, F_START_ROW


def _spec(*segments, **header):
    return {"segment": [{"type": "start", "lanes": 3, "length": 2}, *segments], **header}


def test_inside_lanes_of_a_corner_have_fewer_spaces():
    for turn in ("left", "right"):
        t = compile_spec(
            _spec(
                {"type": "corner", "turn": turn, "angle": 90, "radius": 1},
                {"type": "finish", "length": 2},
            )
        )
        on = t.segment == 1
        counts = [int(np.sum(on & (t.lane == ln))) for ln in range(3)]
        from_inside = counts if turn == "left" else counts[::-1]
        # lane k from the inside: radius 1+k+1/2, round(pi/2 * radius) spaces
        assert from_inside == [2, 4, 5]


def test_corner_spaces_spread_evenly_over_the_centreline():
    t = compile_spec(
        _spec(
            {"type": "corner", "turn": "left", "angle": 180, "radius": 0.5},
            {"type": "finish", "length": 1},
        )
    )
    length = np.pi * (0.5 + 1.5)  # centreline radius r + lanes/2
    for ln, n in zip(range(3), (3, 6, 9), strict=True):
        fronts = np.sort(t.progress[(t.segment == 1) & (t.lane == ln)])
        assert np.allclose(fronts, 2 + length * np.arange(1, n + 1) / n)


@pytest.mark.parametrize("side", ["drift_left", "drift_right"])
def test_drift_target_front_edge_is_ahead(side):
    t = load("nutcracker")
    arr = getattr(t, side)
    ok = arr >= 0
    assert ok.sum() > t.n_spaces // 2
    assert np.all(t.progress[arr[ok]] > t.progress[ok])
    assert np.all(t.level[arr[ok]] > t.level[ok])
    assert np.all(np.abs(t.lane[arr[ok]] - t.lane[ok]) == 1)


def test_drift_goes_to_the_first_space_ahead_in_the_next_lane():
    t = load("nutcracker")
    for s in range(t.n_spaces):
        for arr, dl in ((t.drift_left, -1), (t.drift_right, 1)):
            d = arr[s]
            if d < 0 or t.segment[d] != t.segment[s]:
                continue
            same = (t.segment == t.segment[s]) & (t.lane == t.lane[s] + dl)
            ahead = same & (t.level > t.level[s])
            assert t.progress[d] == t.progress[ahead].min()


def test_straight_moves_from_the_start_reach_the_finish_or_a_wall():
    t = load("nutcracker")
    for s in t.start_row:
        s, steps = int(s), 0
        while t.next_straight[s] >= 0:
            nxt = t.next_straight[s]
            assert t.progress[nxt] > t.progress[s]
            s, steps = int(nxt), steps + 1
            assert steps < t.n_spaces
        assert t.flags[s] & F_PAST_FINISH or t.lane[s] in (0, 2)


def test_level_across_a_straight_row():
    t = load("nutcracker")
    for g, kind in enumerate(t.segment_kinds):
        if kind == "corner":
            continue
        on = t.segment == g
        for front in np.unique(t.progress[on]):
            row = on & (t.progress == front)
            assert row.sum() == 3
            assert len(np.unique(t.level[row])) == 1


def test_corner_entry_lines_count_from_the_back_edge():
    t = load("nutcracker")
    first = t.corner_segment[0]
    on = t.segment == first
    assert np.all(t.corners_passed[on] == 1)
    assert np.all(t.corners_passed[t.segment < first] == 0)
    assert np.all(t.flags[on] & F_CORNER)
    assert t.corners_passed.max() == t.n_corners


def test_start_grid_slot_one_on_the_inside_of_the_first_corner():
    t = load("nutcracker")
    assert t.corner_turn[0] == -1  # the first corner turns right: lane 2 is inside
    assert t.lane[t.start_slots[0]] == 2
    assert np.all(t.flags[t.start_row] & F_START_ROW)
    # slots 1-3 level in the row before the start line, 4-5 one row behind
    assert len(set(t.level[t.start_slots[:3]])) == 1
    assert np.all(t.level[t.start_slots[3:]] < t.level[t.start_slots[0]])
    assert list(t.tie_inside[t.start_slots[:3]]) == [0, 1, 2]
