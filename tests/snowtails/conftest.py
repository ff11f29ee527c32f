"""Shared fixtures for the Snow Tails engine tests: hand-built tracks and positions."""

from __future__ import annotations

import pytest

from tests.snowtails.st_trackkit import build, oval


@pytest.fixture(scope="session")
def example_track():
    """Four lanes: a straight, then a right-hand corner with safety speed 4 (the book's
    worked example has a corner of safety 4: red at 5 takes one dent), then a straight."""
    return build([("straight", 5), ("corner", "R", 90, 3, 4), ("straight", 8)], width=4)


@pytest.fixture(scope="session")
def oval_track():
    return oval()
