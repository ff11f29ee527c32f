"""A full disk while writing a report or a picture (issue 26 item 9): the one line names
the file being written and says what to do, and doing it works. /dev/full stands for the
full disk: writing to it fails with ENOSPC, as a full file system does."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from simkit.cli import main
from simkit.runner import load_scenario, start

FULL = Path("/dev/full")
pytestmark = pytest.mark.skipif(not FULL.exists(), reason="needs /dev/full (Linux)")

FIX = "(No space left on device); free some space, then run the command again\n"


def _invoke(args):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.fixture
def here(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_a_report_names_the_file_the_full_disk_stopped(here):
    (here / "s.toml").write_text('game = "dicerace"\nraces = 40\nchunk_size = 20\n')
    start(load_scenario("s.toml"), "run")
    (here / "site").mkdir()
    os.symlink(FULL, here / "site" / "report.md")
    res = _invoke(["report", "run", "--out", "site", "--force"])
    assert res.exit_code == 1
    assert res.output == f"Error: cannot write 'site/report.md' {FIX}"
    # Following the advice (the space freed: the full file gone) writes the report.
    (here / "site" / "report.md").unlink()
    res = _invoke(["report", "run", "--out", "site"])
    assert res.exit_code == 0, res.output
    assert (here / "site" / "report.md").stat().st_size > 0


def test_a_report_picture_names_its_file(here):
    """matplotlib and Pillow raise the full disk's error without a file name."""
    (here / "s.toml").write_text('game = "dicerace"\nraces = 40\nchunk_size = 20\n')
    start(load_scenario("s.toml"), "run")
    (here / "site").mkdir()
    os.symlink(FULL, here / "site" / "completion.png")
    res = _invoke(["report", "run", "--out", "site", "--force"])
    assert res.exit_code == 1
    assert res.output == f"Error: cannot write 'site/completion.png' {FIX}"
    (here / "site" / "completion.png").unlink()
    res = _invoke(["report", "run", "--out", "site"])
    assert res.exit_code == 0, res.output


def _full_after(monkeypatch, module, name):
    """``module.name`` (a picture writer) writes half its file, then finds the disk full."""
    real = getattr(module, name)

    def writer(*args, **kwargs):
        real(*args, **kwargs)
        path = next(a for a in args if isinstance(a, str | Path) and str(a).endswith(".png"))
        Path(path).write_bytes(Path(path).read_bytes()[:100])
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(module, name, writer)


@pytest.mark.parametrize("command", ["tracks", "race"])
def test_a_picture_cut_short_leaves_nothing_and_the_rerun_writes_it(here, monkeypatch, command):
    from simkit.games.snowtails import trace
    from simkit.tracks import picture

    args = {
        "tracks": ["tracks", "show", "nutcracker", "-o", "t.png"],
        "race": ["race", "--game", "snowtails", "--players", 2, "--seed", 1, "--png", "t.png"],
    }[command]
    with monkeypatch.context() as m:
        if command == "tracks":
            _full_after(m, picture, "save_png")
        else:
            _full_after(m, trace.RaceTrace, "draw")
        res = _invoke(args)
    assert res.exit_code == 1
    assert res.stderr.splitlines()[-1] + "\n" == f"Error: cannot write 't.png' {FIX}"
    assert list(here.iterdir()) == []
    # "run the command again", as given: no --force needed, nothing half written in the way
    res = _invoke(args)
    assert res.exit_code == 0, res.output
    assert (here / "t.png").read_bytes()[:4] == b"\x89PNG"
