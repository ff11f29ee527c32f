"""A ladder run analysed once: ratings, win rates, head to head and rungs (docs/ladder.md).

:func:`analyse` reads a ladder run and fits it with :mod:`simkit.analysis.ratings`; the CLI
prints from the :class:`Ladder` it returns and :mod:`simkit.report.ladder` draws it. Apart
from :mod:`simkit.analysis.ratings` because it reads the ladder's design
(:mod:`simkit.ladder`, which plays on the runner), while the runner's skill levels fit
ratings too.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from simkit.analysis.ratings import (
    REPLICATES,
    Outcomes,
    Ratings,
    fit,
    head_to_head,
    outcomes,
    rungs,
    win_rates,
)
from simkit.errors import RunError
from simkit.ladder import bots_of, design_of


@dataclass(frozen=True)
class Ladder:
    """A ladder run and its analysis: what the report and the CLI show."""

    results: Any
    design: list[tuple[str, ...]]
    outcomes: Outcomes
    ratings: Ratings
    table: pd.DataFrame  # ratings and win rates, best first
    rungs: list[str]
    h2h: pd.DataFrame
    races: int

    @property
    def bots(self) -> tuple[str, ...]:
        return self.outcomes.bots


def analyse(run: Any, *, replicates: int = REPLICATES) -> Ladder:
    """Fit the ladder in ``run`` (a run directory or loaded ``Results``)."""
    if not (hasattr(run, "cells") and hasattr(run, "races")):
        from simkit.results import load

        run = load(run)
    design = design_of(run.manifest)
    if run.races is None or run.races.empty:
        raise RunError(f"'{run.dir}' holds no per-race rows yet; finish it with --resume")
    o = outcomes(run.races, bots_of(design))
    if not o.decided.any():
        raise RunError(f"'{run.dir}' has no decided race (a single winner who finished) to rate")
    seed = int(run.manifest["seed"])
    r = fit(o, seed=seed, replicates=replicates)
    wins = win_rates(o).rename(columns={"low": "win_low", "high": "win_high"})
    table = r.table().merge(wins, on="bot")
    h2h = head_to_head(o)
    rating = dict(zip(o.bots, r.rating, strict=True))
    with np.errstate(invalid="ignore"):
        gap = h2h["opponent"].map(rating) - h2h["bot"].map(rating)
        h2h["model"] = 1.0 / (1.0 + np.exp(gap))
    return Ladder(run, design, o, r, table, rungs(r, o, seed=seed), h2h, len(o.key))
