"""Build a balance report folder from a run, answer first (issue 14).

``build(run, out_dir)`` writes ``index.html`` (self-contained), ``report.md``, one PNG per
plot, one CSV per table shown and ``summary.json`` (for the study index). The page opens
with the study's title and description and one verdict sentence per cell
(:mod:`simkit.report.summary`); then the details: start-slot fairness, who wins from where,
track tuning, variant comparison, the game's own section; run settings and parameters
last. The numbers come from :mod:`simkit.analysis`; this module arranges them.
"""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from simkit import __version__
from simkit.analysis import side_effects
from simkit.analysis.compare import compare_cells, compare_runs, pairable, significance_summary
from simkit.analysis.drama import (
    drama_measures,
    has_end_rounds,
    running_by_round,
    uncertainty_by_rounds_left,
    win_by_rounds_left,
)
from simkit.analysis.fairness import (
    FEW_DECIDED,
    MIN_DECIDED,
    fairness,
    fairness_by_slot,
    slot_finish_counts,
)
from simkit.analysis.rounds import (
    comebacks_by_round,
    has_rounds,
    position_by_bot,
    position_by_slot,
    round_measures,
    win_by_position,
)
from simkit.analysis.skill import comparisons_across, fairness_across
from simkit.analysis.skill_levels import combinations as skill_combinations
from simkit.analysis.skill_levels import levels as skill_levels
from simkit.analysis.skill_levels import (
    not_distinct,
    pooled_strength,
    strength_between,
    with_combinations,
)
from simkit.analysis.track import (
    guard_ended,
    heat_by_space,
    hot_spaces,
    overspeed_by_corner,
    race_length,
    race_length_summary,
    space_places,
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
from simkit.report.glossary import add_glossary
from simkit.report.skill import add_skill_section
from simkit.report.summary import (
    SHORT,
    add_answer,
    add_header,
    scenario_text,
    track_titles,
    write_summary,
)

MAX_CELL_PLOTS = 24  # per-cell pictures beyond this would drown the report; CSVs hold all
MAX_OVERVIEW = 40  # cells per fairness overview picture
MAX_FORESTS = 4  # forest plots of 30 differences each
CRASH_PREFIX = "crash"
MARKS = "ABCDE"  # hot spaces labelled on each track picture


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


def _fairness_section(
    doc: Document, results: Any, out: Path, tolerance: float, summary: pd.DataFrame
) -> None:
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


def _rounds_section(doc: Document, results: Any, out: Path) -> None:
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
        plots.rounds(
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
        plots.slot_rounds(
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
        plots.race_end(out / png, part, unc[unc["cell"] == cell], f"cell {cell}: {label}")
        doc.add(
            Figure(
                png,
                f"Cell {cell} ({label}), counted back from each race's last round: left, the "
                "share of decided races won from each race position (95% bands); right, the "
                "uncertainty of the winner. Grey: the share of decided races that lasted "
                "that long.",
            )
        )


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
    why = plots.track_heat(path, track, values, title, f"{what} per 1000 races", marks)
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


def _track_section(
    doc: Document,
    results: Any,
    out: Path,
    measures: pd.DataFrame | None = None,
    side: pd.DataFrame | None = None,
) -> None:
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


def compared_groups(results: Any) -> list[list[int]]:
    """The cells compared with each other: those with the same game and players (and skill
    level, on a skill axis: variants are compared at each level), the first the baseline."""
    keys = ["game", "players", *(["skill"] if skill_levels(results.cells) else [])]
    parts = results.cells.groupby(keys, sort=True, dropna=False)
    return [list(g["cell"]) for _, g in parts if len(g) > 1]


def comparisons(results: Any, tolerance: float) -> pd.DataFrame | None:
    """Each cell against the first of its :func:`compared_groups`; None if none pair up."""
    groups = compared_groups(results)
    if not groups:
        return None
    return pd.concat(
        [compare_cells(results, g, tolerance=tolerance) for g in groups], ignore_index=True
    )


def side_effects_of(results: Any) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Every cell's side effects, and each compared cell's against its baseline."""
    measures = side_effects.cell_measures(results)
    pairs = [(g[0], c) for g in compared_groups(results) for c in g[1:]]
    seed = int(results.manifest.get("seed") or 0)
    side = side_effects.differences(results, pairs, seed=seed) if pairs else pd.DataFrame()
    return measures, side


def _comparison_section(
    doc: Document,
    results: Any,
    out: Path,
    tolerance: float,
    table: pd.DataFrame | None,
    across: pd.DataFrame | None = None,
) -> None:
    doc.add(Heading("Variant comparison"))
    if table is None:
        if skill_levels(results.cells):
            doc.add(
                Paragraph(
                    "No variants to compare: on a skill axis variants are compared within a "
                    "level, and no two cells share game, number of players and skill level. "
                    "The levels themselves are compared under 'Across skill levels'."
                )
            )
        else:
            doc.add(Paragraph("Nothing to compare: no two cells share game and number of players."))
        return
    paired = (table["pairing"] == "paired").all()
    how = (
        "race by race on common random numbers (paired Student-t); races_unpaired is how many "
        "races per cell an unpaired comparison would have needed for the same precision"
        if paired
        else "as independent samples (Welch), because the run "
        + (
            "kept aggregates only"
            if results.races is None
            else "does not share random numbers between cells (crn = false)"
        )
    )
    exceed = int(table["exceeds_tolerance"].fillna(False).sum())
    doc.add(
        Paragraph(
            "Each cell against the first cell with the same number of players, "
            f"{how}: diff = cell - baseline with a 95% interval. "
            + significance_summary(table)
            + f" {exceed} win-rate difference"
            + (" exceeds" if exceed == 1 else "s exceed")
            + f" ±{tolerance * 100:g} pp (significant, and the whole interval beyond it)."
        )
    )
    doc.add(Table(table, "comparison.csv", "Differences against each group's baseline."))
    if across is not None:
        doc.add(
            Paragraph(
                "On the skill axis each variant is compared with the baseline at each skill "
                "level, and the change of each difference between two levels is tested "
                "(Holm over every such test; a win-rate difference must change by "
                f"significantly more than ±{100 * tolerance:g} pp, other metrics by anything). "
                "A difference is robust when it is significant after the correction, in the "
                "same direction, at every level, and no level changes it that much; "
                "skill-dependent when the change between two levels the level check separates "
                "is (change, its interval, levels and margin); style-dependent when it is only "
                "between players of equal measured strength; undetermined otherwise "
                "(docs/statistics.md)."
            ),
            Table(
                across,
                "comparison_across_skill.csv",
                "Each difference at every skill level (lists in level order).",
            ),
        )
    _forests(doc, table, out, "compare", tolerance)


def _forests(doc: Document, table: pd.DataFrame, out: Path, stem: str, tolerance: float) -> None:
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
        title = "Differences (win rate by slot, rounds)"
        plots.forest(
            out / png,
            part,
            title + (f" vs {base[0]}" if len(base) == 1 else ""),
            tolerance,
        )
        doc.add(
            Figure(
                png,
                "Differences with 95% intervals: win rate of each start slot (pp, dashed: "
                "the tolerance) and race length, against the baseline; filled dots are "
                "significant after the correction.",
            )
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
    _fairness_section(doc, results, out, tolerance, summary)
    if across is not None:
        add_skill_section(doc, results, out, tolerance, summary, across, tests)
    _rounds_section(doc, results, out)
    _track_section(doc, results, out, measures, side)
    _comparison_section(doc, results, out, tolerance, compared, compared_across)
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
    _forests(doc, table, out, "compare", tolerance)
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
