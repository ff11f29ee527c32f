"""The report's section on skill levels: each fairness verdict side by side across them.

On a study with a ``skill`` axis (docs/scenarios.md) the answer already says which verdicts
are robust (:mod:`simkit.report.summary`); this section shows the verdicts level by level
(:func:`simkit.analysis.skill.fairness_across`) and pictures the worst slot at each level.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pandas as pd

from simkit.analysis.fairness import fairness_by_slot
from simkit.analysis.skill import skill_curve
from simkit.analysis.skill_labels import DEPENDENT, LABELS, ROBUST
from simkit.analysis.skill_levels import combinations as skill_combinations
from simkit.analysis.skill_levels import levels as skill_levels
from simkit.analysis.skill_levels import with_combinations
from simkit.report import plots
from simkit.report.document import Document, Figure, Heading, Paragraph, Table, Verdicts
from simkit.runner.levels import AS_STRONG

MAX_COMPARED = 8  # comparison lines across levels in the answer; the CSV holds every one
MAX_SKILL_LINES = 8  # combinations per skill plot; fairness_across_skill.csv holds all


def add_skill_section(
    doc: Document,
    results: Any,
    out: Path,
    tolerance: float,
    summary: pd.DataFrame,
    across: pd.DataFrame,
    tests: pd.DataFrame,
) -> None:
    """Fairness verdicts side by side across the skill levels, the tested differences
    between levels, and the worst slot by level."""
    levels = skill_levels(results.cells)
    doc.add(Heading("Across skill levels"))
    _measured_order(doc, results)
    doc.add(
        Paragraph(
            f"Every combination of the study was played at {len(levels)} skill levels "
            f"({', '.join(levels)}), every seat by that level's bot, on the same race keys. "
            "Each slot's win rate is compared between every two levels, paired on the races "
            "they share, and tested against the fairness tolerance (±"
            f"{100 * tolerance:g} pp): does it lie significantly beyond it? Holm-corrected "
            "over the study. A verdict is robust when every level decided it the same way "
            "and no level differs from another by significantly more than the tolerance: a "
            "designer can trust it whoever plays; skill-dependent when some slot's win rate "
            "differs by significantly more than the tolerance between two levels the level "
            "check separates (the sentence gives the difference and its interval); "
            "style-dependent when such a difference lies only between players the check "
            "finds equally strong (the sentence gives the slot's range among them); "
            "undetermined when no such difference is found but some level could not decide "
            "(it says how many races that level needs), or when the levels' strength was not "
            "measured. A real shift smaller than the tolerance is named, not counted."
        )
    )
    doc.add(Table(across, "fairness_across_skill.csv", "Each combination's verdict per level."))
    if len(tests):
        doc.add(
            Table(
                tests,
                "fairness_across_skill_tests.csv",
                "Every slot's win-rate difference between two levels (level_b - level_a, "
                "95% interval; significant: differs from 0, beyond: lies beyond the "
                "tolerance, each after Holm's correction over the study).",
            )
        )
    combo = skill_combinations(results.cells).set_index("cell")["label"]
    rows = summary.assign(label=summary["cell"].map(combo))
    for n, part in rows.groupby("players", sort=True):
        labels = list(dict.fromkeys(part["label"]))[:MAX_SKILL_LINES]
        png = f"skill_{n}.png"
        plots.skill_deviation(
            out / png,
            part[part["label"].isin(labels)],
            levels,
            tolerance,
            f"{n} players: the worst slot at each skill level",
        )
        doc.add(
            Figure(
                png,
                f"{n} players: how far the worst start slot's win rate is from the fair "
                f"{100 / n:.3g}%, in percentage points with its 95% Wilson interval, at each "
                "skill level; below the dashed line (the tolerance) it is within the fair "
                "band. Points of one combination are joined; each names its worst slot and "
                "whether it is ahead or behind.",
            )
        )
    _skill_curves(doc, results, out, tolerance, getattr(results, "levels", None))


MAX_CURVES = 6  # combinations drawn as a skill curve; skill_curve.csv holds all


def _skill_curves(
    doc: Document, results: Any, out: Path, tolerance: float, strength: pd.DataFrame | None
) -> None:
    """Per combination: every slot's deviation from fair against the levels' strength."""
    slots = with_combinations(fairness_by_slot(results), results.cells)
    curve = skill_curve(slots, strength)
    rated = strength is not None and len(strength) > 0
    xlabel = (
        "skill level and its rating on this study's ground (level check)"
        if rated
        else "skill level, in the study's order (not rated here)"
    )
    doc.add(
        Table(
            curve,
            "skill_curve.csv",
            "Each slot's win rate minus fair (with its 95% interval) at each level, and the "
            "level's strength (x).",
        )
    )
    for combo, part in list(curve.groupby("combination", sort=True))[:MAX_CURVES]:
        png = f"skill_curve_{combo}.png"
        label = str(part["label"].iloc[0])
        title = f"{label}: slots as play improves"
        plots.skill_curve(out / png, part, tolerance, title, xlabel, rated)
        doc.add(
            Figure(
                png,
                f"{label}: how far each start slot's win rate is from fair (pp, 95% Wilson "
                "interval) at each skill level, placed by the level's "
                + ("rating measured in this study's own setting" if rated else "rank")
                + "; the green band is the fair rate ± the tolerance.",
            )
        )


def _measured_order(doc: Document, results: Any) -> None:
    """The section opens with the order of the levels measured where the study plays, and
    the top level's standing against the reference."""
    check = getattr(results, "levels", None)
    if check is None or check.empty:
        doc.add(
            Paragraph(
                "The order of the levels was not measured in this study's settings "
                "(check_levels = false, or a run made before the check): the levels are "
                "taken in the scenario's order, weakest first, as listed, and a difference "
                "between them cannot be told skill from style (undetermined)."
            )
        )
        return
    flagged = check[check["flag"].astype(bool)]
    combo = skill_combinations(results.cells).set_index("cell")["label"]
    how = (
        "Measured where the study plays (mixed lineups of the two bots of each pair, seats "
        "rotated, common random numbers; the ladder's ratings)"
    )
    if flagged.empty:
        head = f"{how}: every level is stronger than the one listed before it, in every setting."
    else:
        head = not_stronger_text(how, [(combo[r.cell], r.sentence) for r in flagged.itertuples()])
    doc.add(Paragraph(head, "warning" if len(flagged) else ""))
    if "certified" in check:
        top = check[check["certified"].astype(str) != ""]
        if len(top):
            doc.add(
                Paragraph(
                    "The top level against the model-free reference, where the study plays "
                    f"(as strong when its head-to-head share's 95% low end is at least "
                    f"{100 * AS_STRONG:g}%): "
                    + " ".join(f"{combo[r.cell]}: {r.ref_sentence}" for r in top.itertuples())
                )
            )
    shown = check.assign(setting=check["cell"].map(combo))
    doc.add(
        Table(
            shown,
            "skill_levels.csv",
            "Each bot of each level in each setting: rating (0 = the setting's mean bot), "
            "the comparison with the level below (difference and head-to-head share, 95% "
            "intervals) and, for the top level, its certificate against the reference.",
        )
    )
    pairs = getattr(results, "level_pairs", None)
    if pairs is not None and len(pairs):
        doc.add(
            Table(
                pairs,
                "skill_level_pairs.csv",
                "Every pair of bots of each setting: adjacent levels, bots of one field, the "
                "top level and the reference, and pairs that never met (rated: the rating "
                "difference only); separated: one is measured stronger than the other.",
            )
        )


def label_tally(across: pd.DataFrame) -> str:
    """``2 robust, 1 skill-dependent, 1 undetermined`` from an ``across`` column's labels."""
    counts = Counter(across["across"])
    return ", ".join(f"{counts.get(k, 0)} {k}" for k in LABELS)


def skill_facts(results: Any, across: pd.DataFrame | None) -> str:
    """The header's word on skill: the levels, and how the verdicts fare across them."""
    if across is None or across.empty:
        return "skill levels: one per cell (robustness across skill levels not measured)"
    levels = skill_levels(results.cells)
    fact = certificate_fact(across)
    return (
        f"skill levels: {', '.join(levels)}: {len(across)} fairness verdicts, "
        + label_tally(across)
        + (f"; {fact}" if fact else "")
    )


def _per_level(r: Any) -> str:
    """A difference at each level and its tested change between levels."""
    parts = []
    for level, diff, low, high, sig in zip(
        r.levels, r.diff, r.low, r.high, r.significant, strict=True
    ):
        mark = "" if sig else ", not significant"
        if r.metric == "win":
            parts.append(
                f"{100 * diff:+.1f} pp [{100 * low:+.1f}, {100 * high:+.1f}] with {level}{mark}"
            )
        else:
            parts.append(f"{diff:+.3g} [{low:+.3g}, {high:+.3g}] with {level}{mark}")
    what = r.metric if pd.isna(r.slot) else f"{r.metric} of slot {int(r.slot)}"
    if r.metric == "win":
        what = f"slot {int(r.slot)} wins"
    text = f"{what} {', '.join(parts)} ({r.across}"
    if r.across == DEPENDENT:
        scale = 100 if r.metric == "win" else 1
        unit = " pp" if r.metric == "win" else ""
        text += (
            f": {r.change_levels} {scale * r.change:+.3g}{unit} "
            f"[{scale * r.change_low:+.3g}, {scale * r.change_high:+.3g}]"
        )
    return text + ")"


def across_sentences(table: pd.DataFrame) -> list[str]:
    """Per compared combination: how many differences are robust, skill-dependent, undetermined."""
    lines = []
    if table.empty:
        return lines
    for (_, _), part in table.groupby(["baseline_label", "label"], sort=False):
        robust, dependent = part[part["across"] == ROBUST], part[part["across"] == DEPENDENT]
        first = part.iloc[0]
        head = (
            f"{first['label']} vs {first['baseline_label']}, {len(part)} differences: "
            f"{label_tally(part)}"
        )
        top = [
            *robust.sort_values("p_adjusted").head(3).itertuples(),
            *dependent.sort_values("change_p_adjusted").head(3).itertuples(),
        ]
        lines.append(head + (": " + "; ".join(map(_per_level, top)) if top else "") + ".")
    if len(lines) > MAX_COMPARED:
        lines = [
            *lines[:MAX_COMPARED],
            f"... and {len(lines) - MAX_COMPARED} more (comparison_across_skill.csv).",
        ]
    return lines


def certificate_lines(across: pd.DataFrame) -> list[str]:
    """The combinations whose top level is not shown as strong as the reference, in words
    (the first screen states them before any verdict)."""
    if "top_level" not in across:
        return []
    bad = across[across["top_level"].isin(["weaker", "not shown"])]
    return [f"{r.label}: {r.top_sentence}" for r in bad.itertuples()]


def single_strong_player(across: pd.DataFrame) -> str:
    """Where the top level is as strong as the reference but one player: its verdicts are
    that player's style (GLOSSARY: strong field), said once."""
    if "top_bots" not in across:
        return ""
    good = across[across["top_level"].isin(["as strong", "reference"])]
    alone = sorted({str(b) for b in good["top_bots"] if isinstance(b, str) and "," not in b})
    if not alone:
        return ""
    return (
        f"The strong level is one player ({', '.join(alone)}): its verdicts are one style of "
        "strong play. A field of two strong players of independent construction "
        '(skill = [..., {field = ["search:64", "..."]}], docs/scenarios.md) would tell a '
        "verdict that holds for strong play from one that holds for this player."
    )


def certificate_fact(across: pd.DataFrame | None) -> str:
    """``top level as strong as search:64 in 3 of 4 settings`` (empty: not checked)."""
    if across is None or "top_level" not in across or across["top_level"].isna().all():
        return ""
    checked = across.dropna(subset=["top_level"])
    good = checked["top_level"].isin(["as strong", "reference"]).sum()
    ref = str(checked["reference"].iloc[0])
    return f"top level as strong as {ref} in {good} of {len(checked)} settings"


def across_block(doc: Document, results: Any, across: pd.DataFrame) -> None:
    """Answer first on a skill axis: is the top level as strong as the reference here, and
    per combination, does its verdict hold at every level?"""
    levels = skill_levels(results.cells)
    for line in certificate_lines(across):
        doc.add(Paragraph(line, "warning"))
    alone = single_strong_player(across)
    if alone:
        doc.add(Paragraph(alone))
    doc.add(
        Paragraph(
            f"Across the {len(levels)} skill levels ({', '.join(levels)}), {len(across)} "
            f"fairness verdicts: {label_tally(across)}. Robust: decided and the same at every "
            "level, no difference between levels significantly beyond the tolerance; "
            "skill-dependent: a slot's win rate differs by significantly more than the "
            "tolerance between two levels the level check separates (tested, Holm-corrected "
            "over the study); style-dependent: such a difference only between players the "
            "level check finds equally strong (the range among them is given); undetermined: "
            "neither, but some level cannot decide, or the levels' strength was not measured."
        )
    )
    rows = tuple(
        (
            r.across,
            f"{r.label}: {r.across_skill}.",
            f"{r.players} players" + _top_detail(r),
        )
        for r in across.itertuples()
    )
    doc.add(Verdicts(rows))


def _top_detail(r: Any) -> str:
    level = getattr(r, "top_level", None)
    if not isinstance(level, str):
        return ""
    said = {
        "as strong": f"top level as strong as {r.reference} here",
        "reference": f"top level is {r.reference}",
        "weaker": f"top level weaker than {r.reference} here",
        "not shown": f"top level not shown as strong as {r.reference} here",
    }[level]
    return f" · {said}"


def not_stronger_text(how: str, flagged: list[tuple[str, str]]) -> str:
    """The level check's warning: each (setting, sentence) of a bot not stronger than the
    level before it, one sentence (a check's sentence ends with its own full stop)."""
    n = len(flagged)
    return (
        f"{how}: {n} bot{'s are' if n > 1 else ' is'} not stronger than the level listed "
        "before it: "
        + "; ".join(f"{label}: {sentence.rstrip('.')}" for label, sentence in flagged)
        + ". A difference between such players is style, not skill (style-dependent)."
    )
