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


def write(tmp_path: Path, text: str, name: str = "s.toml") -> Path:
    """Write a scenario file and return its path."""
    path = tmp_path / name
    path.write_text(text)
    return path


def run(tmp_path: Path, text: str, out: str, **kwargs):
    """Run a scenario text into ``tmp_path / out`` and return the loaded Results."""
    from simkit.results import load
    from simkit.runner import load_scenario, start

    sc = load_scenario(write(tmp_path, text, f"{out}.toml"))
    start(sc, tmp_path / out, **kwargs)
    return load(tmp_path / out)


def assert_same_tables(a, b) -> None:
    """Every table of two runs is identical (values, dtypes, order)."""
    import pandas.testing as pdt

    pdt.assert_frame_equal(a.cells, b.cells)
    if a.races is None or b.races is None:
        assert a.races is None and b.races is None
    else:
        pdt.assert_frame_equal(a.races, b.races)
    pdt.assert_frame_equal(a.heat, b.heat)
    assert a.agg.keys() == b.agg.keys()
    for name in a.agg:
        pdt.assert_frame_equal(a.agg[name], b.agg[name])


def part_files(run_dir: Path) -> dict[str, bytes]:
    """Bytes of every table file of a run (not the manifest, whose timings differ)."""
    return {
        str(p.relative_to(run_dir)): p.read_bytes()
        for p in sorted(run_dir.rglob("*"))
        if p.is_file() and p.name != "manifest.json"
    }
