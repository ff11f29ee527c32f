"""Build a balance report folder from a run: fairness, track tuning, variant comparison.

``build(run, out_dir)`` writes ``index.html`` (self-contained), ``report.md``, one PNG per
plot and one CSV per table shown (DESIGN §6). The numbers come from
:mod:`simkit.analysis`; this module only arranges them and says what they mean.
"""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from simkit import __version__
from simkit.analysis.compare import compare_cells, compare_runs
from simkit.analysis.fairness import FAIR, UNFAIR, fairness, fairness_by_slot, slot_finish_counts
from simkit.analysis.track import (
    heat_by_space,
    hot_spaces,
    overspeed_by_corner,
    race_length,
    race_length_summary,
    track_summary,
)
from simkit.report import plots
from simkit.report.document import (
    Code,
    Document,
    Figure,
    Heading,
    Paragraph,
    Table,
    prepare,
    write,
)
from simkit.report.games import add_game_section

MAX_CELL_PLOTS = 24  # per-cell pictures beyond this would drown the report; CSVs hold all
MAX_OVERVIEW = 40  # cells per fairness overview picture
MAX_FORESTS = 4  # forest plots of 30 differences each
CRASH_PREFIX = "crash"


def _results(run: Any) -> Any:
    if hasattr(run, "cells") and hasattr(run, "agg"):
        return run
    from simkit.results import load

    return load(run)


def races_per_cell(results: Any) -> pd.Series:
    """Races actually played per cell (from the aggregates, so precision-stopped runs count)."""
    sf = results.agg["slot_finish"].groupby("cell")["count"].sum()
    return (sf / results.cells.set_index("cell")["players"]).fillna(0).astype("int64")


def reproduce_command(results: Any, out_dir: Path | None = None) -> str:
    """The shell commands that recreate this run and report (from the run's manifest)."""
    m = results.manifest
    lines = []
    if m.get("command"):
        lines.append(str(m["command"]))
    else:
        scenario = m.get("scenario_path") or "SCENARIO.toml"
        cmd = ["simkit", "run", str(scenario)]
        # The manifest holds the effective values (after any --races/--seed overrides).
        if m.get("races_per_cell") is not None:
            cmd += ["--races", str(m["races_per_cell"])]
        if m.get("seed") is not None:
            cmd += ["--seed", str(m["seed"])]
        cmd += ["-o", str(results.dir)]
        lines.append(shlex.join(cmd))
    report = f"simkit report {shlex.quote(str(results.dir))}"
    if out_dir is not None:
        report += f" -o {shlex.quote(str(out_dir))}"
    lines.append(report)
    return "\n".join(lines)


def _run_facts(doc: Document, results: Any, prefix: str, out_dir: Path) -> None:
    m = results.manifest
    races = races_per_cell(results)
    facts = pd.DataFrame(
        [
            ("run directory", str(results.dir)),
            ("game", ", ".join(sorted(map(str, results.cells["game"].unique())))),
            ("scenario", str(m.get("scenario_path", "–"))),
            ("seed", str(m.get("seed", "–"))),
            ("common random numbers", "yes" if m.get("crn") else "no"),
            ("cells", str(len(results.cells))),
            (
                "races per cell",
                f"{races.min()}" + ("" if races.min() == races.max() else f" to {races.max()}"),
            ),
            ("races in total", str(int(races.sum()))),
            ("kept", str(m.get("keep", "–"))),
            ("run made with simkit", str(m.get("simkit_version", "–"))),
            ("report made with simkit", __version__),
            ("run status", str(m.get("status", "–"))),
        ],
        columns=["item", "value"],
    )
    doc.add(Table(facts, f"{prefix}run.csv", "What was run."))
    if m.get("status") != "complete":
        doc.add(Paragraph("Warning: this run is not complete; the numbers cover the chunks done."))
    cols = [
        c
        for c in ("cell", "label", "game", "preset", "track", "players", "bots", "slots")
        if c in results.cells.columns
    ]
    cells = results.cells[cols].copy()
    cells["races"] = cells["cell"].map(races).fillna(0).astype("int64")
    doc.add(
        Table(
            cells,
            f"{prefix}cells.csv",
            "Cells: which bots played which seats, "
            "on which track, and how many races each cell ran.",
        )
    )
    params = results.cells.drop(columns=[*cols, "cell_key"], errors="ignore")
    if len(params.columns):
        params.insert(0, "cell", results.cells["cell"])
        doc.add(Table(params, f"{prefix}parameters.csv", "Variant parameters of every cell."))
    doc.add(
        Paragraph(
            "To reproduce this report (the resolved scenario is also stored in the "
            "run's manifest.json):"
        ),
        Code(reproduce_command(results, out_dir)),
    )


def _fairest(doc: Document, summary: pd.DataFrame) -> None:
    """Name the fairest cell of each player count (smallest worst-slot deviation)."""
    for n, part in summary.groupby("players"):
        if len(part) < 2:
            continue
        best = part.loc[part["max_deviation"].abs().idxmin()]
        doc.add(
            Paragraph(
                f"Fairest of the {len(part)} cells with {n} players: {best['label']} (cell "
                f"{best['cell']}), whose worst slot is {best['max_deviation'] * 100:+.2f} pp "
                f"from fair; verdict: {best['verdict']}."
            )
        )


def _fairness_section(doc: Document, results: Any, out: Path, tolerance: float) -> None:
    doc.add(Heading("Start-slot fairness"))
    doc.add(
        Paragraph(
            f"A cell is called fair when every start slot's win rate is within "
            f"{tolerance * 100:g} percentage points of 1/players, judged by the 95% Wilson "
            "interval: fair if every interval lies inside that band, unfair if some interval "
            "lies wholly outside it, inconclusive otherwise (races_needed estimates how many "
            "races would decide). The chi-square tests ask whether all slots are equal at all; "
            "Cramér's V says how strongly slot and result are linked (0 = not at all). "
            "docs/statistics.md explains each number."
        )
    )
    summary = fairness(results, tolerance=tolerance)
    for r in summary.itertuples():
        if r.verdict == FAIR:
            text = f"within ±{tolerance * 100:g} pp of {100 / r.players:.3g}% for every slot"
        elif r.verdict == UNFAIR:
            text = (
                f"slot {r.worst_slot} wins {r.max_deviation * 100:+.2f} pp against "
                f"the fair {100 / r.players:.3g}%"
            )
        else:
            text = f"about {r.races_needed:,.0f} races would decide (this run: {r.races:,})"
        doc.add(Paragraph(f"{r.label}: {r.verdict} ({text})."))
    doc.add(Table(summary, "fairness.csv", "Verdict and tests per cell."))
    _fairest(doc, summary)
    by_slot = fairness_by_slot(results)
    doc.add(
        Table(
            by_slot,
            "fairness_by_slot.csv",
            "Per start slot: win rate (Wilson 95%), mean finish and points (Student-t 95%).",
        )
    )
    if results.cells["players"].duplicated().any():
        doc.add(
            Paragraph("Pooled over every cell with the same number of players:"),
            Table(
                fairness(results, tolerance=tolerance, by="players"),
                "fairness_by_players.csv",
                "Verdict per number of players.",
            ),
        )
    if len(summary) > 1:
        for n, ids in summary.groupby("players")["cell"]:
            part = by_slot[by_slot["cell"].isin(list(ids)[:MAX_OVERVIEW])]
            png = f"fairness_overview_{n}.png"
            plots.overview(out / png, part, tolerance, f"{n} players: every cell's start slots")
            doc.add(
                Figure(
                    png,
                    f"{n} players: each slot's win rate minus the fair "
                    f"{100 / n:.3g}%, with 95% intervals; the band is the tolerance.",
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
                f"Cell {cell} ({label}): win rate by start slot with 95% Wilson "
                "intervals and the fair band; share of each finish position by slot.",
            )
        )
    if len(cells) > MAX_CELL_PLOTS:
        doc.add(
            Paragraph(
                f"Plots are shown for the first {MAX_CELL_PLOTS} of {len(cells)} "
                "cells; the CSVs hold every cell."
            )
        )


def _track_section(doc: Document, results: Any, out: Path) -> None:
    on_track = "track" in results.cells and results.cells["track"].notna().any()
    doc.add(Heading("Track tuning" if on_track else "Race statistics"))
    doc.add(
        Paragraph(
            "Per race, with 95% intervals: every race column (race length in rounds, lead "
            "changes, ...) and every seat column summed over the seats of a race (scope "
            "'seats': dents, eliminations, collisions of each kind, ...). Rates use Wilson "
            "intervals, means Student-t; 'conservative' marks totals whose interval had to be "
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
            doc.add(Figure(png, "Distribution of race length (rounds), share of races."))
    heat = heat_by_space(results)
    if heat.empty:
        doc.add(Paragraph("No per-space counts: the game has no track, or the run kept no heat."))
        return
    doc.add(
        Table(
            hot_spaces(results, top=5),
            "hot_spaces.csv",
            "The 5 spaces with the most events of each kind, per cell.",
        )
    )
    corners = overspeed_by_corner(results, strict=False)
    if not corners.empty:
        caption = "Overspeed dents corner by corner (R-15) and each corner's safety speed."
        doc.add(Table(corners, "overspeed_by_corner.csv", caption))
    crash = heat[heat["kind"].str.startswith(CRASH_PREFIX)]
    use = crash if not crash.empty else heat
    what = "crashes (all kinds)" if not crash.empty else "events (all kinds)"
    for cell in list(results.cells["cell"])[:MAX_CELL_PLOTS]:
        row = results.cells[results.cells["cell"] == cell].iloc[0]
        part = use[use["cell"] == cell]
        track = row.get("track")
        if part.empty or track is None or (isinstance(track, float) and np.isnan(track)):
            continue
        values = np.zeros(int(part["space"].max()) + 1)
        np.add.at(values, part["space"].to_numpy(), part["per_1000_races"].to_numpy())
        png = f"track_cell{int(cell)}.png"
        why = plots.track_heat(
            out / png, str(track), values, f"cell {cell}: {row['label']}", f"{what} per 1000 races"
        )
        if why is None:
            doc.add(
                Figure(
                    png,
                    f"Cell {cell} ({row['label']}) on {track}: {what} per 1000 "
                    "races on each space.",
                )
            )
        else:
            doc.add(Paragraph(f"No track picture for cell {cell}: {why.rstrip('.')}."))


def _comparison_section(doc: Document, results: Any, out: Path, tolerance: float) -> None:
    doc.add(Heading("Variant comparison"))
    groups = [g for _, g in results.cells.groupby(["game", "players"], sort=True) if len(g) > 1]
    if not groups:
        doc.add(Paragraph("Nothing to compare: no two cells share game and number of players."))
        return
    if results.races is None:
        doc.add(
            Paragraph(
                "Paired comparisons need per-race rows, and this run kept "
                'aggregates only; run it with keep = "races" to compare cells.'
            )
        )
        return
    if not results.manifest.get("crn", True):
        doc.add(
            Paragraph(
                "Cells do not share random numbers (crn = false), so races cannot "
                "be paired; run the scenario with crn = true to compare cells."
            )
        )
        return
    doc.add(
        Paragraph(
            "Each cell against the first cell with the same number of players, race by race on "
            "common random numbers: diff = cell - baseline with a 95% paired interval. "
            "races_unpaired is how many races per cell an unpaired comparison would have needed "
            "for the same precision. exceeds_tolerance marks win-rate differences whose whole "
            f"interval lies beyond ±{tolerance * 100:g} pp."
        )
    )
    frames = []
    for g in groups:
        ids = list(g["cell"])
        frames.append(compare_cells(results, ids, tolerance=tolerance))
    table = pd.concat(frames, ignore_index=True)
    doc.add(Table(table, "comparison.csv", "Paired differences against each group's baseline."))
    _forests(doc, table, out, "compare")


def _forests(doc: Document, table: pd.DataFrame, out: Path, stem: str) -> None:
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
        title = "Paired differences (win rate by slot, rounds)"
        plots.forest(out / png, part, title + (f" vs {base[0]}" if len(base) == 1 else ""))
        doc.add(
            Figure(
                png,
                "Paired differences with 95% intervals: win rate of each start "
                "slot and race length, against the baseline.",
            )
        )


def build(
    results_or_dir: Any, out_dir: str | Path, *, tolerance: float = 0.02, title: str | None = None
) -> Path:
    """Write the balance report of one run into ``out_dir``; return its ``index.html``.

    Args:
        results_or_dir: a run directory or a loaded ``Results``.
        out_dir: folder for index.html, report.md, the PNGs and CSVs (created).
        tolerance: the fairness tolerance on win rates (0.02 = 2 percentage points).
        title: report title (default: from the run's scenario).
    """
    results = _results(results_or_dir)
    out = Path(out_dir)
    prepare(out)
    game = ", ".join(sorted(map(str, results.cells["game"].unique())))
    scenario = Path(str(results.manifest.get("scenario_path") or results.dir)).stem
    doc = Document(title or f"{game} balance report: {scenario}")
    doc.add(Heading("Run"))
    _run_facts(doc, results, "", out)
    _fairness_section(doc, results, out, tolerance)
    _track_section(doc, results, out)
    _comparison_section(doc, results, out, tolerance)
    add_game_section(doc, results, out)
    return write(doc, out)


def build_comparison(
    run_a: Any,
    run_b: Any,
    out_dir: str | Path,
    *,
    tolerance: float = 0.02,
    title: str | None = None,
) -> Path:
    """Write a paired comparison of two runs that share seeds; return its ``index.html``.

    Cells are matched by position, races by (race index, start slot); differences are
    B - A. Both runs need per-race rows.
    """
    a, b = _results(run_a), _results(run_b)
    out = Path(out_dir)
    prepare(out)
    table = compare_runs(a, b, tolerance=tolerance)
    doc = Document(title or f"Comparison: {Path(str(b.dir)).name} vs {Path(str(a.dir)).name}")
    doc.add(
        Paragraph(
            f"Run B ({b.dir}) against run A ({a.dir}), cell by cell, race by race on the same "
            "seeds: diff = B - A with a 95% paired interval; races_unpaired is how many races "
            "an unpaired comparison would have needed for the same precision."
        )
    )
    doc.add(Heading("Run A"))
    _run_facts(doc, a, "a_", out)
    doc.add(Heading("Run B"))
    _run_facts(doc, b, "b_", out)
    doc.add(
        Code(
            f"simkit compare {shlex.quote(str(a.dir))} {shlex.quote(str(b.dir))} "
            f"-o {shlex.quote(str(out))}"
        )
    )
    doc.add(Heading("Paired differences"))
    doc.add(Table(table, "comparison.csv", "B - A per cell, metric and start slot."))
    _forests(doc, table, out, "compare")
    doc.add(Heading("Fairness of each run"))
    doc.add(Table(fairness(a, tolerance=tolerance), "a_fairness.csv", "Run A."))
    doc.add(Table(fairness(b, tolerance=tolerance), "b_fairness.csv", "Run B."))
    return write(doc, out)
