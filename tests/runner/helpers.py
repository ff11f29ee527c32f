"""Helpers shared by the runner tests: write a scenario, run it, compare runs."""

from __future__ import annotations

from pathlib import Path

# Four chunks of a 2-player dice race: a run small enough to start in every test.
TINY = """
game = "dicerace"
seed = 5
players = 2
races = 40
chunk_size = 10
"""


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
    """Bytes of every table file of a run (not the manifest, whose timings differ, the
    copies of its inputs, named after the scenario file, nor the lock, naming its writer)."""
    return {
        str(p.relative_to(run_dir)): p.read_bytes()
        for p in sorted(run_dir.rglob("*"))
        if p.is_file()
        and p.name not in ("manifest.json", ".simkit-lock")
        and p.parts[-2] != "inputs"
    }
