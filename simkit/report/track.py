"""The balance report's section on the track ("Race statistics" off a track): where races
go wrong.

Side effects per cell and against each cell's baseline, per-race means, race length, the
overspeed dents corner by corner, a heat picture of the track per cell with its worst spaces
ringed (:func:`track_picture`, which simkit serve draws with too) and the hot spaces. The
numbers come from :mod:`simkit.analysis.track` and :mod:`simkit.analysis.side_effects` (via
:func:`simkit.report.compare.side_effects_of`); the drawing is
:mod:`simkit.report.track_plots`'.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from simkit.analysis.track import (
    heat_by_space,
    hot_spaces,
    overspeed_by_corner,
    race_length,
    race_length_summary,
    space_places,
    track_summary,
)
from simkit.report import plots, track_plots
from simkit.report.document import Document, Figure, Heading, Paragraph, Table
from simkit.report.plots import MAX_CELL_PLOTS

CRASH_PREFIX = "crash"
MARKS = "ABCDE"  # hot spaces labelled on each track picture


def track_picture(
    results: Any, cell: int, heat: pd.DataFrame, path: Path, title: str
) -> tuple[str | None, str, list[dict[str, Any]]] | None:
    """The report's track picture of ``cell`` written to ``path``: crashes per 1000 races on
    each space (every kind of event where the run counted no crash), the worst spaces before
    the finish line ringed A-E. ``heat`` is :func:`simkit.analysis.track.heat_by_space`.

    Returns None where the cell has no track or no counts, else (why it could not be drawn
    or None, what it counts, the ringed spaces: ``mark``, ``where``, ``space`` and
    ``per_1000_races``). simkit serve draws its pictures with it too.
    """
    crash = heat[heat["kind"].str.startswith(CRASH_PREFIX)]
    use = crash if not crash.empty else heat
    what = "crashes (all kinds)" if not crash.empty else "events (all kinds)"
    row = results.cells[results.cells["cell"] == cell].iloc[0]
    part = use[use["cell"] == cell]
    track = row.get("track")
    if part.empty or not isinstance(track, str):
        return None
    values = np.zeros(int(part["space"].max()) + 1)
    np.add.at(values, part["space"].to_numpy(), part["per_1000_races"].to_numpy())
    # The rings go on spaces before the finish line only, as in the hot-space table
    # (hot_spaces): a crash in the run-off costs a finished sled nothing.
    before = np.zeros(len(values))
    ahead = part[~part["past_finish"].astype(bool)] if "past_finish" in part else part
    np.add.at(before, ahead["space"].to_numpy(), ahead["per_1000_races"].to_numpy())
    top = np.argsort(-before, kind="stable")[: len(MARKS)]
    top = top[before[top] > 0]
    marks = [(int(s), MARKS[i]) for i, s in enumerate(top)]
    why = track_plots.track_heat(path, track, values, title, f"{what} per 1000 races", marks)
    if why is not None:
        return why, what, []
    places = space_places(results, int(cell), top)
    marked = [
        {"mark": label, "where": place, "space": s, "per_1000_races": values[s]}
        for (s, label), place in zip(marks, places, strict=True)
    ]
    return None, what, marked


def _track_pictures(doc: Document, results: Any, out: Path, heat: pd.DataFrame) -> None:
    marked, what = [], ""
    for cell in list(results.cells["cell"])[:MAX_CELL_PLOTS]:
        row = results.cells[results.cells["cell"] == cell].iloc[0]
        png = f"track_cell{int(cell)}.png"
        drawn = track_picture(results, int(cell), heat, out / png, f"cell {cell}: {row['label']}")
        if drawn is None:
            continue
        why, what, ringed = drawn
        if why is not None:
            doc.add(Paragraph(f"No track picture for cell {cell}: {why.rstrip('.')}."))
            continue
        marked += [{"cell": cell, **r} for r in ringed]
        doc.add(
            Figure(
                png,
                f"Cell {cell} ({row['label']}) on {row['track']}: {what} per 1000 races on "
                "each space; A-E ring the five worst spaces before the finish line (table "
                "below), C1, C2, ... number the corners. The colour scale ends at the worst "
                "space before the line: run-off spaces beyond it, where finished sleds "
                "crowd, show the top colour.",
            )
        )
    if marked:
        doc.add(
            Table(
                pd.DataFrame(marked),
                "hot_spaces_marked.csv",
                f"The spaces ringed on the pictures: {what} per 1000 races.",
            )
        )


def _side_effects_tables(doc: Document, measures: pd.DataFrame, side: pd.DataFrame) -> None:
    """Race length, crashes, dents, eliminations, drama and lead change: every cell's, and
    each compared cell's change with its tolerance (docs/statistics.md "Side effects")."""
    if measures.empty:
        return
    doc.add(
        Paragraph(
            "Side effects, per cell with 95% intervals: the median and 90th percentile of race "
            "length (order-statistic intervals), crashes, dents and eliminations per race, "
            "drama and lead change. Against each cell's baseline, a change is beyond its "
            "tolerance when its whole interval is (tolerances in docs/statistics.md)."
        ),
        Table(measures, "side_effects_by_cell.csv", "Side effects of every cell.", True),
    )
    if not side.empty:
        doc.add(
            Table(
                side,
                "side_effects.csv",
                "Side effects of each compared cell against its baseline (value - baseline).",
                True,
            )
        )


def add_track_section(
    doc: Document,
    results: Any,
    out: Path,
    measures: pd.DataFrame | None = None,
    side: pd.DataFrame | None = None,
) -> None:
    """Append the track section ("Race statistics" off a track): side effects
    (``measures``, ``side``), per-race means, race length and the track's heat."""
    on_track = "track" in results.cells and results.cells["track"].notna().any()
    doc.add(Heading("Track tuning" if on_track else "Race statistics"))
    if measures is not None:
        _side_effects_tables(doc, measures, side if side is not None else pd.DataFrame())
    doc.add(
        Paragraph(
            "Per race, with 95% intervals: every race column (race length in rounds, lead "
            "changes, decided = the share of races with a winner who finished, ...) and, per "
            "sled, every seat column averaged over the sleds of a race (dents per sled, turns "
            "per sled, the share of sleds that finished, ...). A column that cannot be "
            "non-zero under a cell's rules is left out of that cell. Rates use Wilson "
            "intervals, means Student-t; 'conservative' marks intervals that had to be "
            "bounded because the run kept no per-race rows."
        )
    )
    doc.add(Table(track_summary(results), "track.csv", "Per-race means with 95% intervals."))
    lengths = race_length_summary(results)
    if not lengths.empty:
        doc.add(Table(lengths, "race_length.csv", "Race length in rounds: percentiles."))
        hist = race_length(results)
        labels = dict(zip(results.cells["cell"], results.cells["label"], strict=True))
        for i, start in enumerate(range(0, hist["cell"].nunique(), 8)):
            ids = sorted(hist["cell"].unique())[start : start + 8]
            png = f"race_length_{i + 1}.png"
            plots.race_length(out / png, hist[hist["cell"].isin(ids)], labels)
            doc.add(Figure(png, "Distribution of race length (rounds), % of races."))
    heat = heat_by_space(results)
    if heat.empty:
        doc.add(Paragraph("No per-space counts: the game has no track, or the run kept no heat."))
        return
    corners = overspeed_by_corner(results, strict=False)
    if not corners.empty:
        caption = (
            "Overspeed dents corner by corner (R-15; corners numbered from 1, as C1, C2, ... on "
            "the pictures) and each corner's safety speed."
        )
        doc.add(Table(corners, "overspeed_by_corner.csv", caption))
    _track_pictures(doc, results, out, heat)
    doc.add(
        Table(
            hot_spaces(results, top=5),
            "hot_spaces.csv",
            "The 5 spaces with the most events of each kind, per cell, and where they lie.",
        )
    )
