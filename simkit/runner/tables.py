"""From a game's result arrays to the run tables (docs/tables.md): races, heat, aggregates, cells.

Tables are built straight from numpy arrays into Arrow with fixed dtypes and written without
pandas metadata, so the same chunk always gives the same parquet bytes (chunk files are
idempotent; resuming rewrites a half-written chunk identically).
"""

from __future__ import annotations

import io
import json
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from simkit.games.base import Batch, Column, Game
from simkit.runner.grid import PlannedCell

# The aggregate tables (contract: docs/tables.md): key columns, then value columns.
AGG_KEYS: dict[str, tuple[str, ...]] = {
    "slot_finish": ("cell", "slot", "finish"),
    "seat_metric": ("cell", "slot", "metric"),
    "race_metric": ("cell", "metric"),
    "race_hist": ("cell", "metric", "value"),
}
AGG_VALUES: dict[str, tuple[str, ...]] = {
    "slot_finish": ("count",),
    "seat_metric": ("n", "sum", "sumsq"),
    "race_metric": ("n", "sum", "sumsq"),
    "race_hist": ("count",),
}
AGG_DTYPES = {
    "cell": "int32",
    "slot": "int8",
    "finish": "int8",
    "metric": "object",
    "value": "int64",
    "count": "int64",
    "n": "int64",
    "sum": "float64",
    "sumsq": "float64",
}
_ARROW = {
    "int8": pa.int8(),
    "int16": pa.int16(),
    "int32": pa.int32(),
    "int64": pa.int64(),
    "uint8": pa.uint8(),
    "uint16": pa.uint16(),
    "uint32": pa.uint32(),
    "uint64": pa.uint64(),
    "float32": pa.float32(),
    "float64": pa.float64(),
    "bool": pa.bool_(),
    "object": pa.string(),
}


def parquet_bytes(table: pa.Table) -> bytes:
    """The parquet file of ``table`` (zstd), byte-for-byte the same for the same table."""
    buf = io.BytesIO()
    pq.write_table(table, buf, compression="zstd", write_statistics=False)
    return buf.getvalue()


def race_rows(pc: PlannedCell, lo: int, batch: Batch, game: Game) -> dict[str, Any]:
    """The long per-(race, seat) columns of one batch of races ``lo, lo+1, ...`` as arrays."""
    p = pc.cell.players
    n = next(iter(batch.races.values())).shape[0]
    bots = sorted(set(pc.cell.bots))
    codes = np.array([bots.index(b) for b in pc.cell.bots], dtype=np.int8)
    cols: dict[str, Any] = {
        "cell": np.full(n * p, pc.cell.cell_id, dtype=np.int32),
        "race": np.repeat(np.arange(lo, lo + n, dtype=np.int64), p),
        "seat": np.tile(np.arange(p, dtype=np.int8), n),
        "bot": pd.Categorical.from_codes(np.tile(codes, n), categories=bots),
    }
    for name, col in game.seat_columns.items():
        arr = np.asarray(batch.seats[name])
        if arr.shape != (n, p):
            raise AssertionError(f"{game.name}: seat column {name} has shape {arr.shape}")
        cols[name] = arr.astype(col.dtype, copy=False).reshape(-1)
    for name, col in game.race_columns.items():
        arr = np.asarray(batch.races[name])
        if arr.shape != (n,):
            raise AssertionError(f"{game.name}: race column {name} has shape {arr.shape}")
        cols[name] = np.repeat(arr.astype(col.dtype, copy=False), p)
    return cols


def arrow_races(cols: Mapping[str, Any]) -> pa.Table:
    arrays = {}
    for name, values in cols.items():
        if isinstance(values, pd.Categorical):
            arrays[name] = pa.DictionaryArray.from_arrays(
                pa.array(values.codes, pa.int8()), pa.array(list(values.categories), pa.string())
            )
        else:
            arrays[name] = pa.array(values)
    return pa.table(arrays)


def heat_table(cell_id: int, batch: Batch, kinds: Sequence[str]) -> pa.Table:
    """Non-zero per-space event counts of a batch: cell, kind, space, count."""
    cell, kind, space, count = [], [], [], []
    for k, name in enumerate(kinds):
        counts = np.asarray(batch.heat.get(name, np.zeros(0, np.int64)), dtype=np.int64)
        nz = np.flatnonzero(counts)
        cell.append(np.full(len(nz), cell_id, np.int32))
        kind.append(np.full(len(nz), k, np.int8))
        space.append(nz.astype(np.int32))
        count.append(counts[nz])
    cat = np.concatenate(kind) if kind else np.zeros(0, np.int8)
    return pa.table(
        {
            "cell": pa.array(np.concatenate(cell) if cell else np.zeros(0, np.int32)),
            "kind": pa.DictionaryArray.from_arrays(
                pa.array(cat, pa.int8()), pa.array(list(kinds), pa.string())
            ),
            "space": pa.array(np.concatenate(space) if space else np.zeros(0, np.int32)),
            "count": pa.array(np.concatenate(count) if count else np.zeros(0, np.int64)),
        }
    )


def _moments(frame: pd.DataFrame, keys: list[str], metrics: list[str]) -> pd.DataFrame:
    values = frame[metrics].astype("float64")
    groups = pd.concat([frame[keys], values, (values**2).add_suffix("\0sq")], axis=1).groupby(
        keys, sort=True, observed=True
    )
    n = groups.size()
    sums = groups[metrics].sum()
    sumsqs = groups[[m + "\0sq" for m in metrics]].sum()
    parts = []
    for m in metrics:
        part = pd.DataFrame({"n": n, "sum": sums[m], "sumsq": sumsqs[m + "\0sq"]}).reset_index()
        part.insert(len(keys), "metric", m)
        parts.append(part)
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame()


def canonical(name: str, frame: pd.DataFrame) -> pd.DataFrame:
    """An aggregate table with the contract's columns, dtypes and row order."""
    cols = [*AGG_KEYS[name], *AGG_VALUES[name]]
    if frame.empty:
        frame = pd.DataFrame({c: [] for c in cols})
    frame = frame[cols].astype({c: AGG_DTYPES[c] for c in cols})
    return frame.sort_values(list(AGG_KEYS[name]), kind="stable").reset_index(drop=True)


def aggregate(
    races: pd.DataFrame, seat_columns: Mapping[str, Column], race_columns: Mapping[str, Column]
) -> dict[str, pd.DataFrame]:
    """The aggregate tables of per-race rows (what ``keep = "aggregates"`` stores).

    Every seat column but ``slot`` is a seat metric (by cell and slot; booleans count as
    0/1); every race column a race metric (one value per race), and integer race columns
    also get a histogram.
    """
    seat_metrics = [c for c in seat_columns if c != "slot"]
    race_metrics = list(race_columns)
    slot_finish = (
        races.groupby(["cell", "slot", "finish"], sort=True, observed=True)
        .size()
        .rename("count")
        .reset_index()
    )
    first = races[races["seat"] == 0]
    hists = []
    for m in race_metrics:
        if np.dtype(race_columns[m].dtype).kind in "iub":
            h = first.groupby(["cell", m], sort=True).size().rename("count").reset_index()
            h = h.rename(columns={m: "value"})
            h.insert(1, "metric", m)
            hists.append(h.astype({"value": "int64"}))
    return {
        "slot_finish": canonical("slot_finish", slot_finish),
        "seat_metric": canonical("seat_metric", _moments(races, ["cell", "slot"], seat_metrics)),
        "race_metric": canonical("race_metric", _moments(first, ["cell"], race_metrics)),
        "race_hist": canonical("race_hist", pd.concat(hists) if hists else pd.DataFrame()),
    }


def arrow_agg(aggs: Mapping[str, pd.DataFrame]) -> pa.Table:
    """The aggregate tables in one long table with a ``table`` column (nulls elsewhere)."""
    all_cols = list(AGG_DTYPES)
    parts = []
    for name, frame in aggs.items():
        n = len(frame)
        cols = {"table": pa.array([name] * n, pa.string())}
        for c in all_cols:
            if c in frame:
                cols[c] = pa.array(frame[c].to_numpy(), _ARROW[AGG_DTYPES[c]])
            else:
                cols[c] = pa.nulls(n, _ARROW[AGG_DTYPES[c]])
        parts.append(pa.table(cols))
    return pa.concat_tables(parts)


def cells_table(cells: Sequence[PlannedCell]) -> pa.Table:
    """One row per cell: the cell's identity, then one column per variant parameter."""
    rows: dict[str, list[Any]] = {
        "cell": [pc.cell.cell_id for pc in cells],
        "game": [pc.cell.game for pc in cells],
        "preset": [pc.preset for pc in cells],
        "track": [pc.cell.track for pc in cells],
        "players": [pc.cell.players for pc in cells],
        "bots": [",".join(pc.cell.bots) for pc in cells],
        "slots": [",".join(str(s) for s in pc.slots) for pc in cells],
        "cell_key": [pc.cell_key for pc in cells],
        "label": [pc.label for pc in cells],
    }
    types = {
        "cell": pa.int32(),
        "game": pa.string(),
        "preset": pa.string(),
        "track": pa.string(),
        "players": pa.int8(),
        "bots": pa.string(),
        "slots": pa.string(),
        "cell_key": pa.uint64(),
        "label": pa.string(),
    }
    arrays = {name: pa.array(values, types[name]) for name, values in rows.items()}
    for name in cells[0].cell.variant.names() if cells else []:
        values = [getattr(pc.cell.variant, name) for pc in cells]
        if isinstance(values[0], tuple):
            values = [json.dumps(list(v), separators=(",", ":")) for v in values]
        arrays[name] = pa.array(values)
    return pa.table(arrays)
