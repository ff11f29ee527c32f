"""Mushroom Walk's section of a balance report (``Game.extras.report_section``): first-player
advantage with draws, scores, game length, value of card kinds, Mushroom Walk vs Morels.

Numbers come from :mod:`simkit.games.mushroomwalk.analysis`; CSV names start with the
game's name.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from simkit.analysis.games import distribution
from simkit.games.mushroomwalk import analysis as mushroomwalk
from simkit.report import plots
from simkit.report.document import Document, Figure, Heading, Paragraph, Table
from simkit.report.games import MAX_PLOTS, pct, per_cell_rates


def section(doc: Document, results: Any, out: Path) -> None:
    doc.add(Heading("Mushroom Walk: first player, scores, card value"))
    doc.add(
        Paragraph(
            "Slot 1 is the player who starts (R-51). A win is finishing first without a draw; "
            "draws (equal score and mushrooms cooked) are counted apart, since the finish "
            "column gives both players 1 on a draw. advantage is the starter's win rate minus "
            "the second player's (Student-t 95%); rates use Wilson 95% intervals."
        )
    )
    fp = mushroomwalk.first_player(results)
    for r in fp.itertuples():
        doc.add(
            Paragraph(
                f"{r.label}: the starter wins "
                f"{pct(r.starter_win_rate, r.starter_win_low, r.starter_win_high)}, "
                "the second player "
                f"{pct(r.second_win_rate, r.second_win_low, r.second_win_high)}, "
                f"draws {pct(r.draw_rate, r.draw_low, r.draw_high)}; advantage "
                f"{r.advantage * 100:+.1f} pp [{r.advantage_low * 100:+.1f}, "
                f"{r.advantage_high * 100:+.1f}] over {r.races:,} games."
            )
        )
    doc.add(Table(fp, "mushroomwalk_first_player.csv", "First-player advantage per cell."))
    outcomes = {"starter_win": "starter wins", "second_win": "second wins", "draw": "draw"}
    rows = pd.concat(
        [
            pd.DataFrame(
                {
                    "name": fp["label"].astype(str) + ": " + what,
                    "win_rate": fp[f"{col}_rate"],
                    "win_low": fp[f"{col}_low"],
                    "win_high": fp[f"{col}_high"],
                }
            )
            for col, what in outcomes.items()
        ],
        ignore_index=True,
    ).iloc[: 3 * MAX_PLOTS]
    plots.rates(out / "mushroomwalk_first_player.png", rows, "Who wins", "share of games")
    doc.add(Figure("mushroomwalk_first_player.png", "Starter wins, second wins, draws (95%)."))
    doc.add(
        Table(
            mushroomwalk.scores(results),
            "mushroomwalk_scores.csv",
            "Score by player (slot 1 starts; all = both) and winning margin: mean with "
            "Student-t 95% interval and percentiles.",
        )
    )
    labels = dict(zip(results.cells["cell"], results.cells["label"], strict=True))
    hist = mushroomwalk.score_distribution(results)
    plots.distribution(out / "mushroomwalk_scores.png", hist, labels, "score", "Score")
    doc.add(Figure("mushroomwalk_scores.png", "Distribution of scores (both players)."))
    doc.add(
        Table(
            mushroomwalk.game_length(results),
            "mushroomwalk_length.csv",
            "Game length: turns (both players') and rounds of two turns.",
        )
    )
    turns = distribution(mushroomwalk.races(results), ["cell"], "turns")
    plots.distribution(out / "mushroomwalk_turns.png", turns, labels, "turns", "Game length")
    doc.add(Figure("mushroomwalk_turns.png", "Distribution of game length in turns."))
    cards = mushroomwalk.card_value(results)
    doc.add(
        Paragraph(
            "Value of card kinds: win rate of a player by what they took or used. These are "
            "associations under the bots that played, not causes: a player dealt well may "
            "take pans early because it pays."
        ),
        Table(cards, "mushroomwalk_card_value.csv", "Win rate by holding, per cell."),
    )
    per_cell_rates(
        doc,
        out,
        cards,
        "mushroomwalk_cards",
        "win rate by holding",
        lambda p: p["factor"] + ": " + p["level"],
    )
    if len(results.cells) > 1:
        _compare(doc, results, out)


def _compare(doc: Document, results: Any, out: Path) -> None:
    if not results.manifest.get("crn", True):
        doc.add(Paragraph("Cells do not share random numbers (crn = false): no paired table."))
        return
    table = mushroomwalk.preset_comparison(results)
    if table.empty:
        doc.add(Paragraph("No two cells share their bots: nothing to pair."))
        return
    doc.add(
        Paragraph(
            "Each cell against the first cell with the same bots, game by game on common "
            "random numbers (e.g. "
            "Morels numbers against the Mushroom Walk deck): diff = cell - baseline with a "
            "95% paired interval; draws are not wins here."
        ),
        Table(table, "mushroomwalk_comparison.csv", "Paired differences per game."),
    )
    plots.forest(
        out / "mushroomwalk_comparison.png",
        table.assign(slot=pd.NA),
        "Paired differences vs each cell's baseline",
    )
    doc.add(Figure("mushroomwalk_comparison.png", "Paired differences with 95% intervals."))
