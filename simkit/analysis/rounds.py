"""Who wins from where: measures over the rounds of a race (issue 14 item 4).

In the spirit of Ludii's game metrics (how early is a game decided? how often does the
player behind come back?) and DominionSim's per-turn charts. Everything comes from the
per-round counts (``Results.rounds``, docs/tables.md "round_position") and the aggregate
tables, so memory stays flat however many races a run has. Only decided races count.
docs/statistics.md ("Who wins from where") defines each measure.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from simkit.analysis.stats import wilson_interval
from simkit.analysis.tables import agg_table

DECIDED_AT = 0.9  # the race counts as decided once the leader wins this often
# ... at a round that at least this many decided races reach: a round only the longest
# few races reach says nothing about when a race is decided (MUSH: round 75 of ~45).
MIN_AT_ROUND = 30


def from_start(results: Any) -> pd.DataFrame:
    """The per-round counts by round from the start (``round`` >= 1), all races; the rows
    counted back from the race's end (``round`` <= -1) are :mod:`simkit.analysis.drama`'s."""
    rounds = getattr(results, "rounds", None)
    if rounds is None or len(rounds) == 0:
        return pd.DataFrame(columns=["cell", "round", "slot", "position", "finish", "count"])
    return rounds[rounds["round"] > 0]


def _rounds(results: Any) -> pd.DataFrame:
    rounds = from_start(results)
    return rounds[rounds["finish"] > 0]  # decided races only


def has_rounds(results: Any) -> bool:
    """Whether the run recorded per-round counts (the game fills ``Batch.round_position``)."""
    return not _rounds(results).empty


def win_by_position(results: Any) -> pd.DataFrame:
    """Win probability by race position at the end of each round, over decided races.

    Returns:
        One row per (cell, round, position): ``seats`` (seats in that position at the end of
        that round, in decided races still running), ``wins`` (of them, the race's winner),
        ``win_rate`` with its Wilson interval ``win_low``/``win_high``.
    """
    r = _rounds(results)
    g = r.assign(win=np.where(r["finish"] == 1, r["count"], 0))
    out = g.groupby(["cell", "round", "position"], sort=True)[["count", "win"]].sum()
    out = out.reset_index().rename(columns={"count": "seats", "win": "wins"})
    out["win_rate"] = out["wins"] / out["seats"]
    out["win_low"], out["win_high"] = wilson_interval(out["wins"], out["seats"])
    return out


def position_by_slot(results: Any) -> pd.DataFrame:
    """Where each start slot stands at the end of each round: does its edge fade?

    Over every race still running at the end of the round (decided or not): the share of
    the slot's seats leading then (race position 1) with its Wilson interval, and the
    slot's mean race position. Rows of a run recorded before the slot column (slot 0) are
    left out.

    Returns:
        One row per (cell, round, slot): ``seats``, ``leading``, ``lead_rate``,
        ``lead_low``, ``lead_high`` and ``mean_position``.
    """
    cols = ["cell", "round", "slot", "seats", "leading", "lead_rate", "lead_low", "lead_high"]
    rounds = from_start(results)
    if len(rounds) == 0:
        return pd.DataFrame(columns=[*cols, "mean_position"])
    r = rounds[rounds["slot"] > 0]
    g = r.assign(
        lead=np.where(r["position"] == 1, r["count"], 0),
        psum=r["position"].astype(np.int64) * r["count"],
    )
    out = g.groupby(["cell", "round", "slot"], sort=True)[["count", "lead", "psum"]].sum()
    out = out.reset_index().rename(columns={"count": "seats", "lead": "leading"})
    out["lead_rate"] = out["leading"] / out["seats"]
    out["lead_low"], out["lead_high"] = wilson_interval(out["leading"], out["seats"])
    out["mean_position"] = out["psum"] / out["seats"]
    return out[[*cols, "mean_position"]]


def position_by_bot(results: Any) -> pd.DataFrame:
    """Where each bot stands at the end of each round: does the stronger bot pull ahead?

    From the counts by seat (``Results.seat_rounds``) and the cell's bot per seat, over
    every race still running at the end of the round: the share of the bot's seats leading
    (Wilson) and their mean race position; in decided races, the share of the bot's seats
    that went on to win. Only cells with more than one bot.

    Returns:
        One row per (cell, round, bot): ``seats``, ``leading``, ``lead_rate``,
        ``lead_low``, ``lead_high``, ``mean_position``, ``decided_seats`` and ``win_rate``.
    """
    cols = ["cell", "round", "bot", "seats", "leading", "lead_rate", "lead_low", "lead_high"]
    cols += ["mean_position", "decided_seats", "win_rate"]
    seats = getattr(results, "seat_rounds", None)
    if seats is None or len(seats) == 0:
        return pd.DataFrame(columns=cols)
    bots = {
        int(c): b.split(",")
        for c, b in zip(results.cells["cell"], results.cells["bots"], strict=True)
    }
    mixed = [c for c, b in bots.items() if len(set(b)) > 1]
    r = seats[seats["cell"].isin(mixed)]
    if r.empty:
        return pd.DataFrame(columns=cols)
    g = r.assign(
        bot=[bots[int(c)][int(s)] for c, s in zip(r["cell"], r["seat"], strict=True)],
        lead=np.where(r["position"] == 1, r["count"], 0),
        psum=r["position"].astype(np.int64) * r["count"],
        dec=np.where(r["finish"] > 0, r["count"], 0),
        won=np.where(r["finish"] == 1, r["count"], 0),
    )
    parts = ["count", "lead", "psum", "dec", "won"]
    out = g.groupby(["cell", "round", "bot"], sort=True)[parts].sum().reset_index()
    out = out.rename(columns={"count": "seats", "lead": "leading", "dec": "decided_seats"})
    out["lead_rate"] = out["leading"] / out["seats"]
    out["lead_low"], out["lead_high"] = wilson_interval(out["leading"], out["seats"])
    out["mean_position"] = out["psum"] / out["seats"]
    with np.errstate(invalid="ignore", divide="ignore"):
        out["win_rate"] = out["won"] / out["decided_seats"]
    return out[cols]


def comebacks_by_round(results: Any) -> pd.DataFrame:
    """Per cell and round: share of decided races whose winner was not leading then.

    Returns:
        One row per (cell, round): ``races`` (decided races still running at the end of
        that round), ``comebacks`` (their winner was not in race position 1) and
        ``comeback_rate`` with its Wilson interval (``comeback_low``/``comeback_high``).
    """
    r = _rounds(results)
    w = r[r["finish"] == 1].assign(behind=lambda d: np.where(d["position"] > 1, d["count"], 0))
    out = w.groupby(["cell", "round"], sort=True)[["count", "behind"]].sum().reset_index()
    out = out.rename(columns={"count": "races", "behind": "comebacks"})
    out["comeback_rate"] = out["comebacks"] / out["races"]
    out["comeback_low"], out["comeback_high"] = wilson_interval(out["comebacks"], out["races"])
    return out


def _median_rounds(results: Any) -> pd.Series:
    h = agg_table(results, "race_hist")
    h = h[h["metric"] == "rounds"].sort_values(["cell", "value"])
    out = {}
    for cell, part in h.groupby("cell"):
        cum = part["count"].cumsum().to_numpy() / part["count"].sum()
        out[cell] = int(part["value"].to_numpy()[np.searchsorted(cum, 0.5 - 1e-12)])
    return pd.Series(out, dtype="int64")


def round_measures(results: Any, threshold: float = DECIDED_AT) -> pd.DataFrame:
    """Per cell: completion rate, the round that decides the race, and the comeback rate.

    - ``decided_rate``: share of races that were decided (a winner who finished), Wilson.
    - ``decided_round``: the first round after which the race leader's win probability
      (over decided races still running) reaches ``threshold``, among rounds at least
      ``MIN_AT_ROUND`` decided races reach; NaN if none does. ``leader_win_rate`` (with
      ``leader_low``/``leader_high``) is that probability at that round.
    - ``comeback_round``: half the median race length (at least round 1), and
      ``comeback_rate`` (``comeback_low``/``comeback_high``): the share of decided races
      still running at its end whose winner was not leading then.

    Returns:
        One row per cell with per-round counts; empty when the run recorded none.
    """
    cols = [
        "cell",
        "label",
        "median_rounds",
        "decided_rate",
        "decided_low",
        "decided_high",
        "decided_round",
        "leader_win_rate",
        "leader_low",
        "leader_high",
        "comeback_round",
        "comeback_races",
        "comeback_rate",
        "comeback_low",
        "comeback_high",
    ]
    if not has_rounds(results):
        return pd.DataFrame(columns=cols)
    rm = agg_table(results, "race_metric")
    done = rm[rm["metric"] == "decided"].groupby("cell")[["n", "sum"]].sum()
    wins = win_by_position(results)
    lead = wins[wins["position"] == 1].set_index(["cell", "round"])
    backs = comebacks_by_round(results).set_index(["cell", "round"])
    median = _median_rounds(results)
    labels = results.cells.set_index("cell")["label"]
    rows = []
    for cell in sorted(set(wins["cell"])):
        n, k = done.loc[cell, "n"], done.loc[cell, "sum"]
        d_low, d_high = wilson_interval(k, n)
        leader = lead.loc[cell]
        enough = leader["seats"] >= MIN_AT_ROUND
        passed = leader.index[(leader["win_rate"] >= threshold) & enough]
        at = int(passed.min()) if len(passed) else None
        # A tournament's rounds here are its races: no more than the rounds recorded.
        recorded = int(leader.index.max())
        half = max(1, min(int(median.get(cell, 2)), recorded) // 2)
        back = backs.loc[cell].reindex([half]).iloc[0]
        rows.append(
            {
                "cell": cell,
                "label": labels.get(cell, str(cell)),
                "median_rounds": int(median.get(cell, 0)),
                "decided_rate": k / n if n else np.nan,
                "decided_low": float(d_low),
                "decided_high": float(d_high),
                "decided_round": np.nan if at is None else at,
                "leader_win_rate": np.nan if at is None else leader.at[at, "win_rate"],
                "leader_low": np.nan if at is None else leader.at[at, "win_low"],
                "leader_high": np.nan if at is None else leader.at[at, "win_high"],
                "comeback_round": half,
                "comeback_races": back["races"],
                "comeback_rate": back["comeback_rate"],
                "comeback_low": back["comeback_low"],
                "comeback_high": back["comeback_high"],
            }
        )
    return pd.DataFrame(rows, columns=cols)
