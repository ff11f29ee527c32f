"""A ladder's ratings as text for the terminal: one row per bot, best first.

The numbers come from :mod:`simkit.analysis.ratings` (through ``simkit.report.ladder``'s
``Ladder.table``); this module only formats them (rows for ``simkit.report.text.table``), so
``simkit ladder`` prints and computes nothing.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

COLUMNS = ["rung", "bot", "rating", "95% interval", "wins/seat"]


def ratings_rows(table: pd.DataFrame) -> list[dict[str, object]]:
    """The ratings table's rows, formatted: signed ratings and interval ends to three
    decimals (a bot never ahead of another seat is rated -inf, with no interval), the wins
    per seat as a percentage to one decimal, as the report and its sentences write it."""
    return [
        {
            "rung": r.rung,
            "bot": r.bot,
            "rating": f"{r.rating:+.3f}" if np.isfinite(r.rating) else "-inf",
            "95% interval": (
                f"[{r.low:+.3f}, {r.high:+.3f}]" if np.isfinite(r.rating) else "never ahead"
            ),
            "wins/seat": f"{100 * r.win_rate:.1f}%",
        }
        for r in table.itertuples()
    ]
