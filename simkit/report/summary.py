"""The top of a report: what was asked, and the answer, before any detail (issue 14).

A designer reads a report top-down. The first screen names the study (the scenario's
title and description, the game, the track's title), then gives one verdict sentence per
cell (the worst slot's win rate with its 95% interval, the tolerance, the share of decided
races, the bots) and what to try next. Run settings and parameters go to the end.
``summary.json`` keeps the same lines for the study index (:mod:`simkit.report.index`).
"""

from __future__ import annotations

import json
import shlex
from collections import Counter
from pathlib import Path
from typing import Any

import pandas as pd

from simkit.analysis import side_effects
from simkit.analysis.fairness import (
    FAIR,
    FEW_DECIDED,
    MIN_DECIDED,
    UNFAIR,
    needed_text,
)
from simkit.analysis.skill_levels import combinations as skill_combinations
from simkit.analysis.track import guard_ended
from simkit.errors import SimkitError
from simkit.report.advice import SHORT, bots_text
from simkit.report.document import Document, Heading, Paragraph, Verdicts
from simkit.report.skill import across_block, across_sentences, skill_facts
from simkit.report.try_next import try_next

SUMMARY_JSON = "summary.json"
NOT_PLAYED = "not played"  # a cell of a run that is not complete, with no race yet


def scenario_text(results: Any) -> tuple[str, str]:
    """The scenario's title and description as the user wrote them (may be empty)."""
    sc = results.manifest.get("scenario") or {}
    return str(sc.get("title") or ""), str(sc.get("description") or "")


def game_title(name: str) -> str:
    from simkit.games import get

    try:
        return f"{get(name).title} ({name})"
    except SimkitError:
        return name


def track_titles(results: Any) -> list[str]:
    """``Title (name)`` of every track the run's cells race on, in cell order."""
    if "track" not in results.cells:
        return []
    out = []
    for name in dict.fromkeys(t for t in results.cells["track"] if isinstance(t, str)):
        from simkit import tracks

        try:
            out.append(f"{tracks.load(name).title} ({name})")
        except SimkitError:
            out.append(f"{name} (not found)")
    return out


def slot_meanings(results: Any) -> list[str]:
    """What a start slot is in each game of the run that says (``Game.extras.slots_mean``): a MUSH
    "slot" is an order of choosing training, not a place on a start line."""
    from simkit.games import get

    out = []
    for name in dict.fromkeys(map(str, results.cells["game"])):
        try:
            game = get(name)
        except SimkitError:
            continue
        if game.extras.slots_mean:
            out.append(f"What a slot is in {game.title}: {game.extras.slots_mean}.")
    return out


def run_progress(results: Any) -> pd.DataFrame | None:
    """Per cell of a run that is not complete: ``races`` played so far and ``asked`` (the
    races it will play, its skill level's own count or the run's); None when complete."""
    m = results.manifest
    if m.get("status", "complete") == "complete":
        return None
    sf = results.agg.get("slot_finish") if getattr(results, "agg", None) else None
    players = results.cells.set_index("cell")["players"]
    done = pd.Series(0, index=players.index, dtype="int64")
    if sf is not None and len(sf):
        counts = sf.groupby("cell")["count"].sum() // players.reindex(sf["cell"].unique())
        done = done.add(counts.astype("int64"), fill_value=0).astype("int64")
    specs = m.get("cells") or []
    per = m.get("races_per_cell")
    asked = [
        (specs[c].get("races", per) if c < len(specs) else per) for c in map(int, players.index)
    ]
    return pd.DataFrame(
        {"cell": players.index, "races": done.to_numpy(), "asked": asked}
    ).reset_index(drop=True)


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def verdict_sentence(r: Any, tolerance: float) -> str:
    """The one sentence a reader needs about a cell (a row of ``fairness``).

    Win rates are of decided races; the answer's lead sentence says so once.
    """
    fair = f"fair {100 * r.fair_rate:.3g}% ± {100 * tolerance:g} pp"
    worst = (
        f"slot {r.worst_slot} wins {_pct(r.worst_rate)} [{100 * r.worst_low:.1f}, "
        f"{100 * r.worst_high:.1f}]"
    )
    if r.verdict == FEW_DECIDED:
        return (
            f"{r.label}: no verdict: only {_pct(r.decided_rate)} of races were decided (a "
            f"winner who finished); a verdict needs {_pct(MIN_DECIDED)}."
        )
    if r.verdict == FAIR:
        return f"{r.label}: fair: every slot within {fair}; furthest, {worst}."
    if r.verdict == UNFAIR:
        return f"{r.label}: unfair: {worst} vs {fair}."
    need = needed_text(r.races_needed, tolerance)
    return f"{r.label}: inconclusive: {worst} vs {fair}; {need}."


MAX_COMPARED = 8  # comparison lines in the answer; comparison.csv holds every one


def _difference(r: Any) -> str:
    if r.metric == "win":
        return (
            f"slot {int(r.slot)} wins {100 * r.diff:+.1f} pp [{100 * r.low:+.1f}, "
            f"{100 * r.high:+.1f}]"
        )
    what = r.metric if pd.isna(r.slot) else f"{r.metric} of slot {int(r.slot)}"
    return f"{what} {r.diff:+.3g} [{r.low:+.3g}, {r.high:+.3g}]"


def comparison_sentences(table: pd.DataFrame) -> list[str]:
    """Per compared cell: how many differences survive the correction, the largest three."""
    lines = []
    if table.empty:
        return lines
    for (_, _), part in table.groupby(["baseline", "cell"], sort=False):
        sig = part[part["significant"]]
        first = part.iloc[0]
        head = (
            f"{first['label']} vs {first['baseline_label']}: {len(sig)} of "
            f"{int(part['p'].notna().sum())} differences significant after correction"
        )
        # Win differences in pp and other metrics in their units: rank each by its p-value.
        top = sig.sort_values("p_adjusted").head(3)
        lines.append(
            head + (": " + "; ".join(map(_difference, top.itertuples())) if len(top) else "") + "."
        )
    if len(lines) > MAX_COMPARED:
        lines = [
            *lines[:MAX_COMPARED],
            f"... and {len(lines) - MAX_COMPARED} more (comparison.csv).",
        ]
    return lines


def add_header(
    doc: Document, results: Any, tolerance: float, across: pd.DataFrame | None = None
) -> None:
    """Under the title: the scenario's description and one line of what was run."""
    _, description = scenario_text(results)
    if description:
        doc.add(Paragraph(description, "lede"))
    cells = results.cells
    games = ", ".join(game_title(g) for g in dict.fromkeys(map(str, cells["game"])))
    facts = [f"Game: {games}"]
    tracks = track_titles(results)
    if tracks:
        facts.append(("Track: " if len(tracks) == 1 else "Tracks: ") + ", ".join(tracks))
    bots = list(dict.fromkeys(bots_text(str(b)) for b in cells["bots"]))
    facts.append("Bots: " + ("; ".join(bots) if len(bots) <= 3 else f"{len(bots)} line-ups"))
    facts.append(f"{len(cells)} cell" + ("s" if len(cells) != 1 else ""))
    progress = run_progress(results)
    if progress is not None:
        played = int((progress["races"] > 0).sum())
        facts[-1] += f" ({played} with races so far: the run is not complete)"
    facts.append(f"tolerance ±{100 * tolerance:g} pp")
    facts.append(skill_facts(results, across))
    doc.add(Paragraph(" · ".join(facts) + ".", "facts"))


def add_answer(
    doc: Document,
    results: Any,
    summary: pd.DataFrame,
    tolerance: float,
    comparison: pd.DataFrame | None = None,
    across: pd.DataFrame | None = None,
    compared_across: pd.DataFrame | None = None,
    out: Path | None = None,
    measures: pd.DataFrame | None = None,
    side: pd.DataFrame | None = None,
) -> list[dict[str, Any]]:
    """The verdict of every cell, what to try next, and what the comparison found.

    ``measures`` (:func:`simkit.analysis.side_effects.cell_measures`) puts each cell's race
    length, crashes, dents, eliminations, drama and lead change beside its verdict;
    ``side`` (:func:`simkit.analysis.side_effects.differences`) says, right after the
    verdicts, which of them a compared cell moves beyond its tolerance.

    On a skill axis (``across``: :func:`simkit.analysis.skill.fairness_across`) the answer
    opens with whether each verdict is robust, and every cell's verdict says it too;
    ``compared_across`` (:func:`simkit.analysis.skill.comparisons_across`) then replaces the
    per-cell comparison lines. Returns the lines for the study index.
    """
    doc.add(Heading("Answer"))
    progress = run_progress(results)
    if progress is not None:
        doc.add(Paragraph(_unfinished(results, progress), "warning"))
    for line in slot_meanings(results):
        doc.add(Paragraph(line))
    skill = across is not None and not across.empty
    if skill:
        across_block(doc, results, across)
        combo = skill_combinations(results.cells).set_index("cell")["combination"]
        says = across.set_index("combination")["across_skill"]
        labels = across.set_index("combination")["label"]
    counts = Counter(SHORT[v] for v in summary["verdict"])
    tally = ", ".join(f"{n} {v}" for v, n in counts.most_common())
    lead = Paragraph(
        (f"{len(summary)} cells: {tally}. " if len(summary) > 1 else "")
        + "Win rates are of decided races (a winner who finished), with 95% intervals; "
        "a slot's verdict compares its interval with the fair rate ± the tolerance."
    )
    bots = results.cells.set_index("cell")["bots"]
    several = bots.nunique() > 1
    rows, lines = [], []
    guard = guard_ended(results).set_index("cell")["timed_out"]
    for r in summary.itertuples():
        sentence = verdict_sentence(r, tolerance)
        detail = f"decided {_pct(r.decided_rate)} of {r.races:,}"
        if r.cell in guard.index:  # races the engine guard ended (the fairness section)
            detail += f", {guard[r.cell]:,} ended by the engine guard"
        if progress is not None:
            asked = progress.set_index("cell")["asked"].get(r.cell)
            if asked is not None and r.races < asked:
                detail += f" (of {int(asked):,}: the run is not complete)"
        if several:
            detail += f" · {bots_text(str(bots[r.cell]))}"
        line = {
            "cell": int(r.cell),
            "label": str(r.label),
            "verdict": SHORT[r.verdict],
            "sentence": sentence,
        }
        if skill:
            line["combination"] = int(combo[r.cell])
            line["across_skill"] = str(says[combo[r.cell]])
            # The sentence stands once above, per combination; each cell names its label.
            word = line["across_skill"].split(":")[0]
            detail += f" · across skill levels: {word} (above: {labels[combo[r.cell]]})"
        if measures is not None and not measures.empty:
            said = side_effects.cell_text(measures, r.cell)
            line["side_effects"] = said
            if said and len(summary) <= MAX_SIDE_DETAILS:  # a longer list stays one line each
                detail += f" · {said}"
        rows.append((r.verdict, sentence, detail))
        lines.append(line)
    if progress is not None:  # cells with no race yet: said, not left out
        labels = results.cells.set_index("cell")["label"]
        for c in progress.loc[progress["races"] == 0, "cell"]:
            sentence = f"{labels[c]}: not played yet (the run is not complete)."
            rows.append(("no verdict", sentence, f"cell {int(c)}"))
            lines.append(
                {
                    "cell": int(c),
                    "label": str(labels[c]),
                    "verdict": NOT_PLAYED,
                    "sentence": sentence,
                }
            )
    if not skill:
        doc.add(lead, Verdicts(tuple(rows)))
    _side_effects(doc, side)
    if skill:  # the per-level verdicts follow what the combinations do to the races
        doc.add(lead, Verdicts(tuple(rows)))
    for line in try_next(results, summary, tolerance, out):
        doc.add(Paragraph("Try next: " + line))
    if compared_across is not None:
        compared = across_sentences(compared_across)
    else:
        compared = comparison_sentences(comparison if comparison is not None else pd.DataFrame())
    for line in compared:
        doc.add(Paragraph("Compared: " + line))
    return lines


def _unfinished(results: Any, progress: pd.DataFrame) -> str:
    """The warning that opens the answer of a run that is not complete."""
    played = int((progress["races"] > 0).sum())
    waiting = progress.loc[progress["races"] == 0, "cell"].astype(int).tolist()
    status = results.manifest.get("status", "unknown")
    text = (
        f"This run is not complete (run status: {status}): {played} of {len(progress)} cells "
        f"have races so far, {int(progress['races'].sum()):,} of "
        f"{int(progress['asked'].sum()):,} races. The verdicts below cover the races played"
    )
    if waiting:
        shown = ", ".join(map(str, waiting[:12])) + (", ..." if len(waiting) > 12 else "")
        many = len(waiting) > 1
        text += f"; cell{'s' * many} {shown} {'have' if many else 'has'} none yet"
    resume = shlex.join(["simkit", "run", "--resume", str(results.dir)])
    return text + f". `{resume}` finishes it; then report it again."


MAX_SIDE_DETAILS = 4  # verdicts that carry their cell's side effects in their detail


def _side_effects(doc: Document, side: pd.DataFrame | None) -> None:
    """On the first screen: what each compared cell does to the races beyond tolerance."""
    if side is None or side.empty:
        return
    for line in side_effects.beyond_sentences(side)[:MAX_COMPARED]:
        doc.add(Paragraph("Side effects: " + line))


def write_summary(out: Path, title: str, description: str, lines: list[dict[str, Any]]) -> None:
    """``summary.json`` beside index.html: what the study index shows of this report."""
    data = {"title": title, "description": description, "cells": lines}
    (out / SUMMARY_JSON).write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
