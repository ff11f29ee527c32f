"""A tuning's settings (``tune.json``): what ``simkit tune`` plays, checked before it starts.

:class:`Settings` holds everything that decides a tuning's result: the scenario and the
space (by content), the objective, the budget and rungs, the sampler, the seed, and the
files they read. :func:`settings` makes them from the command line and checks them up front
(a scenario or space mistake names the file and key); the scenario a candidate plays is
the scenario's own with the candidate's values set (:func:`cells`), and the book's values
of the searched keys are :func:`book_values`.

- **Inputs by content.** The scenario and the space are kept in ``tune.json``; every other
  file the tuning reads (track files, routes, a game's presets file) is copied into
  ``inputs/`` at the start (:func:`copy_inputs`) and listed in ``tune.json`` as a run lists
  its inputs (:mod:`simkit.runner.inputs`), and every worker reads the copies, not the paths.

The races candidates play are in :mod:`simkit.tune.races`, the study on disk in
:mod:`simkit.tune.storage`, the tuning folder and its search workers in
:mod:`simkit.tune.study`.
"""

from __future__ import annotations

import shlex
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from simkit import files
from simkit.errors import RunError, SimkitError, SpaceError
from simkit.games import get
from simkit.runner.grid import PlannedCell, expand
from simkit.runner.scenario import Scenario
from simkit.runner.scenario_file import parse
from simkit.runner.storage import write_atomic
from simkit.tracks import override
from simkit.tune import objective, space

SAMPLERS = ("tpe", "random", "cmaes")
DEFAULTS = {
    "budget": 100_000,
    "min_races": 1_000,
    "max_races": 9_000,
    "halving": 3,
    "sampler": "tpe",
    "top": 3,
    "confirm": 20_000,
}


@dataclass(frozen=True)
class Settings:
    """Everything that decides a tuning's result (``tune.json``)."""

    scenario: dict[str, Any]  # the scenario as its manifest keeps it
    scenario_path: str
    space: dict[str, Any]  # the space file's content
    space_path: str
    objective: str = objective.FAIRNESS
    budget: int = DEFAULTS["budget"]
    min_races: int = DEFAULTS["min_races"]
    max_races: int = DEFAULTS["max_races"]
    halving: int = DEFAULTS["halving"]
    sampler: str = DEFAULTS["sampler"]
    top: int = DEFAULTS["top"]
    confirm: int = DEFAULTS["confirm"]
    seed: int = 0
    # The files read, by path as read: sha256, bytes, copy (in the folder), use (as a run's).
    inputs: dict[str, Any] = field(default_factory=dict)

    @property
    def rungs(self) -> list[int]:
        """Races per cell after each rung: min_races, x halving, ..., max_races."""
        out = [self.min_races]
        while out[-1] * self.halving < self.max_races:
            out.append(out[-1] * self.halving)
        return [*out, self.max_races] if out[-1] < self.max_races else out

    def base(self) -> Scenario:
        return parse(self.scenario, self.scenario_path)

    def search_space(self) -> space.Space:
        """The space, checked against the scenario (list entries completed)."""
        sc = self.base()
        sp = space.parse(self.space, self.space_path)
        return space.check(sp, book_values(sc, sp.keys), get(sc.game).params.names())

    def goal(self) -> objective.Goal:
        """The objective's terms, its bounds on side effects, its Pareto measure."""
        g = get(self.scenario["game"])
        return objective.parse_goal(self.objective, g.seat_columns, g.race_columns)

    def terms(self) -> tuple[objective.Term, ...]:
        return self.goal().terms

    def command(self) -> str:
        """The command line that plays this tuning (``--out`` and workers aside)."""
        words = ["simkit", "tune", self.scenario_path, "--space", self.space_path]
        for k in ("objective", "budget", "min_races", "max_races", "halving", "sampler"):
            words += [f"--{k.replace('_', '-')}", str(getattr(self, k))]
        words += ["--top", str(self.top), "--confirm", str(self.confirm), "--seed", str(self.seed)]
        return shlex.join(words)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def book_values(sc: Scenario, keys: list[str]) -> dict[str, Any]:
    """The scenario's own value of each key: the book's rules and track, plus its [set]."""
    cell = expand(sc)[0].cell
    params = cell.variant.as_dict()
    out = {}
    for key in keys:
        if key in sc.overrides:
            out[key] = sc.overrides[key]
        elif key.startswith(override.PREFIX):
            out[key] = override.current(cell.track, key.removeprefix(override.PREFIX))
        elif key in params:
            value = params[key]
            out[key] = list(value) if isinstance(value, tuple) else value
    return out


def cells(s: Settings, values: dict[str, Any]) -> list[PlannedCell]:
    """The cells a candidate plays: the scenario's, with the candidate's values set."""
    sc = s.base()
    return expand(replace(sc, overrides={**sc.overrides, **values}))


# What settings() read in this process, by sha256: create() copies it into the folder.
_read: dict[str, bytes] = {}


def settings(scenario_path: str | Path, space_path: str | Path, **opts: Any) -> Settings:
    """Checked settings: the scenario, the space against it, the objective, the budget,
    and every file they read (``inputs``), recorded by content.

    Raises:
        SimkitError: a scenario or space mistake (naming the file and key), an objective
            that names no column, rungs or a budget that cannot work.
    """
    with files.recording() as seen:
        s = _settings(scenario_path, space_path, **opts)
    return replace(s, inputs=_inputs(seen, s))


def _inputs(seen: dict[str, bytes], s: Settings) -> dict[str, Any]:
    """The manifest entries of the files read: the scenario and the space (compared only:
    ``tune.json`` holds them), the rest replayed; a presets file checked (as a run's)."""
    from simkit.runner import inputs

    read = {p: (data, "read") for p, data in seen.items() if not inputs.shipped(p)}
    read[str(Path(s.scenario_path))] = (seen.get(str(Path(s.scenario_path)), b""), "scenario")
    read[str(Path(s.space_path))] = (seen.get(str(Path(s.space_path)), b""), "space")
    presets = get(s.scenario["game"]).extras.bot_presets_file
    if presets is not None and Path(presets).is_file():
        read[str(presets)] = (Path(presets).read_bytes(), "check")
    out = {}
    for path, (data, use) in sorted(read.items()):
        out[path] = inputs.entry(path, data, use)
        _read[out[path]["sha256"]] = data
    return out


def _settings(scenario_path: str | Path, space_path: str | Path, **opts: Any) -> Settings:
    from simkit.runner import load_scenario

    sc = load_scenario(scenario_path)
    sp = space.load(space_path)
    opts = {**dict(sp.search), **{k: v for k, v in opts.items() if v is not None}}
    opts.setdefault("objective", sp.objective or objective.FAIRNESS)
    opts.setdefault("seed", sc.seed)
    s = Settings(sc.to_json(), str(scenario_path), sp.to_json(), str(space_path), **opts)
    for key in sp.keys:
        if key in sc.grid:
            raise SpaceError(
                f"the scenario sweeps {key} in its [grid]; search it or sweep it, not both",
                path=sp.path,
                key=key,
            )
    if sc.grid.get("set"):
        raise SpaceError("the scenario's grid lists set tables; tune one of them", path=sp.path)
    checked = s.search_space()
    _check_goal(s)
    try:
        _check_numbers(s, len(expand(sc)))
    except SpaceError:
        raise
    except SimkitError as exc:  # the options come from the command line or the [search] table
        where = f"search.{exc.key}" if exc.key else None
        raise SpaceError(str(exc), path=sp.path, key=where) from None
    base = book_values(sc, checked.keys)
    tried = [("a candidate", None, v) for v in [base, *checked.corners(base)]]
    tried += [
        (f"reference {i}", "reference", {**base, **r}) for i, r in enumerate(sp.references, 1)
    ]
    for what, where, values in tried:
        try:
            cells(s, values)
        except SimkitError as exc:
            key = where or next((k for k in checked.keys if str(exc.key or "").endswith(k)), None)
            raise SpaceError(
                f"the scenario rejects {what}: {getattr(exc, 'reason', exc)}",
                path=sp.path,
                key=key,
            ) from None
    return s


def _check_goal(s: Settings) -> None:
    """The objective parses, and every measure it bounds or trades is one the game records."""
    from simkit.analysis.side_effects import BY_NAME

    g = get(s.scenario["game"])
    for name in s.goal().measures():
        missing = [c for c in BY_NAME[name].columns if c not in g.seat_columns]
        if missing:
            raise SimkitError(
                f"{g.title} records no {', '.join(missing)}: it cannot bound {name}",
                key="objective",
            )


def _check_numbers(s: Settings, n_cells: int) -> None:
    if s.sampler not in SAMPLERS:
        raise SimkitError(f"--sampler must be one of {', '.join(SAMPLERS)}", key="sampler")
    if not 1 <= s.min_races <= s.max_races:
        raise SimkitError("--min-races must be from 1 to --max-races", key="min_races")
    if s.halving < 2:
        raise SimkitError("--halving must be at least 2", key="halving")
    full = s.max_races * n_cells
    if s.budget < full:
        raise SimkitError(
            f"budget {s.budget:,} (--budget, or budget in the space's [search]) cannot pay "
            f"for one full candidate ({s.max_races:,} races "
            f"x {n_cells} cell{'s' if n_cells > 1 else ''} = {full:,})",
            key="budget",
        )
    if s.top < 1 or s.confirm < 1:
        raise SimkitError("--top and --confirm must be at least 1", key="top")


def copy_inputs(s: Settings, out: Path) -> None:
    """Write the copies of ``s.inputs`` into ``out`` (what :func:`settings` read)."""
    import hashlib

    try:
        (out / "inputs").mkdir(exist_ok=True)
    except OSError as exc:
        raise RunError(f"cannot write into '{out}' ({exc.strerror or exc})") from None
    for path, e in s.inputs.items():
        data = _read.get(e["sha256"])
        if data is None:  # settings made in another process: the file must still hold it
            data = files.read_bytes(path, lambda msg, p=path: RunError(f"'{p}': {msg}"))
        if hashlib.sha256(data).hexdigest() != e["sha256"]:
            raise RunError(f"'{path}' changed while the tuning started; start it again")
        write_atomic(out / e["copy"], data, "start the tuning again")


def book_params(s: Settings) -> dict[str, Any] | None:
    """The Optuna parameters of the book's values, or None if the space cannot propose them."""
    sp = s.search_space()
    base = book_values(s.base(), sp.keys)
    return sp.params(base, base)


def references(s: Settings) -> list[dict[str, Any]]:
    """The space's references as whole candidates (every key; the book's where not given)."""
    sp = s.search_space()
    base = book_values(s.base(), sp.keys)
    return [{**base, **ref} for ref in sp.references]
