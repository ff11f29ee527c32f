"""Rebuild one race of a finished or running run, for ``simkit race --replay``."""

from __future__ import annotations

from pathlib import Path

from simkit.errors import RunError
from simkit.games.base import Cell
from simkit.games.cells import build_cell
from simkit.rng import single_race_key
from simkit.runner.manifest import cell_races
from simkit.runner.storage import RunDir


def replay_cell(run_dir: str | Path, cell: int, race: int) -> tuple[Cell, int]:
    """The cell ``cell`` of the run in ``run_dir`` and the root key of its race ``race``."""
    manifest = RunDir(run_dir).read_manifest()
    specs = manifest["cells"]
    if not 0 <= cell < len(specs):
        raise RunError(f"'{run_dir}' has cells 0 to {len(specs) - 1} (got --cell {cell})")
    spec = specs[cell]
    total = cell_races(manifest, cell)
    if not 0 <= race < total:
        raise RunError(f"'{run_dir}' has races 0 to {total - 1} in cell {cell} (got --race {race})")
    built = build_cell(
        manifest["game"],
        preset=spec["preset"],
        overrides=spec["params"],
        track=spec["track"],
        players=spec["players"],
        bots=spec["bots"],
        slots=spec["slots"],
        cell_id=cell,
    )
    return built, single_race_key(manifest["seed"], race, cell_key=int(spec["cell_key"]))
