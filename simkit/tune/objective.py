"""What a tuning minimises, and the race counts it is computed from (docs/tuning.md).

An objective is a sum of weighted terms, written ``fairness + 0.5*rounds=12``:

- ``fairness``: the worst start slot's deviation from a fair share, in percentage points:
  ``100 * max |wins(slot) / decided - 1 / players|`` over decided races (GLOSSARY), the
  number the reports call the worst-slot deviation;
- ``COLUMN=TARGET``: how far a result column's mean per race lies from a target, in the
  column's unit: a race column (``rounds=12``: a target race length) or a seat column
  summed over the seats of a race (``dents_taken=3``: three dents per race).

A candidate plays every cell of the scenario (e.g. one per skill level) and is worth its
worst cell, so a rule tuned on several skill levels is fair for all of them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from simkit.errors import SimkitError
from simkit.games.base import Batch
from simkit.outcomes import decided

FAIRNESS = "fairness"


@dataclass(frozen=True)
class Term:
    """``weight * |mean(column) - target|``, or ``weight * worst-slot deviation`` (pp)."""

    name: str
    weight: float = 1.0
    target: float | None = None

    def text(self) -> str:
        w = "" if self.weight == 1 else f"{self.weight:g}*"
        return w + (self.name if self.target is None else f"{self.name}={self.target:g}")


MAX_WEIGHT = 1e6  # a sum of terms in pp: larger weights only overflow


def parse(text: str, seat_columns: Any, race_columns: Any) -> tuple[Term, ...]:
    """The terms of ``text``; ``SimkitError`` (key ``objective``) naming what is wrong."""
    terms = []
    for part in text.split("+"):
        weight, star, rest = part.partition("*")
        if not star:
            weight, rest = "", part
        name, eq, target = (x.strip() for x in rest.partition("="))
        try:
            w = float(weight) if weight.strip() else 1.0
            t = float(target) if eq else None
        except ValueError:
            w = t = None
        if not name.isidentifier() or w is None or (eq and t is None):
            raise SimkitError(
                f"objective term '{part.strip()}' is not TERM or WEIGHT*TERM; terms are "
                "fairness and COLUMN=TARGET, e.g. 'fairness + 0.5*rounds=12'",
                key="objective",
            )
        if name == FAIRNESS:
            if t is not None:
                raise SimkitError("fairness takes no target (fair is 1/players)", key="objective")
        elif name in seat_columns or name in race_columns:
            if t is None:
                raise SimkitError(
                    f"objective term '{name}' needs a target: {name}=VALUE", key="objective"
                )
        else:
            known = sorted({*seat_columns, *race_columns} - {"slot", "finish"})
            raise SimkitError(
                f"objective term '{name}' is neither fairness nor a result column "
                f"({', '.join(known)})",
                key="objective",
            )
        if not (w > 0 and math.isfinite(w)) or w > MAX_WEIGHT:
            raise SimkitError(
                f"objective weight of '{name}' must be above 0 and at most {MAX_WEIGHT:g} "
                f"(got {weight.strip()[:20]})",
                key="objective",
            )
        if t is not None and not math.isfinite(t):
            raise SimkitError(
                f"objective target of '{name}' must be a finite number (got {target[:20]})",
                key="objective",
            )
        terms.append(Term(name, w, t))
    return tuple(terms)


def text(terms: tuple[Term, ...]) -> str:
    return " + ".join(t.text() for t in terms)


@dataclass
class Counts:
    """What one cell's races add up to: enough for any objective, over any races."""

    players: int
    races: int = 0
    decided: int = 0
    wins: dict[int, int] = field(default_factory=dict)  # by start slot, decided races
    sums: dict[str, float] = field(default_factory=dict)  # per-race totals of columns

    def add(self, batch: Batch, columns: tuple[str, ...]) -> None:
        ok, won = decided(batch.seats["finish"], batch.seats["finished"])
        slots = batch.seats["slot"].astype(np.int64)
        self.races += len(ok)
        self.decided += int(ok.sum())
        for s in np.unique(slots):
            self.wins[int(s)] = self.wins.get(int(s), 0) + int(won[slots == s].sum())
        for c in columns:
            v = batch.races[c] if c in batch.races else batch.seats[c].sum(axis=1)
            self.sums[c] = self.sums.get(c, 0.0) + float(np.asarray(v, np.float64).sum())

    def deviation(self) -> float:
        """The worst slot's deviation from 1/players in decided races, in pp (100 if none)."""
        if not self.decided:
            return 100.0
        fair = 1.0 / self.players
        return 100.0 * max(abs(w / self.decided - fair) for w in self.wins.values())

    def mean(self, column: str) -> float:
        return self.sums.get(column, 0.0) / self.races if self.races else float("nan")

    def to_json(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "races": self.races,
            "decided": self.decided,
            "wins": {str(k): v for k, v in sorted(self.wins.items())},
            "sums": self.sums,
        }


def columns(terms: tuple[Term, ...]) -> tuple[str, ...]:
    """The result columns the terms read."""
    return tuple(t.name for t in terms if t.target is not None)


def cell_value(terms: tuple[Term, ...], c: Counts) -> float:
    total = 0.0
    for t in terms:
        if t.target is None:
            total += t.weight * c.deviation()
        else:
            total += t.weight * abs(c.mean(t.name) - t.target)
    return total


def value(terms: tuple[Term, ...], cells: list[Counts]) -> float:
    """The objective of a candidate: its worst cell's."""
    return max(cell_value(terms, c) for c in cells)
