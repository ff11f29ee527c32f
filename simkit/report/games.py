"""The game-specific section of a balance report: each game's own questions (issues 7, 8).

A game that has its own questions declares ``report_section`` ("module:function"); this
module calls it for a one-game run and offers the helpers those sections share.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from simkit.games import get, import_ref
from simkit.report import plots
from simkit.report.document import Document, Figure, Heading, Paragraph

MAX_PLOTS = 8  # per-cell pictures per table; the CSVs hold every cell


def pct(rate: float, low: float, high: float) -> str:
    """A rate and its interval in percent: ``12.3% [10.1, 14.6]``."""
    return f"{rate * 100:.1f}% [{low * 100:.1f}, {high * 100:.1f}]"


def _rate_rows(table: pd.DataFrame, name: pd.Series) -> pd.DataFrame:
    cols = [c for c in ("win_rate", "win_low", "win_high", "fair_rate") if c in table]
    return table[cols].assign(name=name.to_numpy()).reset_index(drop=True)


def per_cell_rates(doc, out: Path, table: pd.DataFrame, stem: str, what: str, name) -> None:
    """One rates figure per cell (the first ``MAX_PLOTS``), bars named by ``name(part)``."""
    for cell in list(dict.fromkeys(table["cell"]))[:MAX_PLOTS]:
        part = table[table["cell"] == cell]
        label = str(part["label"].iloc[0])
        png = f"{stem}_cell{int(cell)}.png"
        plots.rates(out / png, _rate_rows(part, name(part)), f"cell {cell}: {label}: {what}")
        doc.add(Figure(png, f"Cell {cell} ({label}): {what}, win rate with 95% intervals."))


def add_game_section(doc: Document, results: Any, out: Path) -> None:
    """Append the run's game section, if its game has one (one game per run)."""
    games = set(map(str, results.cells["game"].unique()))
    if len(games) != 1:
        return
    game = next(iter(games))
    ref = get(game).extras.report_section
    if ref is None:
        return
    if results.races is None:
        doc.add(
            Heading(f"{game}: game questions"),
            Paragraph(
                "This section needs per-race rows and the run kept aggregates only; run it "
                'again with keep = "races".'
            ),
        )
        return
    import_ref(ref)(doc, results, out)
