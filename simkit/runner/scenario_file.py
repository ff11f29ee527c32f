"""Scenario files: parse and validate a study description up front (docs/scenarios.md).

A scenario is TOML. Everything a user can get wrong is checked before a single race runs and
reported as one :class:`~simkit.errors.ScenarioError` naming the file, the key and what is
allowed: the file's shape here, the game-level checks (preset, parameters, bots, players,
tracks) through :func:`simkit.games.cells.build_cell` during grid expansion
(:mod:`simkit.runner.grid`), so ``simkit race`` and ``simkit run`` accept exactly the same
cells; :func:`simkit.runner.scenario.cell_error` points a game's rejection at the file's key.

What a checked scenario holds (:class:`~simkit.runner.scenario.Scenario`), its defaults and
its bounds are in :mod:`simkit.runner.scenario`.
"""

from __future__ import annotations

import difflib
import json
import math
from dataclasses import replace
from pathlib import Path
from typing import Any

from simkit.errors import ScenarioError, SimkitError
from simkit.files import read_toml, recording, shown
from simkit.games import get, names
from simkit.names import did_you_mean
from simkit.runner.scenario import (
    AXES,
    BUNDLE,
    DEFAULT_CHUNK,
    DEFAULT_LEVEL_RACES,
    DEFAULT_MAX_RACES,
    DEFAULT_RACES,
    KEEP,
    MAX_CELLS,
    MAX_PLAYERS,
    MAX_RACES,
    Precision,
    Scenario,
    bounded,
    checked_int,
    flat_parts,
)
from simkit.tracks import override

_TOP_KEYS = (
    "title",
    "description",
    "game",
    *AXES,
    "bots_file",
    "skill",
    "check_levels",
    "level_races",
    "reference",
    "reference_races",
    "set",
    "grid",
    "races",
    "precision",
    "seed",
    "crn",
    "keep",
    "heat",
    "chunk_size",
)
_PRECISION_KEYS = ("width", "max_races")


def load(path: str | Path) -> Scenario:
    """Read and validate the scenario file at ``path``."""
    where = str(path)
    with recording() as seen:
        data = read_toml(path, lambda msg: ScenarioError(msg, path=where))
    parsed = parse(data, where, base=Path(path).parent)
    return replace(parsed, source=next(iter(seen.values()), None))


def _unknown(key: str, allowed: tuple[str, ...] | list[str], path: str, prefix: str = "") -> None:
    close = difflib.get_close_matches(key, allowed, n=1)
    hint = f" (did you mean '{prefix}{close[0]}'?)" if close else ""
    raise ScenarioError(
        f"unknown key{hint}; allowed: {', '.join(sorted(allowed))}", path=path, key=prefix + key
    )


def _bool(value: Any, key: str, path: str) -> bool:
    if not isinstance(value, bool):
        raise ScenarioError(f"must be true or false (got {shown(value)})", path=path, key=key)
    return value


def _axis(name: str, value: Any, key: str, path: str, base: Path | None) -> Any:
    """Check the shape of one value of a cell axis (the game checks the content)."""
    if name in ("preset", "track"):
        if not isinstance(value, str) or not value:
            raise ScenarioError(
                f"must be a non-empty string (got {shown(value)})", path=path, key=key
            )
        if name == "track" and value.endswith(".toml") and base is not None:
            resolved = base / value
            if not Path(value).is_absolute() and resolved.exists():
                return str(resolved)
        return value
    if name == "players":
        return checked_int(value, key, path, 1, MAX_PLAYERS)
    if name == "bots":
        if isinstance(value, str) and value:
            return value
        if isinstance(value, list) and value and all(isinstance(b, str) and b for b in value):
            return list(value)
        raise ScenarioError(
            f"must be a bot name for every seat or a list of bot names, one per seat "
            f"(got {shown(value)})",
            path=path,
            key=key,
        )
    # slots
    if (
        not isinstance(value, list)
        or not value
        or len(value) > MAX_PLAYERS
        or not all(
            isinstance(s, int) and not isinstance(s, bool) and 1 <= s <= MAX_PLAYERS for s in value
        )
        or len(set(value)) != len(value)
    ):
        raise ScenarioError(
            f"must be a list of distinct start slots from 1 to {MAX_PLAYERS}, e.g. [1, 2, 3, 5] "
            f"(got {shown(value)})",
            path=path,
            key=key,
        )
    return list(value)


def parse(data: dict[str, Any], path: str, base: Path | None = None) -> Scenario:
    """Validate the parsed TOML ``data`` of the scenario at ``path``.

    ``base`` is the directory relative track paths are resolved against. The steps run in
    the file's order of checks, so a file with several mistakes is told of the same one.
    """
    game = _game(data, path)
    g = get(game)
    param_names = g.params.names()
    title = _string(data, "title", path)
    description = _string(data, "description", path)
    overrides = _set_table(data, param_names, path)
    grid = _grid(data, param_names, overrides, path, base)

    axes = {a: _axis(a, data[a], a, path, base) for a in AXES if a in data}
    bots_file = None
    if "bots_file" in data:  # a file, as a track file is: relative to the scenario
        bots_file = _axis("track", data["bots_file"], "bots_file", path, base)
    skill, skill_races, fields = _skill(data, grid, path, g)
    for key in ("check_levels", "level_races", "reference", "reference_races"):
        if key in data and not skill:
            raise ScenarioError(
                "checks the order of skill levels; give skill = [...] too", path=path, key=key
            )
    reference = _reference(data, g, path)

    precision = _precision(data, path) if "precision" in data else None
    races = bounded("races", data.get("races", DEFAULT_RACES), path)
    check_levels, check_races, reference = _level_check(data, precision, races, reference, path)
    keep = data.get("keep", "races")
    if keep not in KEEP:
        raise ScenarioError(
            f"must be one of {', '.join(repr(k) for k in KEEP)} (got {shown(keep)})",
            path=path,
            key="keep",
        )
    return Scenario(
        path=path,
        game=game,
        title=title,
        description=description,
        axes=axes,
        overrides=dict(overrides),
        grid=grid,
        bots_file=bots_file,
        skill=skill,
        skill_races=skill_races,
        fields=fields,
        check_levels=check_levels,
        check_races=check_races,
        reference=reference,
        reference_races=checked_int(
            data.get("reference_races", check_races), "reference_races", path, 1, MAX_RACES
        ),
        races=races,
        precision=precision,
        seed=bounded("seed", data.get("seed", 0), path),
        crn=_bool(data.get("crn", True), "crn", path),
        keep=keep,
        heat=_bool(data.get("heat", True), "heat", path),
        chunk_size=bounded("chunk_size", data.get("chunk_size", DEFAULT_CHUNK), path),
    )


def _game(data: Any, path: str) -> str:
    """The file is a table of known top-level keys, and ``game`` names a known game."""
    if not isinstance(data, dict):
        raise ScenarioError(f"must be a table of keys (got {shown(data)})", path=path)
    for key in data:
        if key not in _TOP_KEYS:
            _unknown(key, _TOP_KEYS, path)
    known_games = names()
    game = data.get("game")
    if game is None:
        raise ScenarioError(f"required; one of {', '.join(known_games)}", path=path, key="game")
    if game not in known_games:
        raise ScenarioError(
            f"unknown game {shown(game)}; one of {', '.join(known_games)}"
            + (did_you_mean(game, known_games) if isinstance(game, str) else ""),
            path=path,
            key="game",
        )
    return game


def _string(data: dict[str, Any], key: str, path: str) -> str:
    """A top-level text (``title``, ``description``): a string, empty if not given."""
    value = data.get(key, "")
    if not isinstance(value, str):
        raise ScenarioError(f"must be a string (got {shown(value)})", path=path, key=key)
    return value


def _set_table(data: dict[str, Any], param_names: list[str], path: str) -> dict[str, Any]:
    """The [set] table: the parameters and track parts every cell plays with."""
    overrides = data.get("set", {})
    if not isinstance(overrides, dict):
        raise ScenarioError("must be a table of parameter = value", path=path, key="set")
    return _settings(overrides, param_names, path, "set.")


def _grid(
    data: dict[str, Any],
    param_names: list[str],
    overrides: dict[str, Any],
    path: str,
    base: Path | None,
) -> dict[str, list[Any]]:
    """The [grid] table: each key a parameter, a track part, a cell axis or ``set``, given
    nowhere else, with distinct values (``set``: whole [set] tables, :func:`_bundles`)."""
    grid_in = data.get("grid", {})
    if not isinstance(grid_in, dict):
        raise ScenarioError("must be a table of key = [values]", path=path, key="grid")
    grid_in = flat_parts(grid_in)
    _check_grid_size(grid_in, path)
    grid: dict[str, list[Any]] = {}
    for key, values in grid_in.items():
        if key == BUNDLE:
            grid[key] = _bundles(values, param_names, overrides, grid_in, path)
            continue
        if key == "skill":
            raise ScenarioError(
                "skill is a top-level list (skill = [...]): each level is already one cell "
                "per combination of the grid",
                path=path,
                key="grid.skill",
            )
        if key.startswith(override.PREFIX):
            _track_key(key, path, "grid.")
        elif key not in param_names and key not in AXES:
            _unknown(key, [*AXES, BUNDLE, *param_names], path, prefix="grid.")
        if key in overrides:
            raise ScenarioError(
                "also set in [set]; give a parameter either a fixed value or a grid",
                path=path,
                key=f"grid.{key}",
            )
        if key in data:
            raise ScenarioError(
                f"also set at top level as '{key}'; give it either a fixed value or a grid",
                path=path,
                key=f"grid.{key}",
            )
        if key in AXES:
            values = [_axis(key, v, f"grid.{key}", path, base) for v in values]
        seen: set[str] = set()
        for v in values:
            canonical = json.dumps(v, sort_keys=True, default=repr)
            if canonical in seen:
                raise ScenarioError(f"value {shown(v)} listed twice", path=path, key=f"grid.{key}")
            seen.add(canonical)
        grid[key] = list(values)
    return grid


def _level_check(
    data: dict[str, Any],
    precision: Precision | None,
    races: int,
    reference: str | None,
    path: str,
) -> tuple[bool, int, str | None]:
    """Whether the levels' order is checked (``check_levels``), that check's races per
    lineup (``level_races``: by default :data:`DEFAULT_LEVEL_RACES`, or a cell's races if
    fewer), and the reference, which only that check plays (none when it is off)."""
    check_levels = _bool(data.get("check_levels", True), "check_levels", path)
    check_races = checked_int(
        data.get(
            "level_races", min(DEFAULT_LEVEL_RACES, precision.max_races if precision else races)
        ),
        "level_races",
        path,
        1,
        MAX_RACES,
    )
    if not check_levels:
        for key in ("reference", "reference_races"):
            if data.get(key, False) is not False:
                raise ScenarioError(
                    "the top level is checked against the reference by the level check; "
                    "drop check_levels = false, or give reference = false",
                    path=path,
                    key=key,
                )
        reference = None
    return check_levels, check_races, reference


def _track_key(key: str, path: str, prefix: str) -> None:
    """A ``track.…`` key must name a part of a track (docs/scenarios.md "Track parts")."""
    try:
        override.parse_key(key.removeprefix(override.PREFIX))
    except SimkitError as exc:
        raise ScenarioError(str(exc), path=path, key=prefix + key) from None


def _settings(table: dict[str, Any], param_names: list[str], path: str, prefix: str) -> dict:
    """A [set] table (or one value of ``grid.set``): parameters and track parts, flat."""
    table = flat_parts(table)
    for key in table:
        if key.startswith(override.PREFIX):
            _track_key(key, path, prefix)
        elif key not in param_names:
            _unknown(key, param_names, path, prefix=prefix)
    return table


def _bundles(
    values: list[Any], param_names: list[str], fixed: dict[str, Any], grid: dict, path: str
) -> list[dict[str, Any]]:
    """``grid.set``: a list of [set] tables, one cell each (candidates, one-at-a-time
    changes), keys neither fixed in [set] nor swept elsewhere in the grid."""
    key = f"grid.{BUNDLE}"
    out, seen = [], set()
    for value in values:
        if not isinstance(value, dict):
            raise ScenarioError(
                f"must be a list of tables of parameter = value, e.g. [{{hand_size = 6}}, "
                f"{{}}] (got {shown(value)})",
                path=path,
                key=key,
            )
        table = _settings(value, param_names, path, f"{key}.")
        for name in table:
            if name in fixed or name in grid:
                where = "[set]" if name in fixed else f"grid.{name}"
                raise ScenarioError(
                    f"'{name}' is also in {where}; give it in one place", path=path, key=key
                )
        canonical = json.dumps(table, sort_keys=True, default=repr)
        if canonical in seen:
            raise ScenarioError(f"value {shown(value)} listed twice", path=path, key=key)
        seen.add(canonical)
        out.append(table)
    return out


_LEVEL_EXAMPLE = (
    '["greedy", "greedy:tuned", {bot = "search", races = 2000}, {field = ["search:64", '
    '"search:6h2wp3c4@policy:distilled"], races = 1000}]'
)
STRONG_FIELD = "strong field"  # the default name of a field that is the top level


def _skill(
    data: dict[str, Any], grid: dict[str, list[Any]], path: str, game: Any
) -> tuple[list[str], dict[str, int], dict[str, list[str]]]:
    """The skill levels (GLOSSARY: skill level): distinct bot names, none beside ``bots``;
    the races per cell of the levels that give their own (``{bot = "search", races =
    2000}``: a costly bot plays fewer races than the scenario's ``races``); and the fields
    (``{field = ["A", "B"], name = "strong field"}``: a level played by two or more bots of
    independent construction, GLOSSARY: strong field), each bot of a field one cell."""
    if "skill" not in data:
        return [], {}, {}
    entries = data["skill"]
    if not isinstance(entries, list) or not entries:
        entries = [None]
    levels: list[str] = []
    own: dict[str, int] = {}
    fields: dict[str, list[str]] = {}
    for k, entry in enumerate(entries):
        if isinstance(entry, dict) and "field" in entry:
            bots = _field(entry, k == len(entries) - 1, len(fields), path, game)
            name = str(entry.get("name", STRONG_FIELD if k == len(entries) - 1 else ""))
            if name in fields or name in bots:
                raise ScenarioError(
                    f"field name '{name}' is used twice (or names a bot); give each field its "
                    'own name = "..."',
                    path=path,
                    key="skill",
                )
            fields[name] = bots
            if "races" in entry:
                races = checked_int(entry["races"], f"skill.{name}.races", path, 1, MAX_RACES)
                own.update((b, races) for b in bots)
            levels.extend(bots)
            continue
        if isinstance(entry, dict) and set(entry) <= {"bot", "races"} and "bot" in entry:
            bot = entry["bot"]
            if "races" in entry and isinstance(bot, str):
                own[bot] = checked_int(entry["races"], f"skill.{bot}.races", path, 1, MAX_RACES)
        else:
            bot = entry
        if not isinstance(bot, str) or not bot:
            raise ScenarioError(
                f"must be a list of skill levels, one bot name each, e.g. {_LEVEL_EXAMPLE} "
                f"(a table gives a level its own races per cell, a field plays one level with "
                f"several bots; got {shown(data['skill'])})",
                path=path,
                key="skill",
            )
        levels.append(bot)
    if len(set(levels)) != len(levels):
        twice = next(b for b in levels if levels.count(b) > 1)
        raise ScenarioError(f"level '{twice}' listed twice", path=path, key="skill")
    clash = set(fields) & set(levels)
    if clash:
        raise ScenarioError(
            f"field name '{min(clash)}' is also a bot of a level; name the field otherwise",
            path=path,
            key="skill",
        )
    if "bots" in data or "bots" in grid:
        where = "bots" if "bots" in data else "grid.bots"
        raise ScenarioError(
            f"give either skill (every seat played by one bot per level) or {where}, not both",
            path=path,
            key="skill",
        )
    cells = len(levels) * math.prod(len(v) for v in grid.values())
    if cells > MAX_CELLS:
        raise ScenarioError(
            f"{len(levels)} levels x the grid = {cells:,} cells, more than {MAX_CELLS:,}; "
            "split the study into several scenarios",
            path=path,
            key="skill",
        )
    return levels, own, fields


def _field(entry: dict[str, Any], top: bool, k: int, path: str, game: Any) -> list[str]:
    """The bots of one ``{field = [...]}`` level: two or more, distinct, of independent
    construction (``Game.construction``: not two searches on one policy)."""
    for key in entry:
        if key not in ("field", "name", "races"):
            _unknown(key, ["field", "name", "races"], path, prefix="skill.")
    bots = entry["field"]
    if (
        not isinstance(bots, list)
        or len(bots) < 2
        or not all(isinstance(b, str) and b for b in bots)
        or len(set(bots)) != len(bots)
    ):
        raise ScenarioError(
            f'a field is two or more distinct bot names, e.g. {{field = ["search:64", '
            f'"search:6h2wp3c4@policy:distilled"]}} (got {shown(bots)})',
            path=path,
            key="skill.field",
        )
    if "name" in entry and (not isinstance(entry["name"], str) or not entry["name"]):
        raise ScenarioError(
            f"must be a non-empty string (got {shown(entry['name'])})", path=path, key="skill.name"
        )
    if not top and "name" not in entry:
        raise ScenarioError(
            f'a field below the top level needs a name (name = "..."); field {k + 1} has none',
            path=path,
            key="skill.field",
        )
    built: dict[str, str] = {}
    for bot in bots:
        c = game.construction(bot)
        if c in built:
            raise ScenarioError(
                f"'{built[c]}' and '{bot}' are both built on {c}: a field needs players of "
                "independent construction (GLOSSARY: strong field), e.g. a model-free search "
                "beside a distilled one",
                path=path,
                key="skill.field",
            )
        built[c] = bot
    return list(bots)


def _reference(data: dict[str, Any], game: Any, path: str) -> str | None:
    """The reference the top level is checked against: the game's (``Game.extras.reference_bot``)
    unless the file names another bot or gives ``reference = false``."""
    value = data.get("reference", game.extras.reference_bot if "skill" in data else None)
    if value is False or value is None:
        return None
    if not isinstance(value, str) or not value:
        raise ScenarioError(
            f"must be a bot name (e.g. {shown(game.extras.reference_bot or 'search:64')}) or false "
            f"(got {shown(value)})",
            path=path,
            key="reference",
        )
    return value


def _check_grid_size(grid: dict[str, Any], path: str) -> None:
    """Every [grid] entry a non-empty list, and at most MAX_CELLS combinations in all."""
    cells = 1
    for key, values in grid.items():
        if not isinstance(values, list) or not values:
            raise ScenarioError(
                f"must be a non-empty list of values to sweep (got {shown(values)})",
                path=path,
                key=f"grid.{key}",
            )
        cells *= len(values)
    if cells > MAX_CELLS:
        sizes = " x ".join(str(len(v)) for v in grid.values())
        raise ScenarioError(
            f"{sizes} = {cells:,} cells, more than {MAX_CELLS:,}; split the study into "
            "several scenarios",
            path=path,
            key="grid",
        )


def _precision(data: dict[str, Any], path: str) -> Precision:
    """The [precision] table, in place of ``races``: its width and its cap on races."""
    if "races" in data:
        raise ScenarioError(
            "give either races (per cell) or [precision], not both", path=path, key="races"
        )
    table = data["precision"]
    if not isinstance(table, dict):
        raise ScenarioError(
            "must be a table, e.g. [precision] width = 0.02", path=path, key="precision"
        )
    for key in table:
        if key not in _PRECISION_KEYS:
            _unknown(key, _PRECISION_KEYS, path, prefix="precision.")
    if "width" not in table:
        raise ScenarioError(
            "required: the widest allowed win-rate 95% interval, e.g. 0.02",
            path=path,
            key="precision.width",
        )
    width = table["width"]
    if isinstance(width, bool) or not isinstance(width, int | float) or not 0 < width < 1:
        raise ScenarioError(
            f"must be a number between 0 and 1 (got {shown(width)})",
            path=path,
            key="precision.width",
        )
    max_races = checked_int(
        table.get("max_races", DEFAULT_MAX_RACES), "precision.max_races", path, 1, MAX_RACES
    )
    return Precision(float(width), max_races)
