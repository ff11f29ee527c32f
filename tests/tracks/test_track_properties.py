"""Hypothesis: any valid spec compiles to arrays that keep the contract of compiled.py;
any spec with one mistake fails with a one-line TrackError naming that segment."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from simkit.errors import TrackError
from simkit.tracks import compile_spec
from simkit.tracks.compiled import (
    F_BUILDING,
    F_CLOSED,
    F_CORNER,
    F_PAST_FINISH,
    F_START_ROW,
    F_TIGHT_INSIDE,
    F_TREE,
)

INT_ARRAYS = {
    "lane": np.int16,
    "segment": np.int16,
    "level": np.int32,
    "next_straight": np.int32,
    "drift_left": np.int32,
    "drift_right": np.int32,
    "corners_passed": np.int16,
    "flags": np.uint32,
    "tie_inside": np.int16,
    "tie_flag": np.int16,
}


def check_invariants(t, spec: dict) -> None:
    """Every documented property of the compiled arrays."""
    n = t.n_spaces
    for name, dtype in INT_ARRAYS.items():
        arr = getattr(t, name)
        assert arr.dtype == dtype and arr.shape == (n,), name
    assert t.progress.shape == t.back.shape == (n,)
    assert t.centre.shape == (n, 2) and t.outline.shape == (n, 4, 2)
    assert np.all(t.back < t.progress)

    # Level keys order progress, equal within the tolerance.
    order = np.argsort(t.progress)
    gaps = np.diff(t.progress[order])
    steps = np.diff(t.level[order])
    assert np.all((steps == 0) == (gaps <= 1e-6))
    assert np.all(steps >= 0)

    # Every move goes forward; straight moves stay in the lane outside tight corners.
    tight_seg = {int(g) for g, tight in zip(t.corner_segment, t.corner_tight, strict=True) if tight}
    for s in range(n):
        for arr in (t.next_straight, t.drift_left, t.drift_right):
            d = arr[s]
            assert -1 <= d < n
            if d >= 0:
                assert t.level[d] > t.level[s]
                assert t.corners_passed[d] >= t.corners_passed[s]
        d = t.next_straight[s]
        if d >= 0 and t.segment[d] == t.segment[s] and int(t.segment[s]) not in tight_seg:
            assert t.lane[d] == t.lane[s]
        for arr, side in ((t.drift_left, -1), (t.drift_right, 1)):
            d = arr[s]
            if d >= 0 and t.segment[d] == t.segment[s] and int(t.segment[s]) not in tight_seg:
                assert t.lane[d] == t.lane[s] + side
                # the FIRST space ahead in that lane
                cand = (t.segment == t.segment[s]) & (t.lane == t.lane[d])
                assert t.progress[d] == t.progress[cand & (t.level > t.level[s])].min()

    # Corners: spaces per lane as the model says; inside lanes never have more.
    segs = spec["segment"]
    lanes = segs[0]["lanes"]
    assert t.n_corners == sum(s["type"] == "corner" for s in segs)
    for g, seg in enumerate(segs):
        lanes = seg.get("lanes", lanes)
        on = t.segment == g
        counts = [int(np.sum(on & (t.lane == ln))) for ln in range(lanes)]
        if seg["type"] == "corner":
            assert np.all(t.flags[on] & F_CORNER)
            from_inside = counts if seg["turn"] == "left" else counts[::-1]
            theta = math.radians(seg["angle"])
            expect = [max(1, round(theta * (seg["radius"] + k + 0.5))) for k in range(lanes)]
            assert from_inside == expect
            assert from_inside == sorted(from_inside)
            if seg["tight"]:
                assert np.all(
                    t.flags[on & (t.lane == (0 if seg["turn"] == "left" else lanes - 1))]
                    & F_TIGHT_INSIDE
                )
        else:
            assert counts == [seg["length"]] * lanes
            for front in np.unique(t.progress[on]):
                assert len(np.unique(t.level[on & (t.progress == front)])) == 1
        ranks = t.tie_inside[on]
        assert ranks.min() == 0 and ranks.max() == lanes - 1

    # Corner entry lines count from the back edge.
    for k, g in enumerate(t.corner_segment):
        assert np.all(t.corners_passed[t.segment == g] == k + 1)

    # Finish, start, features.
    assert np.array_equal(t.flags & F_PAST_FINISH != 0, t.progress > t.finish_progress + 1e-6)
    assert len(set(t.start_slots.tolist())) == 5 and np.all(t.segment[t.start_slots] == 0)
    assert np.all(t.flags[t.start_row] & F_START_ROW)
    assert len(t.start_row) == segs[0]["lanes"]
    assert not np.any((t.flags & F_TREE != 0) & (t.flags & (F_BUILDING | F_CLOSED) != 0))
    n_trees = sum(len(s.get("trees", [])) for s in segs)
    assert np.sum(t.flags & F_TREE != 0) == n_trees

    # Straight moves from the start always end: at the finish or against a wall.
    for s in t.start_row:
        s, steps = int(s), 0
        while t.next_straight[s] >= 0:
            s, steps = int(t.next_straight[s]), steps + 1
            assert steps <= n


@given(data=st.data())
def test_valid_specs_compile_and_keep_the_contract(data, valid_spec_strategy):
    spec = data.draw(valid_spec_strategy)
    t = compile_spec(spec, "gen.toml")
    check_invariants(t, spec)


@given(data=st.data())
def test_invalid_specs_fail_naming_the_segment(data, invalid_spec_strategy):
    spec, index, what = data.draw(invalid_spec_strategy)
    try:
        compile_spec(spec, "gen.toml")
    except TrackError as exc:
        assert exc.segment == index, (what, str(exc))
        assert str(exc).startswith(f"track 'gen.toml', segment {index}: "), str(exc)
        assert "\n" not in str(exc)
    else:
        raise AssertionError(f"{what} at segment {index} compiled")
