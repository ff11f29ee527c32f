"""Track overrides: a library track with changed parts, named by a string, checked like a file."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from simkit.errors import TrackError
from simkit.tracks import compile_spec, library, load, override
from simkit.tracks.library import load_spec

NUT = "nutcracker"


def _arrays(t, skip=()):
    skip = {"name", "title", "source", "notes", *skip}
    return {f.name: getattr(t, f.name) for f in dataclasses.fields(t) if f.name not in skip}


def _same_except(a, b, *changed):
    got, want = _arrays(b, changed), _arrays(a, changed)
    for name, value in want.items():
        if isinstance(value, np.ndarray):
            np.testing.assert_array_equal(got[name], value, err_msg=name)
        else:
            assert got[name] == value, name


@pytest.mark.parametrize("info", library(), ids=lambda i: i.name)
def test_written_back_tables_compile_to_the_same_track(info):
    """The tables overrides are applied to say exactly what the file says (tiles, reversed
    tracks, width changes, buildings and trees included)."""
    spec = load_spec(info.name)
    header = {"name": info.name, "title": spec.title, "flag": "left" if spec.flag > 0 else "right"}
    if spec.family:
        header["family"] = spec.family
    again = compile_spec({**header, "segment": override.tables(spec)}, "again")
    _same_except(load(info.name), again)


def test_names_are_canonical_and_read_back():
    a = override.derived_name(NUT, {"segment.4.length": 5, "corner.1.safety": 6})
    b = override.derived_name(NUT, {"corner.1.safety": 6, "segment.4.length": 5})
    assert a == b == "nutcracker?corner.1.safety=6&segment.4.length=5"
    assert override.split(a) == (NUT, {"corner.1.safety": 6, "segment.4.length": 5})
    assert override.derived_name(NUT, {}) == NUT and override.split(NUT) == (NUT, {})
    trees = override.derived_name("mm1-old-faithful", {"segment.1.trees": [[0, 1], [2, 2]]})
    assert override.split(trees)[1] == {"segment.1.trees": [[0, 1], [2, 2]]}


def test_a_corners_safety_speed_changes_that_corner_only():
    book = load(NUT)
    t = load("nutcracker?corner.1.safety=6")
    assert t.corner_safety.tolist() == [6, *book.corner_safety.tolist()[1:]]
    _same_except(book, t, "corner_safety")
    assert t.name == "nutcracker?corner.1.safety=6"
    assert t.title == "The Nutcracker (corner 1 safety 6)"
    assert "Derived from 'nutcracker'" in t.notes


def test_segment_length_lanes_slot_order_trees():
    book = load(NUT)
    longer = load("nutcracker?segment.4.length=6")  # a 3-lane straight two rows longer
    assert longer.n_spaces == book.n_spaces + 2 * 3
    wide = load("nutcracker?lanes=4")
    assert int(wide.lane.max()) == 3 and wide.n_corners == book.n_corners
    order = load("nutcracker?slot_order=[3,2,1,4,5]")
    assert order.start_slots.tolist() == book.start_slots[[2, 1, 0, 3, 4]].tolist()
    _same_except(book, order, "start_slots")
    tree = load("nutcracker?segment.1.trees=[[1,1]]")
    assert int(np.count_nonzero(tree.flags != book.flags)) == 1
    reversed_ = load("mm1-old-faithful-reversed?segment.1.length=9")
    assert reversed_.corner_tight.all()


@pytest.mark.parametrize(
    ("name", "key", "says"),
    [
        ("nutcracker?corner.7.safety=3", "corner.7.safety", "has corners 1-6 (got corner 7)"),
        (
            "nutcracker?corner.1.safety=100",
            "corner.1.safety",
            "corner 1 (segment 3): 'safety' must be between 0 and 99 (got 100)",
        ),
        ("nutcracker?segment.3.safety=3", "segment.3.safety", "segment 3 is corner 1: write"),
        ("nutcracker?segment.4.safety=3", "segment.4.safety", "segment 4 is no corner"),
        ("nutcracker?corner.1.radiu=3", "corner.1.radiu", "(did you mean 'radius'?)"),
        ("nutcracker?corner.0.safety=3", "corner.0.safety", "corners count from 1"),
        ("nutcracker?segment.4.lanes=4", "segment.4.lanes", "say which lanes continue"),
        ("nutcracker?segment.2.slots=[[0,0]]", "segment.2.slots", "belongs to the start"),
        ("nutcracker?slot_order=[1,2]", "slot_order", "must list the start slots 1-5"),
        ("nutcracker?segment.1.trees=[[9,9]]", "segment.1.trees", "segment 1: tree [9, 9]"),
        ("mm8-breath-in?lanes=3", "lanes", "changes width at segment"),
        ("nutcracker?turbo=1", "turbo", "no key of the whole track"),
    ],
)
def test_errors_name_the_part_and_the_key(name, key, says):
    with pytest.raises(TrackError) as err:
        load(name)
    assert says in str(err.value)
    assert err.value.key == f"track.{key}"
