"""The rules doc names every variant parameter and bot parameter (docs/rules-mushroomwalk.md)."""

from pathlib import Path

from simkit.games.mushroomwalk.bots import PARAMS
from simkit.games.mushroomwalk.params import MushroomWalkParams

DOC = Path(__file__).parents[2] / "docs" / "rules-mushroomwalk.md"


def test_every_parameter_is_documented():
    text = DOC.read_text()
    missing = [n for n in MushroomWalkParams.names() if f"`{n}`" not in text]
    assert not missing, f"docs/rules-mushroomwalk.md lacks {missing}"
    missing_bot = [n for n in PARAMS if f"`{n}`" not in text]
    assert not missing_bot, f"docs/rules-mushroomwalk.md lacks bot parameters {missing_bot}"
