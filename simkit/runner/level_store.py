"""A run's level check, stored (docs/tables.md "levels", "level_pairs").

What ``simkit run`` does with the skill levels once every chunk is written (:func:`store`):
every setting of the run checked in turn (:func:`check_run`), the results put in the two
tables' columns and dtypes (:func:`table`, :func:`pair_table`) and written into the run
folder as ``levels.parquet`` and ``level_pairs.parquet``. What one setting's check plays,
measures and says, and the tables' columns, are :mod:`simkit.runner.levels`'.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

import pandas as pd
import pyarrow as pa

from simkit.runner.levels import COLUMNS, DEFAULT_RACES, PAIR_COLUMNS, check_cell, named, plan
from simkit.runner.manifest import LEVEL_PAIRS
from simkit.runner.manifest import LEVELS as TABLE
from simkit.runner.tables import parquet_bytes


def check_run(
    cells: Sequence[Any],
    levels: Sequence[Any],
    *,
    races: int = DEFAULT_RACES,
    seed: int = 0,
    threads: int | None = None,
    reference: str | None = None,
    reference_races: int | None = None,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Every setting of a run with a skill axis: the tables of :data:`COLUMNS` and
    :data:`PAIR_COLUMNS`, in cell order.

    ``cells`` are the run's planned cells (:func:`simkit.runner.expand`); the skill axis
    varies fastest, so each setting is a block of one cell per bot of the levels, and its
    first cell gives the setting.
    """
    levels = named(levels)
    k = sum(len(bots) for _, bots in levels)
    parts, pair_parts = [], []
    for setting, first in enumerate(range(0, len(cells), k)):
        block = cells[first : first + k]
        found = check_cell(
            block[0].cell,
            levels,
            races=races,
            seed=seed,
            threads=threads,
            reference=reference,
            reference_races=reference_races,
            plays={pc.skill: pc.cell.bots[0] for pc in block},
        )
        cell_of = {pc.skill: pc.cell.cell_id for pc in block}
        t = found.table
        t.insert(0, "setting", setting)
        t.insert(0, "cell", [cell_of[b] for b in t["skill"]])
        parts.append(t)
        p = found.pairs
        p.insert(0, "setting", setting)
        p.insert(4, "lower_cell", [cell_of.get(b, -1) for b in p["lower"]])
        p.insert(5, "upper_cell", [cell_of.get(b, -1) for b in p["upper"]])
        pair_parts.append(p)
    return table(pd.concat(parts, ignore_index=True)), pair_table(
        pd.concat(pair_parts, ignore_index=True)
    )


def table(frame: pd.DataFrame) -> pd.DataFrame:
    """The stored per-cell table's columns and dtypes (:data:`COLUMNS`)."""
    out = frame[list(COLUMNS)].copy()
    for name in ("cell", "setting", "level", "rung"):
        out[name] = out[name].astype("int32")
    for name in ("races", "ref_races", "ref_planned"):
        out[name] = out[name].astype("int64")
    out["flag"] = out["flag"].astype(bool)
    return out.reset_index(drop=True)


def pair_table(frame: pd.DataFrame) -> pd.DataFrame:
    """The stored pairs table's columns and dtypes (:data:`PAIR_COLUMNS`)."""
    out = frame[list(PAIR_COLUMNS)].copy()
    for name in ("setting", "lower_cell", "upper_cell"):
        out[name] = out[name].astype("int32")
    for name in ("races", "planned"):
        out[name] = out[name].astype("int64")
    out["separated"] = out["separated"].astype(bool)
    return out.reset_index(drop=True)


def store(
    run: Any,
    scenario: Any,
    cells: Sequence[Any],
    manifest: dict[str, Any],
    *,
    threads: int | None = None,
    progress: bool = False,
) -> None:
    """Check the levels of a finished run with a skill axis into ``levels.parquet`` and
    ``level_pairs.parquet``.

    What ``simkit run`` calls once every chunk is written: nothing without a skill axis, with
    ``check_levels = false``, or when the run already holds both tables (a resumed run).
    The files are listed in ``manifest`` with their sha256 like every table of the run.
    """
    if not scenario.checks_levels:
        return
    if TABLE in manifest["files"] and LEVEL_PAIRS in manifest["files"]:
        return
    levels = scenario.levels
    reference = scenario.reference
    if progress:
        settings = len(cells) // len(scenario.skill)
        n = len(plan(levels, reference))
        ref = f", against {reference} at the top" if reference else ""
        print(
            f"checking the skill levels in {settings} setting(s): {n} pair(s) of bots each"
            f"{ref}, {scenario.check_races:,} races per lineup"
            + (
                f" ({scenario.reference_races:,} at most with {reference})"
                if reference and scenario.reference_races != scenario.check_races
                else ""
            ),
            file=sys.stderr,
            flush=True,
        )
    found, pairs = check_run(
        cells,
        levels,
        races=scenario.check_races,
        seed=scenario.seed,
        threads=threads,
        reference=reference,
        reference_races=scenario.reference_races,
    )
    for name, frame in ((TABLE, found), (LEVEL_PAIRS, pairs)):
        run.write(name, parquet_bytes(pa.Table.from_pandas(frame, preserve_index=False)), manifest)
