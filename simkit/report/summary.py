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

import numpy as np
import pandas as pd

from simkit.analysis.fairness import (
    FAIR,
    FEW_DECIDED,
    INCONCLUSIVE,
    MIN_DECIDED,
    UNFAIR,
    needed_text,
)
from simkit.analysis.skill import combinations as skill_combinations
from simkit.errors import SimkitError
from simkit.report.document import Document, Heading, Paragraph, Verdicts
from simkit.report.skill import across_block, across_sentences, skill_facts

SUMMARY_JSON = "summary.json"
SHORT = {FAIR: "fair", UNFAIR: "unfair", INCONCLUSIVE: "inconclusive", FEW_DECIDED: "no verdict"}


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


def bots_text(bots: str) -> str:
    """``greedy ×4`` or ``greedy ×2, random ×2`` from a cell's comma-joined bots."""
    counts = Counter(bots.split(","))
    return ", ".join(f"{b} ×{n}" if n > 1 else b for b, n in counts.items())


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


def _compensations(results: Any, cell: int) -> list[tuple[str, dict, tuple]]:
    """The per-slot tables that compensate start slots and are read in the cell's rules:
    (name, the field's metadata, the cell's values)."""
    import dataclasses

    from simkit.analysis.tables import json_params
    from simkit.games import get

    row = results.cells.set_index("cell").loc[cell]
    try:
        game = get(str(row["game"]))
    except SimkitError:
        return []
    fields = dataclasses.fields(game.params)
    as_json = set(json_params(game, getattr(results, "json_columns", None)))
    found = []
    for f in fields:
        m = f.metadata
        if m.get("favours") != "higher" or f.name not in row.index:
            continue
        if any(str(row.get(k)) != str(v) for k, v in (m.get("when") or {}).items()):
            continue  # not read under this cell's rules
        value = row[f.name]
        value = json.loads(value) if f.name in as_json else value
        found.append((f.name, dict(m), tuple(value)))
    return found


def _slot_advice(r: Any, m: dict, name: str, values: tuple, behind: bool) -> str:
    """``slot 4 wins 11.1% [10.4, 11.8] against 25%: give it more `extra_cards` (now 1)``."""
    now = values[r.slot - 1] if r.slot <= len(values) else 0
    rate = f"slot {r.slot} wins {_pct(r.win_rate)} [{100 * r.win_low:.1f}, {100 * r.win_high:.1f}]"
    rate += f" against {100 * r.fair_rate:.3g}%"
    lo, hi = m.get("lo"), m.get("hi")
    if behind:
        move = "more" if hi is None or now < hi else None
    else:
        move = "less" if lo is None or now > lo else None
    if move is None:
        bound = "highest" if behind else "lowest"
        others = "more" if not behind else "less"
        return f"{rate}: its `{name}` is already at its {bound} ({now}): give the others {others}"
    source = f"; {m['source']}" if m.get("source") else ""
    return f"{rate}: give it {move} `{name}` (now {now}{source})"


def _space_text(name: str, m: dict, slots: list[int], title: str) -> str:
    """A space file (docs/tuning.md) moving the named slots' entries over their bounds."""
    lo, hi = m.get("lo"), m.get("hi")
    lines = [
        f"# Written by simkit report beside {title!r}: the slots found behind or ahead.",
        f'title = "{name} for slot{"s" * (len(slots) > 1)} {", ".join(map(str, slots))}"',
        "",
        f"[{name}]",
        f"elements = [{', '.join(map(str, slots))}]",
    ]
    lines += [f"low = {lo}"] if lo is not None else []
    lines += [f"high = {hi}"] if hi is not None else []
    return "\n".join(lines) + "\n"


def _own_races(results: Any, cell: int) -> int | None:
    """The races a cell's skill level plays by its own count (``{bot, races}``), if any."""
    specs = results.manifest.get("cells", [])
    own = specs[cell].get("races") if 0 <= cell < len(specs) else None
    return None if own is None else int(own)


def try_next(
    results: Any, summary: pd.DataFrame, tolerance: float, out: Path | None = None
) -> list[str]:
    """What to do next: the fairest cell of a sweep, the slot to move and the table that
    moves it (with a space file written into ``out`` and the ``simkit tune`` command that
    searches it), or the races that would decide."""
    from simkit.analysis.fairness import fairness_by_slot

    by_slot = fairness_by_slot(results)
    spaces: dict[str, tuple[dict, set[int]]] = {}
    scenario = str(results.manifest.get("scenario_path") or "SCENARIO.toml")
    stem = Path(scenario).stem
    lines: list[str] = []
    sweep: dict[str, tuple[int, list[str]]] = {}  # advice -> its line and the cells it fits
    # On a skill axis the fairest cell is sought at each level: a level is who plays, not a
    # setting a designer can choose.
    skill = "skill" in summary and summary["skill"].notna().any()
    keys = ["players", "skill"] if skill else ["players"]
    groups = sorted(summary.groupby(keys, sort=False), key=lambda g: g[1]["players"].iloc[0])
    for key, part in groups:  # by players, levels in the study's order
        n = key[0] if isinstance(key, tuple) else key
        at = f" at skill level {key[1]}" if skill else ""
        judged = part[part["verdict"] != FEW_DECIDED]
        if len(part) > 1 and not judged.empty:
            best = judged.loc[judged["max_deviation"].abs().idxmin()]
            lines.append(
                f"Fairest of the {len(part)} cells with {n} players{at}: {best['label']} (cell "
                f"{best['cell']}): slot {best['worst_slot']} is furthest from fair at "
                f"{_pct(best['worst_rate'])} [{100 * best['worst_low']:.1f}, "
                f"{100 * best['worst_high']:.1f}] against {100 / n:.3g}% "
                f"({SHORT[best['verdict']]})."
            )
            continue
        r = part.iloc[0]
        cmd = shlex.join(["simkit", "run", scenario])
        if r["verdict"] == FEW_DECIDED:
            lines.append(
                f"{r['label']}: play it with bots that finish races (this run: "
                f"{bots_text(str(results.cells.set_index('cell').at[r['cell'], 'bots']))}); "
                "a slot's wins say little while most races have no winner."
            )
        elif r["verdict"] == INCONCLUSIVE:
            if not np.isfinite(r["races_needed"]):
                wider = shlex.join(
                    ["simkit", "report", str(results.dir), "--tolerance", f"{tolerance + 0.01:g}"]
                )
                lines.append(
                    f"{r['label']}: {needed_text(r['races_needed'], tolerance)}: its slot is "
                    f"about as far from fair as the tolerance itself, so more races cannot "
                    f"settle it; judge it at another tolerance, e.g. `{wider}`."
                )
                continue
            need = int(r["races_needed"])
            own = _own_races(results, int(r["cell"]))
            # A level with its own races per cell grows only when --level names it.
            level = ["--level", str(r["skill"])] if own is not None and "skill" in r else []
            extend = shlex.join(
                ["simkit", "run", "--resume", str(results.dir), "--races", str(need), *level]
            )
            also = (
                f" (this level alone, from the {own:,} races per cell it plays now)"
                if own is not None
                else ""
            )
            lines.append(
                f"{r['label']}: run about {need:,} races: `{extend}` adds them to this run, "
                f"the same races as one run of {need:,}{also}."
            )
        elif r["verdict"] == UNFAIR:
            said = _unfair_advice(results, r, by_slot, tolerance, spaces)
            if said:
                lines.append(f"{r['label']}: {said}.")
                continue
            game = results.cells.set_index("cell").at[r["cell"], "game"]
            advice = (
                f"to find a fairer setting, sweep a variant parameter (`simkit variants {game}` "
                f"lists them) in a [grid] and run `{cmd} --out runs/{stem}-sweep`; its report "
                "names the fairest cell, or let `simkit tune` search it (docs/tuning.md)."
            )
            if advice not in sweep:  # the same advice for several levels or cells: one line
                sweep[advice] = (len(lines), [])
                lines.append("")
            sweep[advice][1].append(str(r["label"]))
        else:
            lines.append(
                f"{r['label']}: nothing to fix at ±{100 * tolerance:g} pp; "
                "`simkit report RUN --tolerance 0.01` asks for more."
            )
    for advice, (i, labels) in sweep.items():
        lines[i] = f"{'; '.join(labels)}: {advice}"
    lines += _tune_lines(results, spaces, scenario, out)
    return lines


def _unfair_advice(
    results: Any, r: Any, by_slot: pd.DataFrame, tolerance: float, spaces: dict
) -> str:
    """Which slot is off, and which compensation table moves it which way (or "")."""
    comps = _compensations(results, int(r["cell"]))
    if not comps:
        return ""
    mine = by_slot[by_slot["cell"] == r["cell"]]
    behind = mine[mine["win_high"] < mine["fair_rate"] - tolerance].sort_values("deviation")
    ahead = mine[mine["win_low"] > mine["fair_rate"] + tolerance].sort_values(
        "deviation", ascending=False
    )
    name, m, values = comps[0]
    parts = [_slot_advice(x, m, name, values, True) for x in behind.head(2).itertuples()]
    parts += [_slot_advice(x, m, name, values, False) for x in ahead.head(1).itertuples()]
    lo, hi = m.get("lo"), m.get("hi")

    def movable(slot: int, up: bool) -> bool:  # can the table still move this slot that way?
        if slot > len(values):
            return False
        bound = hi if up else lo
        return bound is None or (values[slot - 1] < bound if up else values[slot - 1] > bound)

    moved = [int(x) for x in behind["slot"].head(2) if movable(int(x), True)]
    moved += [int(x) for x in ahead["slot"].head(1) if movable(int(x), False)]
    if moved:
        spaces.setdefault(name, (m, set()))[1].update(moved)
    return "; ".join(parts)


def _tune_lines(results: Any, spaces: dict, scenario: str, out: Path | None) -> list[str]:
    """A space file per compensation table the advice names, and the command searching it."""
    lines = []
    swept = set((results.manifest.get("scenario") or {}).get("grid") or {})
    title = str((results.manifest.get("scenario") or {}).get("title") or scenario)
    for name, (m, slots) in spaces.items():
        if name in swept:
            lines.append(
                f"`{name}` is swept in {scenario}'s [grid]: the fairest cell above is the "
                "best of its values; add values to the grid to look further."
            )
            continue
        file = f"try-next-{name}.toml"
        where = file if out is None else str(Path(out) / file)
        if out is not None:
            (Path(out) / file).write_text(_space_text(name, m, sorted(slots), title), "utf-8")
        cmd = shlex.join(["simkit", "tune", scenario, "--space", where])
        lines.append(
            f"`{cmd}` searches `{name}` for slot{'s' * (len(slots) > 1)} "
            f"{', '.join(map(str, sorted(slots)))} "
            f"(the space file {file} is beside this report; docs/tuning.md): every candidate "
            "plays each cell and skill level of the scenario, and the best are confirmed on "
            "fresh races beside the book's values."
        )
    return lines


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
) -> list[dict[str, Any]]:
    """The verdict of every cell, what to try next, and what the comparison found.

    On a skill axis (``across``: :func:`simkit.analysis.skill.fairness_across`) the answer
    opens with whether each verdict is robust, and every cell's verdict says it too;
    ``compared_across`` (:func:`simkit.analysis.skill.comparisons_across`) then replaces the
    per-cell comparison lines. Returns the lines for the study index.
    """
    doc.add(Heading("Answer"))
    skill = across is not None and not across.empty
    if skill:
        across_block(doc, results, across)
        combo = skill_combinations(results.cells).set_index("cell")["combination"]
        says = across.set_index("combination")["across_skill"]
        labels = across.set_index("combination")["label"]
    counts = Counter(SHORT[v] for v in summary["verdict"])
    tally = ", ".join(f"{n} {v}" for v, n in counts.most_common())
    doc.add(
        Paragraph(
            (f"{len(summary)} cells: {tally}. " if len(summary) > 1 else "")
            + "Win rates are of decided races (a winner who finished), with 95% intervals; "
            "a slot's verdict compares its interval with the fair rate ± the tolerance."
        )
    )
    bots = results.cells.set_index("cell")["bots"]
    several = bots.nunique() > 1
    rows, lines = [], []
    for r in summary.itertuples():
        sentence = verdict_sentence(r, tolerance)
        detail = f"decided {_pct(r.decided_rate)} of {r.races:,}"
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
        rows.append((r.verdict, sentence, detail))
        lines.append(line)
    doc.add(Verdicts(tuple(rows)))
    for line in try_next(results, summary, tolerance, out):
        doc.add(Paragraph("Try next: " + line))
    if compared_across is not None:
        compared = across_sentences(compared_across)
    else:
        compared = comparison_sentences(comparison if comparison is not None else pd.DataFrame())
    for line in compared:
        doc.add(Paragraph("Compared: " + line))
    return lines


def write_summary(out: Path, title: str, description: str, lines: list[dict[str, Any]]) -> None:
    """``summary.json`` beside index.html: what the study index shows of this report."""
    data = {"title": title, "description": description, "cells": lines}
    (out / SUMMARY_JSON).write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
