"""Register the test-only slot race (tests/tune/slotrace.py) for the tuner's tests."""

from __future__ import annotations

import pytest

import simkit.games
from tests.tune.slotrace import GAME


@pytest.fixture(autouse=True)
def slotrace(monkeypatch):
    """``slotrace`` as a known game while a test runs."""
    simkit.games.names()  # discover the real games first, so none is missing afterwards
    monkeypatch.setitem(simkit.games._REGISTRY, "slotrace", GAME)
    return GAME
