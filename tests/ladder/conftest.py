"""Register the test-only Luce race (tests/ladder/lucerace.py) while the ladder tests run."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import simkit.games

HERE = Path(__file__).parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))


@pytest.fixture(autouse=True, scope="session")
def lucerace():
    with pytest.MonkeyPatch.context() as mp:
        mp.setitem(simkit.games._MODULES, "lucerace", "lucerace")
        yield "lucerace"
