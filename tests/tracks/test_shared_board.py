"""Tracks of one shape share a board (issue 26 item 6): a grid of derived tracks that only
change what stands on the spaces lays the track out once, and each still compiles to what a
compile from scratch gives."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from simkit.errors import TrackError
from simkit.tracks import compile as compile_mod
from simkit.tracks import override


def _fresh(name):
    """``name`` compiled with every cache empty: no board shared with another track."""
    compile_mod._board_of.cache_clear()
    override._compiled.cache_clear()
    return override.load(name)


def _assert_same(a, b):
    for f in dataclasses.fields(a):
        x, y = getattr(a, f.name), getattr(b, f.name)
        if isinstance(x, np.ndarray):
            np.testing.assert_array_equal(x, y, err_msg=f.name)
        else:
            assert x == y, f.name


def test_a_safety_sweep_lays_the_track_out_once():
    compile_mod._board_of.cache_clear()
    override._compiled.cache_clear()
    names = [
        f"nutcracker?corner.1.safety={a}&corner.2.safety={b}" for a in range(8) for b in (2, 9)
    ]
    for name in names:
        override.load(name)
    assert compile_mod._board_of.cache_info().misses == 1
    assert override._compiled.cache_info().misses == len(names)


@pytest.mark.parametrize(
    "changes",
    [
        "corner.1.safety=6",
        "corner.2.tight=true",
        "segment.4.trees=[[0,1]]",
        "segment.4.closed=[[1,0]]",
        "slot_order=[3,2,1,4,5]",
    ],
)
def test_a_track_on_a_shared_board_is_the_track_compiled_alone(changes):
    name = f"nutcracker?{changes}"
    alone = _fresh(name)
    override._compiled.cache_clear()
    override.load("nutcracker?corner.3.safety=1")  # another track builds the board first
    compile_mod._board_of.cache_clear()
    override.load("nutcracker?corner.3.safety=1")
    shared = override.load(name)
    assert compile_mod._board_of.cache_info().misses == 1
    _assert_same(alone, shared)


def test_a_blocked_track_is_refused_after_an_open_one_of_the_same_board():
    override.load("nutcracker?corner.1.safety=6")
    closed = [[row, lane] for row in range(2) for lane in range(3)]
    with pytest.raises(TrackError, match="finish unreachable"):
        override.load(f"nutcracker?segment.4.closed={closed}".replace(" ", ""))
