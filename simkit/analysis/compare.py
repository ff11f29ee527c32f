"""Variant comparison: differences between cells or runs, paired where races share luck.

When cells share random numbers (``crn``: races with the same index see the same deals
and rolls), the difference between two variants is best measured race by race: the luck
of the draw cancels (paired Student-t, which needs per-race rows). Independent samples
(cells without common random numbers, or two runs with different seeds) are compared from
the aggregates with Welch's unpaired interval. Every table says which it used
(``pairing``), and significance is controlled over all the rows of a comparison (Holm),
so a table of many differences does not flag some by chance (docs/statistics.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from simkit.analysis.stats import CORRECTION, adjust, moments, paired_test, welch_test
from simkit.analysis.tables import agg_table
from simkit.errors import RunError
from simkit.names import unknown
from simkit.outcomes import DRAW_FINISH, tabulated_finish

DEFAULT_SEAT_METRICS = ("win", "finish", "points")
PAIRED = "paired"
UNPAIRED = "unpaired"


def _seat_metric_names(results: Any) -> list[str]:
    return list(agg_table(results, "seat_metric")["metric"].unique())


def _race_metric_names(results: Any) -> list[str]:
    return list(agg_table(results, "race_metric")["metric"].unique())


def paired_difference(a, b) -> dict[str, float]:
    """Mean of ``b - a`` over paired races, its 95% interval, and what pairing saved.

    Args:
        a, b: the two cells' values, aligned by race (same index = same random numbers).

    Returns:
        ``races``, ``mean_a``, ``mean_b``, ``diff``, ``low``, ``high``, ``p`` (scipy's
        paired t-test), ``sd_paired`` (of the per-race differences), ``sd_unpaired``
        (``sqrt(var_a + var_b)``: what the difference of two independent races would
        scatter by), ``variance_ratio`` (unpaired / paired variance) and
        ``races_unpaired``: the races per cell an unpaired comparison would need for the
        same interval width.
    """
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    n = a.size
    test = paired_test(a, b)
    var_d = (b - a).var(ddof=1) if n > 1 else np.nan
    var_u = (a.var(ddof=1) + b.var(ddof=1)) if n > 1 else np.nan
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.float64(var_u) / np.float64(var_d)
    return {
        "races": n,
        "mean_a": float(a.mean()) if n else np.nan,
        "mean_b": float(b.mean()) if n else np.nan,
        "diff": test.diff,
        "low": test.low,
        "high": test.high,
        "p": test.pvalue,
        "sd_paired": float(np.sqrt(var_d)),
        "sd_unpaired": float(np.sqrt(var_u)),
        "variance_ratio": float(ratio),
        # inf: pairing removed all the scatter; NaN: neither cell scatters at all.
        "races_unpaired": float(np.ceil(n * ratio)) if np.isfinite(ratio) else float(ratio),
    }


def _win(rows: pd.DataFrame) -> pd.Series:
    return rows["win"] if "win" in rows else rows["finish"] == 1


def by_slot(rows: pd.DataFrame, metric: str) -> pd.DataFrame:
    """Wide table race x slot of a seat metric; ``win`` only over decided races, ``finish``
    only over races not drawn (a shared position is no position: docs/statistics.md)."""
    if metric == "win":
        rows = rows[rows["decided"]] if "decided" in rows else rows
        x = _win(rows)
    elif metric == "finish":
        cell = rows["cell"] if "cell" in rows else np.zeros(len(rows))
        placed = tabulated_finish(cell, rows["race"], rows["finish"]) != DRAW_FINISH
        rows = rows[placed]
        x = rows[metric]
    else:
        x = rows[metric]
    wide = pd.DataFrame({"race": rows["race"], "slot": rows["slot"], "x": x.astype(np.float64)})
    return wide.pivot(index="race", columns="slot", values="x")


def _paired_rows(
    rows_a: pd.DataFrame,
    rows_b: pd.DataFrame,
    seat_metrics: Sequence[str],
    race_metrics: Sequence[str],
) -> list[dict[str, Any]]:
    out = []
    for metric in seat_metrics:
        wa, wb = by_slot(rows_a, metric), by_slot(rows_b, metric)
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
    for r in out:
        r["races_a"] = r["races_b"] = r.pop("races")
    return out


def _seat_stats(results: Any, cell: int, metric: str) -> pd.DataFrame:
    """Per slot: n, mean and sd of a seat metric from the aggregates (win: decided races)."""
    sm = agg_table(results, "seat_metric")
    sm = sm[sm["cell"] == cell]
    if metric == "win":
        wins = sm[sm["metric"] == "win"].set_index("slot")["sum"]
        n = sm[sm["metric"] == "decided"].set_index("slot")["sum"].reindex(wins.index)
        frame = pd.DataFrame({"n": n, "sum": wins, "sumsq": wins})
    elif metric == "finish":  # over the races not drawn, as fairness_by_slot counts it
        sf = agg_table(results, "slot_finish")
        sf = sf[(sf["cell"] == cell) & (sf["finish"] != DRAW_FINISH)]
        f, k = sf["finish"].astype(np.float64), sf["count"].astype(np.float64)
        parts = pd.DataFrame({"slot": sf["slot"], "n": k, "sum": f * k, "sumsq": f * f * k})
        frame = parts.groupby("slot")[["n", "sum", "sumsq"]].sum()
    else:
        frame = sm[sm["metric"] == metric].set_index("slot")[["n", "sum", "sumsq"]]
    mean, sd = moments(frame["n"], frame["sum"], frame["sumsq"])
    return pd.DataFrame({"n": frame["n"], "mean": mean, "sd": sd}, index=frame.index)


def _race_stats(results: Any, cell: int, metric: str) -> tuple[float, float, float]:
    rm = agg_table(results, "race_metric")
    row = rm[(rm["cell"] == cell) & (rm["metric"] == metric)][["n", "sum", "sumsq"]].sum()
    mean, sd = moments(row["n"], row["sum"], row["sumsq"])
    return float(row["n"]), float(mean), float(sd)


def _unpaired(n_a, mean_a, sd_a, n_b, mean_b, sd_b) -> dict[str, Any]:
    test = welch_test(mean_a, sd_a, n_a, mean_b, sd_b, n_b)
    return {
        "races_a": int(n_a),
        "races_b": int(n_b),
        "mean_a": float(mean_a),
        "mean_b": float(mean_b),
        "diff": test.diff,
        "low": test.low,
        "high": test.high,
        "p": test.pvalue,
    }


def _unpaired_rows(
    a: Any, cell_a: int, b: Any, cell_b: int, seat_metrics: Sequence[str], race_metrics
) -> list[dict[str, Any]]:
    out = []
    for metric in seat_metrics:
        sa, sb = _seat_stats(a, cell_a, metric), _seat_stats(b, cell_b, metric)
        for slot in sorted(set(sa.index) & set(sb.index)):
            x, y = sa.loc[slot], sb.loc[slot]
            row = _unpaired(x["n"], x["mean"], x["sd"], y["n"], y["mean"], y["sd"])
            out.append({"metric": metric, "slot": int(slot), **row})
    for metric in race_metrics:
        out.append(
            {
                "metric": metric,
                "slot": pd.NA,
                **_unpaired(*_race_stats(a, cell_a, metric), *_race_stats(b, cell_b, metric)),
            }
        )
    return out


def _check_metrics(results: Any, seat_metrics, race_metrics) -> tuple[list[str], list[str]]:
    seat_known = ["win", *(m for m in _seat_metric_names(results) if m not in ("win", "decided"))]
    race_known = _race_metric_names(results)
    seat = list(DEFAULT_SEAT_METRICS if seat_metrics is None else seat_metrics)
    race = list(race_known if race_metrics is None else race_metrics)
    for m in seat:
        if m not in seat_known:
            raise RunError(unknown("seat metric", m, seat_known))
    for m in race:
        if m not in race_known:
            raise RunError(unknown("race metric", m, race_known))
    return seat, race


def _finish(rows: list[dict[str, Any]], tolerance: float | None, pairing: str) -> pd.DataFrame:
    df = pd.DataFrame(rows)
    if df.empty:
        return df
    df.insert(0, "pairing", pairing)
    # Holm over every row of the comparison: the chance that any row is flagged when no
    # difference is real stays at 5% (an A/A comparison flags nothing in 95% of runs).
    df["significant"], df["p_adjusted"] = adjust(df["p"])
    if tolerance is not None:
        # The tolerance is in win-rate units, so only win differences are judged by it; a
        # difference "exceeds" it when it is significant after correction and its whole
        # interval lies beyond the tolerance.
        beyond = ((df["low"] > tolerance) | (df["high"] < -tolerance)) & df["significant"]
        df["exceeds_tolerance"] = beyond.where(df["metric"] == "win").astype("boolean")
    return df


def significance_summary(table: pd.DataFrame) -> str:
    """One sentence: how many differences are significant after the correction, and how."""
    if table.empty:
        return "No differences to test."
    k, n = int(table["significant"].sum()), int(table["p"].notna().sum())
    how = (
        "paired on common random numbers"
        if (table["pairing"] == PAIRED).all()
        else (
            "unpaired (independent races, Welch)"
            if (table["pairing"] == UNPAIRED).all()
            else "paired where races share random numbers, else unpaired"
        )
    )
    return (
        f"{k} of {n} differences significant after {CORRECTION.capitalize()}'s correction "
        f"for {n} comparisons at 5%; intervals {how}."
    )


def compare_cells(
    results: Any,
    cells: Sequence[int] | None = None,
    *,
    baseline: int | None = None,
    seat_metrics: Sequence[str] | None = None,
    race_metrics: Sequence[str] | None = None,
    tolerance: float | None = None,
    paired: bool | None = None,
) -> pd.DataFrame:
    """Differences between cells of one run, each against a baseline cell.

    Args:
        results: a run. Paired comparisons need per-race rows and ``crn`` on.
        cells: the cells to compare (default: all); they must have the same game and
            number of players.
        baseline: the cell the others are compared with (default: the first).
        seat_metrics: per-slot metrics; ``win`` (won a decided race) or any seat column.
            Default: win, finish, points.
        race_metrics: race columns (default: all of them, e.g. rounds).
        tolerance: if given, flag win-rate differences beyond it (other metrics get NA).
        paired: None pairs whenever the run allows it (crn and per-race rows); True
            insists (a one-line error says why it cannot); False compares unpaired.

    Returns:
        One row per (cell, metric, slot): ``pairing``, ``baseline``, ``cell``, their
        labels, ``races_a`` and ``races_b``, the means, ``diff`` (cell - baseline),
        ``low``/``high`` (95%), ``p``, ``p_adjusted`` and ``significant`` (Holm over all
        rows), ``exceeds_tolerance``; paired rows also carry what pairing saved
        (``variance_ratio``, ``races_unpaired``).
    """
    can_pair = getattr(results, "races", None) is not None and results.manifest.get("crn", True)
    if paired and not can_pair:
        where = getattr(results, "dir", "the run")
        if getattr(results, "races", None) is None:
            raise RunError(
                f"{where}: a paired comparison needs per-race rows, but the run kept "
                'aggregates only; run it again with keep = "races"'
            )
        raise RunError(
            f"{where}: cells do not share random numbers (crn = false), so races cannot "
            "be paired; run the scenario with crn = true"
        )
    pair = can_pair if paired is None else paired
    meta = results.cells.set_index("cell")
    ids = list(meta.index if cells is None else cells)
    base = ids[0] if baseline is None else baseline
    for c in [base, *ids]:
        if c not in meta.index:
            raise RunError(f"no cell {c} in the run (cells: {', '.join(map(str, meta.index))})")
    seat, race = _check_metrics(results, seat_metrics, race_metrics)
    out = []
    rows = results.races if pair else None
    for c in ids:
        if c == base:
            continue
        for key in ("game", "players"):
            if meta.at[c, key] != meta.at[base, key]:
                raise RunError(
                    f"cells {base} and {c} differ in {key} "
                    f"({meta.at[base, key]} vs {meta.at[c, key]}); only like cells compare"
                )
        if pair:
            diffs = _paired_rows(rows[rows["cell"] == base], rows[rows["cell"] == c], seat, race)
        else:
            diffs = _unpaired_rows(results, base, results, c, seat, race)
        head = {
            "baseline": base,
            "cell": c,
            "baseline_label": meta.at[base, "label"],
            "label": meta.at[c, "label"],
        }
        out += [{**head, **r} for r in diffs]
    return _finish(out, tolerance, PAIRED if pair else UNPAIRED)


def pairable(a: Any, b: Any) -> str | None:
    """Why two runs' races cannot be paired, or None when they can."""
    if getattr(a, "races", None) is None or getattr(b, "races", None) is None:
        return "a run kept aggregates only (no per-race rows)"
    if a.manifest.get("seed") != b.manifest.get("seed"):
        return f"their seeds differ ({a.manifest.get('seed')} vs {b.manifest.get('seed')})"
    ka = a.cells["cell_key"].tolist() if "cell_key" in a.cells else None
    kb = b.cells["cell_key"].tolist() if "cell_key" in b.cells else None
    if ka != kb:
        return "their cells draw different random numbers (cell keys differ)"
    return None


def compare_runs(
    a: Any,
    b: Any,
    *,
    seat_metrics: Sequence[str] | None = None,
    race_metrics: Sequence[str] | None = None,
    tolerance: float | None = None,
    paired: bool | None = None,
) -> pd.DataFrame:
    """Differences between two runs, cell by cell (b - a).

    Cells are matched by position (cell 0 of ``a`` with cell 0 of ``b``, ...). Runs that
    share seeds and kept per-race rows are paired on (race index, start slot); otherwise
    (different seeds, aggregates only) the comparison is unpaired, from the aggregates.
    ``paired=True`` insists on pairing and says why it cannot; ``pairable`` tells first.
    """
    why = pairable(a, b)
    if paired and why:
        raise RunError(f"runs {a.dir} and {b.dir} cannot be paired: {why}")
    pair = why is None if paired is None else paired
    ca, cb = a.cells.reset_index(drop=True), b.cells.reset_index(drop=True)
    if len(ca) != len(cb):
        raise RunError(f"runs {a.dir} and {b.dir} have {len(ca)} and {len(cb)} cells; need equal")
    seat, race = _check_metrics(a, seat_metrics, race_metrics)
    race = [m for m in race if m in set(_race_metric_names(b))]
    out = []
    for i in range(len(ca)):
        x, y = ca.iloc[i], cb.iloc[i]
        for key in ("game", "players"):
            if x[key] != y[key]:
                raise RunError(
                    f"cell {i}: runs differ in {key} ({x[key]} vs {y[key]}); "
                    "only like cells compare"
                )
        if pair:
            ra, rb = a.races, b.races
            diffs = _paired_rows(
                ra[ra["cell"] == x["cell"]], rb[rb["cell"] == y["cell"]], seat, race
            )
        else:
            diffs = _unpaired_rows(a, x["cell"], b, y["cell"], seat, race)
        head = {
            "cell_a": x["cell"],
            "cell_b": y["cell"],
            "label_a": x["label"],
            "label_b": y["label"],
        }
        out += [{**head, **r} for r in diffs]
    return _finish(out, tolerance, PAIRED if pair else UNPAIRED)
