"""A run's tables as pandas DataFrames: ``simkit.load(DIR) -> Results`` (docs/tables.md)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from simkit.errors import RunError
from simkit.outcomes import tabulated_finish
from simkit.runner.manifest import CELLS, LEVEL_PAIRS, LEVELS
from simkit.runner.storage import RunDir
from simkit.runner.tables import (
    AGG_KEYS,
    AGG_VALUES,
    MEASURE_KEYS,
    MEASURE_TABLE,
    MEASURE_VALUES,
    ROUND_KEYS,
    ROUND_TABLE,
    SEAT_KEYS,
    SEAT_TABLE,
    canonical,
    json_columns,
)


@dataclass
class Results:
    """The tables of one run. ``races`` is None when the run kept only aggregates.

    ``rounds`` holds the per-round counts (docs/tables.md "round_position"), empty for
    games that do not record them; ``round_measures`` the per-race measures over the rounds
    summed per cell (n, sum, sumsq of drama, lead_change, stability; docs/statistics.md),
    empty likewise; ``seat_rounds`` the per-round counts by seat instead of start slot
    (docs/tables.md "seat_position"). ``levels`` is the measured order of the skill levels in
    each setting (:mod:`simkit.runner.levels`, docs/tables.md "levels"), None for a run
    without a skill axis or with ``check_levels = false``.
    """

    dir: Path
    manifest: dict[str, Any]
    cells: pd.DataFrame
    races: pd.DataFrame | None
    heat: pd.DataFrame
    agg: dict[str, pd.DataFrame]
    rounds: pd.DataFrame | None = None
    levels: pd.DataFrame | None = None
    round_measures: pd.DataFrame | None = None
    seat_rounds: pd.DataFrame | None = None
    # The cells columns holding JSON text (list-valued parameters such as ``[0,0,0,1,2]``),
    # as cells.parquet's schema declares them; None if it does not (a run written before
    # it did, a table made in memory): simkit.analysis.tables.cell_variants then goes by
    # the game's parameters.
    json_columns: tuple[str, ...] | None = None
    # Every pair of bots the level check measured in each setting (docs/tables.md
    # "level_pairs"), None where ``levels`` is, or for a run checked before pairs were kept.
    level_pairs: pd.DataFrame | None = None


def _concat(paths: list[Path]) -> pa.Table | None:
    if not paths:
        return None
    return pa.concat_tables([pq.read_table(p) for p in paths], promote_options="permissive")


def load(path: str | Path) -> Results:
    """Read the run in ``path``: races in (cell, race, seat) order, heat and aggregates summed.

    Only what the manifest lists is read, after checking the manifest and every file's
    sha256 against it: a damaged or missing file is a ``RunError`` naming it (``simkit run
    --resume`` repairs it).
    """
    run = RunDir(path)
    manifest = run.read_manifest()
    damaged = run.damaged(manifest)
    if damaged:
        more = f" (and {len(damaged) - 1} more)" if len(damaged) > 1 else ""
        raise RunError(
            f"'{run.path / damaged[0]}'{more} is damaged or missing: it differs from the "
            f"sha256 its manifest recorded; repair the run with {run.resume_hint}"
        )
    cells_table = pq.read_table(run.path / CELLS)
    cells = cells_table.to_pandas()

    races = None
    if manifest["keep"] == "races":
        table = _concat(run.listed(manifest, "races"))
        if table is None:
            races = pd.DataFrame()
        else:
            races = table.to_pandas()
            bots = sorted({b for row in cells["bots"] for b in row.split(",")})
            races["bot"] = races["bot"].astype(pd.CategoricalDtype(bots))

    heat_kinds: list[str] = []
    table = _concat(run.listed(manifest, "heat"))
    if table is None or table.num_rows == 0:
        heat = pd.DataFrame(
            {
                "cell": pd.Series(dtype="int32"),
                "kind": pd.Categorical([]),
                "space": pd.Series(dtype="int32"),
                "count": pd.Series(dtype="int64"),
            }
        )
    else:
        frame = table.to_pandas()
        heat_kinds = list(frame["kind"].cat.categories)
        heat = (
            frame.groupby(["cell", "kind", "space"], observed=True, sort=True)["count"]
            .sum()
            .reset_index()
        )
        heat["kind"] = heat["kind"].astype(pd.CategoricalDtype(heat_kinds))
        heat = heat.astype({"cell": "int32", "space": "int32", "count": "int64"})

    agg = {}
    table = _concat(run.listed(manifest, "agg"))
    for name, keys in AGG_KEYS.items():
        cols = [*keys, *AGG_VALUES[name]]
        if table is None:
            agg[name] = canonical(name, pd.DataFrame())
            continue
        part = table.filter(pc.equal(table["table"], name)).select(cols).to_pandas()
        summed = part.groupby(list(keys), sort=True).sum().reset_index()
        agg[name] = canonical(name, summed)
    rounds = canonical(ROUND_TABLE, pd.DataFrame())
    if table is not None and "round" in table.column_names:
        cols = [*ROUND_KEYS, "count"]
        part = table.filter(pc.equal(table["table"], ROUND_TABLE)).select(cols).to_pandas()
        part["slot"] = part["slot"].fillna(0)  # slot 0: a run from before the slot column
        rounds = canonical(ROUND_TABLE, part.groupby(list(ROUND_KEYS)).sum().reset_index())
    measures = canonical(MEASURE_TABLE, pd.DataFrame())
    if table is not None and "metric" in table.column_names:
        cols = [*MEASURE_KEYS, *MEASURE_VALUES]
        part = table.filter(pc.equal(table["table"], MEASURE_TABLE)).select(cols).to_pandas()
        measures = canonical(MEASURE_TABLE, part.groupby(list(MEASURE_KEYS)).sum().reset_index())
    seat_rounds = canonical(SEAT_TABLE, pd.DataFrame())
    if table is not None and "seat" in table.column_names:
        cols = [*SEAT_KEYS, "count"]
        part = table.filter(pc.equal(table["table"], SEAT_TABLE)).select(cols).to_pandas()
        seat_rounds = canonical(SEAT_TABLE, part.groupby(list(SEAT_KEYS)).sum().reset_index())
    if races is not None:
        agg["slot_finish"] = _cross_check(run, races, agg["slot_finish"])
    levels = level_pairs = None
    if LEVELS in manifest["files"]:
        levels = pq.read_table(run.path / LEVELS).to_pandas()
    if LEVEL_PAIRS in manifest["files"]:
        level_pairs = pq.read_table(run.path / LEVEL_PAIRS).to_pandas()
    return Results(
        run.path,
        manifest,
        cells,
        races,
        heat,
        agg,
        rounds,
        levels,
        measures,
        seat_rounds,
        json_columns=json_columns(cells_table.schema),
        level_pairs=level_pairs,
    )


def _cross_check(run: RunDir, races: pd.DataFrame, slot_finish: pd.DataFrame) -> pd.DataFrame:
    """The per-race rows must count what the aggregates count (docs/reliability.md).

    Both are written from the same chunk, so they disagree only if a file was replaced by
    one of another run (its sha256 updated in the manifest): checksums catch accidents, and
    this catches the commonest edit that checksums cannot. Returns ``slot_finish``; a run
    written before draws were counted apart (a draw under each drawn finish position) gets
    it recounted from its rows.
    """
    keys = ["cell", "slot", "finish"]

    def counts(frame: pd.DataFrame) -> np.ndarray:
        frame = frame[frame["count"] != 0][[*keys, "count"]].astype("int64")
        return frame.sort_values(keys).to_numpy()

    def tally(finish) -> pd.DataFrame:
        rows = races[["cell", "slot"]].assign(finish=finish)
        return rows.groupby(keys, observed=True).size().rename("count").reset_index()

    if races.empty and not slot_finish["count"].any():
        return slot_finish
    fin = tabulated_finish(races["cell"], races["race"], races["finish"])
    mine = tally(fin)
    if np.array_equal(counts(mine), counts(slot_finish)):
        return slot_finish
    if (fin != races["finish"]).any() and np.array_equal(
        counts(tally(races["finish"])), counts(slot_finish)
    ):
        return canonical("slot_finish", mine)
    raise RunError(
        f"'{run.path}': its per-race rows and its aggregates count different races (a "
        "chunk file replaced by another run's, its sha256 rewritten); simkit will not "
        "trust this run: start it again with --force"
    )
