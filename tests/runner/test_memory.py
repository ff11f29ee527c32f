"""Runs stream chunk by chunk: memory does not grow with the number of races."""

from __future__ import annotations

import tracemalloc

import pytest

from simkit.runner import load_scenario, start

from .helpers import write


def _peak(tmp_path, races: int, name: str) -> int:
    text = (
        f'game = "dicerace"\nkeep = "aggregates"\nraces = {races}\nchunk_size = 400\nplayers = 4\n'
    )
    sc = load_scenario(write(tmp_path, text, f"{name}.toml"))
    tracemalloc.start()
    try:
        start(sc, tmp_path / name)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.slow  # tracemalloc makes it take about 10 s
def test_peak_memory_does_not_grow_with_races(tmp_path):
    _peak(tmp_path, 1000, "warm")  # imports and caches outside the measurement
    small = _peak(tmp_path, 1000 * 4, "small")
    large = _peak(tmp_path, 1000 * 16, "large")
    # 4x the races and chunks; the peak is about 250 kB, and keeping each chunk's per-race
    # rows (about 80 kB a chunk here) would add about 1 MB. The manifest's chunk list grows.
    assert large < 2 * small, (small, large)
