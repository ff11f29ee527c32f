"""Drama, lead changes, uncertainty and stability per cell; curves to the race's end.

Browne's (2008) criteria for a game's quality, as Ludii's metrics package computes them,
adapted to races whose "state evaluation" is the race position at the end of a round
(docs/statistics.md, "Drama, lead changes, uncertainty and stability"):

- drama, lead change and stability are per-race numbers the game's kernel computes
  (``simkit.games.round_counts``; ``Results.round_measures`` holds n, sum and sum of
  squares per cell), reported as means over races with Student-t intervals;
- uncertainty and the curves aligned to the race's end come from the per-round counts
  counted back from each race's last round (``round`` <= -1 in ``Results.rounds``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from simkit.analysis.stats import mean_interval, wilson_interval

MEASURE_NAMES = ("drama", "lead_change", "stability")


def _to_end(results: Any) -> pd.DataFrame:
    rounds = getattr(results, "rounds", None)
    if rounds is None or len(rounds) == 0:
        return pd.DataFrame(columns=["cell", "round", "slot", "position", "finish", "count"])
    back = rounds[rounds["round"] < 0]
    return back.assign(rounds_left=-back["round"].astype(np.int64) - 1)


def has_end_rounds(results: Any) -> bool:
    """Whether the run counted rounds back from each race's end (games that record them)."""
    return not _to_end(results).empty


def _races(part: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """Races per key: every race has one seat in each of the cell's slots, so the count of
    any one slot is the number of races (the largest, in case a slot is missing)."""
    per_slot = part.groupby([*keys, "slot"], sort=True)["count"].sum()
    return per_slot.groupby(keys).max().rename("races").reset_index()


def win_by_rounds_left(results: Any) -> pd.DataFrame:
    """Win probability by race position, k rounds before the race's last round.

    Over decided races long enough to have that round. ``running`` is the share of the
    cell's decided races that lasted more than k rounds (k = 0: every race), so a late
    point of a short race and an early one of a long race line up at their end.

    Returns:
        One row per (cell, rounds_left, position): ``seats``, ``wins``, ``win_rate``,
        ``win_low``/``win_high`` (Wilson), ``races`` (decided races with that round) and
        ``running``.
    """
    r = _to_end(results)
    r = r[r["finish"] > 0]
    cols = ["cell", "rounds_left", "position", "seats", "wins", "win_rate", "win_low"]
    if r.empty:
        return pd.DataFrame(columns=[*cols, "win_high", "races", "running"])
    g = r.assign(win=np.where(r["finish"] == 1, r["count"], 0))
    out = g.groupby(["cell", "rounds_left", "position"], sort=True)[["count", "win"]].sum()
    out = out.reset_index().rename(columns={"count": "seats", "win": "wins"})
    out["win_rate"] = out["wins"] / out["seats"]
    out["win_low"], out["win_high"] = wilson_interval(out["wins"], out["seats"])
    races = _races(r, ["cell", "rounds_left"])
    total = races[races["rounds_left"] == 0].set_index("cell")["races"]
    races["running"] = races["races"] / races["cell"].map(total)
    return out.merge(races, on=["cell", "rounds_left"], how="left")


def running_by_round(results: Any) -> pd.DataFrame:
    """Share of races (decided or not) still running at the end of each round.

    Returns:
        One row per (cell, round): ``races`` (that played the round) and ``running``
        (their share of the races that played round 1).
    """
    rounds = getattr(results, "rounds", None)
    if rounds is None or len(rounds) == 0:
        return pd.DataFrame(columns=["cell", "round", "races", "running"])
    races = _races(rounds[rounds["round"] > 0], ["cell", "round"])
    first = races[races["round"] == 1].set_index("cell")["races"]
    races["running"] = races["races"] / races["cell"].map(first)
    return races


def _entropy(q: np.ndarray) -> float:
    q = q[q > 0]
    return float(-(q * np.log(q)).sum())


def uncertainty_by_rounds_left(results: Any) -> pd.DataFrame:
    """How uncertain the winner still is, k rounds before the race's last round.

    Over decided races with that round: the distribution of the eventual winner's race
    position then, its Shannon entropy divided by log(players) (0: the winner always leads
    by then; 1: the winner is in every position equally often).

    Returns:
        One row per (cell, rounds_left): ``races`` and ``uncertainty``.
    """
    r = _to_end(results)
    w = r[r["finish"] == 1]
    if w.empty:
        return pd.DataFrame(columns=["cell", "rounds_left", "races", "uncertainty"])
    players = results.cells.set_index("cell")["players"]
    rows = []
    for (cell, k), part in w.groupby(["cell", "rounds_left"], sort=True):
        counts = part.groupby("position")["count"].sum().to_numpy(dtype=np.float64)
        n = int(players.get(cell, 2))
        h = _entropy(counts / counts.sum()) / np.log(n) if n > 1 else 0.0
        rows.append({"cell": cell, "rounds_left": int(k), "races": counts.sum(), "uncertainty": h})
    out = pd.DataFrame(rows)
    out["races"] = out["races"].astype(np.int64)
    return out


def drama_measures(results: Any) -> pd.DataFrame:
    """Per cell: drama, lead change and stability (means over races, 95% Student-t
    intervals) and uncertainty (from the counts; no interval).

    ``uncertainty`` is the mean of :func:`uncertainty_by_rounds_left` over every round of
    every decided race (each k weighted by the decided races that had it). Cells of a run
    without these counts are left out; a measure a cell did not record is NaN.

    Returns:
        One row per cell: ``label``, then for each of drama, lead_change and stability
        ``<m>``, ``<m>_low``, ``<m>_high`` and ``<m>_races`` (races it is defined for),
        then ``uncertainty``.
    """
    cols = ["cell", "label"]
    for m in MEASURE_NAMES:
        cols += [m, f"{m}_low", f"{m}_high", f"{m}_races"]
    cols.append("uncertainty")
    agg = getattr(results, "round_measures", None)
    unc = uncertainty_by_rounds_left(results)
    cells = set(unc["cell"])
    if agg is not None and len(agg):
        cells |= set(agg["cell"])
    if not cells:
        return pd.DataFrame(columns=cols)
    labels = results.cells.set_index("cell")["label"]
    out = pd.DataFrame({"cell": sorted(cells)})
    out["label"] = out["cell"].map(lambda c: labels.get(c, str(c)))
    for m in MEASURE_NAMES:
        part = agg[agg["metric"] == m] if agg is not None else pd.DataFrame()
        part = part.groupby("cell")[["n", "sum", "sumsq"]].sum() if len(part) else None
        if part is None:
            for suffix in ("", "_low", "_high"):
                out[m + suffix] = np.nan
            out[f"{m}_races"] = 0
            continue
        part = part.reindex(out["cell"]).fillna(0)
        with np.errstate(invalid="ignore", divide="ignore"):
            mean, low, high, _ = mean_interval(part["n"], part["sum"], part["sumsq"])
        out[m] = np.where(part["n"] > 0, mean, np.nan)
        out[f"{m}_low"] = np.where(part["n"] > 1, low, np.nan)
        out[f"{m}_high"] = np.where(part["n"] > 1, high, np.nan)
        out[f"{m}_races"] = part["n"].to_numpy().astype(np.int64)
    if unc.empty:
        out["uncertainty"] = np.nan
    else:
        weighted = unc.assign(w=unc["uncertainty"] * unc["races"]).groupby("cell")
        mean_unc = weighted["w"].sum() / weighted["races"].sum()
        out["uncertainty"] = out["cell"].map(mean_unc)
    return out[cols]
