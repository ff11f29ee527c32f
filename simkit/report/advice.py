"""What to try next, as commands that run when pasted (issues 14, 23, 35): the pieces.

A report's answer ends with what to do about it; :func:`simkit.report.try_next.try_next`
puts those lines together and answers a sweep. This module holds the pieces the advice on
one setting is made of: the slot to move and the compensation table that moves it
(:func:`compensation_advice`, :func:`tune_lines`), the rules that may favour a slot
(:func:`rules_off_line`), the races that would decide (:func:`more_races_line`), and the
files they write (:class:`Files`). Every command it prints starts from files a reader has:
the scenario, or a scenario or space file the report writes beside itself
(``try-next-*.toml``), never the run folder the report was made from, which a committed
sample does not ship. ``tests/report/test_committed.py`` pastes every command of every
committed report.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import shlex
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from simkit.analysis.fairness import FAIR, FEW_DECIDED, INCONCLUSIVE, UNFAIR
from simkit.errors import SimkitError
from simkit.tracks import override

SHORT = {FAIR: "fair", UNFAIR: "unfair", INCONCLUSIVE: "inconclusive", FEW_DECIDED: "no verdict"}
PREFIX = "try-next-"  # the files a report writes beside itself


def bots_text(bots: str) -> str:
    """``greedy ×4`` or ``greedy ×2, random ×2`` from a cell's comma-joined bots."""
    counts = Counter(bots.split(","))
    return ", ".join(f"{b} ×{n}" if n > 1 else b for b, n in counts.items())


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def worst_slot_text(r: Any) -> str:
    """A fairness row's worst slot and its win rate: ``slot 1 wins 33.4% [32.8, 34.1]``."""
    return (
        f"slot {r['worst_slot']} wins {_pct(r['worst_rate'])} [{100 * r['worst_low']:.1f}, "
        f"{100 * r['worst_high']:.1f}]"
    )


@dataclasses.dataclass
class Files:
    """Where the advice writes its files and how its commands name them."""

    results: Any
    out: Path | None

    @property
    def scenario(self) -> str:
        return str(self.results.manifest.get("scenario_path") or "SCENARIO.toml")

    @property
    def stem(self) -> str:
        return Path(self.scenario).stem

    def path(self, name: str) -> str:
        """The file's path as a command names it (beside the report)."""
        return name if self.out is None else str(Path(self.out) / name)

    def data(self) -> dict[str, Any]:
        """The run's scenario as its manifest keeps it (the file's own schema), a copy."""
        return copy.deepcopy(dict(self.results.manifest.get("scenario") or {}))

    def write(self, name: str, text: str) -> str:
        """Write ``name`` beside the report (when there is a report folder); its path."""
        if self.out is not None:
            (Path(self.out) / name).write_text(text, encoding="utf-8")
        return self.path(name)

    def write_scenario(self, name: str, data: dict[str, Any], why: str) -> str:
        """A scenario file beside the report, with a comment saying where it comes from."""
        import tomlkit

        doc = tomlkit.document()
        doc.add(tomlkit.comment(f"Written by simkit report from {self.scenario}: {why}."))
        for key, value in _plain(data).items():
            doc.add(key, value)
        return self.write(name, tomlkit.dumps(doc))


def _plain(value: Any) -> Any:
    """``value`` without None entries (TOML has no null)."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items() if v is not None}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def run_command(path: str, out: str) -> str:
    return shlex.join(["simkit", "run", path, "--out", out])


# --- compensation tables (favours = "higher") --------------------------------------------


def _compensations(results: Any, cell: int) -> list[tuple[str, dict, tuple]]:
    """The per-slot tables that compensate start slots and are read in the cell's rules:
    (name, the field's metadata, the cell's values)."""
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


def compensation_advice(
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


def tune_lines(files: Files, spaces: dict, swept: set[str]) -> list[str]:
    """A space file per compensation table the advice names, and the command searching it."""
    lines = []
    title = str((files.results.manifest.get("scenario") or {}).get("title") or files.scenario)
    for name, (m, slots) in spaces.items():
        if name in swept:
            continue  # the sweep's own advice searches it
        file = f"{PREFIX}{name}.toml"
        where = files.write(file, _space_text(name, m, sorted(slots), title))
        cmd = shlex.join(["simkit", "tune", files.scenario, "--space", where])
        lines.append(
            f"`{cmd}` searches `{name}` for slot{'s' * (len(slots) > 1)} "
            f"{', '.join(map(str, sorted(slots)))} "
            f"(the space file {file} is beside this report; docs/tuning.md): every candidate "
            "plays each cell and skill level of the scenario, and the best are confirmed on "
            "fresh races beside the book's values."
        )
    return lines


# --- rules that may favour a slot ---------------------------------------------------------


def rule_bundles(
    results: Any, cells: list[int], data: dict[str, Any]
) -> list[tuple[str, Any, str]]:
    """(key, off value, what) of every rule element (``Game.extras.rule_elements``) that acts in
    each of ``cells`` and that the scenario neither sweeps nor lists in ``grid.set``."""
    from simkit.analysis.tables import cell_variants
    from simkit.games import get
    from simkit.games.base import Cell

    variants = cell_variants(results)
    meta = results.cells.set_index("cell")
    grid = data.get("grid") or {}
    found: dict[str, tuple[str, Any, str]] = {}
    for cell in cells:
        variant = variants.get(int(cell))
        if variant is None:
            continue
        row = meta.loc[cell]
        track = row.get("track") if isinstance(row.get("track"), str) else None
        c = Cell(
            str(row["game"]), variant, track, int(row["players"]), ("x",) * int(row["players"])
        )
        try:
            elements = get(str(row["game"])).extras.rule_elements
        except SimkitError:
            continue
        for e in elements:
            if e.key in grid or e.key in found:
                continue
            try:
                acts = e.applies(c)
            except SimkitError:
                acts = False
            if acts:
                off = e.value(variant)
                found[e.key] = (e.key, list(off) if isinstance(off, tuple) else off, e.what)
    return list(found.values())


def _pinned(results: Any, cell: int, data: dict[str, Any]) -> dict[str, Any]:
    """The study at one setting of its sweep: every swept key but the skill level and the
    player count fixed at ``cell``'s value."""
    from simkit.analysis.tables import json_params
    from simkit.games import get

    row = results.cells.set_index("cell").loc[cell]
    decode = set(json_params(get(str(row["game"])), getattr(results, "json_columns", None)))
    grid = data.get("grid") or {}
    for key in [k for k in grid if k not in ("players", "set") and k in row.index]:
        value = row[key]
        if key == "track" and isinstance(override.as_track(str(value)), override.DerivedTrack):
            continue  # a derived track: its parts stay in the grid
        value = json.loads(value) if key in decode else _scalar(value)
        grid.pop(key)
        if key in ("preset", "track", "bots", "slots"):
            data[key] = value
        else:
            data.setdefault("set", {})[key] = value
    return data


def _scalar(value: Any) -> Any:
    """A numpy scalar of a cells table as the plain value a scenario file holds."""
    return value.item() if isinstance(value, np.generic) else value


def rules_off_line(
    files: Files, cells: list[int], labels: list[str], at: int | None = None
) -> str | None:
    """A scenario beside the report that plays the study once more with each rule that may
    favour a slot switched off in turn (at the sweep's setting of cell ``at``, if given),
    and the command that runs it (None: no such rule)."""
    data = files.data()
    if "set" in (data.get("grid") or {}):
        return None  # already a table sweep: one grid.set per scenario
    if at is not None:
        data = _pinned(files.results, at, data)
    rules = rule_bundles(files.results, cells, data)
    if not rules:
        return None
    fixed = data.get("set") or {}
    book = {k: fixed.pop(k) for k, _, _ in rules if k in fixed}
    bundles = [dict(book)] + [{**book, key: off} for key, off, _ in rules]
    data["set"] = fixed
    data.setdefault("grid", {})["set"] = bundles
    data["title"] = f"{data.get('title') or files.stem}: each rule that may favour a slot off"
    path = files.write_scenario(
        f"{PREFIX}rules.toml", data, "the study with each rule that may favour a slot off"
    )
    cmd = run_command(path, f"runs/{files.stem}-rules")
    named = "; ".join(f"{what}: `{key} = {json.dumps(off)}`" for key, off, what in rules)
    return (
        f"{'; '.join(labels)}: why is it unfair? `{cmd}` plays the study again with each rule "
        f"that may favour a slot switched off (or to its alternative) in turn, on the same "
        f"races ({named}); its report compares each with the book's rules and names the "
        "fairest."
    )


# --- inconclusive cells: more races -------------------------------------------------------


def more_races_line(files: Files, needs: dict[int, int]) -> str:
    """A scenario beside the report asking for the races that would decide the inconclusive
    cells (``needs``: cell -> races), and the command that runs it."""
    data = files.data()
    specs = files.results.manifest.get("cells") or []
    levels = data.get("skill") or []
    own = {int(c): specs[c].get("races") for c in needs if c < len(specs)}
    most = max(needs.values())
    general = [n for c, n in needs.items() if own.get(c) is None]
    if general:
        data["races"] = max(int(data.get("races") or 0), *general)
        if isinstance(data.get("precision"), dict):
            data["precision"]["max_races"] = max(data["precision"]["max_races"], *general)
    for c, n in needs.items():
        if own.get(c) is None:
            continue
        level = str(files.results.cells.set_index("cell").at[c, "skill"])
        for entry in levels:
            if isinstance(entry, dict) and entry.get("bot") == level:
                entry["races"] = max(int(entry["races"]), n)
    data["title"] = f"{data.get('title') or files.stem}: races that would decide"
    path = files.write_scenario(f"{PREFIX}races.toml", data, f"up to {most:,} races a cell")
    cmd = run_command(path, f"runs/{files.stem}-more")
    return (
        f"`{cmd}` plays the study with those races (the scenario file beside this report; "
        "the same races as the run's, and more: with the run's folder at hand, adding races "
        "to it gives the same tables, docs/studies.md)."
    )


# --- a cell's setting ---------------------------------------------------------------------


def setting_name(results: Any, cell: int) -> str:
    """A cell's setting: its label without its skill level (on a skill axis)."""
    if "skill" in results.cells and results.cells["skill"].notna().any():
        from simkit.analysis.skill_levels import combinations

        return str(combinations(results.cells).set_index("cell").at[cell, "label"])
    return str(results.cells.set_index("cell").at[cell, "label"])
