"""Variant comparison on common random numbers: paired differences per race (DESIGN §4, §6).

When cells share random numbers (``crn``: races with the same index see the same deals
and rolls), the difference between two variants is best measured race by race: the
luck of the draw cancels. This needs per-race rows; aggregates cannot pair races.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from simkit.analysis.stats import t_interval
from simkit.analysis.tables import agg_table, race_rows
from simkit.errors import RunError

DEFAULT_SEAT_METRICS = ("win", "finish", "points")


def _seat_metric_names(results: Any) -> list[str]:
    return list(agg_table(results, "seat_metric")["metric"].unique())


def _race_metric_names(results: Any) -> list[str]:
    return list(agg_table(results, "race_metric")["metric"].unique())


def _by_slot(rows: pd.DataFrame, metric: str) -> pd.DataFrame:
    """Wide table race x slot of a seat metric (``win`` = finished first)."""
    x = (rows["finish"] == 1) if metric == "win" else rows[metric]
    wide = pd.DataFrame({"race": rows["race"], "slot": rows["slot"], "x": x.astype(np.float64)})
    return wide.pivot(index="race", columns="slot", values="x")


def paired_difference(a, b) -> dict[str, float]:
    """Mean of ``b - a`` over paired races, its 95% interval, and what pairing saved.

    Args:
        a, b: the two cells' values, aligned by race (same index = same random numbers).

    Returns:
        ``races``, ``mean_a``, ``mean_b``, ``diff``, ``low``, ``high``, ``sd_paired`` (of the
        per-race differences), ``sd_unpaired`` (``sqrt(var_a + var_b)``: what the
        difference of two independent races would scatter by), ``variance_ratio``
        (unpaired / paired variance) and ``races_unpaired``: the races per cell an
        unpaired comparison would need for the same interval width.
    """
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    n = a.size
    d = b - a
    var_d = d.var(ddof=1) if n > 1 else np.nan
    var_u = (a.var(ddof=1) + b.var(ddof=1)) if n > 1 else np.nan
    low, high = t_interval(d.mean() if n else np.nan, np.sqrt(var_d), n)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.float64(var_u) / np.float64(var_d)
    return {
        "races": n,
        "mean_a": float(a.mean()) if n else np.nan,
        "mean_b": float(b.mean()) if n else np.nan,
        "diff": float(d.mean()) if n else np.nan,
        "low": float(low),
        "high": float(high),
        "sd_paired": float(np.sqrt(var_d)),
        "sd_unpaired": float(np.sqrt(var_u)),
        "variance_ratio": float(ratio),
        # inf: pairing removed all the scatter; NaN: neither cell scatters at all.
        "races_unpaired": float(np.ceil(n * ratio)) if np.isfinite(ratio) else float(ratio),
    }


def _compare_rows(
    rows_a: pd.DataFrame,
    rows_b: pd.DataFrame,
    seat_metrics: Sequence[str],
    race_metrics: Sequence[str],
) -> list[dict[str, Any]]:
    out = []
    for metric in seat_metrics:
        wa, wb = _by_slot(rows_a, metric), _by_slot(rows_b, metric)
        races = wa.index.intersection(wb.index)
        for slot in sorted(set(wa.columns) & set(wb.columns)):
            xa, xb = wa.loc[races, slot], wb.loc[races, slot]
            ok = xa.notna() & xb.notna()
            out.append({"metric": metric, "slot": int(slot), **paired_difference(xa[ok], xb[ok])})
    ra = rows_a.drop_duplicates("race").set_index("race")
    rb = rows_b.drop_duplicates("race").set_index("race")
    races = ra.index.intersection(rb.index)
    for metric in race_metrics:
        xa, xb = ra.loc[races, metric], rb.loc[races, metric]
        out.append({"metric": metric, "slot": pd.NA, **paired_difference(xa, xb)})
    return out


def _check_metrics(results: Any, seat_metrics, race_metrics) -> tuple[list[str], list[str]]:
    seat_known = ["win", *_seat_metric_names(results)]
    race_known = _race_metric_names(results)
    seat = list(DEFAULT_SEAT_METRICS if seat_metrics is None else seat_metrics)
    race = list(race_known if race_metrics is None else race_metrics)
    for m in seat:
        if m not in seat_known:
            raise RunError(f"unknown seat metric '{m}' (known: {', '.join(seat_known)})")
    for m in race:
        if m not in race_known:
            raise RunError(f"unknown race metric '{m}' (known: {', '.join(race_known)})")
    return [m for m in seat if m in seat_known], race


def _finish(df: pd.DataFrame, tolerance: float | None) -> pd.DataFrame:
    df["significant"] = (df["low"] > 0) | (df["high"] < 0)
    if tolerance is not None:
        # The tolerance is in win-rate units, so only win differences are judged by it; a
        # difference "exceeds" it only when its whole interval lies beyond it.
        beyond = (df["low"] > tolerance) | (df["high"] < -tolerance)
        df["exceeds_tolerance"] = beyond.where(df["metric"] == "win").astype("boolean")
    return df


def compare_cells(
    results: Any,
    cells: Sequence[int] | None = None,
    *,
    baseline: int | None = None,
    seat_metrics: Sequence[str] | None = None,
    race_metrics: Sequence[str] | None = None,
    tolerance: float | None = None,
) -> pd.DataFrame:
    """Paired differences between cells of one run, each against a baseline cell.

    Args:
        results: a run with per-race rows (``keep`` including "races") and ``crn`` on.
        cells: the cells to compare (default: all); they must have the same game and
            number of players.
        baseline: the cell the others are compared with (default: the first).
        seat_metrics: per-slot metrics; ``win`` (finished first) or any seat column.
            Default: win, finish, points.
        race_metrics: race columns (default: all of them, e.g. rounds).
        tolerance: if given, flag win-rate differences whose whole interval lies beyond
            it (other metrics get NA: the tolerance is in win-rate units).

    Returns:
        One row per (cell, metric, slot): ``baseline``, ``cell``, their labels, then the
        columns of :func:`paired_difference` (difference = cell - baseline),
        ``significant`` (interval excludes 0) and ``exceeds_tolerance``.
    """
    rows = race_rows(results, "a paired comparison")
    if not results.manifest.get("crn", True):
        raise RunError(
            f"{getattr(results, 'dir', 'the run')}: cells do not share random numbers "
            "(crn = false), so races cannot be paired; run the scenario with crn = true"
        )
    meta = results.cells.set_index("cell")
    ids = list(meta.index if cells is None else cells)
    base = ids[0] if baseline is None else baseline
    for c in [base, *ids]:
        if c not in meta.index:
            raise RunError(f"no cell {c} in the run (cells: {', '.join(map(str, meta.index))})")
    seat, race = _check_metrics(results, seat_metrics, race_metrics)
    out = []
    rows_a = rows[rows["cell"] == base]
    for c in ids:
        if c == base:
            continue
        for key in ("game", "players"):
            if meta.at[c, key] != meta.at[base, key]:
                raise RunError(
                    f"cells {base} and {c} differ in {key} "
                    f"({meta.at[base, key]} vs {meta.at[c, key]}); only like cells pair"
                )
        for r in _compare_rows(rows_a, rows[rows["cell"] == c], seat, race):
            out.append(
                {
                    "baseline": base,
                    "cell": c,
                    "baseline_label": meta.at[base, "label"],
                    "label": meta.at[c, "label"],
                    **r,
                }
            )
    return _finish(pd.DataFrame(out), tolerance)


def compare_runs(
    a: Any,
    b: Any,
    *,
    seat_metrics: Sequence[str] | None = None,
    race_metrics: Sequence[str] | None = None,
    tolerance: float | None = None,
) -> pd.DataFrame:
    """Paired differences between two runs that share seeds, cell by cell (b - a).

    Cells are matched by position (cell 0 of ``a`` with cell 0 of ``b``, ...), races by
    (race index, start slot). Both runs need per-race rows and the same seed.
    """
    ra = race_rows(a, "comparing runs")
    rb = race_rows(b, "comparing runs")
    if a.manifest.get("seed") != b.manifest.get("seed"):
        raise RunError(
            f"runs {a.dir} and {b.dir} have different seeds ({a.manifest.get('seed')} vs "
            f"{b.manifest.get('seed')}), so their races cannot be paired; rerun one with "
            "the other's --seed"
        )
    ca, cb = a.cells.reset_index(drop=True), b.cells.reset_index(drop=True)
    if len(ca) != len(cb):
        raise RunError(f"runs {a.dir} and {b.dir} have {len(ca)} and {len(cb)} cells; need equal")
    seat, race = _check_metrics(a, seat_metrics, race_metrics)
    race = [m for m in race if m in set(_race_metric_names(b))]
    out = []
    for i in range(len(ca)):
        x, y = ca.iloc[i], cb.iloc[i]
        for key in ("game", "players", "cell_key"):
            if key in ca and key in cb and x[key] != y[key]:
                raise RunError(
                    f"cell {i}: runs differ in {key} ({x[key]} vs {y[key]}), so races "
                    "cannot be paired"
                )
        pairs = _compare_rows(ra[ra["cell"] == x["cell"]], rb[rb["cell"] == y["cell"]], seat, race)
        for r in pairs:
            out.append(
                {
                    "cell_a": x["cell"],
                    "cell_b": y["cell"],
                    "label_a": x["label"],
                    "label_b": y["label"],
                    **r,
                }
            )
    return _finish(pd.DataFrame(out), tolerance)
