"""Track tuning: how long races run, how punishing a track is, and where sleds crash.

Computed from the aggregate tables; per-race rows are used only where they make an
interval exact (totals per race of a seat column, see :func:`track_summary`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from simkit.analysis.stats import mean_interval, t_interval, wilson_interval
from simkit.analysis.tables import agg_table, hidden_columns
from simkit.errors import SimkitError

# Seat columns that describe the result rather than the track; fairness reports them.
_RESULT_COLUMNS = ("slot", "finish", "points", "win", "decided")


def _labels(results: Any) -> pd.DataFrame:
    return results.cells[["cell", "label", "players"]]


def guard_ended(results: Any) -> pd.DataFrame:
    """The cells some of whose races the engine guard ended rather than the rules: races
    still running at ``max_rounds`` (race column ``timed_out``, every game that has one;
    docs/statistics.md, "Decided races", says when races can be).

    Returns:
        One row per such cell (none when no race reached the guard, or the game keeps no
        ``timed_out`` column): cell, label, players, ``races``, ``timed_out`` and its
        ``share`` with a Wilson 95% interval (``low``, ``high``).
    """
    cols = ["cell", "label", "players", "races", "timed_out", "share", "low", "high"]
    rm = agg_table(results, "race_metric")
    rm = rm[rm["metric"] == "timed_out"].groupby("cell")[["n", "sum"]].sum()
    rm = rm[rm["sum"] > 0]
    if rm.empty:
        return pd.DataFrame(columns=cols)
    n = rm["n"].to_numpy(np.int64)
    hit = np.rint(rm["sum"].to_numpy()).astype(np.int64)
    low, high = wilson_interval(hit, n)
    out = pd.DataFrame(
        {"cell": rm.index, "races": n, "timed_out": hit, "share": hit / n, "low": low, "high": high}
    )
    return out.merge(_labels(results), on="cell", how="left")[cols]


def race_length(results: Any, metric: str = "rounds") -> pd.DataFrame:
    """Distribution of an integer race column (default: rounds) per cell.

    Returns:
        One row per (cell, value): ``count`` and ``share`` of the cell's races.
    """
    h = agg_table(results, "race_hist")
    h = h[h["metric"] == metric].groupby(["cell", "value"])["count"].sum().reset_index()
    h["share"] = h["count"] / h.groupby("cell")["count"].transform("sum")
    return h.rename(columns={"value": metric}).sort_values(["cell", metric]).reset_index(drop=True)


def _quantiles(hist: pd.DataFrame, metric: str, qs=(0.1, 0.5, 0.9)) -> pd.DataFrame:
    rows = []
    for cell, part in hist.groupby("cell"):
        cum = part["count"].cumsum().to_numpy() / part["count"].sum()
        values = part[metric].to_numpy()
        row = {"cell": cell, "min": values[0], "max": values[-1]}
        for q in qs:
            row[f"p{round(q * 100)}"] = values[np.searchsorted(cum, q - 1e-12)]
        rows.append(row)
    return pd.DataFrame(rows)


def track_summary(results: Any) -> pd.DataFrame:
    """Per cell, every race and seat column as a per-race mean with a 95% interval.

    Race columns (``rounds``, ``lead_changes``, ``decided``, ...) come from
    ``race_metric``: one value per race. Seat columns other than the results (slot,
    finish, points, win) are shown **per sled**: the mean over a race's seats, averaged over
    races (dents per sled, turns per sled, share of sleds that finished), which means the
    same thing for any number of players; multiply by ``players`` for a per-race total.
    Columns that only hold 0/1 (e.g. ``leader_after_round1_won``) are rates with Wilson
    intervals. A column whose ``Column.applies`` rules it out for a cell's variant is left
    out of that cell (it cannot be non-zero there).

    A per-sled mean's interval needs the variance of the race's total, which per-seat sums
    do not give. With per-race rows it is exact (``interval = "t"``); without them the
    standard deviation of the total is bounded by the sum of the seats' (Cauchy-Schwarz),
    a conservative interval (``interval = "t, conservative"``).

    Returns:
        Long table: cell, label, players, ``metric``, ``scope`` ("race" or "per sled"),
        ``races``, ``mean``, ``low``, ``high``, ``interval``.
    """
    rows = []
    rm = agg_table(results, "race_metric").groupby(["cell", "metric"], sort=False)
    rm = rm[["n", "sum", "sumsq"]].sum().reset_index()
    binary = np.isclose(rm["sum"], rm["sumsq"])  # only 0/1 values
    mean, low, high, _ = mean_interval(rm["n"], rm["sum"], rm["sumsq"])
    with np.errstate(invalid="ignore"):
        wl, wh = wilson_interval(np.where(binary, rm["sum"], 0), rm["n"])
    rows.append(
        pd.DataFrame(
            {
                "cell": rm["cell"],
                "metric": rm["metric"],
                "scope": "race",
                "races": rm["n"],
                "mean": mean,
                "low": np.where(binary, wl, low),
                "high": np.where(binary, wh, high),
                "interval": np.where(binary, "Wilson", "t"),
            }
        )
    )
    rows.append(_per_sled(results))
    out = pd.concat(rows, ignore_index=True).merge(_labels(results), on="cell", how="left")
    hidden = hidden_columns(results)
    if hidden:
        keep = [(c, m) not in hidden for c, m in zip(out["cell"], out["metric"], strict=True)]
        out = out[keep]
    cols = ["cell", "label", "players", "metric", "scope", "races", "mean", "low", "high"]
    return out[[*cols, "interval"]].sort_values(["cell", "scope", "metric"]).reset_index(drop=True)


def _per_sled(results: Any) -> pd.DataFrame:
    sm = agg_table(results, "seat_metric")
    sm = sm[~sm["metric"].isin(_RESULT_COLUMNS)]
    players = results.cells.set_index("cell")["players"].astype(np.float64)
    races_per_cell = agg_table(results, "slot_finish").groupby("cell")["count"].sum() / players
    rows = []
    races = getattr(results, "races", None)
    totals = None
    if races is not None:
        cols = [m for m in sm["metric"].unique() if m in races.columns]
        # One pass over the rows: every seat column averaged over the seats of a race.
        totals = races.groupby(["cell", "race"], sort=False)[cols].mean().astype(np.float64)
    for (cell, metric), part in sm.groupby(["cell", "metric"], sort=False):
        r = float(races_per_cell.get(cell, np.nan))
        p = float(players.get(cell, np.nan))
        if totals is not None and metric in totals.columns:
            x = totals.loc[cell, metric]
            mean, low, high, _ = mean_interval(len(x), x.sum(), (x * x).sum())
            how = "t"
        else:
            _, _, _, sd = mean_interval(part["n"], part["sum"], part["sumsq"])
            mean = part["sum"].sum() / r / p
            low, high = t_interval(mean, np.nansum(sd) / p, r)
            how = "t, conservative"
        rows.append(
            {
                "cell": cell,
                "metric": metric,
                "scope": "per sled",
                "races": r,
                "mean": float(mean),
                "low": float(low),
                "high": float(high),
                "interval": how,
            }
        )
    return pd.DataFrame(rows)


def race_length_summary(results: Any, metric: str = "rounds") -> pd.DataFrame:
    """Per cell: min, 10th/50th/90th percentile and max of the race length."""
    q = _quantiles(race_length(results, metric), metric)
    return _labels(results).merge(q, on="cell", how="inner")


def heat_by_space(results: Any, kinds: tuple[str, ...] | None = None) -> pd.DataFrame:
    """Events per space (crashes, dents, ...) summed over chunks, per cell and kind.

    Every event the engine counted is here, so a kind sums to its seat total (a crash
    past the finish line is still a crash); ``past_finish`` marks the spaces beyond the
    line, where a crash cannot cost a sled its place (R-18, R-26).

    Returns:
        cell, kind, space, ``count``, ``per_1000_races`` and ``past_finish``; empty for
        trackless games.
    """
    cols = ["cell", "kind", "space", "count", "per_1000_races", "past_finish"]
    heat = getattr(results, "heat", None)
    if heat is None or len(heat) == 0:
        return pd.DataFrame(columns=cols)
    h = heat.assign(kind=heat["kind"].astype(str))
    if kinds is not None:
        h = h[h["kind"].isin(kinds)]
    h = h.groupby(["cell", "kind", "space"])["count"].sum().reset_index()
    h = h[h["count"] > 0]
    races = agg_table(results, "slot_finish").groupby("cell")["count"].sum()
    races = races / results.cells.set_index("cell")["players"]
    h["per_1000_races"] = 1000.0 * h["count"] / h["cell"].map(races)
    h["past_finish"] = False
    for cell, part in h.groupby("cell"):
        past = past_finish(results, int(cell))
        if past is not None:
            s = part["space"].to_numpy()
            inside = (s >= 0) & (s < len(past))
            h.loc[part.index, "past_finish"] = inside & past[np.clip(s, 0, len(past) - 1)]
    h = h.sort_values(["cell", "kind", "count"], ascending=[True, True, False])
    return h[cols].reset_index(drop=True)


def hot_spaces(results: Any, top: int = 10) -> pd.DataFrame:
    """The ``top`` spaces with the most events of each kind, per cell, and where they are.

    Spaces past the finish line are left out: a sled there has finished, and a crash in
    the run-off costs it nothing a designer could fix (R-18, R-26). ``where`` names the
    place as a player finds it on the board (corners and lanes counted from 1, lanes from
    the left), since a space index is on no picture.
    """
    h = heat_by_space(results)
    h = h[~h["past_finish"].astype(bool)].drop(columns="past_finish")
    h = h.groupby(["cell", "kind"], sort=True).head(top).reset_index(drop=True)
    h["where"] = ""
    for cell, part in h.groupby("cell"):
        h.loc[part.index, "where"] = space_places(results, int(cell), part["space"].to_numpy())
    return h


def _cell_track(results: Any, cell: int):
    """The compiled track of ``cell``, or None (no track, or it cannot be loaded)."""
    from simkit import tracks

    meta = results.cells.set_index("cell")
    name = meta.at[cell, "track"] if "track" in meta else None
    try:
        return tracks.load(name) if isinstance(name, str) else None
    except SimkitError:
        return None


def past_finish(results: Any, cell: int) -> np.ndarray | None:
    """Per space of ``cell``'s track: True beyond the finish line; None without a track."""
    from simkit.tracks.compiled import F_PAST_FINISH

    t = _cell_track(results, cell)
    return None if t is None else (t.flags & F_PAST_FINISH) != 0


def space_places(results: Any, cell: int, spaces: np.ndarray) -> list[str]:
    """Where each space of ``cell``'s track lies: "corner 3, lane 2", "straight after
    corner 4, lane 1", ... (corners as in ``overspeed_by_corner``); "" without a track."""
    from simkit.tracks.compiled import F_CORNER, F_PAST_FINISH

    t = _cell_track(results, cell)
    if t is None:
        return [""] * len(spaces)
    out = []
    for s in np.asarray(spaces, dtype=np.int64):
        if not 0 <= s < t.n_spaces:
            out.append("")
            continue
        c, lane = int(t.corners_passed[s]), int(t.lane[s]) + 1
        if t.flags[s] & F_PAST_FINISH:
            place = "past the finish line"
        elif t.flags[s] & F_CORNER:
            place = f"corner {c}"
        else:
            place = f"straight after corner {c}" if c else "start straight"
        out.append(f"{place}, lane {lane}")
    return out


def overspeed_by_corner(
    results: Any, kind: str = "overspeed_dent", *, strict: bool = True
) -> pd.DataFrame:
    """Overspeed dents per corner (R-15), from the per-space heat counts.

    The engine counts the dents a sled was charged (none waived past the finish line by
    R-26, none beyond the dent limit: R-18, R-25), so a cell's corners sum to its seats'
    ``overspeed_dents``. It counts them on the first space past the corner's entry line,
    so a space's corner is the last entry line at or behind it: ``corners_passed - 1``
    (no move of a library track crosses two entry lines at once).
    Cells without a track or without this heat kind are left out; so are cells whose
    track cannot be loaded any more, unless ``strict`` (then that raises ``TrackError``).

    Returns:
        cell, label, ``corner`` (1-based, in track order), ``safety`` (the speed printed
        on its entry line), ``dents`` and ``per_1000_races``.
    """
    heat = heat_by_space(results, kinds=(kind,))
    cols = ["cell", "label", "corner", "safety", "dents", "per_1000_races"]
    if heat.empty or "track" not in results.cells:
        return pd.DataFrame(columns=cols)
    from simkit import tracks

    rows = []
    for cell, part in heat.groupby("cell"):
        meta = results.cells.set_index("cell").loc[cell]
        if not isinstance(meta["track"], str):
            continue
        try:
            t = tracks.load(meta["track"])
        except SimkitError:
            if strict:
                raise
            continue
        corner = t.corners_passed[part["space"].to_numpy()].astype(np.int64) - 1
        dents = np.bincount(
            corner[corner >= 0], part["count"].to_numpy()[corner >= 0], minlength=t.n_corners
        )
        per = np.bincount(
            corner[corner >= 0],
            part["per_1000_races"].to_numpy()[corner >= 0],
            minlength=t.n_corners,
        )
        for c in range(t.n_corners):
            rows.append(
                (cell, meta["label"], c + 1, int(t.corner_safety[c]), int(dents[c]), float(per[c]))
            )
    return pd.DataFrame(rows, columns=cols)
