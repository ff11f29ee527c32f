"""A derived track is a value (``override.DerivedTrack``): base, changes and the name that
shows it; a cell holds one, and only the name goes into tables, manifests and cell keys."""

from __future__ import annotations

import pickle

import simkit.games  # noqa: F401  (the games register their tracks)
from simkit.games.cells import build_cell
from simkit.runner.grid import _cell_key, _json_params, content_key
from simkit.tracks import load
from simkit.tracks.override import DerivedTrack, as_track, base_and_changes, track_name

NAME = "nutcracker?segment.4.length=5&corner.1.safety=6"  # not in the canonical order


def test_a_name_is_read_once_into_base_and_changes_and_kept_as_given():
    t = DerivedTrack.parse(NAME)
    assert (t.base, dict(t.changes), t.name, str(t)) == (
        "nutcracker",
        {"segment.4.length": 5, "corner.1.safety": 6},
        NAME,
        NAME,
    )
    canonical = DerivedTrack.of("nutcracker", t.changes)
    assert canonical.name == "nutcracker?corner.1.safety=6&segment.4.length=5"
    assert canonical != t  # two names, two cells (their keys differ), as before


def test_it_equals_and_hashes_as_its_name_and_pickles_as_one():
    t = DerivedTrack.parse(NAME)
    assert t == NAME and NAME == t and {t: 1}[NAME] == 1 and t != "nutcracker"  # noqa: SIM300
    back = pickle.loads(pickle.dumps(t))
    assert back == t and dict(back.changes) == dict(t.changes)


def test_a_library_name_a_file_and_none_stay_as_they_are():
    assert as_track("nutcracker") == "nutcracker" and type(as_track("nutcracker")) is str
    assert as_track(None) is None and track_name(None) is None
    assert base_and_changes("nutcracker") == ("nutcracker", {})
    assert base_and_changes(NAME) == ("nutcracker", {"segment.4.length": 5, "corner.1.safety": 6})


def test_a_cell_holds_the_value_and_its_key_reads_the_name():
    cell = build_cell("snowtails", track=NAME)
    assert isinstance(cell.track, DerivedTrack) and cell.track.base == "nutcracker"
    assert track_name(cell.track) == NAME and type(track_name(cell.track)) is str
    # the cell key (and so every race's seed) is the one the name gave when cells held it
    content = {
        "game": "snowtails",
        "params": _json_params(cell.variant.as_dict()),
        "track": NAME,
        "players": cell.players,
        "bots": list(cell.bots),
        "slots": None,
    }
    assert _cell_key(cell) == content_key(content)
    assert load(cell.track).n_spaces == load(NAME).n_spaces
