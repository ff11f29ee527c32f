"""A full disk while writing a report or a picture (issue 26 item 9): the one line names
the file being written and says what to do, and doing it works. A full disk is a write that
fails with ENOSPC and names no file, as a full file system's does: simkit refuses a report
folder holding a link or a device (docs/reliability.md), so the writers are made to fail
here, as /dev/full linked into the folder once made them."""

from __future__ import annotations

import errno
import pathlib
from pathlib import Path

import pytest
from click.testing import CliRunner

from simkit.cli import main
from simkit.runner import load_scenario, start

FIX = "(No space left on device); free some space, then run the command again\n"


def _invoke(args):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.fixture
def here(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture
def run_here(here):
    """``here``, holding a run to report on."""
    (here / "s.toml").write_text('game = "dicerace"\nraces = 40\nchunk_size = 20\n')
    start(load_scenario("s.toml"), "run")
    return here


def _full(monkeypatch, owner, method, name, *, first=None):
    """``owner.method`` fails as on a full disk (ENOSPC, no file name) when it writes the
    file called ``name``, found as ``first(*args)``."""
    real = getattr(owner, method)

    def full(*args, **kwargs):
        if Path(first(*args)).name == name:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(*args, **kwargs)

    monkeypatch.setattr(owner, method, full)


def test_a_report_names_the_file_the_full_disk_stopped(run_here, monkeypatch):
    with monkeypatch.context() as m:
        _full(m, pathlib.Path, "write_text", "report.md", first=lambda path, *_: path)
        res = _invoke(["report", "run", "--out", "site"])
    assert res.exit_code == 1
    assert res.output == f"Error: cannot write 'site/report.md' {FIX}"
    # Following the advice (the space freed) writes the report.
    res = _invoke(["report", "run", "--out", "site"])
    assert res.exit_code == 0, res.output
    assert (run_here / "site" / "report.md").stat().st_size > 0


def test_a_report_picture_names_its_file(run_here, monkeypatch):
    """matplotlib and Pillow raise the full disk's error without a file name."""
    from matplotlib.figure import Figure

    with monkeypatch.context() as m:
        _full(m, Figure, "savefig", "completion.png", first=lambda fig, fname, *_: fname)
        res = _invoke(["report", "run", "--out", "site"])
    assert res.exit_code == 1
    assert res.output == f"Error: cannot write 'site/completion.png' {FIX}"
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
        "race": ["race", "snowtails", "--players", 2, "--seed", 1, "--png", "t.png"],
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
