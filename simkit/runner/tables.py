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
from simkit.outcomes import decided, tabulated_finish
from simkit.runner.grid import PlannedCell
from simkit.tracks.override import track_name

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
# Columns the runner derives from every game's seat rows (GLOSSARY: decided race), so that
# no game decides by itself what counts as a win.
DERIVED_SEAT_COLUMNS: dict[str, Column] = {
    "win": Column("bool", "won a decided race: finish 1 in a race whose winner finished"),
}
DERIVED_RACE_COLUMNS: dict[str, Column] = {
    "decided": Column(
        "bool", "the race has a winner who finished: exactly one seat has finish 1, and it finished"
    ),
}
# Per-round counts (Batch.round_position), stored in the agg files beside the aggregates.
ROUND_TABLE = "round_position"
ROUND_KEYS = ("cell", "round", "slot", "position", "finish")
# Batch.seat_position: the same counts by seat (so by bot) instead of start slot.
SEAT_TABLE = "seat_position"
SEAT_KEYS = ("cell", "round", "seat", "position", "finish")
# Batch.round_measures summed per cell (docs/statistics.md), also in the agg files.
MEASURE_TABLE = "round_measure"
MEASURE_KEYS = ("cell", "metric")
MEASURE_VALUES = ("n", "sum", "sumsq")
AGG_DTYPES = {
    "cell": "int32",
    "slot": "int8",
    "seat": "int8",
    "round": "int16",
    "position": "int8",
    "finish": "int8",
    "metric": "str",
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
    "float64": pa.float64(),
    "str": pa.string(),
}


def parquet_bytes(table: pa.Table) -> bytes:
    """The parquet file of ``table`` (zstd), byte-for-byte the same for the same table."""
    buf = io.BytesIO()
    pq.write_table(table, buf, compression="zstd", write_statistics=False)
    return buf.getvalue()


def race_rows(pc: PlannedCell, lo: int, batch: Batch, game: Game) -> dict[str, Any]:
    """The long per-(race, seat) columns of one batch of races ``lo, lo+1, ...`` as arrays.

    After the game's columns come the derived ``win`` (seat) and ``decided`` (race).
    """
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
    ok, won = decided(batch.seats["finish"], batch.seats["finished"])
    cols["win"] = won.reshape(-1)
    cols["decided"] = np.repeat(ok, p)
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


def _group(keys: Sequence[np.ndarray]) -> tuple[list[np.ndarray], np.ndarray, int]:
    """Distinct rows of ``keys`` in sorted order, each row's group index, and the count."""
    n = len(keys[0])
    order = np.lexsort(list(keys)[::-1])
    ks = [k[order] for k in keys]
    change = np.ones(n, dtype=bool)
    if n > 1:
        change[1:] = np.any([k[1:] != k[:-1] for k in ks], axis=0)
    starts = np.flatnonzero(change)
    inverse = np.empty(n, dtype=np.int64)
    inverse[order] = np.cumsum(change) - 1
    return [k[starts] for k in ks], inverse, len(starts)


def _moments(
    keys: dict[str, np.ndarray], values: Mapping[str, np.ndarray], name: str
) -> pd.DataFrame:
    """n, sum and sum of squares of every metric per distinct key row, metrics sorted."""
    uniq, inverse, g = _group(list(keys.values()))
    metrics = sorted(values)
    count = np.bincount(inverse, minlength=g)
    out: dict[str, Any] = {k: np.repeat(u, len(metrics)) for k, u in zip(keys, uniq, strict=True)}
    out["metric"] = np.tile(np.array(metrics, dtype=object), g)
    out["n"] = np.repeat(count, len(metrics))
    sums = np.empty((g, len(metrics)))
    sumsqs = np.empty((g, len(metrics)))
    for j, m in enumerate(metrics):
        v = np.asarray(values[m], dtype=np.float64)
        sums[:, j] = np.bincount(inverse, weights=v, minlength=g)
        sumsqs[:, j] = np.bincount(inverse, weights=v * v, minlength=g)
    out["sum"] = sums.reshape(-1)
    out["sumsq"] = sumsqs.reshape(-1)
    return _frame(name, out)


def _frame(name: str, cols: Mapping[str, Any]) -> pd.DataFrame:
    if name == MEASURE_TABLE:
        names = [*MEASURE_KEYS, *MEASURE_VALUES]
    else:
        names = [*AGG_KEYS[name], *AGG_VALUES[name]]
    return pd.DataFrame({c: np.asarray(cols[c], dtype=AGG_DTYPES[c]) for c in names})


def canonical(name: str, frame: pd.DataFrame) -> pd.DataFrame:
    """An aggregate table with the contract's columns, dtypes and row order."""
    if name == MEASURE_TABLE:
        keys, values = MEASURE_KEYS, MEASURE_VALUES
    elif name == SEAT_TABLE:
        keys, values = SEAT_KEYS, ("count",)
    else:
        keys = ROUND_KEYS if name == ROUND_TABLE else AGG_KEYS[name]
        values = ("count",) if name == ROUND_TABLE else AGG_VALUES[name]
    cols = [*keys, *values]
    if frame.empty:
        frame = pd.DataFrame({c: [] for c in cols})
    frame = frame[cols].astype({c: AGG_DTYPES[c] for c in cols})
    return frame.sort_values(list(keys), kind="stable").reset_index(drop=True)


def aggregate(
    races: pd.DataFrame | Mapping[str, Any],
    seat_columns: Mapping[str, Column],
    race_columns: Mapping[str, Column],
) -> dict[str, pd.DataFrame]:
    """The aggregate tables of per-race rows (what ``keep = "aggregates"`` stores).

    ``races`` holds the races table's columns (a DataFrame or a dict of arrays). Every seat
    column but ``slot`` is a seat metric by (cell, slot), booleans counting 0/1; every race
    column a race metric (one value per race); integer race columns also get a histogram.
    ``slot_finish`` counts a draw under finish 0 (:func:`tabulated_finish`); the seat
    metric ``finish`` averages the game's own column. Rows come sorted by the keys,
    metrics alphabetically (as :func:`canonical` sorts them).
    """
    have = set(races.columns if isinstance(races, pd.DataFrame) else races)
    derived_seat = [m for m in DERIVED_SEAT_COLUMNS if m in have]
    derived_race = [m for m in DERIVED_RACE_COLUMNS if m in have]
    col = {c: np.asarray(races[c]) for c in ("cell", "race", "seat", "slot", "finish")}
    if len(col["cell"]) == 0:
        return {name: canonical(name, pd.DataFrame()) for name in AGG_KEYS}
    cell, slot = col["cell"].astype(np.int64), col["slot"].astype(np.int64)
    finish = tabulated_finish(cell, col["race"], col["finish"])
    uniq, inverse, _ = _group([cell, slot, finish])
    slot_finish = _frame(
        "slot_finish",
        {"cell": uniq[0], "slot": uniq[1], "finish": uniq[2], "count": np.bincount(inverse)},
    )
    # ``decided`` is a seat metric too: per slot, the decided races it took part in.
    seat_names = [m for m in seat_columns if m != "slot"] + derived_seat + derived_race
    seat_metric = _moments(
        {"cell": cell, "slot": slot}, {m: np.asarray(races[m]) for m in seat_names}, "seat_metric"
    )
    first = col["seat"] == 0
    per_race = {m: np.asarray(races[m])[first] for m in [*race_columns, *derived_race]}
    race_metric = _moments({"cell": cell[first]}, per_race, "race_metric")
    kinds = {**race_columns, **DERIVED_RACE_COLUMNS}
    ints = [m for m in sorted(per_race) if np.dtype(kinds[m].dtype).kind in "iub"]
    nr = int(first.sum())
    (c, k, v), inv, _ = _group(
        [
            np.tile(cell[first], len(ints)),
            np.repeat(np.arange(len(ints)), nr),
            np.concatenate([per_race[m].astype(np.int64) for m in ints] or [np.zeros(0, np.int64)]),
        ]
    )
    names = np.array(ints, dtype=object)
    race_hist = _frame(
        "race_hist", {"cell": c, "metric": names[k], "value": v, "count": np.bincount(inv)}
    )
    return {
        "slot_finish": slot_finish,
        "seat_metric": seat_metric,
        "race_metric": race_metric,
        "race_hist": race_hist,
    }


def round_table(cell_id: int, batch: Batch) -> pd.DataFrame:
    """Non-zero counts of ``batch.round_position`` as rows: cell, round, slot, position,
    finish, count; then those of ``batch.end_position`` with rounds counted back from the
    race's last one as negative rounds (-1 the last round, -2 the one before, ...).

    Rounds, slots and positions are 1-based; ``finish`` 0 marks races that were not decided.
    """
    parts = []
    for counts, sign in ((batch.round_position, 1), (batch.end_position, -1)):
        if counts is None:
            counts = np.zeros((0, 0, 0, 0), np.int64)
        counts = np.asarray(counts, dtype=np.int64)
        r, s, p, f = np.nonzero(counts)
        parts.append(
            pd.DataFrame(
                {
                    "cell": np.full(len(r), cell_id, AGG_DTYPES["cell"]),
                    "round": (sign * (r + 1)).astype(AGG_DTYPES["round"]),
                    "slot": (s + 1).astype(AGG_DTYPES["slot"]),
                    "position": (p + 1).astype(AGG_DTYPES["position"]),
                    "finish": f.astype(AGG_DTYPES["finish"]),
                    "count": counts[r, s, p, f],
                }
            )
        )
    return pd.concat(parts, ignore_index=True)


def seat_table(cell_id: int, batch: Batch) -> pd.DataFrame:
    """Non-zero counts of ``batch.seat_position`` as rows: cell, round, seat, position,
    finish, count (rounds from 1, seats from 0 as in the races table)."""
    counts = batch.seat_position
    if counts is None:
        counts = np.zeros((0, 0, 0, 0), np.int64)
    counts = np.asarray(counts, dtype=np.int64)
    r, s, p, f = np.nonzero(counts)
    return pd.DataFrame(
        {
            "cell": np.full(len(r), cell_id, AGG_DTYPES["cell"]),
            "round": (r + 1).astype(AGG_DTYPES["round"]),
            "seat": s.astype(AGG_DTYPES["seat"]),
            "position": (p + 1).astype(AGG_DTYPES["position"]),
            "finish": f.astype(AGG_DTYPES["finish"]),
            "count": counts[r, s, p, f],
        }
    )


def measure_table(cell_id: int, batch: Batch) -> pd.DataFrame:
    """``batch.round_measures`` as ``round_measure`` rows: cell, metric, n, sum, sumsq over
    the races where the measure is defined (not NaN)."""
    names = sorted(batch.round_measures)
    values = [np.asarray(batch.round_measures[m], dtype=np.float64) for m in names]
    defined = [v[~np.isnan(v)] for v in values]
    return _frame(
        MEASURE_TABLE,
        {
            "cell": np.full(len(names), cell_id),
            "metric": np.array(names, dtype=object),
            "n": [len(v) for v in defined],
            "sum": [float(v.sum()) for v in defined],
            "sumsq": [float((v * v).sum()) for v in defined],
        },
    )


def arrow_agg(aggs: Mapping[str, pd.DataFrame]) -> pa.Table:
    """The aggregate tables in one long table with a ``table`` column (nulls elsewhere).

    ``aggs`` may include the per-round table (:data:`ROUND_TABLE`) beside the aggregates.
    """
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


# The cells table's schema metadata that lists, as a JSON array, its columns whose values
# are JSON text: the list-valued variant parameters (per-slot tables such as
# ``[0,0,0,1,2]``). A reader decodes those and no other (json_columns).
JSON_COLUMNS = b"simkit.json_columns"


def cells_table(cells: Sequence[PlannedCell]) -> pa.Table:
    """One row per cell: the cell's identity, then one column per variant parameter.

    A list-valued parameter is JSON text, named in the schema's :data:`JSON_COLUMNS`; any
    other parameter has its own arrow type.
    """
    rows: dict[str, list[Any]] = {
        "cell": [pc.cell.cell_id for pc in cells],
        "game": [pc.cell.game for pc in cells],
        "preset": [pc.preset for pc in cells],
        "track": [track_name(pc.cell.track) for pc in cells],
        "players": [pc.cell.players for pc in cells],
        "bots": [",".join(pc.cell.bots) for pc in cells],
        "slots": [",".join(str(s) for s in pc.slots) for pc in cells],
        "cell_key": [pc.cell_key for pc in cells],
        "label": [pc.label for pc in cells],
        "skill": [pc.skill for pc in cells],
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
        "skill": pa.string(),
    }
    arrays = {name: pa.array(values, types[name]) for name, values in rows.items()}
    as_json = []
    for name in cells[0].cell.variant.names() if cells else []:
        values = [getattr(pc.cell.variant, name) for pc in cells]
        if isinstance(values[0], tuple):
            values = [json.dumps(list(v), separators=(",", ":")) for v in values]
            as_json.append(name)
        arrays[name] = pa.array(values)
    table = pa.table(arrays)
    return table.replace_schema_metadata({JSON_COLUMNS: json.dumps(as_json).encode()})


def json_columns(schema: pa.Schema) -> tuple[str, ...] | None:
    """The columns of a cells table whose values are JSON text, as its schema declares them
    (:data:`JSON_COLUMNS`); None for a table written before the schema declared them (whose
    list-valued parameters are JSON text all the same)."""
    listed = (schema.metadata or {}).get(JSON_COLUMNS)
    return None if listed is None else tuple(json.loads(listed))
