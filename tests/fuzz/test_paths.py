"""Output paths (issue 26): resolved before any check; nothing written into a folder that
holds something else, no file replaced without --force; one writer per run folder."""

from __future__ import annotations

import os

import pytest
from click.testing import CliRunner

from simkit.cli import main
from simkit.errors import RunError
from simkit.runner import load_scenario, resume, start
from simkit.runner.storage import RunDir

SCENARIO = 'game = "dicerace"\nraces = 60\nchunk_size = 30\n[grid]\nplayers = [2, 3]\n'


def _invoke(args, cwd=None):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.fixture
def here(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "s.toml").write_text(SCENARIO)
    return tmp_path


def test_dot_dot_in_out_is_resolved_before_the_check(here):
    start(load_scenario("s.toml"), "u")
    before = (here / "u" / "cells.parquet").read_bytes()
    res = _invoke(["run", "s.toml", "--out", "nosuch/../u", "--seed", "9"])
    assert res.exit_code == 1
    assert res.output == (
        f"Error: '{here / 'u'}' holds a finished run; use --force to overwrite it or --out to "
        "write elsewhere\n"
    )
    assert (here / "u" / "cells.parquet").read_bytes() == before
    assert not (here / "nosuch").exists()
    (here / "v").mkdir()
    (here / "v" / "notes.txt").write_text("mine")
    res = _invoke(["run", "s.toml", "--out", "nosuch/../v"])
    assert res.output == (
        f"Error: '{here / 'v'}' is not empty and not a simkit run; choose another --out\n"
    )


@pytest.mark.parametrize("out", ["u", "u/./", "nosuch/../u"])
def test_a_users_file_named_like_a_runs_is_no_leftover(here, out):
    """Only a folder holding simkit's lock is what a killed run left (the attack table)."""
    (here / "u").mkdir()
    (here / "u" / "cells.parquet").write_text("mine")
    res = _invoke(["run", "s.toml", "--out", out])
    assert res.exit_code == 1
    assert res.output.endswith("is not empty and not a simkit run; choose another --out\n")
    assert (here / "u" / "cells.parquet").read_text() == "mine"


def test_a_scenario_named_dots_gives_no_default_folder(here):
    (here / "...toml").write_text(SCENARIO)
    (here / "cells.parquet").write_text("mine")
    res = _invoke(["run", "...toml"])
    assert res.exit_code == 2
    assert "'...toml' gives no folder name for the run; name the folder with --out" in res.output
    assert (here / "cells.parquet").read_text() == "mine"


def test_a_report_into_a_foreign_folder_is_refused(here):
    start(load_scenario("s.toml"), "run")
    (here / "site").mkdir()
    (here / "site" / "index.html").write_text("<p>my site</p>")
    res = _invoke(["report", "run", "--out", "site"])
    assert res.exit_code == 1
    assert res.output == (
        "Error: 'site' holds files simkit did not write as a report; choose another --out, or "
        "add --force to write the report there (files of the same names are replaced)\n"
    )
    assert (here / "site" / "index.html").read_text() == "<p>my site</p>"
    res = _invoke(["compare", "run", "run", "--out", "site"])
    assert res.exit_code == 1 and "holds files simkit did not write" in res.output
    # a folder holding another kind of simkit output is not a report's either
    (here / "pics").mkdir()
    (here / "pics" / ".simkit-output").write_text("track pictures\n")
    (here / "pics" / "a.png").write_bytes(b"png")
    res = _invoke(["report", "run", "--out", "pics"])
    assert res.output.startswith("Error: 'pics' holds a simkit track pictures; choose another")


_RACE = ["race", "dicerace", "--png"]
_SHOW = ["tracks", "show", "nutcracker", "-o"]
_ROUTE = ["routes", "show", "standard", "-o"]
_SUFFIX = "': give a file name ending in .png"
_LINK = "' is a symbolic link, and simkit writes through no link (not even with --force)"
_EXISTS = "' exists; choose another name, or add --force to replace it"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([*_RACE, "x.txt"], "--png 'x.txt" + _SUFFIX),
        ([*_RACE, "x.pdfx"], "--png 'x.pdfx" + _SUFFIX),
        ([*_RACE, "mine.png"], "--png 'mine.png" + _EXISTS),
        ([*_SHOW, "x.txt"], "-o 'x.txt" + _SUFFIX),
        ([*_SHOW, "mine.png"], "-o 'mine.png" + _EXISTS),
        ([*_SHOW, "nosuch/../mine.png"], "mine.png" + _EXISTS),
        ([*_ROUTE, "x.txt"], "-o 'x.txt" + _SUFFIX),
        ([*_ROUTE, "mine.png"], "-o 'mine.png" + _EXISTS),
        ([*_ROUTE, "link.png", "--force"], "-o 'link.png" + _LINK),
        ([*_SHOW, "link.png", "--force"], "-o 'link.png" + _LINK),
        ([*_RACE, "link.png", "--force"], "--png 'link.png" + _LINK),
    ],
)
def test_pictures_never_replace_a_file(here, args, message):
    (here / "mine.png").write_bytes(b"my picture")
    (here / "link.png").symlink_to(here / "mine.png")
    res = _invoke(args)
    assert res.exit_code == 1 and len(res.output.splitlines()) == 1, res.output
    assert message in res.output
    assert (here / "mine.png").read_bytes() == b"my picture"


def test_tune_refuses_foreign_folders_before_the_search(here):
    (here / "site").mkdir()
    (here / "site" / "index.html").write_text("mine")
    res = _invoke(["tune", "s.toml", "--space", "nosuch.toml", "--report", "site"])
    assert res.exit_code == 1 and "'site' holds files simkit did not write as a report" in (
        res.output
    )
    from simkit.tune.study import check_confirm_folder

    (here / "t" / "confirm").mkdir(parents=True)
    (here / "t" / "confirm" / "notes.txt").write_text("mine")
    with pytest.raises(RunError, match="holds files that are not a simkit run"):
        check_confirm_folder(here / "t")


def test_a_second_writer_is_refused_naming_the_first(here):
    start(load_scenario("s.toml"), "run")
    with RunDir("run").lock("simkit run"):
        for attempt in (
            lambda: start(load_scenario("s.toml").with_overrides(seed=99), "run", force=True),
            lambda: resume("run", races=200),
        ):
            with pytest.raises(RunError) as info:
                attempt()
            assert str(info.value).startswith(
                f"'run' is being written by another process (simkit run, pid {os.getpid()} on "
            )
    assert resume("run", races=90).races == 180  # the lock is gone with its holder


def test_a_ladder_run_is_resumed_by_the_ladder(here):
    """Remedies name the command that resumes the run: a ladder's is `simkit ladder`."""
    from simkit.results import load
    from simkit.runner.scenario_file import parse

    start(parse({"game": "dicerace", "races": 40, "chunk_size": 20}, "simkit ladder"), "lad")
    (here / "lad" / "agg" / "part-00000-000001.parquet").write_bytes(b"x")
    with pytest.raises(RunError, match=r"repair the run with `simkit ladder --resume lad`$"):
        load("lad")
