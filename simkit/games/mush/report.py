"""MUSH's section of a balance report (``Game.extras.report_section``): training fairness,
initiative, bot strategies, full vs shortened games.

Numbers come from :mod:`simkit.games.mush.analysis`; CSV names start with the game's name.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from simkit.games.mush import analysis as mush
from simkit.report.document import Document, Heading, Paragraph, Table
from simkit.report.games import pct, per_cell_rates


def section(doc: Document, results: Any, out: Path) -> None:
    doc.add(Heading("MUSH: training, initiative, strategies, game length"))
    doc.add(
        Paragraph(
            "A win is reaching the goal first; a timed-out race has no winner. Win rates are "
            "per seat, with Wilson 95% intervals, against the fair 1/players. Seats choose "
            "their training (R-44 limits), so a training's rate is its worth as the bots "
            "use it; the chi-square test asks whether wins follow the seats of each training."
        )
    )
    tr = mush.training(results)
    tests = mush.training_test(results).set_index("cell")
    for cell, part in tr.groupby("cell", sort=True):
        each = "; ".join(
            f"{r.training_name} {pct(r.win_rate, r.win_low, r.win_high)}"
            + (" (holds fair)" if r.win_low <= r.fair_rate <= r.win_high else " (off fair)")
            for r in part.itertuples()
        )
        p = tests.at[cell, "p"]
        doc.add(
            Paragraph(
                f"{part['label'].iloc[0]}: win rate per seat against the fair "
                f"{100 / part['players'].iloc[0]:.3g}%: {each}; chi-square p = {p:.3g}."
            )
        )
    doc.add(Table(tr, "mush_training.csv", "Win rate by training per cell."))
    if results.cells["players"].duplicated().any():
        doc.add(
            Table(
                mush.training(results, by="players"),
                "mush_training_by_players.csv",
                "Win rate by training, pooled over the cells with the same number of sleds.",
            )
        )
    doc.add(Table(mush.training_test(results), "mush_training_test.csv", "Chi-square per cell."))
    per_cell_rates(doc, out, tr, "mush_training", "training", lambda p: p["training_name"])
    ini = mush.initiative(results)
    doc.add(
        Table(
            ini,
            "mush_initiative.csv",
            "Win rate by start slot (slot 1 chooses training first) and by holding the "
            "initiative in round 1.",
        )
    )
    per_cell_rates(
        doc,
        out,
        ini,
        "mush_initiative",
        "slot and initiative",
        lambda p: p["factor"] + ": " + p["level"],
    )
    st = mush.strategies(results)
    doc.add(
        Table(
            st,
            "mush_strategies.csv",
            "Win rate and habits (mean tokens left and spent, rests, spaces still to go, "
            "rerolls, dice removed) of each bot.",
        )
    )
    if st.groupby("cell")["bot"].nunique().max() > 1:
        per_cell_rates(doc, out, st, "mush_strategies", "strategy", lambda p: p["bot"])
    else:
        doc.add(Paragraph("One bot per cell: give seats different bots to compare strategies."))
    doc.add(
        Table(
            mush.game_length(results),
            "mush_length.csv",
            "Race length (rounds) and lead changes per cell, and the share of timed-out races.",
        )
    )
