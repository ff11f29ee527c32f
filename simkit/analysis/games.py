"""Building blocks for the game-specific analyses (Mushroom Walk, MUSH): rates and means by group.

The shared fairness and track analyses answer the questions every race game shares. Each
game also has its own (is a training type fair? is a pan worth taking early?); those are
win rates and means split by a game's seat columns, computed from per-race rows by the
helpers here with the intervals of docs/statistics.md (Wilson for rates, Student-t for
means). simkit/report/games.py turns them into a report section.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from simkit.analysis.stats import chi_square_gof, mean_interval, wilson_interval


def rate_table(frame: pd.DataFrame, keys: list[str], outcome: str, name: str) -> pd.DataFrame:
    """Rate of the boolean column ``outcome`` per group of ``keys``, with a Wilson interval.

    Returns one row per group: the keys, ``n``, ``{name}s`` (count), ``{name}_rate``,
    ``{name}_low`` and ``{name}_high``.
    """
    g = frame.groupby(keys, sort=True, observed=True)[outcome]
    out = pd.DataFrame({"n": g.size(), "k": g.sum().astype("int64")}).reset_index()
    low, high = wilson_interval(out["k"], out["n"])
    out[f"{name}_rate"] = out["k"] / out["n"]
    out[f"{name}_low"] = low
    out[f"{name}_high"] = high
    return out.rename(columns={"k": f"{name}s"})


def mean_table(frame: pd.DataFrame, keys: list[str], metric: str) -> pd.DataFrame:
    """Mean of ``metric`` per group with a Student-t interval and percentiles 10/50/90."""
    x = frame[metric].astype(np.float64)
    g = x.groupby([frame[k] for k in keys], sort=True, observed=True)
    out = pd.DataFrame(
        {
            "n": g.size(),
            "sum": g.sum(),
            "sumsq": (x * x).groupby([frame[k] for k in keys], sort=True, observed=True).sum(),
            "p10": g.quantile(0.1),
            "p50": g.quantile(0.5),
            "p90": g.quantile(0.9),
        }
    ).reset_index()
    mean, low, high, sd = mean_interval(out["n"], out["sum"], out["sumsq"])
    out.insert(len(keys) + 1, "mean", mean)
    out.insert(len(keys) + 2, "low", low)
    out.insert(len(keys) + 3, "high", high)
    out.insert(len(keys) + 4, "sd", sd)
    return out.drop(columns=["sum", "sumsq"]).assign(metric=metric)


def distribution(frame: pd.DataFrame, keys: list[str], metric: str) -> pd.DataFrame:
    """How often each value of ``metric`` occurs per group: ``count`` and ``share``."""
    counts = frame.groupby([*keys, metric], sort=True, observed=True).size()
    out = counts.rename("count").reset_index()
    out["share"] = out["count"] / out.groupby(keys, observed=True)["count"].transform("sum")
    return out


def factor_rates(
    seats: pd.DataFrame, factors: Mapping[str, pd.Series], outcome: str = "win"
) -> pd.DataFrame:
    """Win rate by the level of each factor, per cell: the value of holding something.

    Args:
        seats: per-seat rows with ``cell`` and the boolean ``outcome``.
        factors: factor name -> level of every row (aligned with ``seats``), e.g.
            ``{"pans taken": seats["pans_taken"].clip(upper=4)}``.
        outcome: the boolean column counted.

    Returns:
        One row per (cell, factor, level): ``seats`` (rows with that level), ``wins``,
        ``win_rate``, ``win_low``, ``win_high``, ``share`` (of the cell's seats).
        These are associations, not causes: a seat that took a pan early may have been
        dealt a hand that made the pan worth taking.
    """
    frames = []
    for name, level in factors.items():
        f = pd.DataFrame({"cell": seats["cell"], "level": level, "x": seats[outcome]})
        t = rate_table(f, ["cell", "level"], "x", "win")
        t = t.rename(columns={"n": "seats"})
        t.insert(1, "factor", name)
        t["share"] = t["seats"] / t.groupby("cell")["seats"].transform("sum")
        frames.append(t)
    out = pd.concat(frames, ignore_index=True)
    out["level"] = out["level"].astype(str)
    return out


def gof_by(frame: pd.DataFrame, key: str, level: str, outcome: str) -> pd.DataFrame:
    """Per ``key`` group: chi-square test that ``outcome`` is as likely at every ``level``.

    The expected wins of a level are proportional to its rows (seats), so a level held by
    two seats per race is expected to win twice as often as one held by one.
    """
    rows = []
    for k, part in frame.groupby(key, sort=True, observed=True):
        g = part.groupby(level, sort=True, observed=True)[outcome]
        test = chi_square_gof(g.sum().to_numpy(), g.size().to_numpy())
        rows.append(
            {
                key: k,
                "levels": int(g.ngroups),
                "chi2": test.statistic,
                "dof": test.dof,
                "p": test.pvalue,
                "cramers_v": test.effect,
            }
        )
    return pd.DataFrame(rows)
