"""MUSH's own questions (issue 8): fair training types, initiative, strategies, short games.

A win is reaching the goal first (``points == 1``); a race that hit ``max_rounds`` has no
winner (``timed_out``) and counts as a loss for every seat. Training levels are 0 warm,
1 mild, 2 cold (R-44). Everything needs per-race rows.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from simkit.analysis.games import factor_rates, gof_by, mean_table, rate_table
from simkit.analysis.tables import race_rows

TRAINING = {0: "warm", 1: "mild", 2: "cold"}
STRATEGY_METRICS = ("tokens_left", "tokens_spent", "rests", "to_go", "rerolls", "dice_removed")


def seats(results: Any) -> pd.DataFrame:
    """Per-seat rows with ``win`` (first into the goal), ``training_name`` and ``players``."""
    rows = race_rows(results, "the MUSH analysis").copy()
    rows["win"] = rows["points"] == 1
    rows["training_name"] = rows["training"].map(TRAINING)
    rows = rows.merge(results.cells[["cell", "label", "players"]], on="cell", how="left")
    return rows


def _rates(s: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """Win rate per seat of each group, against the fair 1 / players."""
    out = rate_table(s, keys, "win", "win").rename(columns={"n": "seats"})
    out["fair_rate"] = 1.0 / out["players"]
    out["deviation"] = out["win_rate"] - out["fair_rate"]
    return out


def training(results: Any, by: str = "cell") -> pd.DataFrame:
    """Win rate per seat of each training type, per cell or pooled by ``players``.

    A fair training type wins 1/players of the races it is in per seat; ``seats_per_race``
    says how many sleds took it (the limits of R-44 cap it). Seats choose their training
    (bots: best expected dice, or a ``train=`` parameter), so this is the worth of the
    training as the bots use it.
    """
    s = seats(results)
    keys = ["cell", "label", "players"] if by == "cell" else ["players"]
    out = _rates(s, [*keys, "training", "training_name"])
    races = s.drop_duplicates(["cell", "race"]).groupby(keys, observed=True).size()
    per = out.set_index(keys).index.map(races)
    out["seats_per_race"] = out["seats"] / per.to_numpy()
    return out


def training_test(results: Any) -> pd.DataFrame:
    """Per cell: chi-square test that every training wins in proportion to its seats."""
    s = seats(results)
    out = gof_by(s, "cell", "training", "win")
    return out.merge(results.cells[["cell", "label", "players"]], on="cell")


def initiative(results: Any) -> pd.DataFrame:
    """Win rate by start slot (order of choosing training) and by first initiative, per cell."""
    s = seats(results)
    factors = {
        "start slot (chooses training)": s["slot"].astype(str),
        "initiative in round 1": s["initiative_first"].map({True: "yes", False: "no"}),
    }
    out = factor_rates(s, factors)
    out = out.merge(results.cells[["cell", "label", "players"]], on="cell")
    out["fair_rate"] = 1.0 / out["players"]
    out["deviation"] = out["win_rate"] - out["fair_rate"]
    return out


def strategies(results: Any) -> pd.DataFrame:
    """Win rate and token/rest habits of each bot (e.g. token-rich vs rested), per cell.

    Bots are parameter variants such as ``greedy:start_rest=3`` (token-rich) or
    ``greedy:rest_at=3`` (rested); their seats take random slots, so each is measured
    from every slot.
    """
    s = seats(results).assign(bot=lambda f: f["bot"].astype(str))
    keys = ["cell", "label", "players", "bot"]
    out = _rates(s, keys)
    for m in STRATEGY_METRICS:
        t = mean_table(s, keys, m)[[*keys, "mean"]].rename(columns={"mean": f"{m}_mean"})
        out = out.merge(t, on=keys)
    return out


def game_length(results: Any) -> pd.DataFrame:
    """Per cell: rounds (mean, t interval, percentiles), lead changes and timed-out share."""
    s = seats(results)
    r = s.drop_duplicates(["cell", "race"])
    out = pd.concat(
        [mean_table(r, ["cell"], m) for m in ("rounds", "lead_changes")], ignore_index=True
    )
    out = out.merge(results.cells[["cell", "label", "preset", "players"]], on="cell")
    timed = rate_table(r, ["cell"], "timed_out", "timed_out").drop(columns="n")
    out = out.merge(timed, on="cell")
    first = ["cell", "label", "preset", "players", "metric"]
    return out[[*first, *(c for c in out.columns if c not in first)]]
