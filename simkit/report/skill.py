"""The report's section on skill levels: each fairness verdict side by side across them.

On a study with a ``skill`` axis (docs/scenarios.md) the answer already says which verdicts
are robust (:mod:`simkit.report.summary`); this section shows the verdicts level by level
(:func:`simkit.analysis.skill.fairness_across`) and pictures the worst slot at each level.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from simkit.analysis.fairness import fairness_by_slot
from simkit.analysis.skill import combinations as skill_combinations
from simkit.analysis.skill import levels as skill_levels
from simkit.analysis.skill import skill_curve, with_combinations
from simkit.report import plots
from simkit.report.document import Document, Figure, Heading, Paragraph, Table

MAX_SKILL_LINES = 8  # combinations per skill plot; fairness_across_skill.csv holds all


def add_skill_section(
    doc: Document,
    results: Any,
    out: Path,
    tolerance: float,
    summary: pd.DataFrame,
    across: pd.DataFrame,
    tests: pd.DataFrame,
) -> None:
    """Fairness verdicts side by side across the skill levels, the tested differences
    between levels, and the worst slot by level."""
    levels = skill_levels(results.cells)
    doc.add(Heading("Across skill levels"))
    _measured_order(doc, results)
    doc.add(
        Paragraph(
            f"Every combination of the study was played at {len(levels)} skill levels "
            f"({', '.join(levels)}), every seat by that level's bot, on the same race keys. "
            "Each slot's win rate is compared between every two levels, paired on the races "
            "they share, and tested against the fairness tolerance (±"
            f"{100 * tolerance:g} pp): does it lie significantly beyond it? Holm-corrected "
            "over the study. A verdict is robust when every level decided it the same way "
            "and no level differs from another by significantly more than the tolerance: a "
            "designer can trust it whoever plays; skill-dependent when some slot's win rate "
            "differs between levels by significantly more than the tolerance (the sentence "
            "gives the difference and its interval); undetermined when no such difference "
            "is found but some level could not decide (it says how many races that level "
            "needs). A real shift smaller than the tolerance is named, not counted."
        )
    )
    doc.add(Table(across, "fairness_across_skill.csv", "Each combination's verdict per level."))
    if len(tests):
        doc.add(
            Table(
                tests,
                "fairness_across_skill_tests.csv",
                "Every slot's win-rate difference between two levels (level_b - level_a, "
                "95% interval; significant: differs from 0, beyond: lies beyond the "
                "tolerance, each after Holm's correction over the study).",
            )
        )
    combo = skill_combinations(results.cells).set_index("cell")["label"]
    rows = summary.assign(label=summary["cell"].map(combo))
    for n, part in rows.groupby("players", sort=True):
        labels = list(dict.fromkeys(part["label"]))[:MAX_SKILL_LINES]
        png = f"skill_{n}.png"
        plots.skill_deviation(
            out / png,
            part[part["label"].isin(labels)],
            levels,
            tolerance,
            f"{n} players: the worst slot at each skill level",
        )
        doc.add(
            Figure(
                png,
                f"{n} players: how far the worst start slot's win rate is from the fair "
                f"{100 / n:.3g}%, in percentage points with its 95% Wilson interval, at each "
                "skill level; below the dashed line (the tolerance) it is within the fair "
                "band. Points of one combination are joined; each names its worst slot and "
                "whether it is ahead or behind.",
            )
        )
    _skill_curves(doc, results, out, tolerance, getattr(results, "levels", None))


MAX_CURVES = 6  # combinations drawn as a skill curve; skill_curve.csv holds all


def _skill_curves(
    doc: Document, results: Any, out: Path, tolerance: float, strength: pd.DataFrame | None
) -> None:
    """Per combination: every slot's deviation from fair against the levels' strength."""
    slots = with_combinations(fairness_by_slot(results), results.cells)
    curve = skill_curve(slots, strength)
    rated = strength is not None and len(strength) > 0
    xlabel = (
        "skill level and its rating on this study's ground (level check)"
        if rated
        else "skill level, in the study's order (not rated here)"
    )
    doc.add(
        Table(
            curve,
            "skill_curve.csv",
            "Each slot's win rate minus fair (with its 95% interval) at each level, and the "
            "level's strength (x).",
        )
    )
    for combo, part in list(curve.groupby("combination", sort=True))[:MAX_CURVES]:
        png = f"skill_curve_{combo}.png"
        label = str(part["label"].iloc[0])
        title = f"{label}: slots as play improves"
        plots.skill_curve(out / png, part, tolerance, title, xlabel, rated)
        doc.add(
            Figure(
                png,
                f"{label}: how far each start slot's win rate is from fair (pp, 95% Wilson "
                "interval) at each skill level, placed by the level's "
                + ("rating measured in this study's own setting" if rated else "rank")
                + "; the green band is the fair rate ± the tolerance.",
            )
        )


def _measured_order(doc: Document, results: Any) -> None:
    """The section opens with the order of the levels measured where the study plays."""
    check = getattr(results, "levels", None)
    if check is None or check.empty:
        doc.add(
            Paragraph(
                "The order of the levels was not measured in this study's settings "
                "(check_levels = false, or a run made before the check): the levels are "
                "taken in the scenario's order, weakest first, as listed."
            )
        )
        return
    flagged = check[check["flag"].astype(bool)]
    combo = skill_combinations(results.cells).set_index("cell")["label"]
    if flagged.empty:
        head = (
            "Measured where the study plays (mixed lineups of adjacent levels, seats rotated, "
            "common random numbers; the ladder's ratings): every level is stronger than the "
            "one listed before it, in every setting."
        )
    else:
        head = (
            f"Measured where the study plays (mixed lineups of adjacent levels, seats rotated, "
            f"common random numbers; the ladder's ratings): {len(flagged)} level"
            f"{'s are' if len(flagged) > 1 else ' is'} not stronger than the one listed "
            "before it: "
            + "; ".join(f"{combo[r.cell]}: {r.sentence}" for r in flagged.itertuples())
            + ". Across-skill labels between such levels say so: they are not two skill "
            "levels there."
        )
    doc.add(Paragraph(head, "warning" if len(flagged) else ""))
    shown = check.assign(setting=check["cell"].map(combo))
    doc.add(
        Table(
            shown,
            "skill_levels.csv",
            "The levels' measured order in each setting: rating (0 = the setting's mean "
            "level), the difference to the level below and the head-to-head share, with 95% "
            "intervals.",
        )
    )
