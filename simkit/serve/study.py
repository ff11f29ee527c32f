"""A page's question as a scenario: baseline A beside change B, in rounds, until decided.

A page holds one **setting**: the base (game, preset, track, players, skill level, fixed
parameters, seed, as the scenario the page was opened with has them) and a **change**, a
``[set]`` table of rules parameters and track parts (``track.corner.1.safety = 4``). It
plays as one scenario whose ``grid.set`` is ``[A, B]``: two cells on common random numbers
(``crn``, the default: cell key 0 for both), so A and B play the same race keys. Every
input goes through :func:`simkit.runner.scenario_file.parse` and :func:`simkit.runner.expand`,
the checks ``simkit run`` and ``simkit scenario check`` make, and a mistake comes back as a
message naming the page's field.

Rounds are ``simkit run`` then ``simkit run --resume DIR --races N`` (the runner's own
``start`` and ``resume``), so the folder is at every round's end a complete run that
``simkit report``, ``compare`` and ``run --resume`` read. The answer after a round is
:func:`answer`: the fairness verdict of :mod:`simkit.analysis.fairness` on intervals that
stay valid under repeated looks (:mod:`simkit.serve.sequential`), and the side effects of
:mod:`simkit.analysis.side_effects`.
"""

from __future__ import annotations

import copy
import math
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from simkit.errors import ScenarioError, SimkitError

DEFAULT_TOLERANCE = 0.02  # as simkit report's --tolerance
DEFAULT_ROUND = 2_000  # races per cell per round: about a second for two cells, 4 sleds
DEFAULT_MAX_RACES = 200_000  # per cell: then the answer is "undetermined"
# What a page's field is called, by the scenario key whose check failed.
FIELDS = {"grid.set": "change", "players": "players", "bots": "skill", "set": "base"}
PAGE_SCENARIO = "page.toml"  # the name the page's scenario has in messages and manifests
# The keys of a scenario that make the page's base: one setting (a grid's first values).
BASE_KEYS = ("title", "game", "preset", "track", "players", "bots", "bots_file", "seed", "set")


class InputError(SimkitError):
    """A value typed on the page is refused: ``field`` says which input shows it."""

    def __init__(self, field: str, message: str):
        super().__init__(message)
        self.field = field


@dataclass(frozen=True)
class Setting:
    """What a page asks: base A, change B, the tolerance, and how its rounds play."""

    base: dict[str, Any]
    change: dict[str, Any] = field(default_factory=dict)
    tolerance: float = DEFAULT_TOLERANCE
    races_per_round: int = DEFAULT_ROUND
    max_races: int = DEFAULT_MAX_RACES

    @property
    def players(self) -> int | None:
        return self.base.get("players")

    @property
    def skill(self) -> str:
        bots = self.base.get("bots", "greedy")
        return bots if isinstance(bots, str) else ",".join(bots)

    def tables(self) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
        """([set] for both, A's table, B's table): a key B changes that the base fixes
        moves into A's table, so both cells say their value (a key is in one place)."""
        fixed = dict(self.base.get("set", {}))
        a = {k: fixed.pop(k) for k in list(self.change) if k in fixed}
        return fixed, a, dict(self.change)

    def scenario_data(self, races: int) -> dict[str, Any]:
        """The scenario, in the file's own schema, that plays this setting ``races`` a cell."""
        data = {k: copy.deepcopy(v) for k, v in self.base.items() if k in BASE_KEYS}
        fixed, a, b = self.tables()
        data["set"] = fixed
        data["grid"] = {"set": [a, b] if b else [a]}
        data.update(races=races, chunk_size=self.races_per_round, crn=True)
        return data


def base_of(data: dict[str, Any]) -> dict[str, Any]:
    """A page's base from a scenario's data: its first setting (a grid's first values, the
    first skill level), without what the page sets itself (races, grid)."""
    from simkit.runner.scenario import flat_parts

    base = {k: copy.deepcopy(v) for k, v in data.items() if k in BASE_KEYS}
    base["set"] = flat_parts(dict(base.get("set", {})))
    for key, values in flat_parts(dict(data.get("grid", {}))).items():
        if key == "set":
            base["set"].update(values[0] if values else {})
        elif key in ("preset", "track", "players", "bots"):
            base[key] = values[0]
        else:
            base["set"][key] = values[0]
    skill = data.get("skill")
    if skill and "bots" not in base:
        first = skill[0]
        base["bots"] = first if isinstance(first, str) else first.get("bot", first.get("field"))
        if isinstance(base["bots"], list):
            base["bots"] = base["bots"][0]
    return base


def setting_of_run(manifest: dict[str, Any]) -> Setting:
    """The setting a run folder holds: a page's run (``grid.set = [A, B]``) gives its
    change back; any other run its first setting and no change."""
    data = manifest["scenario"]
    grid = data.get("grid", {})
    bundles = grid.get("set") if set(grid) == {"set"} else None
    if bundles is not None and len(bundles) in (1, 2):
        page = {k: v for k, v in data.items() if k != "grid"}
        base = base_of(page)
        base["set"].update(bundles[0])
        change = bundles[1] if len(bundles) == 2 else {}
        return Setting(base, dict(change), races_per_round=data.get("chunk_size", DEFAULT_ROUND))
    return Setting(base_of(data))


def parse_change(text: str) -> dict[str, Any]:
    """The page's change box: TOML lines ``key = value`` (a rules parameter or a track
    part), as flat keys."""
    from simkit.runner.scenario import flat_parts

    try:
        table = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InputError(
            "change", f"not TOML ({exc}); write one 'key = value' a line, e.g. hand_size = 6"
        ) from None
    return flat_parts(table)


def with_inputs(
    setting: Setting,
    *,
    change: str | None = None,
    players: Any = None,
    skill: str | None = None,
    tolerance: Any = None,
) -> Setting:
    """``setting`` with the page's inputs, each checked as ``simkit run`` checks it."""
    base = copy.deepcopy(setting.base)
    if players not in (None, ""):
        try:
            base["players"] = int(players)
        except (TypeError, ValueError):
            raise InputError("players", f"must be a whole number (got {players!r})") from None
    if skill not in (None, ""):
        base["bots"] = str(skill).strip()
    out = replace(setting, base=base)
    if change is not None:
        out = replace(out, change=parse_change(change))
    if tolerance not in (None, ""):
        try:
            tol = float(tolerance)
        except (TypeError, ValueError):
            raise InputError("tolerance", f"must be a number (got {tolerance!r})") from None
        if not 0 < tol < 0.5 or not math.isfinite(tol):
            raise InputError(
                "tolerance", f"must be between 0 and 0.5, e.g. 0.02 for ±2 pp (got {tol:g})"
            )
        out = replace(out, tolerance=tol)
    check(out)
    return out


def check(setting: Setting):
    """The scenario of ``setting``, validated and expanded as ``simkit scenario check`` does
    (tracks built, bots known); a mistake is an :class:`InputError` naming the field."""
    from simkit.runner import expand
    from simkit.runner.scenario_file import parse

    try:
        sc = parse(setting.scenario_data(setting.races_per_round), PAGE_SCENARIO)
        expand(sc)
    except ScenarioError as exc:
        key = exc.key or ""
        name = next((f for k, f in FIELDS.items() if key == k or key.startswith(k + ".")), "base")
        raise InputError(name, exc.reason if exc.key else str(exc)) from None
    except SimkitError as exc:
        text = str(exc).removeprefix(f"scenario '{PAGE_SCENARIO}', ")
        raise InputError(_field_named(text), text) from None
    return sc


def _field_named(text: str) -> str:
    """Which input a message from expanding the cells (tracks, bots) is about."""
    if "track" in text and "grid.set" in text:
        return "change"
    if "bot" in text:
        return "skill"
    if "players" in text:
        return "players"
    return "change"


def play_round(setting: Setting, folder: Path, races: int, threads: int | None) -> None:
    """Play the setting up to ``races`` a cell in ``folder``: the first round starts the run
    (replacing the folder's earlier run), each later one extends it (``run --resume``)."""
    from simkit import runner
    from simkit.runner.scenario_file import parse

    if races <= setting.races_per_round:
        sc = parse(setting.scenario_data(races), PAGE_SCENARIO)
        runner.start(sc, folder, force=True, threads=threads)
    else:
        runner.resume(folder, races=races, threads=threads)


def scenario_text(setting: Setting, races: int, why: str) -> str:
    """The setting as a scenario file (what a page saves beside its run)."""
    import tomlkit

    doc = tomlkit.document()
    doc.add(tomlkit.comment(f"Saved by simkit serve: {why}."))
    doc.add(tomlkit.comment("A is the first table of grid.set, B the second; both play the"))
    doc.add(tomlkit.comment("same race keys (crn). simkit run FILE plays it again."))
    for key, value in setting.scenario_data(races).items():
        doc.add(key, value)
    return tomlkit.dumps(doc)
