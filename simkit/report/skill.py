"""The report's section on skill levels: each fairness verdict side by side across them.

On a study with a ``skill`` axis (docs/scenarios.md) the answer already says which verdicts
are robust (:mod:`simkit.report.summary`); this section shows the verdicts level by level
(:func:`simkit.analysis.skill.fairness_across`) and pictures the worst slot at each level.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from simkit.analysis.skill import combinations as skill_combinations
from simkit.analysis.skill import levels as skill_levels
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
) -> None:
    """Fairness verdicts side by side across the skill levels, and the worst slot by level."""
    levels = skill_levels(results.cells)
    doc.add(Heading("Across skill levels"))
    doc.add(
        Paragraph(
            f"Every combination of the study was played at {len(levels)} skill levels "
            f"({', '.join(levels)}), every seat by that level's bot, on the same race keys. "
            "A verdict is robust when it is the same at every level, skill-dependent when it "
            "changes: a designer can trust a robust verdict whoever plays; a skill-dependent "
            "one holds only for the players named."
        )
    )
    doc.add(Table(across, "fairness_across_skill.csv", "Each combination's verdict per level."))
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
