"""Register the test-only dice race game for every runner test."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import simkit.games

HERE = Path(__file__).parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))


@pytest.fixture(autouse=True, scope="session")
def dicerace():
    """Make ``dicerace`` (tests/runner/dicerace.py) a known game while these tests run."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setitem(simkit.games._MODULES, "dicerace", "dicerace")
        yield "dicerace"
