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

from simkit.analysis import deviation
from simkit.analysis.ablation import every_race
from simkit.errors import RunError
from simkit.runner.scenario import Scenario
from simkit.runner.scenario_file import parse
from simkit.tune.common import RESAMPLES, separated
from simkit.tune.space import describe
from simkit.tune.tuning import Settings, book_values, references

CONFIRM = "confirm"


def best_trials(study: Any, s: Settings) -> list[Any]:
    """The ``top`` complete trials with the smallest objective, one per candidate, neither
    the book's values nor a reference."""
    from optuna.trial import TrialState

    sp = s.search_space()
    named = [book_values(s.base(), sp.keys), *references(s)]
    if s.goal().pareto:
        return front_points(study, {json.dumps(v, sort_keys=True) for v in named}, s.top)
    done = study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,))
    out, seen = [], {json.dumps(v, sort_keys=True) for v in named}
    for t in sorted(done, key=lambda t: (t.value, t.number)):
        key = t.user_attrs["key"]
        if key not in seen:
            seen.add(key)
            out.append(t)
    return out[: s.top]


def front_points(study: Any, named: set[str], top: int) -> list[Any]:
    """Up to ``top`` candidates of the Pareto front, spread along it: the fairest, the one
    nearest the book in the traded measure, and evenly between (one per candidate, none of
    them the book's values or a reference)."""
    front, seen = [], set(named)
    for t in sorted(study.best_trials, key=lambda t: (t.values[0], t.values[1], t.number)):
        key = t.user_attrs["key"]
        if key not in seen and "same_as" not in t.user_attrs:
            seen.add(key)
            front.append(t)
    if len(front) <= top:
        return front
    picks = np.unique(np.round(np.linspace(0, len(front) - 1, top)).astype(int))
    return [front[i] for i in picks]


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
        data["skill"] = [every_race(e) for e in data["skill"]]
        # The study checks its levels (and its top level against the reference); the
        # candidates need not.
        data["check_levels"] = False
        data.pop("reference", None)
        data.pop("reference_races", None)
    data.update(races=s.confirm, keep="races", crn=True, seed=s.seed)
    data["title"] = f"Confirmation: {data.get('title') or Path(s.scenario_path).stem}"
    return parse(data, s.scenario_path)


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


def _seat_columns(results: Any) -> set[str]:
    from simkit.games import get

    game = get(str(results.cells["game"].iloc[0]))
    return set(game.seat_columns)


def verdicts(results: Any, s: Settings, seed: int) -> pd.DataFrame:
    """One row per candidate of the confirmation, in its order (``role``: the book, the
    references, then those the search found): objective with its interval, paired
    difference from the book's and, for found candidates, from the best reference."""
    terms = s.terms()
    x, blocks = deviation.race_matrix(
        results, list(results.cells["cell"]), terms, _seat_columns(results)
    )
    n = x.shape[0]
    bundles = _bundles(results)
    per = len(results.cells) // len(bundles)
    groups = [list(range(i * per, (i + 1) * per)) for i in range(len(bundles))]
    n_refs = len(s.search_space().references)
    book = book_values(s.base(), s.search_space().keys)
    point = deviation.values(x.sum(axis=0)[None, :], float(n), blocks, groups, terms)[:, 0]
    ref = 1 + int(np.argmin(point[1 : 1 + n_refs])) if n_refs else 0

    def stat(sums: np.ndarray, n: float) -> np.ndarray:
        v = deviation.values(sums, n, blocks, groups, terms)
        return np.concatenate([v, v - v[:1], v - v[ref : ref + 1]], axis=0)

    est, ci = deviation.bootstrap(x, stat, seed, RESAMPLES)
    k = len(groups)
    rows = []
    for i, bundle in enumerate(bundles):
        role = "book" if i == 0 else "reference" if i <= n_refs else "found"
        row = {
            "candidate": i,
            "role": role,
            "label": "the book's values" if i == 0 else describe(bundle, book),
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
    out = pd.DataFrame(rows)
    goal = s.goal()
    if goal.bounds or goal.pareto:
        out = _with_measures(out, results, goal, per, seed)
    return out


def _with_measures(v: pd.DataFrame, results: Any, goal: Any, per: int, seed: int) -> pd.DataFrame:
    """Each candidate's change of every bounded (or traded) measure against the book's on
    the confirmation's races, its worst cell's, with its interval; ``within_bounds`` when
    every bounded change is within its tolerance (the point estimate)."""
    from simkit.analysis import side_effects

    pairs = [(i, k * per + i) for k in range(1, len(v)) for i in range(per)]
    side = side_effects.differences(results, pairs, seed=seed)
    side["candidate"] = side["cell"] // per
    out = v.copy()
    for name in goal.measures():
        part = side[side["measure"] == name]
        worst = part.loc[part.groupby("candidate")["diff"].apply(lambda d: d.abs().idxmax())]
        worst = worst.set_index("candidate")
        out[f"{name}_change"] = out["candidate"].map(worst["diff"])
        out[f"{name}_low"] = out["candidate"].map(worst["low"])
        out[f"{name}_high"] = out["candidate"].map(worst["high"])
        out.loc[out["candidate"] == 0, [f"{name}_change", f"{name}_low", f"{name}_high"]] = 0.0
    if goal.bounds:
        ok = pd.Series(True, index=out.index)
        for name, tol in goal.bounds:
            ok &= out[f"{name}_change"].abs() <= tol
        out["within_bounds"] = ok
    return out


def _paired(lo: float, hi: float) -> str:
    return separated(lo, hi, 0.0, smaller_is_better=True)


def _bundles(results: Any) -> list[dict[str, Any]]:
    return list(results.manifest["scenario"]["grid"]["set"])
