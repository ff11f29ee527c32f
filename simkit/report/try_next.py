"""What to try next: the lines a report's answer ends with, each a command that runs when
pasted (issues 14, 23, 35).

:func:`try_next` puts them together. For a sweep: one answer across skill levels, the
setting fairest at its worst level (this module's own room) and, when none is fair, a search
beyond the sweep's values. For one setting, the pieces of :mod:`simkit.report.advice`: the
slot to move and the table that moves it, the rules that may favour a slot switched off in
turn, or the races that would decide; and where any cell is unfair, ``simkit why``.
"""

from __future__ import annotations

import dataclasses
import shlex
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from simkit.analysis.fairness import FAIR, FEW_DECIDED, INCONCLUSIVE, UNFAIR, needed_text
from simkit.errors import SimkitError
from simkit.report.advice import (
    PREFIX,
    SHORT,
    Files,
    bots_text,
    compensation_advice,
    more_races_line,
    rules_off_line,
    setting_name,
    tune_lines,
    worst_slot_text,
)

# --- sweeps: one answer across skill levels -----------------------------------------------


def _settings(results: Any, part: pd.DataFrame) -> pd.DataFrame:
    """Per setting of a sweep (a combination of the swept values: one cell per skill level),
    its judged cells, its worst level and whether it is fair at every level."""
    skill = "skill" in part and part["skill"].notna().any()
    if skill:
        from simkit.analysis.skill_levels import combinations

        combo = combinations(results.cells).set_index("cell")
        part = part.assign(
            setting=part["cell"].map(combo["combination"]),
            name=part["cell"].map(combo["label"]),
        )
    else:
        part = part.assign(setting=part["cell"], name=part["label"])
    rows = []
    for setting, cells in part.groupby("setting", sort=False):
        judged = cells[cells["verdict"] != FEW_DECIDED]
        if judged.empty:
            continue
        worst = judged.loc[judged["max_deviation"].abs().idxmax()]
        rows.append(
            {
                "setting": setting,
                "name": str(cells["name"].iloc[0]),
                "cells": [int(c) for c in cells["cell"]],
                "judged": judged,
                "worst": worst,
                "deviation": abs(float(worst["max_deviation"])),
                "fair": bool((cells["verdict"] == FAIR).all()),
            }
        )
    return pd.DataFrame(rows)


def _separation(results: Any, a: Any, b: Any, seed: int) -> str:
    """How much closer to fair setting ``a`` is than ``b`` (paired on their common races)."""
    from simkit.analysis.deviation import settings_compared

    if getattr(results, "races", None) is None or not results.manifest.get("crn", True):
        return ""
    try:
        d = settings_compared(results, [b["cells"], a["cells"]], seed=seed, resamples=1000)
    except (SimkitError, ValueError, KeyError):
        return ""
    row = d.iloc[1]
    gap = f"{row['diff']:+.1f} pp [{row['diff_low']:+.1f}, {row['diff_high']:+.1f}]"
    if row["diff_high"] < 0:
        return f"its worst slot is closer to fair than the next, {b['name']}'s: {gap}"
    return (
        f"not separated from the next, {b['name']}: worst slot {gap} against it, paired on "
        f"{int(row['races']):,} races"
    )


def _sweep_line(results: Any, part: pd.DataFrame, n: int, tolerance: float) -> tuple[str, Any]:
    """One answer for the settings of a sweep with ``n`` players (the fairest at its worst
    level), and that setting's row."""
    s = _settings(results, part).sort_values("deviation", kind="stable")
    skill = "skill" in part and part["skill"].notna().any()
    at_every = " at every skill level" if skill else ""
    best = s.iloc[0]
    w = best["worst"]
    at = f" with {w['skill']}" if skill else ""
    fair = f"{100 / n:.3g}%"
    if best["fair"]:
        k = int(s["fair"].sum())
        text = (
            f"{k} of the {len(s)} settings with {n} players {'is' if k == 1 else 'are'} fair"
            f"{at_every}; the fairest, {best['name']}: furthest from fair, "
            f"{worst_slot_text(w)}{at} against {fair}."
        )
    else:
        text = (
            f"None of the {len(s)} settings with {n} players is fair{at_every} at "
            f"±{100 * tolerance:g} pp; the fairest{' at its worst level' if skill else ''}, "
            f"{best['name']}, is still {SHORT.get(w['verdict'], w['verdict'])}{at}: "
            f"{worst_slot_text(w)} against {fair}."
        )
    if skill:  # a level alone may rank the settings otherwise: say so, once
        others = []
        for level, rows in part.groupby("skill", sort=False):
            judged = rows[rows["verdict"] != FEW_DECIDED]
            if judged.empty:
                continue
            top = judged.loc[judged["max_deviation"].abs().idxmin()]
            if int(top["cell"]) not in best["cells"]:
                name = s.loc[s["cells"].map(lambda c, x=int(top["cell"]): x in c), "name"]
                others.append(f"{level} alone finds {name.iloc[0]} fairer")
        if others:
            text += (
                f" ({'; '.join(others)}: the answer is the setting fairest at its worst level, "
                "since a rule is played by every level.)"
            )
    if len(s) > 1:
        sep = _separation(results, best, s.iloc[1], int(results.manifest.get("seed") or 0))
        if sep:
            text += f" {sep[0].upper()}{sep[1:]}."
    return text, best


def _space_for(results: Any, data: dict[str, Any]) -> dict[str, Any]:
    """A tuning space over the keys the sweep varies that a search can move further (a
    parameter's bounds or choices, a track part's swept range); {} if none."""
    from simkit.games import get

    grid = data.get("grid") or {}
    values: dict[str, list[Any]] = {}
    for key, vals in grid.items():
        if key == "set":
            for table in vals:
                for k, v in table.items():
                    values.setdefault(k, []).append(v)
        elif key not in ("preset", "track", "players", "bots", "slots"):
            values[key] = list(vals)
    game = get(str(data.get("game")))
    fields = {f.name: f for f in dataclasses.fields(game.params)}
    space: dict[str, Any] = {}
    for key, vals in values.items():
        f = fields.get(key)
        if key.startswith("track.") and all(isinstance(v, int | float) for v in vals):
            lo, hi = min(vals), max(vals)
            space[key] = {"low": max(1, lo - 1), "high": hi + 1}
        elif f is None:
            continue
        elif f.metadata.get("choices"):
            choices = list(f.metadata["choices"])
            if len(choices) > len(set(map(str, vals))):
                space[key] = {"values": choices}
        elif isinstance(f.default, tuple) and f.metadata.get("favours") == "higher":
            length = max(len(v) for v in vals)
            entry: dict[str, Any] = {"elements": list(range(2, length + 1))}
            entry.update(
                {
                    k: f.metadata[m]
                    for k, m in (("low", "lo"), ("high", "hi"))
                    if f.metadata.get(m) is not None
                }
            )
            if length > 2:
                entry["order"] = "non-decreasing"
            space[key] = entry
        elif isinstance(f.default, bool):
            continue
        elif isinstance(f.default, int | float) and f.metadata.get("lo") is not None:
            space[key] = {"low": f.metadata["lo"], "high": f.metadata["hi"]}
    return space


def _search_line(files: Files, best: Any) -> str | None:
    """A tuning of the swept keys, from the study without them in its grid: the scenario
    and the space file beside the report, and the command."""
    import tomlkit

    data = files.data()
    space = _space_for(files.results, data)
    if not space:
        return None
    grid = data.get("grid") or {}
    for key in list(grid):
        if key in space or key == "set":
            grid.pop(key)
    data["grid"] = grid
    for key in ("races", "precision", "keep"):
        data.pop(key, None)
    data["title"] = f"{data.get('title') or files.stem}: tuned"
    scenario = files.write_scenario(f"{PREFIX}tune.toml", data, "the sweep's keys, to be tuned")
    doc = tomlkit.document()
    doc.add(
        tomlkit.comment(
            f"Written by simkit report from {files.scenario}: the keys its sweep varies."
        )
    )
    doc.add("title", f"{', '.join(space)} of {files.stem}")
    for key, entry in space.items():
        doc.add(key, entry)
    where = files.write(f"{PREFIX}space.toml", tomlkit.dumps(doc))
    cmd = shlex.join(["simkit", "tune", scenario, "--space", where])
    return (
        f"`{cmd}` searches {', '.join(f'`{k}`' for k in space)} beyond the sweep's values "
        "(scenario and space files beside this report; docs/tuning.md), every candidate at "
        "each skill level and player count, the best confirmed on fresh races."
    )


# --- the lines ----------------------------------------------------------------------------


def _own_races(results: Any, cell: int) -> int | None:
    """The races a cell's skill level plays by its own count (``{bot, races}``), if any."""
    specs = results.manifest.get("cells", [])
    own = specs[cell].get("races") if 0 <= cell < len(specs) else None
    return None if own is None else int(own)


def try_next(
    results: Any, summary: pd.DataFrame, tolerance: float, out: Path | None = None
) -> list[str]:
    """What to do next, each with a command that runs when pasted: for a sweep the setting
    fairest at every level and, when none is fair, a search beyond it; for one setting the
    slot to move and the table that moves it, the rules that may favour a slot switched
    off in turn, or the races that would decide. Files go into ``out`` beside the report."""
    from simkit.analysis.fairness import fairness_by_slot

    files = Files(results, out)
    by_slot = fairness_by_slot(results)
    spaces: dict[str, tuple[dict, set[int]]] = {}
    swept = set((results.manifest.get("scenario") or {}).get("grid") or {})
    lines: list[str] = []
    unexplained: list[tuple[int, str]] = []  # unfair cells no table compensates
    needs: dict[int, int] = {}
    for n, part in summary.groupby("players", sort=True):
        settings = _settings(results, part)
        if len(settings) > 1:
            text, best = _sweep_line(results, part, int(n), tolerance)
            lines.append(text)
            worst = best["worst"]
            if worst["verdict"] == INCONCLUSIVE and np.isfinite(worst["races_needed"]):
                judged = best["judged"]
                for r in judged[judged["verdict"] == INCONCLUSIVE].to_dict("records"):
                    if np.isfinite(r["races_needed"]):
                        needs[int(r["cell"])] = int(r["races_needed"])
            elif worst["verdict"] == UNFAIR:
                search = _search_line(files, best)
                if search is not None:
                    lines.append(search)
                else:
                    rules = rules_off_line(files, best["cells"], [best["name"]], best["cells"][0])
                    lines += [rules] if rules else []
            continue
        for r in part.to_dict("records"):
            label = str(r["label"])
            if r["verdict"] == FEW_DECIDED:
                bots = results.cells.set_index("cell").at[r["cell"], "bots"]
                lines.append(
                    f"{label}: play it with bots that finish races (this run: "
                    f"{bots_text(str(bots))}); a slot's wins say little while most races "
                    "have no winner."
                )
            elif r["verdict"] == INCONCLUSIVE:
                if not np.isfinite(r["races_needed"]):
                    lines.append(
                        f"{label}: {needed_text(r['races_needed'], tolerance)}: its slot is "
                        "about as far from fair as the tolerance itself, so more races cannot "
                        "settle it; judge it at another tolerance (simkit report's "
                        f"--tolerance, e.g. {tolerance + 0.01:g})."
                    )
                    continue
                need = int(r["races_needed"])
                needs[int(r["cell"])] = need
                own = _own_races(results, int(r["cell"]))
                also = f" (this level plays {own:,} now)" if own is not None else ""
                lines.append(f"{label}: run about {need:,} races{also}.")
            elif r["verdict"] == UNFAIR:
                said = compensation_advice(results, pd.Series(r), by_slot, tolerance, spaces)
                if said:
                    lines.append(f"{label}: {said}.")
                else:  # named by its setting: the rules' sweep plays every level of it
                    unexplained.append((int(r["cell"]), setting_name(results, int(r["cell"]))))
            else:
                lines.append(
                    f"{label}: nothing to fix at ±{100 * tolerance:g} pp; a smaller "
                    "tolerance (simkit report's --tolerance 0.01) asks for more."
                )
    if needs:
        lines.append(more_races_line(files, needs))
    if unexplained:
        cells = list(dict.fromkeys(c for c, _ in unexplained))
        labels = list(dict.fromkeys(label for _, label in unexplained))
        rules = rules_off_line(files, cells, labels)
        if rules is None:
            game = results.cells.set_index("cell").at[cells[0], "game"]
            rules = (
                f"{'; '.join(labels)}: no table of {game} compensates a slot and no rule "
                "that may favour one is in force here to switch off; `simkit variants "
                f"{game}` lists the parameters a [grid] can sweep (docs/scenarios.md)."
            )
        lines.append(rules)
    lines += tune_lines(files, spaces, swept)
    if (summary["verdict"] == UNFAIR).any():
        cmd = shlex.join(["simkit", "why", files.scenario])
        lines.append(
            f"Why, and what to change: `{cmd}` replays the unfair settings' races to show where "
            "the worst and best slots gain or lose, ranks the rules and parts of the track by "
            "switching each off on the same races, and tests the smallest change among the "
            "top causes on fresh races, with its side effects (docs/diagnosis.md; a few "
            "minutes for greedy levels, a search level costs more)."
        )
    return lines
