"""The balance report's section "Who wins from where": the race round by round.

From the race order at every round's end: how often each race position goes on to win, the
round that decides a race, comebacks, whether a start slot's or a bot's edge fades during
the race, and drama, lead changes and uncertainty (counted back from the race's end too).
The numbers come from :mod:`simkit.analysis.rounds` and :mod:`simkit.analysis.drama`, the
pictures from :mod:`simkit.report.round_plots`. A run made before its game recorded race
positions gets a paragraph saying so, and none of this.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from simkit.analysis.drama import (
    drama_measures,
    has_end_rounds,
    running_by_round,
    uncertainty_by_rounds_left,
    win_by_rounds_left,
)
from simkit.analysis.rounds import (
    comebacks_by_round,
    has_rounds,
    position_by_bot,
    position_by_slot,
    round_measures,
    win_by_position,
)
from simkit.report import round_plots
from simkit.report.document import Document, Figure, Heading, Paragraph, Table
from simkit.report.plots import MAX_CELL_PLOTS


def add_rounds_section(doc: Document, results: Any, out: Path) -> None:
    """Append "Who wins from where": the race round by round (or a paragraph saying the
    run has no race positions by round)."""
    doc.add(Heading("Who wins from where"))
    if not has_rounds(results):
        doc.add(
            Paragraph(
                "This run has no race positions round by round (Batch.round_position, "
                "docs/tables.md): it was made before its game recorded them. Run it again "
                "for the per-round measures, drama and uncertainty; the share of decided "
                "races is in the answer above and in fairness.csv."
            )
        )
        return
    doc.add(
        Paragraph(
            "From the race order at the end of every round, over decided races: how often the "
            "seat in each race position went on to win, the round after which the leader wins "
            "90% of the time (the race is decided), and the comeback rate: the share of "
            "decided races whose winner was not leading at the end of the round halfway "
            "through a median race (docs/statistics.md)."
        )
    )
    if "races" in results.cells and (results.cells["races"] > 1).any():
        doc.add(
            Paragraph(
                "In tournaments and seasons a round here is a race of the unit: the race "
                "position after it is the standing by points so far (docs/tables.md)."
            )
        )
    m = round_measures(results)
    for r in m.itertuples():
        if pd.isna(r.decided_round):
            when = "no round's leader reaches a 90% win rate"
        else:
            when = (
                f"the leader after round {int(r.decided_round)} wins "
                f"{100 * r.leader_win_rate:.1f}% [{100 * r.leader_low:.1f}, "
                f"{100 * r.leader_high:.1f}]: the race is decided then"
            )
        doc.add(
            Paragraph(
                f"{r.label}: {100 * r.decided_rate:.1f}% of races decided; median length "
                f"{r.median_rounds} rounds; {when}; comebacks: "
                f"{100 * r.comeback_rate:.1f}% [{100 * r.comeback_low:.1f}, "
                f"{100 * r.comeback_high:.1f}] of winners were behind at the end of round "
                f"{r.comeback_round}."
            )
        )
    doc.add(Table(m, "rounds.csv", "Completion, decided round and comeback rate per cell."))
    wins, backs = win_by_position(results), comebacks_by_round(results)
    running = running_by_round(results)
    for r in list(m.itertuples())[:MAX_CELL_PLOTS]:
        png = f"rounds_cell{int(r.cell)}.png"
        row = m[m["cell"] == r.cell].iloc[0]
        round_plots.rounds(
            out / png,
            wins[wins["cell"] == r.cell],
            backs[backs["cell"] == r.cell],
            row,
            f"cell {r.cell}: {r.label}",
            running[running["cell"] == r.cell],
        )
        doc.add(
            Figure(
                png,
                f"Cell {r.cell} ({r.label}): left, the share of decided races won from each "
                "race position at the end of each round (95% bands); right, the share whose "
                "winner was behind at the end of the round. Grey: the share of races still "
                "running; late rounds stand on the long races only.",
            )
        )
    _slot_rounds(doc, results, out, running)
    _drama_section(doc, results, out)


def _slot_rounds(doc: Document, results: Any, out: Path, running: pd.DataFrame) -> None:
    """Per start slot, round by round: does a slot's edge fade during the race?"""
    by_slot = position_by_slot(results)
    if by_slot.empty:
        return
    doc.add(
        Table(
            by_slot,
            "position_by_slot.csv",
            "Per cell, round and start slot: seats still running, the share leading (Wilson "
            "95%) and the mean race position.",
            True,
        )
    )
    _round_pictures(
        doc,
        results,
        out,
        by_slot,
        running,
        "slot",
        "per start slot: left, the share of the slot's seats leading at the end of each "
        "round (95% bands; dashed, the fair share); right, their mean race position. An "
        "edge that fades draws the lines together. Grey: the share of races still running.",
    )
    _bot_rounds(doc, results, out, running)


def _bot_rounds(doc: Document, results: Any, out: Path, running: pd.DataFrame) -> None:
    """Per bot, round by round, in cells whose seats have different bots."""
    by_bot = position_by_bot(results)
    if by_bot.empty:
        return
    doc.add(
        Table(
            by_bot,
            "position_by_bot.csv",
            "Per cell with more than one bot, round and bot: seats still running, the share "
            "leading (Wilson 95%), the mean race position and, in decided races, the share "
            "that went on to win.",
            True,
        )
    )
    _round_pictures(
        doc,
        results,
        out,
        by_bot,
        running,
        "bot",
        "per bot: left, the share of the bot's seats leading at the end of each round (95% "
        "bands); right, their mean race position. Grey: the share of races still running.",
    )


def _round_pictures(
    doc: Document,
    results: Any,
    out: Path,
    table: pd.DataFrame,
    running: pd.DataFrame,
    key: str,
    what: str,
) -> None:
    """One round-by-round picture per cell of ``table`` (by start slot or by bot)."""
    players = results.cells.set_index("cell")["players"]
    labels = results.cells.set_index("cell")["label"]
    for cell in sorted(set(table["cell"]))[:MAX_CELL_PLOTS]:
        png = f"{key}_rounds_cell{int(cell)}.png"
        round_plots.slot_rounds(
            out / png,
            table[table["cell"] == cell],
            running[running["cell"] == cell],
            int(players[cell]),
            f"cell {cell}: {labels[cell]}",
            key=key,
        )
        doc.add(Figure(png, f"Cell {cell} ({labels[cell]}), {what}"))


def _drama_section(doc: Document, results: Any, out: Path) -> None:
    """Drama, lead changes, uncertainty and stability per cell; curves to the race's end."""
    d = drama_measures(results)
    if d.empty:
        return
    doc.add(Heading("Drama, lead changes, uncertainty", 3))
    doc.add(
        Paragraph(
            "Per cell, from the race positions at every round end (docs/statistics.md, after "
            "Browne 2008 and Ludii's metrics): drama, how far behind the eventual winner was "
            "on average (0 = it led every round, in places / (players - 1)); lead change, the "
            "share of rounds after which someone else leads; stability, 1 - how much places "
            "move from round to round (1 = never); uncertainty, how open the winner still "
            "is, averaged over the rounds of every race (0 = the leader always wins, 1 = "
            "anyone may). Means over races with 95% intervals."
        )
    )

    def ci(m: str) -> list[str]:
        out = []
        for v, lo, hi in d[[m, f"{m}_low", f"{m}_high"]].to_numpy():
            if pd.isna(v):
                out.append("-")
            else:
                out.append(f"{v:.2f}" if pd.isna(lo) else f"{v:.2f} [{lo:.2f}, {hi:.2f}]")
        return out

    shown = pd.DataFrame(
        {
            "cell": d["cell"],
            "label": d["label"],
            "drama": ci("drama"),
            "lead change": ci("lead_change"),
            "uncertainty": d["uncertainty"].map(lambda v: "-" if pd.isna(v) else f"{v:.2f}"),
            "stability": ci("stability"),
            "decided races": d["drama_races"],
        }
    )
    doc.add(
        Table(shown, "drama_summary.csv", "Drama, lead change, uncertainty and stability per cell.")
    )
    doc.add(Table(d, "drama.csv", "The same, every column (means, 95% bounds, races).", True))
    if not has_end_rounds(results):
        return
    wins, unc = win_by_rounds_left(results), uncertainty_by_rounds_left(results)
    for cell, label in list(zip(d["cell"], d["label"], strict=True))[:MAX_CELL_PLOTS]:
        part = wins[wins["cell"] == cell]
        if part.empty:
            continue
        png = f"race_end_cell{int(cell)}.png"
        round_plots.race_end(out / png, part, unc[unc["cell"] == cell], f"cell {cell}: {label}")
        doc.add(
            Figure(
                png,
                f"Cell {cell} ({label}), counted back from each race's last round: left, the "
                "share of decided races won from each race position (95% bands); right, the "
                "uncertainty of the winner. Grey: the share of decided races that lasted "
                "that long.",
            )
        )
