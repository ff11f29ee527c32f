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

After the sum, a tuning may bound side effects against the book's values, or trade the
objective against one (issue 35; the measures and their words are
:data:`simkit.analysis.side_effects.MEASURES`):

- ``fairness; rounds_median<=0.5``: minimise the sum while the median race length stays
  within half a round of the book's, on the same races. A candidate outside a bound scores
  :data:`PENALTY` plus its excess, so any candidate within every bound beats it, and
  successive halving still compares like with like; ``rounds_median`` alone takes the
  measure's own tolerance (0.5).
- ``fairness vs rounds_median``: a Pareto front of the sum and the measure's distance from
  the book's (Optuna's multi-objective sampler, NSGA-II), every candidate played in full.
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


PENALTY = 100.0  # added to a candidate outside a bound (the worst-slot scale is 0-100 pp)


@dataclass(frozen=True)
class Goal:
    """What a tuning asks: the terms to minimise, the side effects bounded against the
    book's values (measure name -> tolerance), and the measure a Pareto front trades the
    terms against (or None)."""

    terms: tuple[Term, ...]
    bounds: tuple[tuple[str, float], ...] = ()
    pareto: str | None = None

    def measures(self) -> tuple[str, ...]:
        """The side-effect measures the goal reads."""
        names = [b for b, _ in self.bounds] + ([self.pareto] if self.pareto else [])
        return tuple(dict.fromkeys(names))


def _measure(name: str) -> Any:
    """A side-effect measure a tuning can bound: from the race length or seat columns."""
    from simkit.analysis.side_effects import BY_NAME

    m = BY_NAME.get(name.strip())
    if m is None or m.round_measure is not None:
        known = [k for k, x in BY_NAME.items() if x.round_measure is None]
        raise SimkitError(
            f"'{name.strip()}' is no side effect a tuning can bound ({', '.join(known)})",
            key="objective",
        )
    return m


def parse_goal(text: str, seat_columns: Any, race_columns: Any) -> Goal:
    """``TERMS``, ``TERMS; MEASURE<=TOL; ...`` or ``TERMS vs MEASURE`` (module docstring)."""
    head, _, rest = text.partition(";")
    head, vs, other = head.partition(" vs ")
    terms = parse(head, seat_columns, race_columns)
    pareto = _measure(other).name if vs else None
    bounds = []
    for part in filter(str.strip, rest.split(";")) if rest else ():
        name, le, tol = part.partition("<=")
        m = _measure(name)
        try:
            value = float(tol) if le else m.tolerance
        except ValueError:
            value = math.nan
        if not (value >= 0 and math.isfinite(value)):
            raise SimkitError(
                f"bound '{part.strip()}' must be MEASURE<=TOLERANCE, a number at least 0 "
                "(e.g. rounds_median<=0.5)",
                key="objective",
            )
        bounds.append((m.name, value))
    if pareto and bounds:
        raise SimkitError(
            "give bounds (TERMS; MEASURE<=TOL) or a front (TERMS vs MEASURE), not both",
            key="objective",
        )
    return Goal(terms, tuple(bounds), pareto)


def measure_value(counts: Counts, name: str) -> float:
    """A side-effect measure of a cell's races: a quantile of race length, or a per-race
    mean of seat columns summed over a race's seats."""
    m = _measure(name)
    if m.quantile is not None:
        if not counts.hist:
            return math.nan
        values = np.array(sorted(counts.hist), dtype=np.float64)
        n = np.array([counts.hist[int(v)] for v in values], dtype=np.float64)
        share = np.cumsum(n) / n.sum()
        return float(values[min(int((share < m.quantile - 1e-12).sum()), len(values) - 1)])
    return sum(counts.mean(c) for c in m.columns)


def excess(goal: Goal, cells: list[Counts], book: list[Counts]) -> float:
    """How far the candidate's worst cell strays beyond each bound, summed (0: within)."""
    total = 0.0
    for name, tol in goal.bounds:
        worst = max(
            abs(measure_value(c, name) - measure_value(b, name))
            for c, b in zip(cells, book, strict=True)
        )
        total += max(0.0, worst - tol)
    return total


def bounded_value(goal: Goal, cells: list[Counts], book: list[Counts] | None) -> float:
    """The objective, plus :data:`PENALTY` and the excess where a bound is broken."""
    v = value(goal.terms, cells)
    if not goal.bounds or book is None:
        return v
    e = excess(goal, cells, book)
    return v + (PENALTY + e if e > 0 else 0.0)


def distance(goal: Goal, cells: list[Counts], book: list[Counts]) -> float:
    """The Pareto front's second objective: the measure's largest distance from the book's
    over the candidate's cells."""
    return max(
        abs(measure_value(c, goal.pareto) - measure_value(b, goal.pareto))
        for c, b in zip(cells, book, strict=True)
    )


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
    hist: dict[int, int] = field(default_factory=dict)  # races by length in rounds

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
        lengths, n = np.unique(np.asarray(batch.races["rounds"]), return_counts=True)
        for r, k in zip(lengths.tolist(), n.tolist(), strict=True):
            self.hist[int(r)] = self.hist.get(int(r), 0) + int(k)

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
            "hist": {str(k): v for k, v in sorted(self.hist.items())},
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Counts:
        return cls(
            int(data["players"]),
            int(data["races"]),
            int(data["decided"]),
            {int(k): int(v) for k, v in data["wins"].items()},
            {str(k): float(v) for k, v in data["sums"].items()},
            {int(k): int(v) for k, v in data.get("hist", {}).items()},
        )


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
