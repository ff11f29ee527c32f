"""Register the test-only aim race (tests/bots/aimrace.py), its presets file in a temp folder."""

from __future__ import annotations

import dataclasses

import pytest

import simkit.games
from tests.bots.aimrace import GAME


@pytest.fixture(autouse=True)
def aimrace(tmp_path, monkeypatch):
    """``aimrace`` as a known game whose fitted presets go to ``tmp_path/bots.toml``."""
    simkit.games.names()  # discover the real games first, so none is missing afterwards
    monkeypatch.setitem(simkit.games._REGISTRY, "aimrace", GAME)
    extras = dataclasses.replace(GAME.extras, bot_presets_file=tmp_path / "bots.toml")
    monkeypatch.setattr(GAME, "extras", extras)
    return GAME
