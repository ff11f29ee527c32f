"""The balance report's section on start-slot fairness: is every slot's win rate fair?

:func:`add_fairness_section` adds each cell's verdict and tests, the races the engine guard
ended, each slot's win rate, the share of decided races, the verdicts pooled by number of
players (at each skill level, on a skill axis), an overview picture per number of players
and a picture per cell. The numbers come from :mod:`simkit.analysis.fairness`; the verdicts
side by side across skill levels are :mod:`simkit.report.skill`'s section, the one-line
answers :mod:`simkit.report.summary`'s.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from simkit.analysis.fairness import (
    FEW_DECIDED,
    MIN_DECIDED,
    fairness,
    fairness_by_slot,
    slot_finish_counts,
)
from simkit.analysis.skill import fairness_across
from simkit.analysis.skill_levels import levels as skill_levels
from simkit.analysis.skill_levels import pooled_strength, strength_between
from simkit.analysis.track import guard_ended
from simkit.report import plots
from simkit.report.advice import SHORT
from simkit.report.document import Document, Figure, Heading, Paragraph, Table
from simkit.report.plots import MAX_CELL_PLOTS

MAX_OVERVIEW = 40  # cells per fairness overview picture


def add_fairness_section(
    doc: Document, results: Any, out: Path, tolerance: float, summary: pd.DataFrame
) -> None:
    """Append the start-slot fairness section: each cell's verdict (``summary``), its
    tests and its pictures."""
    doc.add(Heading("Start-slot fairness"))
    doc.add(
        Paragraph(
            f"A cell is fair when every start slot's win rate is within "
            f"{tolerance * 100:g} percentage points (pp) of 1/players, judged by the 95% "
            "Wilson interval: fair if every interval lies inside that band, unfair if some "
            "interval lies wholly outside it, inconclusive otherwise (races_needed estimates "
            "how many races would decide). Wins count decided races only, races with a winner "
            "who finished; a cell where fewer than half the races were decided gets no "
            "verdict. The chi-square tests ask whether all slots are equal at all; Cramér's V "
            "says how strongly slot and result are linked (0 = not at all). "
            "docs/statistics.md explains each number."
        )
    )
    doc.add(Table(summary, "fairness.csv", "Verdict and tests per cell."))
    guard = guard_ended(results)
    if not guard.empty:
        cells = "; ".join(
            f"{r.label}: {r.timed_out:,} of {r.races:,} races ({100 * r.share:.1f}%)"
            for r in guard.itertuples()
        )
        doc.add(
            Paragraph(
                f"Races the engine guard ended, not the rules: {cells}. They were still "
                "running at max_rounds, a limit simkit sets, not the game (docs/statistics.md, "
                "'Decided races', says how races get there). One with a winner who finished "
                "counts as decided, the others ranked as the guard left them; one without is "
                "not decided, and the verdicts rest on the other races.",
                "warning",
            )
        )
    by_slot = fairness_by_slot(results)
    doc.add(
        Table(
            by_slot,
            "fairness_by_slot.csv",
            "Per start slot: win rate over decided races (Wilson 95%); draws (races in which "
            "it shared its finish position); mean finish over the races not drawn and mean "
            "points over all races (Student-t 95%).",
        )
    )
    rows = pd.DataFrame(
        {
            "name": summary["label"].astype(str).str.slice(0, 40),
            "win_rate": summary["decided_rate"],
            "win_low": summary["decided_low"],
            "win_high": summary["decided_high"],
        }
    ).iloc[:MAX_OVERVIEW]
    plots.rates(
        out / "completion.png",
        rows,
        "Completion: races with a winner who finished",
        "decided races",
        threshold=MIN_DECIDED,
    )
    doc.add(
        Figure(
            "completion.png",
            "Share of each cell's races that were decided (95% Wilson intervals); below the "
            f"dashed line ({100 * MIN_DECIDED:g}%) a cell gets no fairness verdict.",
        )
    )
    levels = skill_levels(results.cells)
    pool = ["skill", "players"] if levels else ["players"]
    if results.cells[pool].duplicated().any():
        pooled = fairness(results, tolerance=tolerance, by=pool)
        if levels:  # the same test across levels, on the pooled counts (unpaired)
            slots = fairness_by_slot(results, by=pool)
            name = {"combination": lambda f: f["players"], "label": lambda f: f["players"]}
            strength = strength_between(
                getattr(results, "levels", None),
                getattr(results, "level_pairs", None),
                results.cells,
            )
            across, _ = fairness_across(
                results,
                pooled.assign(**name),
                slots.assign(**name),
                SHORT,
                tolerance,
                strength=pooled_strength(strength, results.cells),
            )
            pooled["across_skill"] = pooled["players"].map(
                across.set_index("combination")["across_skill"]
            )
        doc.add(
            Paragraph(
                "Pooled over every cell with the same number of players"
                + (" at each skill level:" if levels else ":")
            ),
            Table(
                pooled,
                "fairness_by_players.csv",
                "Verdict per number of players" + (" and skill level." if levels else "."),
            ),
        )
    if len(summary) > 1:
        for n, part in summary.groupby("players"):
            ids = list(part["cell"])[:MAX_OVERVIEW]
            judged = part[part["verdict"] != FEW_DECIDED]
            best = (
                judged.loc[judged["max_deviation"].abs().idxmin(), "cell"] if len(judged) else None
            )
            png = f"fairness_overview_{n}.png"
            plots.overview(
                out / png,
                by_slot[by_slot["cell"].isin(ids)],
                tolerance,
                f"{n} players: every cell's start slots",
                best=best,
            )
            doc.add(
                Figure(
                    png,
                    f"{n} players: each slot's win rate minus the fair {100 / n:.3g}%, in "
                    "percentage points, with 95% intervals; the green band is the tolerance, "
                    "the yellow column the fairest cell.",
                )
            )
    counts = slot_finish_counts(results)
    cells = list(results.cells["cell"])
    for cell in cells[:MAX_CELL_PLOTS]:
        s = by_slot[by_slot["cell"] == cell]
        if s.empty:
            continue
        label = str(s["label"].iloc[0])
        png = f"slots_cell{int(cell)}.png"
        plots.slots(
            out / png, s, counts[counts["cell"] == cell], tolerance, f"cell {cell}: {label}"
        )
        doc.add(
            Figure(
                png,
                f"Cell {cell} ({label}): win rate by start slot with 95% Wilson intervals and "
                "the fair band; how often each slot finished in each position, red above the "
                "fair share and blue below (a draw has a grey column of its own, not a "
                "position).",
            )
        )
    if len(cells) > MAX_CELL_PLOTS:
        doc.add(
            Paragraph(
                f"Plots are shown for the first {MAX_CELL_PLOTS} of {len(cells)} "
                "cells; the CSVs hold every cell."
            )
        )
