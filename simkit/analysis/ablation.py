"""Which element of the rules or the track makes a slot win or lose (docs/diagnosis.md).

Ablation: neutralise one element at a time (a corner's safety speed, a tree, a closed
space, a building, a rule the game declares may favour a slot, ``Game.extras.rule_elements``) and
play the same races again (common random numbers: race ``i`` of every variant sees the same
deals, dice and start slots). What an element is worth to the worst slot is how far its
removal moves that slot toward fair, paired race by race, with a percentile bootstrap
interval over races (scipy): the causes are ranked by it. Where an element is a player's
option (the balanced-sled bonus), switching it off for everyone is restricted play
(Jaffe et al. 2012, "Evaluating competitive game balance with restricted play"); on the
rules and the track it is the same question asked of the design.

This module only says which elements there are, writes the scenario that plays them
(:func:`scenario`), and reads the finished run (:func:`effects`); ``simkit why``
(:mod:`simkit.why`) runs it, then tests the smallest change among the top causes on fresh
races (:func:`candidates`, :func:`fix_results`).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from simkit.analysis import deviation
from simkit.tracks import override

RULE, TRACK = "rule", "track"
SAFETY_STEPS = 3  # a corner's safety speed is also tried this many steps either way


@dataclass(frozen=True)
class Element:
    """One thing to neutralise: a scenario key (a parameter or a ``track.…`` part), the
    value without it, what it is in a reader's words, and whether it is a rule or part of
    the track."""

    key: str
    value: Any
    what: str
    kind: str
    book: Any = None  # the value in force (the book's, or the study's)
    covers: str | None = None  # a rule's: the track part it switches off wholesale

    def bundle(self) -> dict[str, Any]:
        return {self.key: self.value}


def rule_elements(cell: Any) -> list[Element]:
    """The game's rules that may favour a slot and act in ``cell``
    (``Game.extras.rule_elements``)."""
    from simkit.games import get

    out = []
    for e in get(cell.game).extras.rule_elements:
        if e.applies(cell):
            v = e.value(cell.variant)
            book = getattr(cell.variant, e.key)
            out.append(Element(e.key, _plain(v), e.what, RULE, _plain(book), e.covers))
    return out


def _plain(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


def _segments(track: str | override.DerivedTrack) -> tuple[list[dict[str, Any]], list[int]]:
    """The (derived) track's segment tables and the segment index of each corner."""
    from simkit.tracks.library import load_spec

    base, changes = override.base_and_changes(track)
    spec = load_spec(base)
    rest = {k: v for k, v in changes.items() if k != "slot_order"}
    tables, _ = override.apply(spec, rest, base)
    return tables, [s.index for s in spec.segments if s.is_corner]


def track_elements(track: str | override.DerivedTrack) -> list[Element]:
    """Every corner's safety speed (to 0: no dents there, R-15), every tree (R-21), closed
    space (track markers) and building (R-27) of ``track``, each removed alone."""
    tables, corners = _segments(track)
    out = []
    for g, t in enumerate(tables):
        where = f"corner {corners.index(g) + 1}" if g in corners else f"segment {g}"
        prefix = f"track.{where.replace(' ', '.')}."
        if g in corners and t.get("safety", 0) > 0:
            s = int(t["safety"])
            out.append(
                Element(prefix + "safety", 0, f"{where}'s safety speed {s} (R-15)", TRACK, s)
            )
        for field, what in (("trees", "tree"), ("closed", "closed space")):
            cells = [list(c) for c in t.get(field, [])]
            for i, (row, lane) in enumerate(cells):
                rest = cells[:i] + cells[i + 1 :]
                text = f"the {what} in {where}, row {row}, lane {lane + 1}"
                out.append(Element(prefix + field, rest, text, TRACK, cells))
        buildings = list(t.get("buildings", []))
        for i, b in enumerate(buildings):
            rest = buildings[:i] + buildings[i + 1 :]
            text = f"the {b.get('kind', 'building')} in {where}, row {b.get('row')}"
            out.append(Element(prefix + "buildings", rest, text, TRACK, buildings))
    return out


def elements(cell: Any) -> list[Element]:
    """What ``simkit why`` neutralises in ``cell``: its rules, then its track's parts."""
    out = rule_elements(cell)
    if cell.track is not None:
        out += track_elements(cell.track)
    return out


# --- the scenario -------------------------------------------------------------------------


def with_bundles(data: dict[str, Any], bundles: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """``data`` playing each of ``bundles`` (``grid.set``) on top of its own settings; a key
    both fixed in [set] and changed by a bundle moves into every bundle."""
    data = copy.deepcopy(data)
    fixed = data.get("set") or {}
    keys = {k for b in bundles for k in b}
    moved = {k: fixed.pop(k) for k in list(fixed) if k in keys}
    data["set"] = fixed
    # The bundles first: each bundle's cells come together, one per skill level.
    data["grid"] = {"set": [{**moved, **b} for b in bundles], **(data.get("grid") or {})}
    return data


def pinned(data: dict[str, Any], row: Any, decode: set[str]) -> dict[str, Any]:
    """The study at one setting of its sweep (``row``: a row of the cells table, list
    parameters as JSON text where named in ``decode``): every swept key (the player count
    too) but the skill level fixed at the row's value; a derived track is written as its
    base and its parts."""
    data = copy.deepcopy(data)
    grid = data.get("grid") or {}
    bundles = grid.pop("set", None)
    fixed = data.setdefault("set", {})
    if bundles is not None:  # the row's own table of grid.set
        for key in {k for b in bundles for k in b}:
            if key.startswith(override.PREFIX):
                continue  # a track part: in the row's track name, below
            value = row[key]
            fixed[key] = json.loads(value) if key in decode else _scalar(value)
    for key in list(grid):
        value = row[key]
        grid.pop(key)
        if key in ("preset", "track", "players", "bots", "slots"):
            data[key] = _scalar(value)
        else:
            fixed[key] = json.loads(value) if key in decode else _scalar(value)
    track = data.get("track")
    if bundles is not None and "track" in row.index:
        track = str(row["track"])
    derived = override.as_track(track)
    if isinstance(derived, override.DerivedTrack):
        base, changes = derived.base, derived.changes
        data["track"] = base
        fixed.update({override.PREFIX + k: v for k, v in changes.items()})
    elif isinstance(track, str):
        data["track"] = track
    data["grid"] = grid
    return data


def _scalar(value: Any) -> Any:
    return value.item() if isinstance(value, np.generic) else value


def scenario(
    data: dict[str, Any], bundles: Sequence[dict[str, Any]], races: int, seed: int, title: str
) -> dict[str, Any]:
    """The study (pinned on one setting) with ``bundles`` in turn, the first the study's own
    (``{}``), on common random numbers, per-race rows kept, no level check."""
    out = with_bundles(data, bundles)
    if "skill" in out:  # every level plays the same races; the study checked its levels
        out["skill"] = [every_race(e) for e in out["skill"]]
        out["check_levels"] = False
        out.pop("reference", None)
        out.pop("reference_races", None)
    out.pop("precision", None)
    out.update(races=races, seed=seed, crn=True, keep="races", title=title)
    return out


def every_race(level: Any) -> Any:
    """A skill level as a scenario file writes it, without a race count of its own (a bot's
    name, or a field's table), so that it plays every race of the cell."""
    if not isinstance(level, dict):
        return level
    if "bot" in level:
        return level["bot"]
    return {k: v for k, v in level.items() if k != "races"}  # a field


# --- reading the run ----------------------------------------------------------------------


def groups(results: Any) -> list[list[int]]:
    """The cells of each bundle of a :func:`scenario` run (one per skill level), in bundle
    order: ``grid.set`` is its first grid key, so a bundle's cells come together."""
    bundles = results.manifest["scenario"]["grid"]["set"]
    per = len(results.cells) // len(bundles)
    return [list(range(i * per, (i + 1) * per)) for i in range(len(bundles))]


def worst_slot(results: Any, cells: Sequence[int]) -> tuple[int, int, float]:
    """(cell, slot, deviation) of the slot furthest from fair among ``cells``."""
    from simkit.analysis.fairness import fairness_by_slot

    by = fairness_by_slot(results)
    by = by[by["cell"].isin(list(cells))]
    r = by.loc[by["deviation"].abs().idxmax()]
    return int(r["cell"]), int(r["slot"]), float(r["deviation"])


def effects(
    results: Any, labels: Sequence[Element], seed: int = 0, resamples: int = deviation.RESAMPLES
) -> pd.DataFrame:
    """What each neutralised element does, from a finished ablation run (bundle 0 the
    study's own settings, bundle k element ``labels[k - 1]``), each with a 95% paired
    bootstrap interval over races:

    - ``fairer`` (pp, with ``low`` and ``high``): how much closer to fair the setting's worst
      slot is with the element switched off (over every skill level: its distance from
      fair before minus after): what the element causes of the setting's unfairness. The
      ranking.
    - ``effect`` (pp): the same for the slot that is worst with the study's own settings
      (another slot may become the worst once the element is off).
    - ``shift`` (pp): how far switching it off moves that slot toward fair, past it too: a
      slot 6 pp ahead that its removal puts 10 pp behind has a shift of 16 and an effect of
      -4. An element whose shift passes the whole deviation is a *lever*: a smaller change
      of it may balance the slot (:func:`levers`).
    """
    g = groups(results)
    cell, slot, dev = worst_slot(results, g[0])
    level = g[0].index(cell)
    flat = [c for grp in g for c in grp]
    x, blocks = deviation.race_matrix(results, flat)
    where = {b.cell: i for i, b in enumerate(blocks)}
    idx = [[where[c] for c in grp] for grp in g]
    watched = [blocks[where[grp[level]]] for grp in g]
    slots = results.races.groupby("cell")["slot"].unique()
    cols = [b.wins[sorted(slots[b.cell]).index(slot)] for b in watched]

    side = 1.0 if dev > 0 else -1.0

    def stat(sums: np.ndarray, n: float) -> np.ndarray:
        dist = []
        for b, col in zip(watched, cols, strict=True):
            dec = np.maximum(sums[..., b.decided], 1e-12)
            dist.append(100 * (sums[..., col] / dec - 1 / b.players))
        d = side * np.stack(dist, axis=0)  # the worst slot's deviation, its own way positive
        worst = deviation.values(sums, n, blocks, idx)
        return np.concatenate(
            [worst[:1] - worst[1:], np.abs(d[:1]) - np.abs(d[1:]), d[:1] - d[1:]], axis=0
        )

    est, ci = deviation.bootstrap(x, stat, seed, resamples)
    k = len(g) - 1
    rows = []
    for i, e in enumerate(labels):
        rows.append(
            {
                "element": e.what,
                "kind": e.kind,
                "key": e.key,
                "value": json.dumps(e.value),
                "book": json.dumps(e.book),
                "cells": ",".join(map(str, g[i + 1])),
                "fairer": est[i],
                "low": ci.low[i],
                "high": ci.high[i],
                "effect": est[k + i],
                "effect_low": ci.low[k + i],
                "effect_high": ci.high[k + i],
                "shift": est[2 * k + i],
                "shift_low": ci.low[2 * k + i],
                "shift_high": ci.high[2 * k + i],
            }
        )
    out = pd.DataFrame(rows)
    out["order"] = out["fairer"]
    for i, e in enumerate(labels):  # a rule that covers parts ranks after its best part
        members = [j for j, m in enumerate(labels) if e.covers and m.key.endswith("." + e.covers)]
        if not members:
            continue
        best = max(members, key=lambda j: est[j])
        lo = _paired_gap(x, stat, seed, resamples, i, best)
        out.loc[i, "beyond_parts"] = lo > 0
        if not lo > 0:  # it explains no more than its best part, beyond chance
            out.loc[i, "order"] = est[best] - 1e-9 * (1 + abs(est[best]))
    out = out.sort_values("order", ascending=False, kind="stable").drop(columns="order")
    out = out.reset_index(drop=True)
    out.insert(0, "rank", range(1, len(out) + 1))
    out.attrs.update(cell=cell, slot=slot, deviation=dev, races=int(x.shape[0]))
    return out


def _paired_gap(x, stat, seed: int, resamples: int, a: int, b: int) -> float:
    """The low end of the 95% interval of how much fairer element ``a`` makes the setting
    than element ``b`` does, on the same resampled races."""

    def gap(sums: np.ndarray, n: float) -> np.ndarray:
        v = stat(sums, n)
        return v[a : a + 1] - v[b : b + 1]

    _, ci = deviation.bootstrap(x, gap, seed, resamples)
    return float(ci.low[0])


def levers(effects: pd.DataFrame) -> pd.DataFrame:
    """The elements whose removal moves the worst slot past fair, beyond chance: their
    shift's interval lies above the slot's whole deviation (in pp)."""
    gap = 100 * abs(effects.attrs["deviation"])
    return effects[effects["shift_low"] > gap]


# --- the fix: the smallest change among the top causes -----------------------------------


@dataclass(frozen=True)
class Change:
    """A change to try: the keys it sets, its size (1 = one step of one element), words."""

    values: dict[str, Any]
    size: int
    what: str


def _steps(e: Element) -> list[Change]:
    """One element's changes, smallest first: a number (a safety speed, a dent count) one
    step at a time toward its neutral value (a safety speed also away from it, up to
    :data:`SAFETY_STEPS`), a per-slot table with every entry one step closer at a time, any
    other element switched off at once."""
    name = e.what.split(" (")[0]
    b, v = e.book, e.value
    if isinstance(b, int) and not isinstance(b, bool) and isinstance(v, int):
        out = []
        reach = SAFETY_STEPS if e.key.endswith(".safety") else abs(b - v)
        for step in range(1, reach + 1):
            for x in (b + step, b - step):
                toward = abs(x - v) < abs(b - v)
                if x != v and (toward or e.key.endswith(".safety")) and 1 <= x <= 99:
                    out.append(Change({e.key: x}, step, f"{name}: {b} -> {x}"))
        return [*out, Change(e.bundle(), reach + 1, f"{name}: {b} -> {v} (off)")]
    numbers = isinstance(b, list) and isinstance(v, list) and len(b) == len(v)
    if numbers and all(isinstance(x, int) and not isinstance(x, bool) for x in [*b, *v]):
        out = []
        far = max((abs(x - y) for x, y in zip(b, v, strict=True)), default=0)
        for step in range(1, far):
            table = [x - max(-step, min(step, x - y)) for x, y in zip(b, v, strict=True)]
            out.append(Change({e.key: table}, step, f"{name}: {b} -> {table}"))
        return [*out, Change(e.bundle(), max(far, 1), f"without {e.what}")]
    return [Change(e.bundle(), 1, f"without {e.what}")]


def candidates(top: Sequence[Element]) -> list[Change]:
    """Changes among the top causes, smallest first (:func:`_steps` of each), then every
    pair of the top causes switched off together."""
    out: list[Change] = [c for e in top for c in _steps(e)]
    for i, a in enumerate(top):
        for b in top[i + 1 :]:
            if a.key != b.key:
                out.append(
                    Change({**a.bundle(), **b.bundle()}, 10, f"without {a.what} and {b.what}")
                )
    out.sort(key=lambda c: c.size)
    seen, unique = set(), []
    for c in out:
        key = json.dumps(c.values, sort_keys=True)
        if key not in seen:
            seen.add(key)
            unique.append(c)
    return unique


def fix_results(results: Any, changes: Sequence[Change], tolerance: float) -> pd.DataFrame:
    """Each change tried on fresh races (bundle 0 the study's own settings, bundle k change
    ``changes[k - 1]``): its worst slot over every level, whether every level is within the
    tolerance by the point estimate and by the verdict."""
    from simkit.analysis.fairness import FAIR, UNFAIR, fairness

    g = groups(results)
    fair = fairness(results, tolerance=tolerance).set_index("cell")
    rows = []
    for i, grp in enumerate(g):
        part = fair.loc[grp]
        worst = part.loc[part["max_deviation"].abs().idxmax()]
        c = changes[i - 1] if i else None
        rows.append(
            {
                "change": "the study's own" if c is None else c.what,
                "size": 0 if c is None else c.size,
                "values": "{}" if c is None else json.dumps(c.values),
                "cells": ",".join(map(str, grp)),
                "worst_cell": int(worst.name),
                "worst_slot": int(worst["worst_slot"]),
                "worst_deviation": 100 * float(worst["max_deviation"]),
                "verdicts": ", ".join(part["verdict"].map(lambda v: v.split(" ")[0])),
                "within": bool((part["max_deviation"].abs() <= tolerance).all()),
                "fair": bool((part["verdict"] == FAIR).all()),
                "unfair": bool((part["verdict"] == UNFAIR).any()),
            }
        )
    return pd.DataFrame(rows)
