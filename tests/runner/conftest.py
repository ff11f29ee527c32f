"""Register the test-only dice race game for every runner test."""

from __future__ import annotations

import pytest

import simkit.games
from tests.runner.dicerace import GAME


@pytest.fixture(autouse=True, scope="package")
def dicerace():
    """Make ``dicerace`` (tests/runner/dicerace.py) a known game while these tests run."""
    simkit.games.names()  # discover the real games first, so none is missing afterwards
    with pytest.MonkeyPatch.context() as mp:
        mp.setitem(simkit.games._REGISTRY, "dicerace", GAME)
        yield "dicerace"
