"""Start-slot fairness: does where a sled starts decide who wins? (DESIGN §6, issue 5).

Everything here is computed from the aggregate tables (``slot_finish`` and
``seat_metric``), so it works for runs that kept no per-race rows. Wins, win rates and
verdicts count decided races only (GLOSSARY: a race with a winner who finished);
docs/statistics.md says which interval and test each number uses and why.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from simkit.analysis.stats import (
    Z95,
    chi_square_gof,
    chi_square_independence,
    mean_interval,
    wilson_interval,
)
from simkit.analysis.tables import agg_table, group_frame, group_keys, with_group
from simkit.errors import RunError
from simkit.outcomes import DRAW_FINISH

FAIR = "fair"
UNFAIR = "unfair"
INCONCLUSIVE = "inconclusive - need more races"
FEW_DECIDED = "no verdict - few races decided"
MIN_DECIDED = 0.5  # below this share of decided races a cell gets a warning, not a verdict
# The most races an estimate of "races needed" names: beyond it the observed rate sits so
# near the band's edge that no practical run decides, and the estimate (which assumes the
# observed rate is the true one) says nothing worth running.
MAX_RACES_NEEDED = 10_000_000


def _seat_sums(results: Any, keys: list[str], metric: str) -> pd.DataFrame:
    """Per (group, slot): ``n`` and ``sum`` of a seat metric."""
    sm = agg_table(results, "seat_metric")
    part = with_group(sm[sm["metric"] == metric], results.cells, keys)
    if part.empty:
        where = getattr(results, "dir", "the run")
        raise RunError(
            f"{where}: no '{metric}' counts (the run predates decided races); "
            "run it again with this simkit (simkit run ... --force)"
        )
    return part.groupby([*keys, "slot"])[["n", "sum", "sumsq"]].sum().reset_index()


def slot_finish_counts(results: Any, by: str | Sequence[str] | None = None) -> pd.DataFrame:
    """How often each start slot finished in each position: one row per (group, slot).

    Columns are the group keys, ``slot``, then ``finish_1`` .. ``finish_n`` counts and
    ``draws``: races in which the slot shared its finish position (a draw, counted there
    and under no position), so a row adds up to the slot's races.
    """
    keys = group_keys(results.cells, by)
    sf = with_group(agg_table(results, "slot_finish"), results.cells, keys)
    wide = sf.pivot_table(
        index=[*keys, "slot"], columns="finish", values="count", aggfunc="sum", fill_value=0
    )
    draws = wide.pop(DRAW_FINISH) if DRAW_FINISH in wide.columns else 0
    wide.columns = [f"finish_{int(f)}" for f in wide.columns]
    wide["draws"] = draws
    return wide.reset_index().astype({c: "int64" for c in wide.columns})


def fairness_by_slot(results: Any, by: str | Sequence[str] | None = None) -> pd.DataFrame:
    """Win rate, mean finish and mean points of every start slot, with 95% intervals.

    Args:
        results: a run (``simkit.load(DIR)``) or any object with ``cells`` and ``agg``.
        by: None for one group per cell; or cells columns to pool over (e.g.
            ``"players"`` pools every cell with the same number of seats).

    Returns:
        One row per (group, slot): ``races`` (races the slot was in), ``decided``
        (decided races it was in), ``wins`` (decided races it won), ``win_rate`` = wins /
        decided with its Wilson interval ``win_low``/``win_high``, ``fair_rate``
        (1 / players), ``deviation`` (win_rate - fair_rate), ``draws`` (races in which
        it shared its finish position), ``finish_mean`` over its races that were not
        drawn and ``points_mean`` over all its races, with Student-t intervals
        (``*_low``/``*_high``).
    """
    keys = group_keys(results.cells, by)
    groups = group_frame(results.cells, keys)
    sf = with_group(agg_table(results, "slot_finish"), results.cells, keys)
    f = sf["finish"].astype(np.float64)
    drawn = sf["finish"] == DRAW_FINISH
    sf = sf.assign(
        placed=sf["count"].where(~drawn, 0),
        fsum=f * sf["count"],
        fsq=f * f * sf["count"],
        draws=sf["count"].where(drawn, 0),
    )
    out = (
        sf.groupby([*keys, "slot"])
        .agg(
            races=("count", "sum"),
            draws=("draws", "sum"),
            placed=("placed", "sum"),
            fsum=("fsum", "sum"),
            fsq=("fsq", "sum"),
        )
        .reset_index()
    )
    for metric, col in (("decided", "decided"), ("win", "wins")):
        part = _seat_sums(results, keys, metric)[[*keys, "slot", "sum"]]
        out = out.merge(part.rename(columns={"sum": col}), on=[*keys, "slot"], how="left")
        out[col] = out[col].fillna(0).astype("int64")
    head = list(dict.fromkeys([*keys, "label", "players"]))
    out = out.merge(groups[head], on=keys, how="left")
    with np.errstate(invalid="ignore", divide="ignore"):
        out["win_rate"] = out["wins"] / out["decided"]
    out["win_low"], out["win_high"] = wilson_interval(out["wins"], out["decided"])
    out["fair_rate"] = 1.0 / out["players"].astype(np.float64)
    out["deviation"] = out["win_rate"] - out["fair_rate"]
    # A draw has no finish position of its own (docs/statistics.md "Draws").
    m, lo, hi, _ = mean_interval(out["placed"], out["fsum"], out["fsq"])
    out["finish_mean"], out["finish_low"], out["finish_high"] = m, lo, hi
    sm = agg_table(results, "seat_metric")
    pts = with_group(sm[sm["metric"] == "points"], results.cells, keys)
    if len(pts):
        p = pts.groupby([*keys, "slot"])[["n", "sum", "sumsq"]].sum().reset_index()
        out = out.merge(p, on=[*keys, "slot"], how="left")
        m, lo, hi, _ = mean_interval(out["n"], out["sum"], out["sumsq"])
        out["points_mean"], out["points_low"], out["points_high"] = m, lo, hi
        out = out.drop(columns=["n", "sum", "sumsq"])
    rest = [c for c in out.columns if c not in head and c not in ("placed", "fsum", "fsq")]
    return out[head + rest].sort_values([*keys, "slot"]).reset_index(drop=True)


def verdict(low, high, fair, tolerance: float, decided_rate: float = 1.0) -> str:
    """The fairness verdict of one group from its slots' win-rate intervals.

    "unfair" if some slot's whole interval lies outside ``fair ± tolerance``; "fair" if
    every slot's whole interval lies inside it; otherwise the data cannot tell yet. A
    group where fewer than :data:`MIN_DECIDED` of the races were decided gets no verdict:
    its few winners say little about the slots (e.g. random bots, whose sleds are all
    eliminated in most races).
    """
    if not decided_rate >= MIN_DECIDED:
        return FEW_DECIDED
    low, high, fair = (np.asarray(a, dtype=np.float64) for a in (low, high, fair))
    band_lo, band_hi = fair - tolerance, fair + tolerance
    if np.any((high < band_lo) | (low > band_hi)):
        return UNFAIR
    if np.all((low >= band_lo) & (high <= band_hi)):
        return FAIR
    return INCONCLUSIVE


def races_to_decide(rate, fair, races, tolerance: float, decided_rate: float = 1.0) -> float:
    """Rough number of races after which the verdict would no longer be inconclusive.

    Assumes the observed win rates are the true ones: a slot ``d`` away from fair needs
    an interval half-width of ``|tolerance - d|`` over decided races, so the races needed
    are that divided by the share of decided races. ``inf`` when no run of up to
    :data:`MAX_RACES_NEEDED` races would decide (a rate on or near the band's edge):
    :func:`needed_text` words it.
    """
    rate, fair = np.asarray(rate, dtype=np.float64), np.asarray(fair, dtype=np.float64)
    d = np.abs(rate - fair)
    p = np.clip(rate, 1e-6, 1 - 1e-6)
    with np.errstate(divide="ignore"):
        need = Z95 * Z95 * p * (1 - p) / (tolerance - d) ** 2
    outside = d > tolerance
    n = float(need[outside].min()) if outside.any() else float(need.max())
    n /= decided_rate if decided_rate > 0 else float("nan")
    if not np.isfinite(n) or n > MAX_RACES_NEEDED:
        return float("inf")
    return float(max(np.ceil(n), races))


def needed_text(races_needed: float, tolerance: float) -> str:
    """``~12,345 races would decide``, or why no practical run would (``inf``)."""
    if np.isfinite(races_needed):
        return f"~{races_needed:,.0f} races would decide"
    return (
        f"no run of up to {MAX_RACES_NEEDED:,} races would decide at ±{100 * tolerance:g} pp "
        "(a slot's win rate sits at the edge of the fair band)"
    )


def fairness(
    results: Any, *, tolerance: float = 0.02, by: str | Sequence[str] | None = None
) -> pd.DataFrame:
    """One verdict per group: are the start slots fair within ``tolerance``?

    Args:
        results: a run, or any object with ``cells`` and ``agg``.
        tolerance: largest acceptable difference between a slot's win rate and 1/players
            (0.02 = 2 percentage points); see docs/statistics.md.
        by: None for one row per cell; cells columns to pool over (e.g. ``"players"``).

    Returns:
        One row per group: ``races``; ``decided`` races and their share ``decided_rate``
        with a Wilson interval (``decided_low``/``decided_high``); the worst slot, its
        ``worst_rate`` with its Wilson interval (``worst_low``/``worst_high``),
        ``fair_rate`` and ``max_deviation`` (worst_rate - fair_rate); the chi-square test
        of "all slots win equally often" over decided races (``chi2_wins``, ``p_wins``,
        ``v_wins`` = Cramér's V), the same for the whole slot x finish table over the races
        that were not drawn (``*_finish``, corrected for each race being a permutation;
        drawn races share a position and are left out), ``verdict`` and, when
        inconclusive, a rough ``races_needed``.
    """
    slots = fairness_by_slot(results, by)
    counts = slot_finish_counts(results, by)
    keys = group_keys(results.cells, by)
    tables = {k if isinstance(k, tuple) else (k,): t for k, t in counts.groupby(keys)}
    rows = []
    for key, part in slots.groupby(keys, sort=True):
        key = key if isinstance(key, tuple) else (key,)
        n = int(part["players"].iloc[0])
        # The wide table has a column per finish position of the largest cell; this
        # group's races only fill positions 1..n.
        cols = [f"finish_{k}" for k in range(1, n + 1)]
        table = tables[key].reindex(columns=cols, fill_value=0).to_numpy()
        wins = chi_square_gof(part["wins"], part["decided"])
        # Each race puts every slot in exactly one finish position (a permutation matrix),
        # so under "all slots equal" Pearson's statistic is n/(n-1) times chi-square with
        # (n-1)^2 dof, not chi-square itself (docs/statistics.md derives it).
        square = table.shape == (n, n)
        fin = chi_square_independence(table, scale=(n - 1) / n if square else 1.0)
        worst = part.loc[part["deviation"].abs().fillna(-1).idxmax()]
        # Each race has ``n`` seats, whichever slots they took.
        races = int(part["races"].sum() // max(n, 1))
        decided = int(part["decided"].sum() // max(n, 1))
        share = decided / races if races else float("nan")
        d_low, d_high = wilson_interval(decided, races)
        v = verdict(part["win_low"], part["win_high"], part["fair_rate"], tolerance, share)
        rows.append(
            {
                **dict(zip(keys, key, strict=True)),
                "label": part["label"].iloc[0],
                "players": n,
                "races": races,
                "decided": decided,
                "decided_rate": share,
                "decided_low": float(d_low),
                "decided_high": float(d_high),
                "worst_slot": int(worst["slot"]),
                "worst_rate": float(worst["win_rate"]),
                "worst_low": float(worst["win_low"]),
                "worst_high": float(worst["win_high"]),
                "fair_rate": 1.0 / n,
                "max_deviation": float(worst["deviation"]),
                "chi2_wins": wins.statistic,
                "p_wins": wins.pvalue,
                "v_wins": wins.effect,
                "chi2_finish": fin.statistic,
                "dof_finish": fin.dof,
                "p_finish": fin.pvalue,
                "v_finish": fin.effect,
                "verdict": v,
                "races_needed": races_to_decide(
                    part["win_rate"], part["fair_rate"], races, tolerance, share
                )
                if v == INCONCLUSIVE
                else float("nan"),
            }
        )
    return pd.DataFrame(rows)
