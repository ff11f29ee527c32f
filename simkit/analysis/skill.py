"""Verdicts across skill levels: does a verdict hold whoever plays? (issues 13 and 23).

A study with a ``skill`` axis (docs/scenarios.md) plays every combination of its grid once
per skill level. Here the cells of one combination are put side by side, and what changes
between levels is **tested**, not read off the verdict words: for every slot and every pair
of levels, the difference of the slot's win rate (its deviation from the fair rate) between
the two levels, with a 95% interval, paired on the races the levels share (the same race
key) and independent elsewhere (:func:`simkit.analysis.stats.difference_of_means`), and
Holm's correction over every such test of the study. A difference counts when it is
significantly **beyond the tolerance** (a minimum-effect test,
:func:`simkit.analysis.stats.beyond_margin`): the study's own fairness tolerance says how
far from fair a slot may be and still be called fair, so a shift between levels smaller
than it does not change what a designer should do, however many races measured it. Each
combination then gets one label (GLOSSARY, docs/statistics.md "Across skill levels"):

- **robust**: every level decided (fair or unfair), the same verdict, and no difference
  between levels significantly beyond the tolerance;
- **skill-dependent**: a difference significantly beyond the tolerance between two levels
  the level check separates (:mod:`simkit.runner.levels`: one is measured stronger than the
  other where the study plays), stated with its size and direction;
- **style-dependent**: no such difference, but one between players the level check finds
  of equal strength (not separated: two bots of a strong field, or adjacent levels that are
  level here), stated as the range of the slot's win rate among them;
- **undetermined**: neither, but some level too imprecise to decide (or the verdicts
  differ by less than the data can tell; or a difference between levels whose strength was
  not measured, which cannot be told skill from style); it says which level and how many
  races it needs.

A significant shift smaller than the tolerance is named in the sentence, not hidden. A
comparison between variants is labelled the same way (:func:`comparisons_across`): the
difference between two levels of a variant's difference, tested against the tolerance
for win rates (other metrics have no tolerance and are tested against zero).

This module holds the tests (:func:`slot_differences`, :func:`fairness_across`,
:func:`comparisons_across`) and the skill curve; which cells form a combination and what
the level check measured are in :mod:`simkit.analysis.skill_levels`, the labels and their
sentences in :mod:`simkit.analysis.skill_labels`.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations as pairs_of
from typing import Any

import numpy as np
import pandas as pd

from simkit.analysis.fairness import needed_text
from simkit.analysis.skill_labels import DEPENDENT, ROBUST, STYLE, UNDETERMINED, label_of, sentence
from simkit.analysis.skill_levels import (
    EQUAL,
    SEPARATED,
    UNMEASURED,
    certified,
    combinations,
    fields_of,
    levels,
    strength_between,
)
from simkit.analysis.stats import (
    Z95,
    Difference,
    adjust,
    beyond_margin,
    difference_of_means,
    overlap_difference,
    overlap_differences,
)

PAIRED = "paired on shared races"
DIFF = ["diff", "low", "high", "p"]
UNPAIRED = "unpaired"


def _level_order(results: Any, frame: pd.DataFrame) -> dict[str, int]:
    """Level -> its rank in the scenario's order (the run's cells), whatever order the
    frame's rows come in (pooled tables sort by name)."""
    found = levels(results.cells) if hasattr(results, "cells") else []
    found += [lv for lv in dict.fromkeys(frame["skill"]) if lv not in found]
    return {lv: i for i, lv in enumerate(found)}


def _pairing(results: Any) -> Callable[[list[int]], Callable[[int], pd.DataFrame] | None]:
    """For a list of cells: their per-race wins by slot (decided races) if the run can pair
    them (per-race rows, one race key for all), else None."""
    races = getattr(results, "races", None)
    if races is None or "cell_key" not in results.cells:
        return lambda cells: None
    keys = results.cells.set_index("cell")["cell_key"]
    from simkit.analysis.compare import by_slot

    rows: dict[int, Any] = {}
    cache: dict[int, pd.DataFrame] = {}

    def wins(cell: int) -> pd.DataFrame:
        if not rows:
            rows.update(races.groupby("cell", observed=True).indices)
        if cell not in cache:
            cache[cell] = by_slot(races.iloc[rows.get(cell, [])], "win")
        return cache[cell]

    # Different race keys share nothing to pair on.
    return lambda cells: wins if cells and keys[cells].nunique() == 1 else None


def slot_differences(
    results: Any,
    slots: pd.DataFrame,
    tolerance: float = 0.0,
    strength: dict[int, dict[frozenset, str]] | None = None,
) -> pd.DataFrame:
    """For every combination, start slot and pair of skill levels: the tested difference.

    Args:
        results: the run (its per-race rows pair levels that share race keys).
        slots: :func:`simkit.analysis.fairness.fairness_by_slot` rows with ``combination``
            and ``skill`` columns; one ``cell`` per (combination, level) pairs race by race,
            rows pooled over several cells (no ``cell`` column) compare unpaired.

    Returns:
        One row per (combination, slot, level pair) in the study's level order (with two
        players slot 1 only: slot 2's difference is the same, mirrored): ``level_a``,
        ``level_b`` (the later level), their win rates ``rate_a``/``rate_b`` and races
        ``decided_a``/``decided_b``, ``fair_rate``, ``diff`` = rate_b - rate_a with its 95%
        interval ``low``/``high`` and ``p``, ``pairing`` (and ``shared``, the races paired),
        and ``p_adjusted``/``significant``: Holm's correction over every row; ``p_beyond``,
        ``p_beyond_adjusted``/``beyond``: the same for the difference lying beyond
        ``±tolerance`` (:func:`simkit.analysis.stats.beyond_margin`), on which the label
        rests. Under no difference between levels ``beyond`` is rarer than ``significant``,
        so the chance that such a study calls anything skill-dependent stays under 5%.
        ``strength`` (:func:`strength_between`) gives each row's ``strength``: whether the
        level check separated the two levels in that setting (``separated``), found them of
        one strength (``equal``), or did not measure them (``unmeasured``).
    """
    order = _level_order(results, slots)
    pairing = _pairing(results)
    rows = []
    for combo, part in slots.groupby("combination", sort=True):
        part = part.sort_values("skill", key=lambda s: s.map(order), kind="stable")
        by_level = {lv: p.set_index("slot") for lv, p in part.groupby("skill", sort=False)}
        cells = [int(p["cell"].iloc[0]) for p in by_level.values()] if "cell" in part else []
        name, players = str(part["label"].iloc[0]), int(part["players"].iloc[0])
        wins = pairing(cells)
        for la, lb in pairs_of(by_level, 2):
            a, b = by_level[la], by_level[lb]
            common = sorted(set(a.index) & set(b.index))
            # Two slots' win rates add up to one: slot 2's difference is slot 1's, mirrored.
            slots = common[:1] if len(common) == 2 else common
            if wins is not None:
                paired = overlap_differences(
                    wins(int(a["cell"].iloc[0])), wins(int(b["cell"].iloc[0]))
                ).reindex(slots)
            for slot in slots:
                ra, rb = a.loc[slot].to_dict(), b.loc[slot].to_dict()
                if wins is not None:
                    test, shared = Difference(*paired.loc[slot, DIFF]), paired.at[slot, "shared"]
                else:
                    test, shared = _binomial_difference(ra, rb), 0
                rows.append(
                    {
                        "combination": int(combo),
                        "label": name,
                        "players": players,
                        "slot": int(slot),
                        "level_a": la,
                        "level_b": lb,
                        "rate_a": float(ra["win_rate"]),
                        "rate_b": float(rb["win_rate"]),
                        "decided_a": int(ra["decided"]),
                        "decided_b": int(rb["decided"]),
                        "fair_rate": float(ra["fair_rate"]),
                        "diff": test.diff,
                        "low": test.low,
                        "high": test.high,
                        "p": test.pvalue,
                        "pairing": PAIRED if wins is not None else UNPAIRED,
                        "shared": int(shared) if np.isfinite(shared) else 0,
                        "strength": (strength or {})
                        .get(int(combo), {})
                        .get(frozenset((la, lb)), UNMEASURED),
                    }
                )
    out = pd.DataFrame(rows)
    if out.empty:
        return out
    out["significant"], out["p_adjusted"] = adjust(out["p"])
    out["tolerance"] = float(tolerance)
    out["p_beyond"] = beyond_margin(out["diff"], out["low"], out["high"], tolerance)
    out["beyond"], out["p_beyond_adjusted"] = adjust(out["p_beyond"])
    out["holm_over"] = len(out)  # the differences Holm's correction runs over
    return out


def _binomial_difference(a: dict, b: dict) -> Difference:
    """Unpaired difference of two win rates from their counts (independent samples)."""

    def stats(r: dict) -> tuple[float, float, float]:
        n, k = float(r["decided"]), float(r["wins"])
        p = k / n if n > 0 else np.nan
        return n, p, p * (1 - p) * n / (n - 1) if n > 1 else np.nan

    return difference_of_means(*stats(a), *stats(b))


def fairness_across(
    results: Any,
    summary: pd.DataFrame,
    slots: pd.DataFrame,
    short: dict,
    tolerance: float,
    distinct: dict[int, dict[tuple[str, str], str]] | None = None,
    strength: dict[int, dict[frozenset, str]] | None = None,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """One row per combination: each level's verdict, the label and its sentence.

    Args:
        results: the run (its per-race rows pair the levels; its level check says which
            levels differ in strength and certifies the top level).
        summary: :func:`simkit.analysis.fairness.fairness` rows with ``combination``,
            ``label`` (the combination's) and ``skill``: one per cell, or pooled (then
            unpaired).
        slots: :func:`simkit.analysis.fairness.fairness_by_slot` rows of the same groups,
            with ``combination`` and ``skill``.
        short: verdict -> the word the report states (``fair``, ``unfair``, ...).
        tolerance: the fairness tolerance: a difference between levels must lie
            significantly beyond it to count; also the races-needed wording.
        distinct: per combination, the adjacent level pairs measured not to differ in
            strength in its setting (:func:`not_distinct`).
        strength: :func:`strength_between` (default: from the run's level check).

    Returns:
        (across, differences): ``across`` has ``combination``, ``label``, ``players``, one
        ``verdict <level>`` column per level, ``across`` (robust / skill-dependent /
        style-dependent / undetermined), ``across_skill`` (the sentence) and, where the
        level check certified the top level, ``top_level`` and ``top_sentence``
        (:func:`certified`); ``differences`` is :func:`slot_differences`.
    """
    levels = getattr(results, "levels", None)
    if strength is None:
        strength = strength_between(levels, getattr(results, "level_pairs", None), results.cells)
    tests = slot_differences(results, slots, tolerance, strength)
    order = _level_order(results, summary)
    fields = fields_of(results)
    rows = []
    for combo, part in summary.groupby("combination", sort=True):
        part = part.sort_values("skill", key=lambda s: s.map(order), kind="stable")
        by_level = {str(r.skill): short[r.verdict] for r in part.itertuples()}
        needs = {
            str(r.skill): needed_text(r.races_needed, tolerance)
            for r in part.itertuples()
            if not np.isnan(r.races_needed)
        }
        mine = tests[tests["combination"] == combo] if len(tests) else tests
        said = sentence(by_level, mine, needs, (distinct or {}).get(combo), fields)
        rows.append(
            {
                "combination": int(combo),
                "label": str(part["label"].iloc[0]),
                "players": int(part["players"].iloc[0]),
                **{f"verdict {k}": v for k, v in by_level.items()},
                "across": label_of(by_level, mine),
                "across_skill": said,
            }
        )
    across = pd.DataFrame(rows)
    cert = certified(levels, results.cells)
    if len(cert) and len(across):
        across = across.merge(cert, on="combination", how="left")
    return across, tests


def _race_values(rows: pd.DataFrame, metric: str, slot: Any) -> pd.Series:
    """Per race: a cell's value of one comparison metric (a slot's, or the race's)."""
    from simkit.analysis.compare import by_slot

    if pd.isna(slot):
        return rows.drop_duplicates("race").set_index("race")[metric].astype(np.float64)
    wide = by_slot(rows, metric)
    return wide[slot] if slot in wide else pd.Series(dtype=np.float64)


def comparisons_across(
    table: pd.DataFrame,
    cells: pd.DataFrame,
    results: Any = None,
    tolerance: float = 0.0,
    strength: dict[int, dict[frozenset, str]] | None = None,
) -> pd.DataFrame:
    """Whether each difference of a comparison holds across levels, tested.

    ``table`` holds :func:`simkit.analysis.compare.compare_cells` rows made within each level
    (baseline and cell of the same level). Rows are matched across levels by (baseline
    combination, combination, metric, slot); for each pair of levels the difference of the
    two levels' differences is tested: race by race on the races all four cells share when
    the run kept them (``results``) and the comparison was paired, else from each level's
    interval as independent. A change of a win-rate difference counts when it lies
    significantly beyond ``±tolerance`` (:func:`simkit.analysis.stats.beyond_margin`); other
    metrics have no tolerance and are tested against zero. Holm's correction runs over
    every such test.

    Returns one row per match: the labels, ``across`` (robust: significant in the same
    direction at every level and no change between levels significantly beyond the
    margin; skill-dependent: such a change; undetermined: neither), ``levels``, ``diff``,
    ``low``, ``high`` and ``significant`` as lists in level order, and the most significant
    between-level change (``change``, ``change_low``, ``change_high``, ``change_levels``,
    ``change_margin`` and ``change_p_adjusted``, Holm's p of the test against the margin).
    A change between levels the run's level check separates makes the row skill-dependent,
    one between players of equal measured strength style-dependent, one between unmeasured
    levels undetermined (as for fairness verdicts, :func:`label_of`); ``strength``
    (:func:`strength_between`) defaults to the run's level check.
    """
    combo = combinations(cells).set_index("cell")
    if strength is None:
        strength = strength_between(
            getattr(results, "levels", None), getattr(results, "level_pairs", None), cells
        )
    rank = {level: i for i, level in enumerate(levels(cells))}
    t = table.assign(
        skill=table["cell"].map(combo["skill"]),
        combination=table["cell"].map(combo["combination"]),
        base_combination=table["baseline"].map(combo["combination"]),
        combination_label=table["cell"].map(combo["label"]),
        base_label=table["baseline"].map(combo["label"]),
        slot_key=table["slot"].astype("Int64").astype(str),
    )
    races = getattr(results, "races", None) if results is not None else None
    keys = ["base_combination", "combination", "metric", "slot_key"]
    t = t.sort_values("skill", key=lambda s: s.map(rank), kind="stable")
    rows, tests = [], []
    for _, part in t.groupby(keys, sort=False):
        sig = part["significant"].astype(bool)
        first = part.iloc[0]
        margin = float(tolerance) if first["metric"] == "win" else 0.0
        known = strength.get(int(first["combination"]), {})
        for (_, x), (_, y) in pairs_of(part.iterrows(), 2):
            kind = known.get(frozenset((x["skill"], y["skill"])), UNMEASURED)
            tests.append((len(rows), x["skill"], y["skill"], margin, kind, _change(x, y, races)))
        signs = set(part.loc[sig, "diff"].gt(0))
        rows.append(
            {
                "baseline_label": first["base_label"],
                "label": first["combination_label"],
                "metric": first["metric"],
                "slot": first["slot"],
                "same_everywhere": bool(sig.all()) and len(signs) == 1,
                "levels": list(part["skill"]),
                "diff": list(part["diff"]),
                "low": list(part["low"]),
                "high": list(part["high"]),
                "significant": list(sig),
                "p_adjusted": float(part["p_adjusted"].max()),
            }
        )
    out = pd.DataFrame(rows)
    if out.empty:
        return out
    frame = pd.DataFrame(
        [(i, a, b, m, k, d.diff, d.low, d.high, d.pvalue) for i, a, b, m, k, d in tests],
        columns=[
            "row", "level_a", "level_b", "change_margin", "strength", "change", "change_low",
            "change_high", "p",
        ],
    )  # fmt: skip
    if frame.empty:
        frame["significant"] = pd.Series(dtype=bool)
        frame["change_p_adjusted"] = pd.Series(dtype=float)
    else:
        frame["p_beyond"] = beyond_margin(
            frame["change"], frame["change_low"], frame["change_high"], frame["change_margin"]
        )
        frame["significant"], frame["change_p_adjusted"] = adjust(frame["p_beyond"])
    # The label's row first: a separated pair's change before an equal pair's before an
    # unmeasured one's, each by its adjusted p.
    first = {SEPARATED: 0, EQUAL: 1, UNMEASURED: 2}
    ranked = frame.assign(
        rank=np.where(frame["significant"].astype(bool), frame["strength"].map(first), 3)
    )
    best = ranked.sort_values(["rank", "change_p_adjusted", "p"], kind="stable")
    best = best.drop_duplicates("row").set_index("row").reindex(range(len(out)))
    label = best["rank"].map({0: DEPENDENT, 1: STYLE, 2: UNDETERMINED})
    out["across"] = np.where(
        label.notna(), label, np.where(out["same_everywhere"], ROBUST, UNDETERMINED)
    )
    out["change_levels"] = [
        f"{b} - {a}" if isinstance(a, str) else ""
        for a, b in zip(best["level_a"], best["level_b"], strict=True)
    ]
    for c in ("change", "change_low", "change_high", "change_margin", "change_p_adjusted"):
        out[c] = best[c].to_numpy()
    return out.drop(columns="same_everywhere")


def _change(x: pd.Series, y: pd.Series, races: pd.DataFrame | None):
    """The difference between two levels' differences (y - x) of one comparison row."""
    if races is not None and x.get("pairing") == "paired" and y.get("pairing") == "paired":
        metric, slot = x["metric"], x["slot"]

        def per_race(row: pd.Series) -> pd.Series:
            base = _race_values(races[races["cell"] == row["baseline"]], metric, slot)
            cell = _race_values(races[races["cell"] == row["cell"]], metric, slot)
            return (cell - base).dropna()

        return overlap_difference(per_race(x), per_race(y))
    # Independent levels: each level's standard error from its own 95% interval.
    se = [(r["high"] - r["low"]) / (2 * Z95) for r in (x, y)]
    n = [max(int(r.get("races_b", 2) or 2), 2) for r in (x, y)]
    return difference_of_means(
        n[0], x["diff"], se[0] ** 2 * n[0], n[1], y["diff"], se[1] ** 2 * n[1]
    )


def skill_curve(slots: pd.DataFrame, strength: pd.DataFrame | None = None) -> pd.DataFrame:
    """Each slot's deviation from fair against the levels' strength (issue 23 item 6).

    Args:
        slots: :func:`simkit.analysis.fairness.fairness_by_slot` rows with ``cell``,
            ``combination`` and ``skill`` (:func:`with_combinations`).
        strength: the level check's table (``Results.levels``: ``cell`` and ``rating``,
            each level's rating in its own setting); None places the levels at their rank in
            the study's order.

    Returns:
        One row per (combination, level, slot): ``label``, ``level``, ``x`` (the rating, or
        the rank), ``slot``, ``deviation``, and the Wilson interval moved by the fair rate
        (``low``, ``high``).
    """
    if strength is not None and len(strength):
        x = slots["cell"].map(strength.set_index("cell")["rating"])
    else:
        order = {lv: i for i, lv in enumerate(dict.fromkeys(slots["skill"]))}
        x = slots["skill"].map(order)
    out = pd.DataFrame(
        {
            "combination": slots["combination"],
            "label": slots["label"],
            "level": slots["skill"],
            "x": x,
            "slot": slots["slot"],
            "deviation": slots["deviation"],
            "low": slots["win_low"] - slots["fair_rate"],
            "high": slots["win_high"] - slots["fair_rate"],
        }
    )
    return out.dropna(subset=["x"]).reset_index(drop=True)
