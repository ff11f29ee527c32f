"""Grid expansion: a scenario becomes an ordered list of cells (GLOSSARY: cell).

The cells are the cartesian product of the ``[grid]`` lists in the order the file gives the
keys, the last key varying fastest (like :func:`itertools.product`). A ``skill`` list adds
one more axis after them, fastest of all: every combination is played at each skill level
in turn, every seat by that level's bot, so one combination's levels sit side by side. Cell
ids are positions in that order, so the same file always gives the same ids.

``track.…`` keys (in ``[set]``, ``[grid]`` or a table of ``grid.set``) change parts of the
cell's track: the cell races the derived track :func:`simkit.tracks.override.derived_name`
names, which the manifest records with the changes beside it.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

from simkit.errors import ScenarioError, SimkitError
from simkit.games import get
from simkit.games.base import Cell
from simkit.games.cells import build_cell
from simkit.rng import content_key
from simkit.runner.scenario import AXES, BUNDLE, Scenario, cell_error
from simkit.tracks import override


@dataclass(frozen=True)
class PlannedCell:
    """A cell of a scenario with what the runner needs beside the game's :class:`Cell`."""

    cell: Cell
    preset: str
    label: str
    cell_key: int  # 0 under common random numbers, else a hash of the cell's content
    skill: str | None = None  # the skill level (the bot of every seat), on a skill axis
    races: int | None = None  # the level's own races per cell, else the scenario's

    @property
    def slots(self) -> tuple[int, ...]:
        """The start slots in use (R-06): the scenario's, or 1..players."""
        c = self.cell
        return c.slots if c.slots is not None else tuple(range(1, c.players + 1))

    def spec(self) -> dict[str, Any]:
        """JSON the manifest keeps so that any race can be replayed (``simkit race --replay``)."""
        c = self.cell
        return {
            "cell": c.cell_id,
            "label": self.label,
            "preset": self.preset,
            "params": _json_params(c.variant.as_dict()),
            "track": override.track_name(c.track),
            "players": c.players,
            "bots": list(c.bots),
            "slots": None if c.slots is None else list(c.slots),
            "cell_key": str(self.cell_key),
        } | self._extra()

    def _extra(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.skill is not None:
            out["skill"] = self.skill
        if self.races is not None:
            out["races"] = self.races
        track = self.cell.track
        if isinstance(track, override.DerivedTrack) and track.changes:
            out["track_base"] = track.base
            out["track_overrides"] = dict(track.changes)
        return out


def _json_params(params: dict[str, Any]) -> dict[str, Any]:
    return {k: list(v) if isinstance(v, tuple) else v for k, v in params.items()}


def format_value(value: Any) -> str:
    """How a swept value reads in a label: ``true``, ``[0,0,1]``, ``greedy,random``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        if all(isinstance(v, str) for v in value):
            return ",".join(value)
        return "[" + ",".join(format_value(v) for v in value) + "]"
    return str(value)


def _label(swept: dict[str, Any], preset: str) -> str:
    """The swept values, a table of ``grid.set`` as its own keys; the preset if none."""
    items = []
    for k, v in swept.items():
        items += list(v.items()) if k == BUNDLE else [(k, v)]
    if not items:
        return preset
    return ", ".join(f"{k}={format_value(v)}" for k, v in items)


def _cell_key(cell: Cell) -> int:
    content = {
        "game": cell.game,
        "params": _json_params(cell.variant.as_dict()),
        "track": override.track_name(cell.track),
        "players": cell.players,
        "bots": list(cell.bots),
        "slots": None if cell.slots is None else list(cell.slots),
    }
    return content_key(content)


def combinations(grid: dict[str, list[Any]]) -> list[dict[str, Any]]:
    """Every combination of the grid's values, in file order with the last key fastest."""
    keys = list(grid)
    return [dict(zip(keys, values, strict=True)) for values in itertools.product(*grid.values())]


def _swept(scenario: Scenario) -> list[dict[str, Any]]:
    """Each cell's swept values: the grid's combinations, then each skill level (fastest)."""
    combos = combinations(scenario.grid)
    if not scenario.skill:
        return combos
    return [{**c, "skill": level} for c in combos for level in scenario.skill]


def _track(
    game: str, track: str | None, params: dict[str, Any]
) -> tuple[str | override.DerivedTrack | None, dict]:
    """The cell's track, derived from ``track`` (or the game's) by the ``track.…`` keys of
    ``params``, and the variant parameters that remain."""
    changes = {k: v for k, v in params.items() if k.startswith(override.PREFIX)}
    if not changes:
        return track, params
    g = get(game)
    first = next(iter(changes))
    if not g.uses_track:
        raise SimkitError(f"{game} is not played on a track; remove {first}", key=first)
    base = track or g.default_track
    if isinstance(override.as_track(base), override.DerivedTrack):
        raise SimkitError(
            f"track '{base}' already has changed parts; give them as track.… keys", key=first
        )
    from simkit.tracks import load

    parts = {k.removeprefix(override.PREFIX): v for k, v in changes.items()}
    derived = override.DerivedTrack.of(str(base), parts)
    load(derived)  # checked against the track: an error names the corner or segment and key
    return derived, {k: v for k, v in params.items() if k not in changes}


def _fits(scenario: Scenario) -> dict[str, str]:
    """The fitted presets the scenario's ``bots_file`` plays by name (none without one)."""
    if scenario.bots_file is None:
        return {}
    from simkit.tune.bots.presets import aliases

    try:
        return aliases(scenario.bots_file, scenario.game)
    except SimkitError as exc:
        raise ScenarioError(str(exc), path=scenario.path, key="bots_file") from None


def expand(scenario: Scenario) -> list[PlannedCell]:
    """The scenario's cells, each validated by the game (``ScenarioError`` naming the key).

    A fitted preset of the ``bots_file`` is played as the spec of its weights (its name stays
    in labels and skill levels)."""
    from simkit.tune.bots.presets import played_as

    cells = []
    fits = _fits(scenario)
    for cell_id, swept in enumerate(_swept(scenario)):
        axes = {**scenario.axes, **{k: v for k, v in swept.items() if k in AXES}}
        skill = swept.pop("skill", None)
        if skill is not None:
            axes["bots"] = skill  # one bot for every seat (GLOSSARY: skill level)
        if "players" not in axes and isinstance(axes.get("bots"), list):
            axes["players"] = len(axes["bots"])  # one bot per seat says how many seats
        if fits and axes.get("bots") is not None:
            axes["bots"] = played_as(axes["bots"], fits)
        params = {
            **scenario.overrides,
            **swept.get(BUNDLE, {}),
            **{k: v for k, v in swept.items() if k not in AXES and k != BUNDLE},
        }
        preset = axes.get("preset") or get(scenario.game).default_preset
        label = _label(swept if skill is None else {**swept, "skill": skill}, preset)
        try:
            track, params = _track(scenario.game, axes.get("track"), params)
            cell = build_cell(
                scenario.game,
                preset=axes.get("preset"),
                overrides=params,
                track=track,
                players=axes.get("players"),
                bots=axes.get("bots"),
                slots=axes.get("slots"),
                cell_id=cell_id,
            )
        except SimkitError as exc:
            if skill is not None and exc.key == "bots":
                raise ScenarioError(
                    f"{exc} (cell '{label}')", path=scenario.path, key="skill"
                ) from None
            cell_error(exc, scenario, label, swept)
        cells.append(
            PlannedCell(
                cell=cell,
                preset=preset,
                label=label,
                cell_key=0 if scenario.crn else _cell_key(cell),
                skill=skill,
                races=scenario.level_races(skill),
            )
        )
    if scenario.reference is not None and cells:
        # The level check plays the reference in every setting: refused now, not after the run.
        try:
            build_cell(
                scenario.game,
                preset=cells[0].preset,
                track=cells[0].cell.track,
                players=cells[0].cell.players,
                bots=scenario.reference,
            )
        except SimkitError as exc:
            raise ScenarioError(str(exc), path=scenario.path, key="reference") from None
    return cells
