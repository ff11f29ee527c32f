"""The fuzz tests read run directories of the test-only dice race game."""

from tests.runner.conftest import dicerace  # noqa: F401 (a fixture: registers the game)
