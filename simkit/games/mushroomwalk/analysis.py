"""Mushroom Walk's own questions (issue 7): first-player advantage, scores, length, card value.

Slot 1 is the player who starts (R-51), slot 2 the other. ``finish`` is 1 for BOTH players
on a draw (docs/rules-mushroomwalk.md "Results"), so a win here is ``finish == 1`` and not
``draw``; draws are counted on their own. Everything needs per-race rows.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from simkit.analysis.compare import paired_difference
from simkit.analysis.games import distribution, factor_rates, mean_table, rate_table
from simkit.analysis.stats import t_interval
from simkit.analysis.tables import race_rows
from simkit.errors import RunError

EARLY_PAN_TURN = 10  # game turn (both players' turns counted) by which a pan is "early"
RACE_METRICS = ("starter_win", "draw", "turns", "margin", "score_total")


def seats(results: Any) -> pd.DataFrame:
    """Per-seat rows with ``win`` (first and not a draw) and the cell's label."""
    rows = race_rows(results, "the Mushroom Walk analysis").copy()
    rows["win"] = (rows["finish"] == 1) & ~rows["draw"].astype(bool)
    return rows


def races(results: Any) -> pd.DataFrame:
    """One row per game: who won (starter, second, draw), length, margin and scores."""
    s = seats(results)
    wide = s.pivot_table(
        index=["cell", "race"], columns="slot", values=["win", "score"], aggfunc="first"
    )
    out = s.drop_duplicates(["cell", "race"]).set_index(["cell", "race"])
    out = out[["draw", "turns", "rounds", "margin"]].copy()
    out["starter_win"] = wide[("win", 1)].astype(bool)
    out["second_win"] = wide[("win", 2)].astype(bool)
    out["draw"] = out["draw"].astype(bool)
    out["score_starter"] = wide[("score", 1)].astype("int64")
    out["score_second"] = wide[("score", 2)].astype("int64")
    out["score_total"] = out["score_starter"] + out["score_second"]
    return out.reset_index()


def _labels(results: Any) -> pd.Series:
    return results.cells.set_index("cell")["label"]


def first_player(results: Any) -> pd.DataFrame:
    """How much moving first is worth, per cell.

    Returns one row per cell: ``races``; wins of the starter and of the second player and
    draws, each as a rate of all games with a Wilson interval; ``decided_starter_rate``
    (the starter's share of the games somebody won, Wilson); and ``advantage``: the
    starter's win rate minus the second player's, the mean of +1/-1/0 per game with a
    Student-t interval (a draw is 0).
    """
    r = races(results)
    out = rate_table(r, ["cell"], "starter_win", "starter_win")
    for col in ("second_win", "draw"):
        t = rate_table(r, ["cell"], col, col).drop(columns="n")
        out = out.merge(t, on="cell")
    decided = r[~r["draw"]]
    dec = rate_table(decided, ["cell"], "starter_win", "decided_starter")
    dec = dec.drop(columns="decided_starters").rename(columns={"n": "decided"})
    out = out.merge(dec, on="cell", how="left")
    d = (r["starter_win"].astype(np.int64) - r["second_win"].astype(np.int64)).groupby(r["cell"])
    mean, sd, n = d.mean(), d.std(ddof=1), d.size()
    low, high = t_interval(mean, sd, n)
    adv = pd.DataFrame(
        {"advantage": mean, "advantage_low": low, "advantage_high": high}, index=mean.index
    )
    out = out.merge(adv, left_on="cell", right_index=True).rename(columns={"n": "races"})
    out.insert(1, "label", out["cell"].map(_labels(results)))
    return out


def scores(results: Any) -> pd.DataFrame:
    """Mean score by player (slot 1 starts; ``all`` = both) and winning margin, per cell."""
    s = seats(results)
    by_slot = mean_table(s, ["cell", "slot"], "score")
    both = mean_table(s.assign(slot="all"), ["cell", "slot"], "score")
    margin = mean_table(races(results).assign(slot="all"), ["cell", "slot"], "margin")
    out = pd.concat([by_slot.astype({"slot": str}), both, margin], ignore_index=True)
    out = out.sort_values(["cell", "metric", "slot"], kind="stable").reset_index(drop=True)
    out.insert(1, "label", out["cell"].map(_labels(results)))
    return out


def score_distribution(results: Any) -> pd.DataFrame:
    """How often each score occurs, per cell (both players pooled)."""
    return distribution(seats(results), ["cell"], "score")


def game_length(results: Any) -> pd.DataFrame:
    """Game length per cell: turns (every turn of both players) and rounds of two turns."""
    r = races(results)
    out = pd.concat([mean_table(r, ["cell"], m) for m in ("turns", "rounds")], ignore_index=True)
    out.insert(1, "label", out["cell"].map(_labels(results)))
    return out


def card_value(results: Any, early_turn: int = EARLY_PAN_TURN) -> pd.DataFrame:
    """Win rate by what a player took: early pan, pans, baskets, night cards, poison, ...

    Associations, not causes (see :func:`simkit.analysis.games.factor_rates`): they say
    which holdings go with winning under these bots, not what a card would add by itself.
    """
    s = seats(results)
    first = s["first_pan_turn"]
    early = np.where(first < 0, "never", np.where(first <= early_turn, "yes", "later"))
    factors = {
        f"pan taken by game turn {early_turn}": pd.Series(early, index=s.index),
        "pans taken": s["pans_taken"].clip(upper=4).map(lambda v: "4+" if v >= 4 else str(v)),
        "baskets": s["baskets"].clip(upper=3).map(lambda v: "3+" if v >= 3 else str(v)),
        "night cards": s["night_cards"].clip(upper=5).map(lambda v: "5+" if v >= 5 else str(v)),
        "poison taken": s["poison_taken"].clip(upper=2).map(lambda v: "2+" if v >= 2 else str(v)),
        "butter used": (s["butter_used"] > 0).map({True: "yes", False: "no"}),
        "cider used": (s["cider_used"] > 0).map({True: "yes", False: "no"}),
    }
    out = factor_rates(s, factors)
    out.insert(1, "label", out["cell"].map(_labels(results)))
    return out


def preset_comparison(results: Any) -> pd.DataFrame:
    """Each cell against the first cell with the same bots, game by game (common random numbers).

    For Mushroom Walk vs Morels numbers (``[grid] preset = ["mushroomwalk", "morels"]``):
    paired differences (cell - baseline) of the starter's win, draws, turns, margin and
    both players' total score. Cells with different bots are never paired (that would
    measure the bots). The two decks differ, so the shuffles only partly pair;
    ``variance_ratio`` says how much pairing still helped.
    """
    if not results.manifest.get("crn", True):
        raise RunError(
            f"{getattr(results, 'dir', 'the run')}: cells do not share random numbers "
            "(crn = false), so games cannot be paired; run the scenario with crn = true"
        )
    r = races(results).set_index(["cell", "race"])
    labels = _labels(results)
    rows = []
    for _, group in results.cells.groupby(["players", "bots"], sort=False):
        ids = list(group["cell"])
        base = ids[0]
        a = r.loc[base]
        for c in ids[1:]:
            b = r.loc[c]
            common = a.index.intersection(b.index)
            for m in RACE_METRICS:
                diff = paired_difference(a.loc[common, m], b.loc[common, m])
                rows.append(
                    {
                        "baseline": base,
                        "cell": c,
                        "baseline_label": labels[base],
                        "label": labels[c],
                        "metric": m,
                        **diff,
                    }
                )
    out = pd.DataFrame(rows)
    if len(out):
        out["significant"] = (out["low"] > 0) | (out["high"] < 0)
    return out
