"""bench/baseline.py's helpers: a baseline exported from git, tables compared column by column."""

from __future__ import annotations

import subprocess

import pytest

from bench.baseline import _export, _same


def test_export_puts_the_revision_package_in_the_folder(tmp_path):
    sha = _export("HEAD", tmp_path)
    if sha is None:
        pytest.skip("no git history here")
    want = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True).stdout
    assert sha == want.strip()
    assert (tmp_path / "simkit" / "games" / "snowtails" / "search.py").is_file()


def test_export_of_an_unknown_revision_is_none(tmp_path):
    assert _export("no-such-revision-anywhere", tmp_path) is None
    assert not any(tmp_path.iterdir())


def test_same_compares_the_columns_both_hold():
    _same({}, {"seats.finish": "a", "races.rounds": "b"}, {"seats.finish": "a", "new": "c"})
    with pytest.raises(SystemExit, match=r"seats.finish"):
        _same({"bots": "x"}, {"seats.finish": "a"}, {"seats.finish": "z"})
    with pytest.raises(SystemExit):
        _same({}, {"only.here": "a"}, {"only.there": "a"})
