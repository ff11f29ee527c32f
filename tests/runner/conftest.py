"""Register the test-only dice race game for every runner test."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import simkit.games

HERE = Path(__file__).parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))


@pytest.fixture(autouse=True)
def dicerace(monkeypatch):
    """Make ``dicerace`` (tests/runner/dicerace.py) a known game."""
    monkeypatch.setitem(simkit.games._MODULES, "dicerace", "dicerace")
    return "dicerace"


def write(tmp_path: Path, text: str, name: str = "s.toml") -> Path:
    """Write a scenario file and return its path."""
    path = tmp_path / name
    path.write_text(text)
    return path
