"""bench/baseline.py's helpers: a baseline exported from git, tables compared column by column."""

from __future__ import annotations

import subprocess

import pytest

from bench.baseline import SAME, _export, _same, changed


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


def test_a_bot_a_later_fix_changed_is_named_and_the_others_are_still_compared():
    """95c7cbf changed the races of every search with a horizon (a settled place plays
    greedy's best): their tables can no longer match 7d28aaf's, and the bench says so
    instead of stopping; greedy, search:64 and the other bots are still held to it."""
    horizon = {"bots": "search:6h2wp3c4@policy:distilled", "players": 2}
    assert changed(horizon) == [
        "95c7cbf: a search with a horizon whose place is settled plays greedy's best"
    ]
    assert changed({"bots": ["search:16h2v", "greedy"], "players": 2}) != []
    for plain in ("search:64", "search:8", "greedy", "greedy:tuned", "policy:distilled"):
        assert changed({"bots": plain, "players": 2}) == [], plain
    assert any(not changed(cell) for _, cell, _ in SAME)
