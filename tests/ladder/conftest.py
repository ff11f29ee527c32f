"""Register the test-only Luce race (tests/ladder/lucerace.py) while the ladder tests run."""

from __future__ import annotations

import pytest

import simkit.games
from tests.ladder.lucerace import GAME


@pytest.fixture(autouse=True, scope="package")
def lucerace():
    simkit.games.names()  # discover the real games first, so none is missing afterwards
    with pytest.MonkeyPatch.context() as mp:
        mp.setitem(simkit.games._REGISTRY, "lucerace", GAME)
        yield "lucerace"
