"""The game-specific section of a balance report: each game's own questions (issues 7, 8).

Mushroom Walk: first-player advantage with draws, scores, game length, value of card kinds,
Mushroom Walk vs Morels numbers. MUSH: training fairness, initiative, bot strategies,
full vs shortened games. Numbers come from :mod:`simkit.analysis.mushroomwalk` and
:mod:`simkit.analysis.mush`; CSV names start with the game's name.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from simkit.analysis import mush, mushroomwalk
from simkit.analysis.games import distribution
from simkit.report import plots
from simkit.report.document import Document, Figure, Heading, Paragraph, Table

MAX_PLOTS = 8  # per-cell pictures per table; the CSVs hold every cell


def _pct(rate: float, low: float, high: float) -> str:
    return f"{rate * 100:.1f}% [{low * 100:.1f}, {high * 100:.1f}]"


def _rate_rows(table: pd.DataFrame, name: pd.Series) -> pd.DataFrame:
    cols = [c for c in ("win_rate", "win_low", "win_high", "fair_rate") if c in table]
    return table[cols].assign(name=name.to_numpy()).reset_index(drop=True)


def _per_cell_rates(doc, out: Path, table: pd.DataFrame, stem: str, what: str, name) -> None:
    for cell in list(dict.fromkeys(table["cell"]))[:MAX_PLOTS]:
        part = table[table["cell"] == cell]
        label = str(part["label"].iloc[0])
        png = f"{stem}_cell{int(cell)}.png"
        plots.rates(out / png, _rate_rows(part, name(part)), f"cell {cell}: {label}: {what}")
        doc.add(Figure(png, f"Cell {cell} ({label}): {what}, win rate with 95% intervals."))


def _mushroomwalk(doc: Document, results: Any, out: Path) -> None:
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
                f"{_pct(r.starter_win_rate, r.starter_win_low, r.starter_win_high)}, "
                "the second player "
                f"{_pct(r.second_win_rate, r.second_win_low, r.second_win_high)}, "
                f"draws {_pct(r.draw_rate, r.draw_low, r.draw_high)}; advantage "
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
    _per_cell_rates(
        doc,
        out,
        cards,
        "mushroomwalk_cards",
        "win rate by holding",
        lambda p: p["factor"] + ": " + p["level"],
    )
    if len(results.cells) > 1:
        _mushroomwalk_compare(doc, results, out)


def _mushroomwalk_compare(doc: Document, results: Any, out: Path) -> None:
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


def _mush(doc: Document, results: Any, out: Path) -> None:
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
            f"{r.training_name} {_pct(r.win_rate, r.win_low, r.win_high)}"
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
    _per_cell_rates(doc, out, tr, "mush_training", "training", lambda p: p["training_name"])
    ini = mush.initiative(results)
    doc.add(
        Table(
            ini,
            "mush_initiative.csv",
            "Win rate by start slot (slot 1 chooses training first) and by holding the "
            "initiative in round 1.",
        )
    )
    _per_cell_rates(
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
        _per_cell_rates(doc, out, st, "mush_strategies", "strategy", lambda p: p["bot"])
    else:
        doc.add(Paragraph("One bot per cell: give seats different bots to compare strategies."))
    doc.add(
        Table(
            mush.game_length(results),
            "mush_length.csv",
            "Race length (rounds) and lead changes per cell, and the share of timed-out races.",
        )
    )


SECTIONS = {"mushroomwalk": _mushroomwalk, "mush": _mush}


def add_game_section(doc: Document, results: Any, out: Path) -> None:
    """Append the run's game section, if its game has one (one game per run)."""
    games = set(map(str, results.cells["game"].unique()))
    if len(games) != 1 or next(iter(games)) not in SECTIONS:
        return
    game = next(iter(games))
    if results.races is None:
        doc.add(
            Heading(f"{game}: game questions"),
            Paragraph(
                "This section needs per-race rows and the run kept aggregates only; run it "
                'again with keep = "races".'
            ),
        )
        return
    SECTIONS[game](doc, results, out)
