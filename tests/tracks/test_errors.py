"""Bad track specs: one precise line naming the file, the segment and the fix."""

from __future__ import annotations

import pytest

from simkit.errors import TrackError
from simkit.tracks import compile_spec, load


def _spec(*segments, **header):
    start = {"type": "start", "lanes": 4, "length": 2}
    return {"segment": [start, *segments], **header}


FIN = {"type": "finish", "length": 2}
CASES = [
    (
        _spec({"type": "straight", "lenght": 3}, FIN),
        1,
        "unknown key 'lenght' in a straight segment (did you mean 'length'?)",
    ),
    (
        _spec({"type": "corner", "turn": "left", "radus": 2}, FIN),
        1,
        "unknown key 'radus' in a corner segment (did you mean 'radius'?)",
    ),
    (
        _spec({"type": "straight", "length": "3"}, FIN),
        1,
        "'length' must be an integer, got string '3'",
    ),
    (
        _spec({"type": "straight", "length": 2.0}, FIN),
        1,
        "'length' must be an integer, got number 2.0",
    ),
    (
        _spec({"type": "straight", "length": 0}, FIN),
        1,
        "'length' must be between 1 and 500 (got 0)",
    ),
    (
        _spec(FIN, {"type": "straight", "length": -4}),
        2,
        "'length' must be between 1 and 500 (got -4)",
    ),
    (
        _spec({"type": "corner", "turn": "left", "angle": 400}, FIN),
        1,
        "corner angle must be in (0, 360] degrees (got 400)",
    ),
    (
        _spec({"type": "corner", "turn": "left", "radius": -1}, FIN),
        1,
        "corner radius must be between 0 and 100 (got -1)",
    ),
    (
        _spec({"type": "corner", "turn": "north"}, FIN),
        1,
        "'turn' must be one of left, right, got 'north'",
    ),
    (_spec({"type": "corner"}, FIN), 1, 'a corner needs \'turn\' = "left" or "right"'),
    (
        _spec(
            {
                "type": "straight",
                "length": 5,
                "buildings": [{"kind": "chapel", "row": 1, "lane": 0}],
            },
            FIN,
        ),
        1,
        "the chapel at lane 0 touches the side of the track; give lane 1 so sleds can pass on "
        "both sides (ST2 F)",
    ),
    (
        _spec(
            {
                "type": "straight",
                "length": 5,
                "buildings": [{"kind": "bothy", "row": 1, "lane": 1}],
                "trees": [[2, 2]],
            },
            FIN,
        ),
        1,
        "tree [2, 2] is inside a building; move the tree",
    ),
    (
        _spec(
            {
                "type": "corner",
                "turn": "left",
                "buildings": [{"kind": "bothy", "row": 1, "lane": 1}],
            },
            FIN,
        ),
        1,
        "unknown key 'buildings' in a corner segment",
    ),
    (
        _spec(
            {
                "type": "straight",
                "length": 5,
                "buildings": [{"kind": "church", "row": 1, "lane": 1}],
            },
            FIN,
        ),
        1,
        "'kind' must be one of kennels, chapel, bothy, tavern, got 'church'",
    ),
    (
        _spec({"type": "straight", "length": 3, "trees": [[3, 0]]}, FIN),
        1,
        "tree [3, 0] is off the track: lane 0 has rows 0-2",
    ),
    (_spec({"type": "straight", "length": 3}), 1, "finish unreachable: no finish line"),
    (
        _spec({"type": "straight", "length": 3, "closed": [[1, 0], [1, 1], [1, 2], [1, 3]]}, FIN),
        1,
        "finish unreachable: closed spaces, buildings or ending lanes block every route here",
    ),
    (
        {
            "segment": [
                {
                    "type": "start",
                    "lanes": 3,
                    "length": 2,
                    "slots": [[1, 0], [1, 1], [1, 2], [0, 0], [0, 5]],
                },
                FIN,
            ]
        },
        0,
        "start slot [0, 5] is off the track: lanes are 0-2",
    ),
    (
        {"segment": [{"type": "start", "lanes": 2, "length": 1}, FIN]},
        0,
        "the start segment has room for 2 of the 5 ST1 start slots; give length >= 3",
    ),
    (
        _spec({"type": "straight", "length": 3, "lanes": 2}, FIN),
        1,
        "width changes from 4 to 2 lanes: say which lanes continue",
    ),
    (
        _spec({"type": "straight", "length": 3, "lanes": 3, "continues": [0, 2, 3]}, FIN),
        1,
        "'continues' must keep neighbouring lanes side by side in order",
    ),
    (
        _spec({"type": "straight", "length": 3, "lanes": 2, "continues": [3, 4]}, FIN),
        1,
        "'continues' names lane 4 but the previous segment has lanes 0-3",
    ),
    (
        _spec({"type": "start", "length": 3}, FIN),
        1,
        "only the first segment can be of type 'start'",
    ),
    (
        {"segment": [{"type": "straight", "length": 3}, FIN]},
        0,
        "the first segment must be of type 'start'",
    ),
    (
        _spec({"type": "tile", "tile": "corner-z", "turn": "left"}, FIN),
        1,
        "got 'corner-z' (did you mean",
    ),
]


@pytest.mark.parametrize(("spec", "segment", "message"), CASES)
def test_bad_spec_names_segment_and_fix(spec, segment, message):
    with pytest.raises(TrackError) as info:
        compile_spec(spec, "t.toml")
    err = info.value
    assert err.segment == segment
    assert err.path == "t.toml"
    assert str(err).startswith(f"track 't.toml', segment {segment}: ")
    assert message in str(err)
    assert "\n" not in str(err)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        (
            {"nmae": "x", **_spec(FIN)},
            "unknown key 'nmae' in the track header (did you mean 'name'?)",
        ),
        ({"flag": "up", **_spec(FIN)}, "'flag' must be one of left, right, got 'up'"),
        ({"family": "snowtail", **_spec(FIN)}, "(did you mean 'snowtails'?)"),
        ({"segment": []}, "a track needs segments"),
        ([1, 2], "a track spec must be a TOML table"),
    ],
)
def test_bad_header(spec, message):
    with pytest.raises(TrackError, match=None) as info:
        compile_spec(spec, "t.toml")
    assert message in str(info.value)


def test_load_bad_files(tmp_path):
    with pytest.raises(TrackError, match="no such file"):
        load(str(tmp_path / "none.toml"))
    bad = tmp_path / "bad.toml"
    bad.write_text("name = \n")
    with pytest.raises(TrackError, match=r"not valid TOML \(.*line 1"):
        load(str(bad))
    with pytest.raises(TrackError, match="unknown track 'old-faithful'"):
        load("old-faithful")
    binary = tmp_path / "bin.toml"
    binary.write_bytes(b"\xff\xfe\x00name")
    with pytest.raises(TrackError, match="not UTF-8 text"):
        load(str(binary))


def test_start_row_skips_closed_spaces_and_refuses_trees():
    start = {"type": "start", "lanes": 4, "length": 2, "closed": [[1, 3]]}
    t = compile_spec({"segment": [start, {"type": "finish", "length": 2}]})
    assert list(t.lane[t.start_row]) == [0, 1, 2]
    start["trees"] = [[1, 0]]
    start["slots"] = [[0, 0], [0, 1], [0, 2], [0, 3], [1, 1]]
    with pytest.raises(TrackError, match="segment 0: a tree stands in the start row"):
        compile_spec({"segment": [start, {"type": "finish", "length": 2}]}, "t.toml")
    start = {"type": "start", "lanes": 1, "length": 5, "closed": [[4, 0]]}
    with pytest.raises(TrackError, match="segment 0: start slot 1 is on a closed space"):
        compile_spec({"segment": [start, {"type": "finish", "length": 2}]}, "t.toml")
