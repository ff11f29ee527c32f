"""``simkit why``: why a study's start is unfair, and the smallest change that fixes it.

For each unfair setting of a study (a run's, or a scenario's played first), docs/diagnosis.md:

1. **Where**: the setting's races replayed with the trace on, every place gain, crash,
   overspeed dent, blocked move, tie-break and bonus put where it happened, per start slot
   against the field (:mod:`simkit.analysis.diagnose`; on a track, the Snow Tails family);
   per round from the tables for every game.
2. **Causes**: every element that may favour a slot (the game's rules, the track's corner
   safety speeds, trees, closed spaces and buildings) switched off alone on the same races,
   ranked by how far that moves the worst slot toward fair (:mod:`simkit.analysis.ablation`).
3. **A tested fix**: changes among the top causes, smallest first (a safety speed one step,
   then two, ...), played on fresh races at every skill level of the study until one
   brings the worst slot within the tolerance; its side effects against the study's own
   settings; a scenario file that plays exactly that measurement again.

Every step is an ordinary run in the output folder (``setting-K/ablation``, ``fix-S``), so
it can be reported, compared or replayed like any other.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pandas as pd

from simkit.errors import SimkitError

DEFAULT_RACES = 4_000  # per cell of the ablation: a worst slot's shift to about ±1 pp, paired
DEFAULT_REPLAYS = 500  # races replayed with the trace for the breakdown
MAX_SETTINGS = 4  # unfair settings diagnosed, the least fair first
TOP_CAUSES = 3  # causes the fix is sought among
MAX_TRIED = 16  # changes tried for a fix, at most
FRESH = 1  # the fix is tried on the races of seed + FRESH: none the ablation played


@dataclasses.dataclass
class Setting:
    """One unfair setting diagnosed: what ``simkit why`` found about it."""

    label: str
    cells: list[int]  # the study's cells of this setting (one per skill level)
    data: dict[str, Any]  # the study's scenario pinned on this setting
    elements: list[Any]
    effects: pd.DataFrame
    ablation: Path
    breakdown: dict[str, pd.DataFrame]
    fixes: pd.DataFrame
    fix: dict[str, Any] | None  # the chosen change: row of ``fixes``, side effects, run
    fix_run: Path | None


@dataclasses.dataclass
class Diagnosis:
    study: Any  # the study's results (its verdicts)
    scenario_path: str
    settings: list[Setting]
    options: dict[str, Any]


def _study(target: Path, out: Path, races: int, seed: int | None, threads, progress):
    """(results, scenario data, scenario path) of the study: a run folder as it is, or a
    scenario file played into ``out/study`` first."""
    from simkit import runner
    from simkit.results import load

    if (target / "manifest.json").is_file():
        results = load(target)
        m = results.manifest
        return results, dict(m["scenario"]), str(m.get("scenario_path") or target)
    if target.is_dir():
        raise SimkitError(f"'{target}' is no run folder (no manifest.json) and no scenario file")
    sc = runner.load_scenario(target).with_overrides(races=races, seed=seed)
    runner.start(sc, out / "study", force=True, threads=threads, progress=progress)
    results = load(out / "study")
    return results, dict(results.manifest["scenario"]), str(target)


def _unfair_settings(results: Any, tolerance: float, cells: list[int] | None) -> list[list[int]]:
    """The cells of each unfair setting (all its skill levels), the least fair first."""
    from simkit.analysis.fairness import UNFAIR, fairness
    from simkit.analysis.skill_levels import combinations

    fair = fairness(results, tolerance=tolerance)
    if "skill" in results.cells and results.cells["skill"].notna().any():
        combo = combinations(results.cells).set_index("cell")["combination"]
    else:
        combo = pd.Series(results.cells["cell"].to_numpy(), index=results.cells["cell"])
    fair["setting"] = fair["cell"].map(combo)
    out = []
    for _, part in fair.groupby("setting", sort=False):
        if cells is not None and not set(part["cell"]) & set(cells):
            continue
        if cells is None and not (part["verdict"] == UNFAIR).any():
            continue
        out.append((-float(part["max_deviation"].abs().max()), sorted(part["cell"])))
    return [c for _, c in sorted(out)][:MAX_SETTINGS]


def _decode(results: Any) -> set[str]:
    from simkit.analysis.tables import json_params
    from simkit.games import get

    game = get(str(results.cells["game"].iloc[0]))
    return set(json_params(game, getattr(results, "json_columns", None)))


def _run(data: dict[str, Any], folder: Path, path: str, threads, progress) -> Any:
    from simkit import runner
    from simkit.results import load
    from simkit.runner.scenario_file import parse

    runner.start(parse(data, path), folder, force=True, threads=threads, progress=progress)
    return load(folder)


def replayed_breakdown(results: Any, cells: list[int], replays: int) -> dict[str, pd.DataFrame]:
    """The breakdown of ``cells`` (the base cell of every level): their first ``replays``
    races replayed with seat events (``places``, ``rounds``, ``totals``, ``replays``) where
    the game has them, and the tables' own view (``columns``, ``rounds_position``).
    simkit serve's "where the slots lose" reads it too."""
    from simkit.analysis import diagnose
    from simkit.analysis.rounds import position_by_slot
    from simkit.runner.replay import replay_cell
    from simkit.tracks import load as load_track

    out: dict[str, pd.DataFrame] = {}
    columns = [diagnose.by_column(results, c).assign(cell=c) for c in cells]
    out["columns"] = pd.concat(columns, ignore_index=True)
    rounds = position_by_slot(results)
    out["rounds_position"] = rounds[rounds["cell"].isin(cells)]
    m = results.manifest
    places, by_round, totals = [], [], []
    for c in cells:
        spec = m["cells"][c]
        cell, _ = replay_cell(results.dir, c, 0)
        n = min(replays, int(m["races_done"][c]))
        try:
            events, seats = diagnose.replay(cell, m["seed"], int(spec["cell_key"]), range(n))
        except SimkitError:
            return out  # a game without seat events: the tables' view only
        track = load_track(cell.track)
        places.append(diagnose.by_place(events, seats, track).assign(cell=c))
        by_round.append(diagnose.by_round(events, seats).assign(cell=c))
        totals.append(diagnose.totals(events, seats).assign(cell=c))
    out["places"] = pd.concat(places, ignore_index=True)
    out["rounds"] = pd.concat(by_round, ignore_index=True)
    out["totals"] = pd.concat(totals, ignore_index=True)
    out["replays"] = pd.DataFrame({"races": [min(replays, int(m["races_done"][cells[0]]))]})
    return out


def _top(effects: pd.DataFrame, elements: list[Any]) -> list[Any]:
    """Where to look for a fix: the top causes (elements whose removal makes the setting
    fairer beyond chance, interval above 0, the largest first; else the largest positive
    ones), then the levers (whose removal overshoots, so that a smaller change of
    them may balance the slot), :data:`TOP_CAUSES` of each at most."""
    from simkit.analysis.ablation import levers

    by_what = {(e.key, json.dumps(e.value)): e for e in elements}
    sure = effects[effects["low"] > 0]
    pick = sure if len(sure) else effects[effects["fairer"] > 0]
    rows = [*pick.head(TOP_CAUSES).itertuples(), *levers(effects).head(TOP_CAUSES).itertuples()]
    return list({(r.key, r.value): by_what[(r.key, r.value)] for r in rows}.values())


def _seek_fix(setting_data, top, folder, path, races, seed, tolerance, threads, progress):
    """Changes among ``top``, smallest first, on fresh races until one brings the worst slot
    within ``tolerance`` at every level: (every change tried, the chosen one or None, its
    run)."""
    from simkit.analysis import ablation, side_effects

    changes = ablation.candidates(top)[:MAX_TRIED]
    tried, chosen, chosen_run = [], None, None
    for size in sorted({c.size for c in changes}):
        batch = [c for c in changes if c.size == size]
        data = ablation.scenario(
            setting_data,
            [{}, *(c.values for c in batch)],
            races,
            seed + FRESH,
            f"{setting_data.get('title') or 'study'}: changes of size {size}",
        )
        results = _run(data, folder / f"fix-{size}", path, threads, progress)
        table = ablation.fix_results(results, batch, tolerance)
        if not tried:
            tried.append(table.iloc[:1])
        tried.append(table.iloc[1:])
        good = table.iloc[1:][table.iloc[1:]["within"] & ~table.iloc[1:]["unfair"]]
        if good.empty:
            continue
        best = good.loc[good["worst_deviation"].abs().idxmin()]
        k = int(best.name)
        groups = ablation.groups(results)
        pairs = list(zip(groups[0], groups[k], strict=True))
        side = side_effects.differences(results, pairs, seed=seed)
        chosen = {
            "row": best,
            "change": batch[k - 1],
            "book": table.iloc[0],
            "side": side,
            "data": ablation.scenario(
                setting_data,
                [{}, batch[k - 1].values],
                races,
                seed + FRESH,
                f"{setting_data.get('title') or 'study'}: {batch[k - 1].what}",
            ),
        }
        chosen_run = folder / f"fix-{size}"
        break
    return pd.concat(tried, ignore_index=True) if tried else pd.DataFrame(), chosen, chosen_run


def diagnose(
    target: str | Path,
    out: str | Path,
    *,
    races: int = DEFAULT_RACES,
    fix_races: int | None = None,
    replays: int = DEFAULT_REPLAYS,
    tolerance: float = 0.02,
    seed: int | None = None,
    cells: list[int] | None = None,
    threads: int | None = None,
    progress: bool = False,
) -> Diagnosis:
    """Diagnose the unfair settings of the study ``target`` (a run folder or a scenario
    file) into the folder ``out``; see the module's docstring."""
    from simkit.analysis import ablation
    from simkit.report.advice import setting_name
    from simkit.runner import expand
    from simkit.runner.scenario_file import parse

    out = Path(out)
    study, data, path = _study(Path(target), out, races, seed, threads, progress)
    seed = int(study.manifest.get("seed") or 0) if seed is None else seed
    decode = _decode(study)
    rows = study.cells.set_index("cell")
    found = []
    for k, group in enumerate(_unfair_settings(study, tolerance, cells)):
        row = rows.loc[group[0]]
        pinned = ablation.pinned(data, row, decode)
        cell = expand(parse(pinned, path))[0].cell
        elements = ablation.elements(cell)
        if not elements:
            raise SimkitError(f"{row['label']}: no rule or part of the track to switch off")
        folder = out / f"setting-{k + 1}"
        title = f"{data.get('title') or Path(path).stem}: ablation"
        abl = _run(
            ablation.scenario(pinned, [{}, *(e.bundle() for e in elements)], races, seed, title),
            folder / "ablation",
            path,
            threads,
            progress,
        )
        effects = ablation.effects(abl, elements, seed)
        breakdown = replayed_breakdown(abl, ablation.groups(abl)[0], replays)
        fixes, chosen, run = _seek_fix(
            pinned,
            _top(effects, elements),
            folder,
            path,
            fix_races or races,
            seed,
            tolerance,
            threads,
            progress,
        )
        found.append(
            Setting(
                setting_name(study, group[0]),
                group,
                pinned,
                elements,
                effects,
                folder / "ablation",
                breakdown,
                fixes,
                chosen,
                run,
            )
        )
    options = {
        "races": races,
        "fix_races": fix_races or races,
        "replays": replays,
        "tolerance": tolerance,
        "seed": seed,
    }
    return Diagnosis(study, path, found, options)
