"""The confirmation of a tuning: the best candidates and the book's values, on fresh races.

The search's own numbers are optimistic (the best is the candidate that did best on the
races it was scored on), so the verdict comes from a run of its own: a scenario with one
table of ``grid.set`` per candidate (the book's values first, cell 0, then the space's
references, e.g. the best of a hand-picked grid, then the search's best ``top`` candidates,
best first) at ``confirm`` races per cell, run by the ordinary runner into ``DIR/confirm``
(resumable, reported like any run) under cell key 0, i.e. on races no candidate played
during the search. Cells share random numbers, so candidates are compared race by race.

For each candidate: its objective on those races, with a 95% percentile bootstrap interval
over races, and its difference from the book's, paired (the same resampled races for
both); for each found candidate also its paired difference from the best reference (the
reference with the smallest objective on these races, so the comparison favours the
reference). ``better`` when the difference's interval lies below zero, ``worse`` above it.
Each interval holds for one comparison on its own; with several candidates, one of them
may look better by chance (docs/tuning.md).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from simkit.analysis.stats import percentile_interval
from simkit.errors import RunError
from simkit.runner.scenario import Scenario, parse
from simkit.tune import objective
from simkit.tune.common import RESAMPLES, separated
from simkit.tune.study import Settings, book_values, references

CONFIRM = "confirm"


def best_trials(study: Any, s: Settings) -> list[Any]:
    """The ``top`` complete trials with the smallest objective, one per candidate, neither
    the book's values nor a reference."""
    from optuna.trial import TrialState

    sp = s.search_space()
    named = [book_values(s.base(), sp.keys), *references(s)]
    done = study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,))
    out, seen = [], {json.dumps(v, sort_keys=True) for v in named}
    for t in sorted(done, key=lambda t: (t.value, t.number)):
        key = t.user_attrs["key"]
        if key not in seen:
            seen.add(key)
            out.append(t)
    return out[: s.top]


def scenario(s: Settings, candidates: list[dict[str, Any]]) -> Scenario:
    """The confirmation run's scenario: the book's values, the references, then each
    candidate, one cell each (times the scenario's own grid), ``confirm`` races, per-race
    rows kept."""
    data = json.loads(json.dumps(s.scenario))
    keys = s.search_space().keys
    book = {k: v for k, v in data.get("set", {}).items() if k in keys}
    data["set"] = {k: v for k, v in data.get("set", {}).items() if k not in keys}
    refs = [{**book, **ref} for ref in s.search_space().references]
    data["grid"] = {"set": [book, *refs, *candidates], **data.get("grid", {})}
    data.pop("precision", None)
    if "skill" in data:  # every cell plays the same races: no level keeps its own count
        data["skill"] = [_every_race(e) for e in data["skill"]]
        # The study checks its levels (and its top level against the reference); the
        # candidates need not.
        data["check_levels"] = False
        data.pop("reference", None)
        data.pop("reference_races", None)
    data.update(races=s.confirm, keep="races", crn=True, seed=s.seed)
    data["title"] = f"Confirmation: {data.get('title') or Path(s.scenario_path).stem}"
    return parse(data, s.scenario_path)


def _every_race(level: Any) -> Any:
    """A skill level as the file writes it, without a race count of its own."""
    if not isinstance(level, dict):
        return level
    if "bot" in level:
        return level["bot"]
    return {k: v for k, v in level.items() if k != "races"}  # a field


def run(out: Path, s: Settings, candidates: list[dict[str, Any]], **kw: Any) -> Path:
    """Play the confirmation into ``out/confirm`` (or finish it there); return the folder."""
    from simkit import runner
    from simkit.runner.storage import RunDir

    folder = Path(out) / CONFIRM
    sc = scenario(s, candidates)
    try:
        if (folder / "manifest.json").is_file():
            manifest = RunDir(folder).read_manifest()
            if manifest["scenario"] == sc.to_json():
                runner.resume(folder, **kw)
                return folder
        runner.start(sc, folder, force=True, **kw)
    except RunError as exc:
        # The run's advice resumes the confirmation alone; the tuning's resumes it and
        # then writes the report.
        hint = f"`{RunDir(folder).command} --resume {RunDir(folder).path}`"
        if hint not in str(exc):
            raise
        raise RunError(str(exc).replace(hint, f"`simkit tune --resume {out}`")) from None
    return folder


def _per_race(results: Any, terms: tuple[objective.Term, ...]) -> tuple[np.ndarray, list]:
    """One row per race index, columns for every cell: decided, wins by slot, term columns.

    Returns the matrix and, per cell, (players, decided column, win columns, term columns).
    """
    races = results.races
    blocks, layout, col = [], [], 0
    for cell, part in races.groupby("cell", sort=True):
        players = int(results.cells.set_index("cell").at[cell, "players"])
        by_race = part.groupby("race", sort=True)
        frame = pd.DataFrame({"decided": by_race["decided"].first().astype(np.float64)})
        wins = part[part["win"]].groupby(["race", "slot"]).size().unstack(fill_value=0)
        slots = sorted(part["slot"].unique())
        for sl in slots:
            frame[f"w{sl}"] = wins.get(sl, 0)
        frame = frame.fillna(0.0)
        seat = _seat_columns(results)
        for t in terms:
            if t.target is not None:  # a seat column is summed over the race's seats
                per_race = by_race[t.name]
                frame[t.name] = per_race.sum() if t.name in seat else per_race.first()
        width = frame.shape[1]
        wcols = list(range(col + 1, col + 1 + len(slots)))
        layout.append((players, col, wcols, col + 1 + len(slots)))
        blocks.append(frame.to_numpy(np.float64))
        col += width
    return np.hstack(blocks), layout


def _seat_columns(results: Any) -> set[str]:
    from simkit.games import get

    game = get(str(results.cells["game"].iloc[0]))
    return set(game.seat_columns)


def _values(sums: np.ndarray, n: np.ndarray, layout: list, terms, groups: list[list[int]]):
    """Objective of each candidate (its worst cell) from column sums over ``n`` races."""
    per_cell = []
    for players, dcol, wcols, tcol in layout:
        dec = np.maximum(sums[..., dcol], 1e-12)
        dev = 100 * np.max(np.abs(sums[..., wcols] / dec[..., None] - 1 / players), axis=-1)
        total = np.zeros_like(dev)
        k = tcol
        for t in terms:
            if t.target is None:
                total += t.weight * dev
            else:
                total += t.weight * np.abs(sums[..., k] / n - t.target)
                k += 1
        per_cell.append(total)
    cells = np.stack(per_cell, axis=0)
    return np.stack([cells[g].max(axis=0) for g in groups], axis=0)


def verdicts(results: Any, s: Settings, seed: int) -> pd.DataFrame:
    """One row per candidate of the confirmation, in its order (``role``: the book, the
    references, then those the search found): objective with its interval, paired
    difference from the book's and, for found candidates, from the best reference."""
    terms = s.terms()
    x, layout = _per_race(results, terms)
    n = x.shape[0]
    bundles = _bundles(results)
    per = len(results.cells) // len(bundles)
    groups = [list(range(i * per, (i + 1) * per)) for i in range(len(bundles))]
    n_refs = len(s.search_space().references)

    def values(idx: np.ndarray) -> np.ndarray:
        counts = np.stack([np.bincount(row, minlength=n) for row in idx]).astype(np.float64)
        return _values(counts @ x, float(n), layout, terms, groups)

    point = values(np.arange(n)[None, :])[:, 0]
    ref = 1 + int(np.argmin(point[1 : 1 + n_refs])) if n_refs else 0

    def stat(idx: np.ndarray, axis: int = -1) -> np.ndarray:
        v = values(np.atleast_2d(idx).astype(np.int64))
        return np.concatenate([v, v - v[:1], v - v[ref : ref + 1]], axis=0)

    est = stat(np.arange(n)[None, :])[:, 0]
    ci = percentile_interval((np.arange(n),), stat, seed, resamples=RESAMPLES, batch=50)
    k = len(groups)
    rows = []
    for i, bundle in enumerate(bundles):
        role = "book" if i == 0 else "reference" if i <= n_refs else "found"
        row = {
            "candidate": i,
            "role": role,
            "label": "the book's values" if i == 0 else _label(bundle),
            "objective": est[i],
            "low": ci.low[i],
            "high": ci.high[i],
        }
        if i:
            d, lo, hi = est[k + i], ci.low[k + i], ci.high[k + i]
            row.update(vs_book=d, vs_book_low=lo, vs_book_high=hi, paired=_paired(lo, hi))
        if role == "found" and n_refs:
            d, lo, hi = est[2 * k + i], ci.low[2 * k + i], ci.high[2 * k + i]
            row.update(
                vs_reference=d, vs_reference_low=lo, vs_reference_high=hi, against=_paired(lo, hi)
            )
        rows.append(row)
    return pd.DataFrame(rows)


def _paired(lo: float, hi: float) -> str:
    return separated(lo, hi, 0.0, smaller_is_better=True)


def _bundles(results: Any) -> list[dict[str, Any]]:
    return list(results.manifest["scenario"]["grid"]["set"])


def _label(bundle: dict[str, Any]) -> str:
    from simkit.runner.grid import format_value

    return ", ".join(f"{k}={format_value(v)}" for k, v in bundle.items())
