"""Reading a run's tables for analysis: which cells, how many races, grouping keys.

Every analysis function takes a ``Results``-shaped object (``simkit.load(DIR)`` or a
dataclass built from DataFrames in a notebook): ``.cells``, ``.races`` (None for
``keep="aggregates"``), ``.heat`` and ``.agg``. Only the fields a function needs are read.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable, Sequence
from typing import Any

import pandas as pd

from simkit.errors import RunError, SimkitError


def agg_table(results: Any, name: str) -> pd.DataFrame:
    """The aggregate table ``name`` (summed over chunks); a one-line error if absent or empty."""
    agg = getattr(results, "agg", None) or {}
    if name not in agg:
        where = getattr(results, "dir", "the run")
        raise RunError(f"{where}: no '{name}' aggregate table; re-run with a current simkit")
    if len(agg[name]) == 0:
        where = getattr(results, "dir", "the run")
        status = getattr(results, "manifest", {}).get("status", "unknown")
        raise RunError(
            f"{where}: no races recorded yet (run status: {status}); "
            f"finish it with `simkit run --resume {where}`"
        )
    return agg[name]


def race_rows(results: Any, purpose: str) -> pd.DataFrame:
    """Per-race rows, or a one-line error saying why ``purpose`` needs them."""
    if getattr(results, "races", None) is None:
        where = getattr(results, "dir", "the run")
        raise RunError(
            f"{where}: {purpose} needs per-race rows, but the run kept aggregates only; "
            'run it again with keep = "races"'
        )
    return results.races


def group_keys(cells: pd.DataFrame, by: str | Sequence[str] | None) -> list[str]:
    """Columns of ``cells`` that define one analysis group.

    None means one group per cell. Otherwise the named columns, plus ``players`` (win
    rates can only be pooled over races with the same number of seats).
    """
    if by is None:
        return ["cell"]
    keys = [by] if isinstance(by, str) else list(by)
    missing = [k for k in keys if k not in cells.columns]
    if missing:
        raise RunError(
            f"cannot group by {', '.join(missing)}: not a cells column "
            f"(known: {', '.join(map(str, cells.columns))})"
        )
    if "players" not in keys:
        keys.append("players")
    return keys


def group_frame(cells: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """One row per group: its keys, ``players``, a human-readable ``label`` and its cells."""
    cols = list(dict.fromkeys(["cell", *keys, "players", "label"]))
    c = cells[[k for k in cols if k in cells.columns]].copy()
    if keys == ["cell"]:
        out = c.rename(columns={}).copy()
        out["cells"] = out["cell"].astype(str)
        if "label" not in out:
            out["label"] = "cell " + out["cell"].astype(str)
        return out[["cell", "players", "label", "cells"]].reset_index(drop=True)
    rows = []
    for values, part in c.groupby(keys, sort=True, dropna=False):
        values = values if isinstance(values, tuple) else (values,)
        key = dict(zip(keys, values, strict=True))
        label = ", ".join(f"{k}={v}" for k, v in key.items())
        rows.append({**key, "label": label, "cells": ",".join(map(str, part["cell"]))})
    return pd.DataFrame(rows)


def with_group(df: pd.DataFrame, cells: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """``df`` (with a ``cell`` column) joined to its group keys."""
    if keys == ["cell"]:
        return df
    extra = [k for k in dict.fromkeys([*keys, "players"]) if k != "cell"]
    return df.merge(cells[["cell", *extra]], on="cell", how="left")


def cell_variants(results: Any) -> dict[int, Any]:
    """Each cell's variant, rebuilt from its preset and parameter columns (None if it cannot be).

    A run made by another simkit version, or by a game this installation lacks, gives None
    for its cells: callers then treat every column as applying.
    """
    from simkit.games import get

    declared = getattr(results, "json_columns", None)
    out: dict[int, Any] = {}
    for row in results.cells.to_dict("records"):
        cell = int(row["cell"])
        try:
            game = get(str(row["game"]))
            names = [n for n in game.params.names() if n in row]
            values = {n: row[n] for n in names}
            for n in json_params(game, declared):
                if n in values:
                    values[n] = tuple(json.loads(values[n]))
            preset = row.get("preset") or game.default_preset
            out[cell] = game.params.resolve(game.presets, str(preset), values)
        except (SimkitError, TypeError, ValueError, KeyError):
            out[cell] = None
    return out


def json_params(game: Any, declared: tuple[str, ...] | None) -> Iterable[str]:
    """The cells columns that hold JSON text: those the table's schema declares
    (``Results.json_columns``), or, for a table that does not declare them (a run written
    before it did), the game's list-valued parameters, which the cells table has always
    written as JSON."""
    if declared is not None:
        return declared
    return [f.name for f in dataclasses.fields(game.params) if isinstance(f.default, tuple)]


def hidden_columns(results: Any) -> set[tuple[int, str]]:
    """(cell, column) pairs whose ``Column.applies`` says they cannot be non-zero there.

    The game declares the predicate on its seat and race columns (``simkit.games.base``):
    a Mush! Mush! metric is hidden in a Snow Tails cell, a tree count on a track without
    trees.
    """
    from simkit.games import get

    hidden: set[tuple[int, str]] = set()
    variants = cell_variants(results)
    games = dict(zip(results.cells["cell"], results.cells["game"], strict=True))
    for cell, variant in variants.items():
        if variant is None:
            continue
        game = get(str(games[cell]))
        for name, col in {**game.seat_columns, **game.race_columns}.items():
            if col.applies is not None and not col.applies(variant):
                hidden.add((cell, name))
    return hidden
