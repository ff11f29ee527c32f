"""The shipped track library: every track compiles, draws, and says what it is."""

from __future__ import annotations

import tomllib
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from simkit.games import get
from simkit.tracks import compile_spec, draw, library, load
from simkit.tracks.compiled import F_TIGHT_INSIDE, F_TREE
from simkit.tracks.library import tile_pieces, tiles

LIBRARY = library()
NAMES = [info.name for info in LIBRARY]


def test_library_holds_the_books_tracks():
    fams = Counter(info.family for info in LIBRARY)
    assert fams["snowtails"] >= 4
    assert "nutcracker" in NAMES
    for k, slug in enumerate(
        [
            "old-faithful",
            "tighter-than-i-thought",
            "ever-decreasing-circles",
            "drift-away",
            "what-goes-up",
            "a-twist-in-the-tail",
            "slightly-unbalanced",
            "breath-in",
        ],
        start=1,
    ):
        assert f"mm{k}-{slug}" in NAMES
        assert f"mm{k}-{slug}-reversed" in NAMES  # ST2 G: only tight corners
        assert load(f"mm{k}-{slug}-reversed").corner_tight.all()
    tight = [n for n in NAMES if load(n).corner_tight.any()]
    assert "mm-lamont-spur" in tight


@pytest.mark.parametrize("info", LIBRARY, ids=NAMES)
def test_library_file_header(info):
    raw = tomllib.loads(Path(info.path).read_text())
    assert raw["name"] == Path(info.path).stem == info.name
    assert raw["family"] == info.family
    assert Path(info.path).parent == get(info.family).extras.track_dir  # the game ships its tracks
    assert raw["flag"] in ("left", "right")
    assert raw["title"] == info.title
    # provenance: the book's tracks are reconstructions and say so; the rest say whose
    words = raw["notes"]
    assert "RECONSTRUCTION" in words or "simkit layout" in words
    if info.family == "mushmush" or info.name == "nutcracker":
        assert "RECONSTRUCTION" in words


@pytest.mark.parametrize("name", NAMES)
def test_library_track_compiles_and_does_not_cross_itself(name):
    t = load(name)
    assert t.name == name and t.n_spaces > 100
    assert t.finish_progress > 40
    c = t.centre
    dist = np.linalg.norm(c[:, None] - c[None], axis=-1)
    far = np.abs(t.segment[:, None].astype(int) - t.segment[None].astype(int)) >= 2
    assert not np.any((dist < 1.0) & far), "two parts of the track lie on top of each other"


def test_snowtails_layouts_fit_in_the_box():
    pieces = tile_pieces()
    for info in LIBRARY:
        if info.family != "snowtails":
            continue
        raw = tomllib.loads(Path(info.path).read_text())
        used = Counter(pieces[s["tile"]][0] for s in raw["segment"])
        assert all(s["type"] == "tile" for s in raw["segment"]), info.name
        for piece, n in used.items():
            assert n <= dict(pieces.values())[piece], (info.name, piece)
        assert used["start"] == used["finish"] == 1
        assert raw["flag"] == "left"  # the finish tile's flag (tiles.toml)


def test_tiles_are_the_box_contents():
    pieces = tile_pieces()
    box = {piece: n for piece, n in pieces.values()}
    assert box == {"start": 1, "finish": 1, "straight": 8, "corner": 4, "uturn": 2}
    assert {name: t["angle"] for name, t in tiles().items() if t["type"] == "corner"} == {
        "corner-a": 90,
        "corner-b": 90,
        "uturn-a": 180,
        "uturn-b": 180,
    }
    # The tighter side of a piece has the lower safety speed.
    assert tiles()["corner-b"]["safety"] < tiles()["corner-a"]["safety"]
    assert tiles()["uturn-b"]["safety"] < tiles()["uturn-a"]["safety"]


def test_book_features_on_the_mush_tracks():
    t2 = load("mm2-tighter-than-i-thought")
    assert sorted(b[0] for b in t2.buildings) == ["bothy", "tavern"]
    t1 = load("mm1-old-faithful")
    assert t1.buildings == () and np.sum(t1.flags & F_TREE != 0) >= 3
    t8 = load("mm8-breath-in")  # two bottlenecks, one at the finish
    widths = [int(t8.lane[t8.segment == g].max()) + 1 for g in range(len(t8.segment_kinds))]
    assert widths.count(2) >= 3 and widths[-1] == 2
    spur = load("mm-lamont-spur")
    assert spur.corner_tight[0] and np.any(spur.flags & F_TIGHT_INSIDE)
    t5 = load("mm5-what-goes-up")  # left, left, then one long right
    assert list(t5.corner_turn) == [1, 1, -1]


@pytest.mark.parametrize("name", NAMES)
def test_library_track_renders_to_a_png(name, tmp_path):
    from simkit.tracks.picture import save_png

    path = tmp_path / f"{name}.png"
    save_png(load(name), path, dpi=60)
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert 250 <= width <= 1400 and 250 <= height <= 1400
    assert len(data) > 15_000


def test_draw_takes_values_sleds_and_paths():
    t = load("nutcracker")
    values = np.arange(t.n_spaces, dtype=float)
    values[:10] = np.nan
    fig = draw(
        t,
        values=values,
        sleds=[(50, "red", "1")],
        paths=[([0, 1, 6, 7], "red")],
        title="heat",
        value_label="crashes",
    )
    assert len(fig.axes) == 2  # the track and its colour bar
    assert fig.axes[0].get_title() == "heat"
    with pytest.raises(ValueError, match="one entry per space"):
        draw(t, values=[1.0, 2.0])


def test_docs_example_compiles():
    import re

    text = (Path(__file__).parents[2] / "docs" / "tracks.md").read_text()
    example = re.search(r"```toml\n(.*?)```", text, re.S).group(1)
    t = compile_spec(tomllib.loads(example), "docs/tracks.md")
    assert t.n_corners == 2 and t.corner_tight.tolist() == [False, True]
    assert [b[0] for b in t.buildings] == ["chapel", "tavern"]
