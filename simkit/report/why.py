"""The report of ``simkit why``: where the worst slot loses, which element causes it, what
fixes it (docs/diagnosis.md).

Answer first, per unfair setting: the verdict it explains, where the worst and the best slot
gain or lose places against the field, the causes ranked by ablation with their intervals,
and the smallest change tried that brings the worst slot within the tolerance, with its side
effects and the command that plays it again (a scenario file written beside the report).
Then each setting's tables and pictures, and the settings last.
"""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Any

from simkit.analysis import diagnose, side_effects
from simkit.report import plots
from simkit.report.advice import PREFIX, Files
from simkit.report.document import (
    Code,
    Document,
    Figure,
    Heading,
    Paragraph,
    Table,
    Verdicts,
    prepare,
    write,
)
from simkit.report.summary import write_summary

MAX_CAUSES = 3  # causes named in the answer; the table holds every element


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _verdict(study: Any, s: Any, tolerance: float) -> tuple[str, str]:
    """(verdict, sentence) of the setting's worst slot in the study itself."""
    from simkit.analysis.fairness import fairness

    fair = fairness(study, tolerance=tolerance).set_index("cell").loc[s.cells]
    w = fair.loc[fair["max_deviation"].abs().idxmax()]
    level = study.cells.set_index("cell").get("skill")
    at = f" with {level[w.name]}" if level is not None and isinstance(level[w.name], str) else ""
    return str(w["verdict"]), (
        f"{s.label}: slot {int(w['worst_slot'])} wins {_pct(w['worst_rate'])} "
        f"[{100 * w['worst_low']:.1f}, {100 * w['worst_high']:.1f}] against "
        f"{100 * w['fair_rate']:.3g}%{at}: why?"
    )


def _where(study: Any, s: Any) -> str:
    """Where the setting's worst and best slots gain or lose, from the replays."""
    places = s.breakdown.get("places")
    if places is None or places.empty:
        return ""
    slot, cell = s.effects.attrs["slot"], s.effects.attrs["cell"]
    mine = places[places["cell"] == cell]
    from simkit.analysis.fairness import fairness_by_slot

    by = fairness_by_slot(study)
    by = by[by["cell"] == s.cells[0]]
    best = diagnose.other_end(by, slot)
    n = int(s.breakdown["replays"]["races"].iloc[0])
    worst_lines = diagnose.sentences(mine, slot)
    best_lines = diagnose.sentences(mine, best)
    text = f"Where, over {n:,} races replayed: slot {slot}, " + "; ".join(worst_lines)
    if best_lines:
        text += f". Slot {best}, at the other end: " + "; ".join(best_lines)
    return (
        text + " (against the field's mean per seat, 95% intervals; every count adds up to the "
        "seat totals)."
    )


def _causes(s: Any) -> str:
    e = s.effects
    slot = e.attrs["slot"]
    sure = int((e["low"] > 0).sum())
    parts = [
        f"{r.rank}. {r.element}: {r.fairer:+.1f} pp [{r.low:+.1f}, {r.high:+.1f}] (slot {slot} "
        f"{r.effect:+.1f})"
        for r in e.head(MAX_CAUSES).itertuples()
    ]
    text = (
        f"Causes, each switched off alone on the same {e.attrs['races']:,} races, ranked by how "
        "much fairer that makes the setting (its worst slot's distance from fair over every "
        "level, before minus after, pp; in brackets, the same for slot "
        f"{slot}, worst now): " + "; ".join(parts) + f". {sure} of {len(e)} elements make it "
        "fairer beyond chance."
    )
    from simkit.analysis.ablation import levers

    lev = levers(e)
    if len(lev):
        named = "; ".join(
            f"{r.element} (shift {r.shift:+.1f} pp [{r.shift_low:+.1f}, {r.shift_high:+.1f}])"
            for r in lev.head(MAX_CAUSES).itertuples()
        )
        text += (
            f" Levers, whose removal moves slot {slot} past fair (its deviation is "
            f"{100 * e.attrs['deviation']:+.1f} pp), so that a smaller change of them may "
            f"balance it: {named}."
        )
    return text


def _fix_line(s: Any, files: Files, k: int, tolerance: float, stem: str) -> str:
    if s.fix is None:
        tried = s.fixes.iloc[1:] if len(s.fixes) > 1 else s.fixes
        if tried.empty:
            return "No element moves the worst slot toward fair: no change to try."
        close = tried.loc[tried["worst_deviation"].abs().idxmin()]
        return (
            f"No change among the top causes brings the worst slot within ±{100 * tolerance:g} "
            f"pp at every level ({len(tried)} tried on fresh races); the closest, "
            f"{close['change']}, leaves slot {int(close['worst_slot'])} "
            f"{close['worst_deviation']:+.1f} pp from fair ({close['verdicts']}). "
            "Combine it with a compensation table (the balance report's `simkit tune` advice)."
        )
    row, book = s.fix["row"], s.fix["book"]
    name = f"{PREFIX}fix-{k}.toml" if k > 1 else f"{PREFIX}fix.toml"
    path = files.write_scenario(name, s.fix["data"], f"the change {s.fix['change'].what}")
    cmd = shlex.join(["simkit", "run", path, "--out", f"runs/{stem}-fix"])
    side = side_effects.beyond_sentences(s.fix["side"], name_pairs=False)
    races = int(s.fix["data"]["races"])
    text = (
        f"Try next: {row['change']}: the worst slot, slot {int(row['worst_slot'])}, "
        f"{row['worst_deviation']:+.1f} pp from fair at its worst level ({row['verdicts']} "
        f"at each level) on {races:,} fresh races, against {book['worst_deviation']:+.1f} pp "
        f"with the study's own. Side effects: {'; '.join(side) if side else 'none measured'} "
        f"`{cmd}` plays exactly this measurement again (the study's own and the change, on "
        "the same races; the scenario file is beside this report)."
    )
    return text


def _setting_section(doc: Document, out: Path, s: Any, k: int) -> None:
    doc.add(Heading(f"Setting {k}: {s.label}"))
    slot, cell = s.effects.attrs["slot"], s.effects.attrs["cell"]
    places = s.breakdown.get("places")
    if places is not None and not places.empty:
        doc.add(Heading("Where the slots gain or lose", 3))
        mine = places[places["cell"] == cell]
        rows = mine[mine["kind"] == "turns"]
        png = f"places_{k}.png"
        plots.effects(
            out / png,
            rows.assign(name="slot " + rows["slot"].astype(str) + ", " + rows["place"]),
            f"Turns spent against the field per race, by slot and place (cell {cell})",
            "turns per race (slot minus field)",
        )
        doc.add(
            Figure(
                png,
                "Per start slot and place: turns spent per race against the field, with 95% "
                "intervals (positive: the slot is slower there).",
            ),
            Table(
                places,
                f"breakdown_places_{k}.csv",
                "Per cell, slot, place and kind: the slot's mean per race, the field's per seat, "
                "and the difference with its 95% interval.",
                True,
            ),
            Table(
                s.breakdown["rounds"],
                f"breakdown_rounds_{k}.csv",
                "Places gained per race against the field, by slot and round.",
                True,
            ),
            Table(
                s.breakdown["totals"],
                f"breakdown_totals_{k}.csv",
                "Totals against totals: each kind's events summed per slot equal the seat "
                "column's sum over the same races (diff 0); places equal start rank minus finish.",
                True,
            ),
        )
    doc.add(
        Table(
            s.breakdown["columns"],
            f"breakdown_columns_{k}.csv",
            "Every seat column: the slot's mean per race against the field's, with the 95% "
            "interval of the per-race difference (from the ablation run's own rows).",
            True,
        )
    )
    doc.add(Heading("Causes", 3))
    png = f"causes_{k}.png"
    e = s.effects.head(20)
    plots.effects(
        out / png,
        e.assign(name=e["element"], diff=e["fairer"]),
        "How much fairer switching each element off makes the setting",
        "pp closer to fair (worst slot over every level, before minus after)",
    )
    doc.add(
        Figure(
            png,
            "Each element switched off alone: how much closer to fair the setting's worst slot "
            "comes, with its 95% paired bootstrap interval.",
        ),
        Table(
            s.effects,
            f"causes_{k}.csv",
            "Every element, ranked by how much fairer switching it off makes the setting "
            f"(fairer, pp), with its effect on slot {slot} and that slot's shift (past fair "
            "for a lever), each with its 95% interval; value is the element switched off, book "
            "the value in force.",
        ),
    )
    if not s.fixes.empty:
        doc.add(Heading("Changes tried", 3))
        doc.add(
            Table(
                s.fixes,
                f"fixes_{k}.csv",
                "Changes among the top causes, smallest first, on fresh races: the worst slot "
                "over every level, and each level's verdict.",
            )
        )
    if s.fix is not None and not s.fix["side"].empty:
        doc.add(
            Table(
                s.fix["side"],
                f"fix_side_effects_{k}.csv",
                "The change's side effects against the study's own settings, on the same "
                'fresh races (docs/statistics.md "Side effects").',
                True,
            )
        )


def build(d: Any, out_dir: str | Path, command: str) -> Path:
    """Write the diagnosis report of ``d`` (:func:`simkit.why.diagnose`) into ``out_dir``."""
    out = Path(out_dir)
    prepare(out)
    m = d.study.manifest
    title = str((m.get("scenario") or {}).get("title") or Path(d.scenario_path).stem)
    doc = Document(f"Why: {title}")
    o = d.options
    doc.add(
        Paragraph(
            f"Study: {d.scenario_path} · {len(d.settings)} unfair setting"
            f"{'s' * (len(d.settings) != 1)} diagnosed · {o['races']:,} races per cell of each "
            f"ablation, {o['fix_races']:,} per change tried · {o['replays']:,} races replayed "
            f"· tolerance ±{100 * o['tolerance']:g} pp · seed {o['seed']}.",
            "facts",
        )
    )
    doc.add(Heading("Answer"))
    files = Files(d.study, out)
    stem = Path(d.scenario_path).stem
    lines = []
    if not d.settings:
        doc.add(Paragraph("No setting of the study is unfair: nothing to diagnose."))
    for k, s in enumerate(d.settings, start=1):
        verdict, sentence = _verdict(d.study, s, o["tolerance"])
        doc.add(
            Verdicts(((verdict, sentence, f"setting {k}, cells {', '.join(map(str, s.cells))}"),))
        )
        where = _where(d.study, s)
        if where:
            doc.add(Paragraph(where))
        doc.add(Paragraph(_causes(s)))
        fix = _fix_line(s, files, k, o["tolerance"], stem)
        doc.add(Paragraph(fix))
        lines.append({"cell": s.cells[0], "label": s.label, "verdict": "unfair", "sentence": fix})
    for k, s in enumerate(d.settings, start=1):
        _setting_section(doc, out, s, k)
    doc.add(Heading("Settings"))
    doc.add(
        Paragraph(
            "To diagnose the study again (the same races: the ablation and each change tried are "
            "ordinary runs in the output folder):"
        ),
        Code(command),
    )
    index = write(doc, out)
    write_summary(out, doc.title, "", lines)
    return index
