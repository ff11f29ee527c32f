"""The worst start slot's deviation from a fair share, race by race, for paired comparisons.

A designer compares settings by how far their worst slot lies from fair. That number is a
maximum over slots of ratios of sums, so its interval, and the interval of its difference
between two settings played on the same races (common random numbers), come from a
percentile bootstrap over races (scipy), resampling the same races for every setting so the
luck of the draw cancels. A setting is one cell or several (one per skill level, say): its
value is its worst cell's, so a setting is as fair as it is at its worst level.

:func:`race_matrix` lays out per race, for each cell, whether it was decided, the wins of
each slot and any other result column; :func:`values` turns column sums into each setting's
value; :func:`settings_compared` bootstraps them. The tuner's confirmation
(:mod:`simkit.tune.confirm`) scores its candidates with the same three.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from simkit.analysis.stats import percentile_interval
from simkit.analysis.tables import race_rows

RESAMPLES = 2_000  # bootstrap resamples of a paired deviation's interval


@dataclass(frozen=True)
class Term:
    """``weight * |mean per race of column - target|``, or with ``column`` None
    ``weight *`` the worst slot's deviation in pp (the shape of
    :class:`simkit.tune.objective.Term`)."""

    name: str = "fairness"
    weight: float = 1.0
    target: float | None = None


FAIRNESS = (Term(),)


@dataclass(frozen=True)
class Block:
    """Where one cell's columns lie in a :func:`race_matrix`."""

    cell: int
    players: int
    decided: int  # column of "the race was decided"
    wins: tuple[int, ...]  # columns of each slot's wins
    terms: int  # first column of the terms' result columns


def race_matrix(
    results: Any, cells: Sequence[int], terms: Sequence[Any] = FAIRNESS, seat_columns=()
) -> tuple[np.ndarray, list[Block]]:
    """Per race (the race indices every cell of ``cells`` played), per cell: decided (0/1),
    each slot's wins, and each term's column (a seat column summed over the race's seats,
    those named in ``seat_columns``, else the race column)."""
    races = race_rows(results, "a paired comparison of the worst slot")
    players = results.cells.set_index("cell")["players"]
    parts = {c: races[races["cell"] == c] for c in cells}
    common = None
    for part in parts.values():
        idx = pd.Index(part["race"].unique())
        common = idx if common is None else common.intersection(idx)
    common = (common if common is not None else pd.Index([])).sort_values()
    blocks, frames, col = [], [], 0
    for cell in cells:
        part = parts[cell]
        part = part[part["race"].isin(common)]
        by_race = part.groupby("race", sort=True)
        frame = pd.DataFrame({"decided": by_race["decided"].first().astype(np.float64)})
        wins = part[part["win"]].groupby(["race", "slot"]).size().unstack(fill_value=0)
        slots = sorted(part["slot"].unique())
        for s in slots:
            frame[f"w{s}"] = wins.get(s, 0)
        for t in terms:
            if t.target is not None:
                v = by_race[t.name]
                frame[t.name] = v.sum() if t.name in seat_columns else v.first()
        frame = frame.reindex(common).fillna(0.0)
        wcols = tuple(range(col + 1, col + 1 + len(slots)))
        blocks.append(Block(int(cell), int(players[cell]), col, wcols, col + 1 + len(slots)))
        frames.append(frame.to_numpy(np.float64))
        col += frame.shape[1]
    return (np.hstack(frames) if frames else np.zeros((0, 0))), blocks


def values(
    sums: np.ndarray,
    n: float,
    blocks: list[Block],
    groups: Sequence[Sequence[int]],
    terms: Sequence[Any] = FAIRNESS,
) -> np.ndarray:
    """Each group's value (its worst cell's), from column sums over ``n`` races.

    ``sums`` has the matrix's columns on its last axis (any leading axes: resamples);
    ``groups`` index into ``blocks``. The fairness term is the worst slot's deviation in
    pp: ``100 * max |wins / decided - 1 / players|``.
    """
    per_cell = []
    for b in blocks:
        dec = np.maximum(sums[..., b.decided], 1e-12)
        wins = sums[..., list(b.wins)]
        dev = 100 * np.max(np.abs(wins / dec[..., None] - 1 / b.players), axis=-1)
        total = np.zeros_like(dev)
        k = b.terms
        for t in terms:
            if t.target is None:
                total += t.weight * dev
            else:
                total += t.weight * np.abs(sums[..., k] / n - t.target)
                k += 1
        per_cell.append(total)
    cells = np.stack(per_cell, axis=0)
    return np.stack([cells[list(g)].max(axis=0) for g in groups], axis=0)


def bootstrap(
    x: np.ndarray, statistic, seed: int, resamples: int = RESAMPLES
) -> tuple[np.ndarray, Any]:
    """``statistic(sums, n)`` on every race (its estimate) and its 95% percentile bootstrap
    interval over races, each resample drawing the same races for every column."""
    n = x.shape[0]

    def stat(idx: np.ndarray, axis: int = -1) -> np.ndarray:
        idx = np.atleast_2d(idx).astype(np.int64)
        counts = np.stack([np.bincount(row, minlength=n) for row in idx]).astype(np.float64)
        return statistic(counts @ x, float(n))

    est = stat(np.arange(n)[None, :])[:, 0]
    ci = percentile_interval((np.arange(n),), stat, seed, resamples=resamples, batch=50)
    return est, ci


def settings_compared(
    results: Any, groups: Sequence[Sequence[int]], seed: int = 0, resamples: int = RESAMPLES
) -> pd.DataFrame:
    """Each setting's worst-slot deviation (pp, its worst cell's) and its paired difference
    from the first setting's, with 95% bootstrap intervals over the races they all played.

    Returns:
        One row per setting: ``cells`` (comma-joined), ``races``, ``deviation``, ``low``,
        ``high``, ``diff`` (this minus the first), ``diff_low``, ``diff_high``.
    """
    flat = list(dict.fromkeys(c for g in groups for c in g))
    x, blocks = race_matrix(results, flat)
    where = {b.cell: i for i, b in enumerate(blocks)}
    idx = [[where[c] for c in g] for g in groups]
    k = len(groups)

    def stat(sums: np.ndarray, n: float) -> np.ndarray:
        v = values(sums, n, blocks, idx)
        return np.concatenate([v, v - v[:1]], axis=0)

    est, ci = bootstrap(x, stat, seed, resamples)
    return pd.DataFrame(
        {
            "cells": [",".join(map(str, g)) for g in groups],
            "races": x.shape[0],
            "deviation": est[:k],
            "low": ci.low[:k],
            "high": ci.high[:k],
            "diff": est[k:],
            "diff_low": ci.low[k:],
            "diff_high": ci.high[k:],
        }
    )
