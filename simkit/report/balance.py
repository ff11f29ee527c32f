"""Build a balance report folder from a run, answer first (issue 14).

``build(run, out_dir)`` writes ``index.html`` (self-contained), ``report.md``, one PNG per
plot, one CSV per table shown and ``summary.json`` (for the study index). The page opens
with the study's title and description and one verdict sentence per cell
(:mod:`simkit.report.summary`); then the details: start-slot fairness, who wins from where,
track tuning, variant comparison, the game's own section; run settings and parameters
last. The numbers come from :mod:`simkit.analysis`; this module arranges them.
``build_comparison(a, b, out_dir)`` writes the comparison of two runs the same way.

This module holds the page and its run settings; each section has a module of its own:
:mod:`simkit.report.fairness`, :mod:`simkit.report.rounds`, :mod:`simkit.report.track`,
:mod:`simkit.report.compare`, :mod:`simkit.report.skill` and :mod:`simkit.report.games`.
"""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Any

import pandas as pd

from simkit import __version__
from simkit.analysis import side_effects
from simkit.analysis.compare import compare_runs, pairable, significance_summary
from simkit.analysis.drama import drama_measures
from simkit.analysis.fairness import fairness, fairness_by_slot
from simkit.analysis.skill import comparisons_across, fairness_across
from simkit.analysis.skill_levels import combinations as skill_combinations
from simkit.analysis.skill_levels import levels as skill_levels
from simkit.analysis.skill_levels import not_distinct, with_combinations
from simkit.report.compare import (
    add_comparison_section,
    add_forest_plots,
    comparisons,
    side_effects_of,
)
from simkit.report.document import Code, Document, Heading, Paragraph, Table, prepare, write
from simkit.report.fairness import add_fairness_section
from simkit.report.games import add_game_section
from simkit.report.glossary import add_glossary
from simkit.report.rounds import add_rounds_section
from simkit.report.skill import add_skill_section
from simkit.report.summary import (
    SHORT,
    add_answer,
    add_header,
    scenario_text,
    track_titles,
    write_summary,
)
from simkit.report.track import add_track_section


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
        # Into new folders: the run's own folder holds this run (simkit refuses to write a
        # run over another), and the same seed gives the same tables there.
        again = f"{results.dir}-again"
        cmd += ["-o", again]
        lines.append(shlex.join(cmd))
        report = ["simkit", "report", again]
        if out_dir is not None:
            report += ["-o", f"{out_dir}-again"]
        lines.append(shlex.join(report))
        return "\n".join(lines)
    report = f"simkit report {shlex.quote(str(results.dir))}"
    if out_dir is not None:
        report += f" -o {shlex.quote(str(out_dir))}"
    lines.append(report)
    return "\n".join(lines)


def _run_facts(
    doc: Document, results: Any, prefix: str, out_dir: Path, command: str | None = None
) -> None:
    m = results.manifest
    races = races_per_cell(results)
    title, _ = scenario_text(results)
    facts = pd.DataFrame(
        [
            ("run directory", str(results.dir)),
            ("game", ", ".join(sorted(map(str, results.cells["game"].unique())))),
            ("scenario", str(m.get("scenario_path", "–"))),
            ("scenario title", title or "–"),
            ("track", ", ".join(track_titles(results)) or "–"),
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
        doc.add(
            Paragraph("This run is not complete; the numbers cover the chunks done.", "warning")
        )
    cols = [
        c
        for c in ("cell", "label", "game", "preset", "track", "players", "bots", "skill", "slots")
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
    if command is not None:  # a run another command made (a tuning's confirmation)
        doc.add(
            Paragraph(
                "This run was made by the command below, which plays it again, this report "
                "included (the resolved scenario is stored in the run's manifest.json):"
            ),
            Code(command),
        )
        return
    doc.add(
        Paragraph(
            "To reproduce this report from scratch, into new folders (the same seed gives "
            "the same tables; the resolved scenario is also stored in the run's "
            "manifest.json):"
        ),
        # In a comparison (prefix a_/b_) each run's own report goes to its default folder:
        # -o here would overwrite the comparison with a balance report.
        Code(reproduce_command(results, None if prefix else out_dir)),
    )


def build(
    results_or_dir: Any,
    out_dir: str | Path,
    *,
    tolerance: float = 0.02,
    title: str | None = None,
    command: str | None = None,
) -> Path:
    """Write the balance report of one run into ``out_dir``; return its ``index.html``.

    Args:
        results_or_dir: a run directory or a loaded ``Results``.
        out_dir: folder for index.html, report.md, the PNGs and CSVs (created).
        tolerance: the fairness tolerance on win rates (0.02 = 2 percentage points).
        title: report title (default: the scenario's title, else game and scenario name).
        command: the command that made the run, when no scenario file alone makes it (a
            tuning's confirmation): the settings name it instead of ``simkit run``.
    """
    results = _results(results_or_dir)
    out = Path(out_dir)
    prepare(out)
    game = ", ".join(sorted(map(str, results.cells["game"].unique())))
    scenario = Path(str(results.manifest.get("scenario_path") or results.dir)).stem
    named, description = scenario_text(results)
    doc = Document(title or named or f"{game} balance report: {scenario}")
    summary = fairness(results, tolerance=tolerance)
    compared = comparisons(results, tolerance)
    across = compared_across = tests = None
    if skill_levels(results.cells):
        across, tests = fairness_across(
            results,
            with_combinations(summary, results.cells),
            with_combinations(fairness_by_slot(results), results.cells),
            SHORT,
            tolerance,
            not_distinct(getattr(results, "levels", None), results.cells),
        )
        combo = skill_combinations(results.cells).set_index("cell")
        says = across.set_index("combination")["across_skill"]
        summary = summary.assign(
            skill=summary["cell"].map(combo["skill"]),
            across_skill=summary["cell"].map(combo["combination"]).map(says),
        )
        if compared is not None:
            compared_across = comparisons_across(compared, results.cells, results, tolerance)
    add_header(doc, results, tolerance, across)
    measures, side = side_effects_of(results)
    lines = add_answer(
        doc, results, summary, tolerance, compared, across, compared_across, out, measures, side
    )
    add_fairness_section(doc, results, out, tolerance, summary)
    if across is not None:
        add_skill_section(doc, results, out, tolerance, summary, across, tests)
    add_rounds_section(doc, results, out)
    add_track_section(doc, results, out, measures, side)
    add_comparison_section(doc, results, out, tolerance, compared, compared_across)
    add_game_section(doc, results, out)
    doc.add(Heading("Run settings"))
    _run_facts(doc, results, "", out, command)
    add_glossary(doc)
    index = write(doc, out)
    write_summary(out, doc.title, description, lines)
    return index


def build_comparison(
    run_a: Any,
    run_b: Any,
    out_dir: str | Path,
    *,
    tolerance: float = 0.02,
    title: str | None = None,
    paired: bool | None = None,
) -> Path:
    """Write a comparison of two runs, cell by cell (B - A); return its ``index.html``.

    Runs that share seeds and kept per-race rows are paired race by race; others are
    compared as independent samples, and the report says which it did and why.
    ``paired`` insists on one or the other (see :func:`simkit.analysis.compare_runs`).
    """
    a, b = _results(run_a), _results(run_b)
    out = Path(out_dir)
    prepare(out)
    table = compare_runs(a, b, tolerance=tolerance, paired=paired)
    doc = Document(title or f"Comparison: {Path(str(b.dir)).name} vs {Path(str(a.dir)).name}")
    why = pairable(a, b)
    if (table["pairing"] == "paired").all():
        how = "race by race on the same seeds (paired)"
    else:
        how = "as independent samples (unpaired, Welch)" + (f" because {why}" if why else "")
    doc.add(Heading("Answer"))
    exceed = table[table["exceeds_tolerance"].fillna(False).astype(bool)]
    doc.add(
        Paragraph(
            f"Run B ({b.dir}) against run A ({a.dir}), cell by cell, {how}: diff = B - A with a "
            f"95% interval. {significance_summary(table)} {len(exceed)} win-rate "
            f"difference{'' if len(exceed) == 1 else 's'} beyond ±{tolerance * 100:g} pp"
            + (": " if len(exceed) else ".")
            + "; ".join(
                f"{r.label_b} slot {int(r.slot)} {100 * r.diff:+.1f} pp "
                f"[{100 * r.low:+.1f}, {100 * r.high:+.1f}]"
                for r in exceed.head(8).itertuples()
            )
            + ("." if len(exceed) else "")
        )
    )
    pairs = [(int(x), int(y)) for x, y in zip(a.cells["cell"], b.cells["cell"], strict=True)]
    side = side_effects.differences(a, pairs, b, seed=int(a.manifest.get("seed") or 0))
    for line in side_effects.beyond_sentences(side, name_pairs=len(pairs) > 1)[:8]:
        doc.add(Paragraph("Side effects: " + line))
    doc.add(Heading("Differences"))
    doc.add(Table(table, "comparison.csv", "B - A per cell, metric and start slot."))
    if not side.empty:
        doc.add(
            Table(
                side,
                "side_effects.csv",
                "Side effects, B - A per cell: race length (median and 90th percentile, "
                "bootstrap), crashes, dents and eliminations per race, drama and lead change; "
                "beyond = the whole interval beyond the tolerance (docs/statistics.md).",
                True,
            )
        )
    add_forest_plots(doc, table, out, "compare", tolerance)
    doc.add(Heading("Fairness of each run"))
    doc.add(Table(fairness(a, tolerance=tolerance), "a_fairness.csv", "Run A."))
    doc.add(Table(fairness(b, tolerance=tolerance), "b_fairness.csv", "Run B."))
    for name, run in (("a", a), ("b", b)):
        d = drama_measures(run)
        if not d.empty:
            doc.add(
                Table(
                    d,
                    f"{name}_drama.csv",
                    f"Run {name.upper()}: drama, lead change, stability (means, 95% bounds) and "
                    "uncertainty per cell (docs/statistics.md).",
                )
            )
    doc.add(Heading("Run settings"))
    doc.add(
        Code(
            f"simkit compare {shlex.quote(str(a.dir))} {shlex.quote(str(b.dir))} "
            f"-o {shlex.quote(str(out))}"
        )
    )
    doc.add(Heading("Run A", 3))
    _run_facts(doc, a, "a_", out)
    doc.add(Heading("Run B", 3))
    _run_facts(doc, b, "b_", out)
    add_glossary(doc)
    return write(doc, out)
