"""The balance report's variant comparison: each cell against its group's baseline.

Cells with the same game and number of players (and skill level, on a skill axis) form a
group whose first cell is the baseline (:func:`compared_groups`); :func:`comparisons` and
:func:`side_effects_of` compute the differences, :func:`add_comparison_section` shows them
with forest plots (:func:`add_forest_plots`, which the comparison of two runs in
:mod:`simkit.report.balance` draws too). The numbers come from
:mod:`simkit.analysis.compare` and :mod:`simkit.analysis.side_effects`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from simkit.analysis import side_effects
from simkit.analysis.compare import compare_cells, significance_summary
from simkit.analysis.skill_levels import levels as skill_levels
from simkit.report import plots
from simkit.report.document import Document, Figure, Heading, Paragraph, Table

MAX_FORESTS = 4  # forest plots of 30 differences each


def compared_groups(results: Any) -> list[list[int]]:
    """The cells compared with each other: those with the same game and players (and skill
    level, on a skill axis: variants are compared at each level), the first the baseline."""
    keys = ["game", "players", *(["skill"] if skill_levels(results.cells) else [])]
    parts = results.cells.groupby(keys, sort=True, dropna=False)
    return [list(g["cell"]) for _, g in parts if len(g) > 1]


def comparisons(results: Any, tolerance: float) -> pd.DataFrame | None:
    """Each cell against the first of its :func:`compared_groups`; None if none pair up."""
    groups = compared_groups(results)
    if not groups:
        return None
    return pd.concat(
        [compare_cells(results, g, tolerance=tolerance) for g in groups], ignore_index=True
    )


def side_effects_of(results: Any) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Every cell's side effects, and each compared cell's against its baseline."""
    measures = side_effects.cell_measures(results)
    pairs = [(g[0], c) for g in compared_groups(results) for c in g[1:]]
    seed = int(results.manifest.get("seed") or 0)
    side = side_effects.differences(results, pairs, seed=seed) if pairs else pd.DataFrame()
    return measures, side


def add_comparison_section(
    doc: Document,
    results: Any,
    out: Path,
    tolerance: float,
    table: pd.DataFrame | None,
    across: pd.DataFrame | None = None,
) -> None:
    """Append the variant comparison: each cell against its group's baseline (``table``,
    None: nothing to compare), across skill levels (``across``), and its forest plots."""
    doc.add(Heading("Variant comparison"))
    if table is None:
        if skill_levels(results.cells):
            doc.add(
                Paragraph(
                    "No variants to compare: on a skill axis variants are compared within a "
                    "level, and no two cells share game, number of players and skill level. "
                    "The levels themselves are compared under 'Across skill levels'."
                )
            )
        else:
            doc.add(Paragraph("Nothing to compare: no two cells share game and number of players."))
        return
    paired = (table["pairing"] == "paired").all()
    how = (
        "race by race on common random numbers (paired Student-t); races_unpaired is how many "
        "races per cell an unpaired comparison would have needed for the same precision"
        if paired
        else "as independent samples (Welch), because the run "
        + (
            "kept aggregates only"
            if results.races is None
            else "does not share random numbers between cells (crn = false)"
        )
    )
    exceed = int(table["exceeds_tolerance"].fillna(False).sum())
    doc.add(
        Paragraph(
            "Each cell against the first cell with the same number of players, "
            f"{how}: diff = cell - baseline with a 95% interval. "
            + significance_summary(table)
            + f" {exceed} win-rate difference"
            + (" exceeds" if exceed == 1 else "s exceed")
            + f" ±{tolerance * 100:g} pp (significant, and the whole interval beyond it)."
        )
    )
    doc.add(Table(table, "comparison.csv", "Differences against each group's baseline."))
    if across is not None:
        doc.add(
            Paragraph(
                "On the skill axis each variant is compared with the baseline at each skill "
                "level, and the change of each difference between two levels is tested "
                "(Holm over every such test; a win-rate difference must change by "
                f"significantly more than ±{100 * tolerance:g} pp, other metrics by anything). "
                "A difference is robust when it is significant after the correction, in the "
                "same direction, at every level, and no level changes it that much; "
                "skill-dependent when the change between two levels the level check separates "
                "is (change, its interval, levels and margin); style-dependent when it is only "
                "between players of equal measured strength; undetermined otherwise "
                "(docs/statistics.md)."
            ),
            Table(
                across,
                "comparison_across_skill.csv",
                "Each difference at every skill level (lists in level order).",
            ),
        )
    add_forest_plots(doc, table, out, "compare", tolerance)


def add_forest_plots(
    doc: Document, table: pd.DataFrame, out: Path, stem: str, tolerance: float
) -> None:
    """Append forest plots of the win-rate and race-length differences in ``table``
    (``STEM_1.png``, ...; at most :data:`MAX_FORESTS`)."""
    keep = table[(table["metric"] == "win") | (table["metric"] == "rounds")]
    label_col = "label" if "label" in keep else "label_b"
    keep = keep.assign(label=keep[label_col])
    per_plot = 30
    starts = list(range(0, len(keep), per_plot))
    if len(starts) > MAX_FORESTS:
        doc.add(
            Paragraph(
                f"Plots show the first {MAX_FORESTS * per_plot} of {len(keep)} "
                "differences; comparison.csv holds them all."
            )
        )
    for i, start in enumerate(starts[:MAX_FORESTS]):
        part = keep.iloc[start : start + per_plot]
        png = f"{stem}_{i + 1}.png"
        base = part["baseline_label"].unique() if "baseline_label" in part else []
        title = "Differences (win rate by slot, rounds)"
        plots.forest(
            out / png,
            part,
            title + (f" vs {base[0]}" if len(base) == 1 else ""),
            tolerance,
        )
        doc.add(
            Figure(
                png,
                "Differences with 95% intervals: win rate of each start slot (pp, dashed: "
                "the tolerance) and race length, against the baseline; filled dots are "
                "significant after the correction.",
            )
        )
