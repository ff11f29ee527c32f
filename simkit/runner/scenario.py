"""What a scenario is: the checked study description a run plays (docs/scenarios.md).

:class:`Scenario` is a scenario file once read and checked, with the file's defaults
filled in and its bounds (:data:`MAX_RACES`, :data:`MAX_CELLS`, ...) applied; it writes
itself back in the file's own schema (:meth:`Scenario.to_json`) and takes the command
line's overrides (:meth:`Scenario.with_overrides`), checked as the file's keys are.
:func:`flat_parts` writes a table's track parts as the flat keys a scenario keeps, and
:func:`cell_error` points a game's rejection of a cell at the key of the scenario to blame.

Reading a file, and the checks of its keys, are in :mod:`simkit.runner.scenario_file`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, NoReturn

from simkit.errors import ScenarioError, SimkitError
from simkit.files import shown

# Cell axes that are not variant parameters; each may be set at top level or swept in [grid].
AXES = ("preset", "track", "players", "bots", "slots")
KEEP = ("races", "aggregates")
BUNDLE = "set"  # [grid] set = [{...}, ...]: each value a whole [set] table (one cell each)
DEFAULT_RACES = 10_000
DEFAULT_CHUNK = 10_000
DEFAULT_LEVEL_RACES = 1_000  # the level check's races per lineup (simkit.runner.levels)
DEFAULT_MAX_RACES = 1_000_000
MAX_SEED = 2**63 - 1
# Upper bounds, checked before any work (docs/scenarios.md "Bounds"): races per cell, races
# per chunk (a chunk's results are held in memory: about 2 kB per race at 8 seats), cells
# in a grid, and seats (games have their own, lower limits).
MAX_RACES = 10**9
MAX_CHUNK = 100_000
MAX_CELLS = 10_000
MAX_PLAYERS = 64


@dataclass(frozen=True)
class Precision:
    """Stop a cell once every start slot's win-rate 95% interval is narrower than ``width``."""

    width: float
    max_races: int = DEFAULT_MAX_RACES


@dataclass(frozen=True)
class Scenario:
    """A validated scenario. ``axes`` holds the fixed (unswept) cell axes that were given."""

    path: str
    game: str
    title: str = ""
    description: str = ""
    axes: dict[str, Any] = field(default_factory=dict)
    overrides: dict[str, Any] = field(default_factory=dict)
    grid: dict[str, list[Any]] = field(default_factory=dict)
    bots_file: str | None = None  # fitted presets played by name (simkit.tune.bots.presets)
    skill: list[str] = field(default_factory=list)  # skill levels: one bot for every seat
    skill_races: dict[str, int] = field(default_factory=dict)  # a level's own races per cell
    # A level played by several bots (``{field = [...]}``): its name -> its bots, each of
    # which is also in ``skill`` (one cell per bot); a bot of no field is a level of its own.
    fields: dict[str, list[str]] = field(default_factory=dict)
    check_levels: bool = True  # measure the levels' order in each setting (simkit.runner.levels)
    check_races: int = DEFAULT_LEVEL_RACES  # that check's races per lineup (key level_races)
    # The model-free player the top level is checked against (None: not checked), and that
    # check's races per lineup (simkit.runner.levels).
    reference: str | None = None
    reference_races: int = DEFAULT_LEVEL_RACES
    races: int = DEFAULT_RACES
    precision: Precision | None = None
    seed: int = 0
    crn: bool = True
    keep: str = "races"
    heat: bool = True
    chunk_size: int = DEFAULT_CHUNK
    # The file's bytes as read (recorded in the run folder); not part of what it asks for.
    source: bytes | None = field(default=None, compare=False, repr=False)

    @property
    def max_races(self) -> int:
        """Races per cell if no precision target stops a cell earlier."""
        return self.precision.max_races if self.precision else self.races

    @property
    def checks_levels(self) -> bool:
        """Whether a run of it checks its skill levels' order (``simkit.runner.levels``):
        a skill axis, and ``check_levels`` not off. Its reference plays only then."""
        return bool(self.skill) and self.check_levels

    def level_races(self, level: str | None) -> int | None:
        """A skill level's own races per cell (``{bot = ..., races = N}``), or None."""
        return None if level is None else self.skill_races.get(level)

    @property
    def levels(self) -> list[tuple[str, list[str]]]:
        """The skill levels in order, each as (name, its bots): a bot alone is a level named
        after itself, a field (``{field = [...], name = ...}``) one level of its bots."""
        out: list[tuple[str, list[str]]] = []
        member = {b: name for name, bots in self.fields.items() for b in bots}
        for bot in self.skill:
            name = member.get(bot, bot)
            if out and out[-1][0] == name:
                out[-1][1].append(bot)
            else:
                out.append((name, [bot]))
        return out

    def to_json(self) -> dict[str, Any]:
        """The resolved scenario in the file's own schema (``parse`` reads it back)."""
        out: dict[str, Any] = {"title": self.title, "game": self.game, **self.axes}
        if self.description:
            out["description"] = self.description
        if self.bots_file is not None:
            out["bots_file"] = self.bots_file
        out["set"] = dict(self.overrides)
        out["grid"] = {k: list(v) for k, v in self.grid.items()}
        if self.skill:
            out["skill"] = []
            for name, bots in self.levels:
                races = {"races": self.skill_races[bots[0]]} if bots[0] in self.skill_races else {}
                if name in self.fields:
                    out["skill"].append({"field": list(bots), "name": name, **races})
                else:
                    out["skill"].append({"bot": name, **races} if races else name)
            out["check_levels"] = self.check_levels
            out["level_races"] = self.check_races
            if self.check_levels:  # the reference is part of the level check
                out["reference"] = self.reference if self.reference is not None else False
                out["reference_races"] = self.reference_races
        if self.precision is None:
            out["races"] = self.races
        else:
            out["precision"] = {"width": self.precision.width, "max_races": self.max_races}
        out.update(
            seed=self.seed, crn=self.crn, keep=self.keep, heat=self.heat, chunk_size=self.chunk_size
        )
        return _jsonable(out)

    def with_overrides(
        self, *, races: int | None = None, seed: int | None = None, chunk_size: int | None = None
    ) -> Scenario:
        """Command-line overrides: ``--races`` (per cell, replaces a precision target) etc.

        Each value is checked as the file's key is (the same message, naming the key), and
        the scenario is this one with those fields replaced: nothing else is read again.
        ``--races`` also caps a skill level's own races and the level check's.
        """
        changes: dict[str, Any] = {}
        if races is not None:
            races = bounded("races", races, self.path)
            changes.update(
                races=races,
                precision=None,
                skill_races={b: min(n, races) for b, n in self.skill_races.items()},
                # A file without skill levels gives no level_races: the default follows races.
                check_races=min(self.check_races if self.skill else DEFAULT_LEVEL_RACES, races),
                reference_races=min(
                    self.reference_races if self.skill else DEFAULT_LEVEL_RACES, races
                ),
            )
        if seed is not None:
            changes["seed"] = bounded("seed", seed, self.path)
        if chunk_size is not None:
            changes["chunk_size"] = bounded("chunk_size", chunk_size, self.path)
        return replace(self, **changes)


def _jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    return value


def checked_int(value: Any, key: str, path: str, lo: int, hi: int | None = None) -> int:
    """``value`` if it is an integer from ``lo`` to ``hi`` (no bool), else a ScenarioError
    at ``key`` saying what is allowed."""
    if (
        isinstance(value, bool)
        or not isinstance(value, int)
        or value < lo
        or (hi is not None and value > hi)
    ):
        rng = f"an integer >= {lo}" if hi is None else f"an integer from {lo} to {hi:_}"
        raise ScenarioError(f"must be {rng} (got {shown(value)})", path=path, key=key)
    return value


# The top-level integers a command line may override too (Scenario.with_overrides).
_BOUNDS = {"races": (1, MAX_RACES), "seed": (0, MAX_SEED), "chunk_size": (1, MAX_CHUNK)}


def bounded(key: str, value: Any, path: str) -> int:
    """A top-level integer a command line may override too, checked against its bounds."""
    lo, hi = _BOUNDS[key]
    return checked_int(value, key, path, lo, hi)


def flat_parts(table: dict[str, Any]) -> dict[str, Any]:
    """``table`` with its ``track`` sub-table (TOML's ``track.corner.1.safety = 6``) written
    as flat ``track.…`` keys, as the manifest keeps them; a ``track`` that is no table (the
    track axis) stays as it is."""
    out = {}
    for key, value in table.items():
        if key == "track" and isinstance(value, dict):
            out.update(_flatten(value, "track"))
        else:
            out[key] = value
    return out


def _flatten(table: dict[str, Any], prefix: str) -> dict[str, Any]:
    out = {}
    for key, value in table.items():
        name = f"{prefix}.{key}"
        out.update(_flatten(value, name) if isinstance(value, dict) else {name: value})
    return out


def cell_error(exc: SimkitError, scenario: Scenario, label: str, swept: dict[str, Any]) -> NoReturn:
    """Re-raise a game's rejection of one cell as a ScenarioError at the key to blame.

    ``exc.key`` (set by the variant resolver, ``build_cell``, the game's ``check_cell`` and
    the track overrides) names the input; it is found in ``[grid]`` (the message then names
    the cell; a key from one table of ``grid.set`` points at ``grid.set``), in ``[set]`` or
    among the top-level axes. A player count taken from a list of bots points at ``bots``.
    An error without a key, or about a value the file did not give, names the cell only.
    """
    key = exc.key
    if key == "players" and "players" not in swept and "players" not in scenario.axes:
        key = "bots"
    msg = str(exc)
    if key in swept.get(BUNDLE, {}):
        raise ScenarioError(f"{msg} (cell '{label}')", path=scenario.path, key=f"grid.{BUNDLE}")
    if key in swept:
        raise ScenarioError(f"{msg} (cell '{label}')", path=scenario.path, key=f"grid.{key}")
    if key in scenario.overrides:
        raise ScenarioError(msg, path=scenario.path, key=f"set.{key}")
    if key in scenario.axes:
        raise ScenarioError(msg, path=scenario.path, key=key)
    raise ScenarioError(f"{msg} (cell '{label}')", path=scenario.path)
