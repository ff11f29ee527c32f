"""``simkit tracks``: exact output and exit codes."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from simkit.cli import main
from simkit.tracks import library

DATA = Path(__file__).parent / "data"

GOOD = """\
track '{path}': OK
name      good
title     A Good Little Track
family    mushmush
lanes     3-4
spaces    72
length    19.0 spaces along the centreline to the finish line
corners   2
  1  segment 2   left  safety 4   spaces inside to outside 2/4/5/7
  2  segment 4   right no safety  spaces inside to outside 3/6/9  tight
start     ST1 slots [row,lane] 1:[1,0] 2:[1,1] 3:[1,2] 4:[0,0] 5:[0,1]; ST2 start row of 4
finish    segment 5, flag on the right, run-off 2.0
features  1 tree, 1 closed space, buildings: chapel
"""


def _run(*args):
    return CliRunner().invoke(main, ["tracks", *args])


def test_check_good_file():
    path = str(DATA / "good.toml")
    res = _run("check", path)
    assert res.exit_code == 0, res.output
    assert res.output == GOOD.format(path=path)


def test_check_bad_file_one_line_and_exit_1():
    path = str(DATA / "bad.toml")
    res = _run("check", path)
    assert res.exit_code == 1
    assert res.output == (
        f"Error: track '{path}', segment 1: unknown key 'lenght' in a straight segment "
        "(did you mean 'length'?); known keys: type, lanes, continues, trees, closed, "
        "finish, length, buildings\n"
    )


def test_check_bad_toml_syntax(tmp_path):
    path = tmp_path / "broken.toml"
    path.write_text('[[segment]]\ntype = "start"\nlanes = 3\n[[segment\n')
    res = _run("check", str(path))
    assert res.exit_code == 1
    assert res.output.startswith(f"Error: track '{path}': not valid TOML (")
    assert res.output.count("\n") == 1


def test_check_unknown_name_suggests():
    res = _run("check", "nutcrackr")
    assert res.exit_code == 1
    assert res.output == (
        "Error: unknown track 'nutcrackr' (did you mean 'nutcracker'?); `simkit tracks list` "
        "shows the library, or give a path to a .toml file\n"
    )


def test_list_shows_every_library_track():
    res = _run("list")
    assert res.exit_code == 0
    lines = res.output.splitlines()
    assert lines[0].split() == ["name", "family", "lanes", "spaces", "corners", "title"]
    assert [ln.split()[0] for ln in lines[2:]] == [info.name for info in library()]
    nut = next(ln for ln in lines if ln.startswith("nutcracker "))
    assert nut.split()[:5] == ["nutcracker", "snowtails", "3", "207", "6"]
    res = _run("list", "--family", "mushmush")
    assert all(" mushmush " in ln for ln in res.output.splitlines()[2:])


def test_show_writes_a_png(tmp_path):
    out = tmp_path / "sub" / "good.png"
    res = _run("show", str(DATA / "good.toml"), "-o", str(out), "--dpi", "40", "--segments")
    assert res.exit_code == 0, res.output
    assert res.output == f"wrote {out}\n"
    assert out.read_bytes()[:4] == b"\x89PNG"


def test_show_all_writes_one_png_per_track(tmp_path):
    res = _run("show", "--all", "-o", str(tmp_path), "--dpi", "30")
    assert res.exit_code == 0, res.output
    names = sorted(p.stem for p in tmp_path.glob("*.png"))
    assert names == sorted(info.name for info in library())


def test_show_needs_a_track_or_all():
    res = _run("show")
    assert res.exit_code == 2
    assert "give a TRACK or --all" in res.output


def test_families_are_the_games_that_ship_tracks(tmp_path):
    from simkit.games import games
    from simkit.tracks.library import families

    assert set(families()) == {g.name for g in games() if g.extras.track_dir is not None}
    assert {"snowtails", "mushmush"} <= set(families())
    res = _run("list", "--family", "mush")  # a game, but one raced without tracks
    assert res.exit_code == 2 and "'mush' is not one of" in res.output
    text = (DATA / "good.toml").read_text()
    mine = tmp_path / "mine.toml"
    mine.write_text(text.replace('family = "mushmush"\n', ""))
    res = _run("check", str(mine))
    assert res.exit_code == 0, res.output
    assert "\nfamily    -\n" in res.output  # a track of your own models no book's board
    mine.write_text(text.replace('family = "mushmush"', 'family = "mush"'))
    res = _run("check", str(mine))
    assert res.exit_code == 1
    assert "'family' must be one of mushmush, snowtails, got 'mush'" in res.output
