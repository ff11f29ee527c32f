"""The search of ``simkit tune``: an Optuna study in the output folder (docs/tuning.md).

A tuning folder holds ``tune.json`` (the settings, written once) and ``study.db``: Optuna's
SQLite storage, where every candidate (a *trial*) is kept with its scenario values, the
races it played and its objective after each rung. Nothing else holds state, so:

- **Common random numbers.** Every candidate plays races ``0, 1, 2, ...`` of the tuning's
  own key (:data:`TUNE_KEY`) in every cell: the same deals, dice and start slots, so
  candidates are compared on the same races, and a candidate's first rung is a prefix of
  its later ones.
- **Successive halving.** A candidate plays ``min_races`` races per cell, then, if it is
  among the best ``1/halving`` of those that reached that rung (Optuna's
  ``SuccessiveHalvingPruner``), ``halving`` times as many, and so on up to ``max_races``.
  Poor candidates cost a few races, good ones many; only full candidates compete for best.
- **Budget.** A rung is played only if the races of every candidate finished or under way
  (not those lost to a kill) plus the rung's stay within ``budget``.
- **Resuming.** A trial whose process is gone (same machine, pid not alive; elsewhere, no
  sign of life for :data:`STALE_SECONDS`) is marked failed and not counted; its candidate
  is proposed again. The sampler of each trial is seeded from the tuning's seed and the
  number of trials finished and under way, so one process resumed after ``kill -9`` asks
  exactly the questions an uninterrupted one would have asked, and ends with the same best.
- **Several workers.** Any number of processes (``simkit tune --resume DIR`` in several
  shells, or Dask workers) may work on one study at once; they share the SQLite file.
- **Inputs by content.** The scenario and the space are kept in ``tune.json``; every other
  file the tuning reads (track files, routes, a game's presets file) is copied into
  ``inputs/`` at the start and listed in ``tune.json`` as a run lists its inputs
  (:mod:`simkit.runner.inputs`), and every worker reads the copies, not the paths.
"""

from __future__ import annotations

import errno
import json
import math
import os
import shlex
import socket
import sqlite3
import time
import warnings
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from simkit import files
from simkit.errors import RunError, SimkitError, SpaceError
from simkit.files import claim_folder, resolved
from simkit.games import get
from simkit.rng import chunk_keys
from simkit.runner.grid import PlannedCell, expand
from simkit.runner.scenario import Scenario, parse
from simkit.runner.storage import write_atomic
from simkit.tracks import override
from simkit.tune import common, objective, space
from simkit.tune.common import SETTINGS

STUDY = "study.db"
STUDY_NAME = "tune"
# Cell key of the races candidates play (race_key(seed, TUNE_KEY, i)): no run (cell key 0
# under crn) and no bot tuning plays these races.
TUNE_KEY = np.uint64(0x7475_6E65_5F72_756C)  # "tune_rul"
STALE_SECONDS = 600  # a trial on another machine with no sign of life this long is lost
UNCLAIMED_SECONDS = 5  # a trial no worker has claimed this long after it began is lost
MAX_REPEATS = 30  # the sampler proposing only candidates already played this often: done
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


def play(
    s: Settings, values: dict[str, Any], lo: int, hi: int, threads: int | None = None
) -> list[objective.Counts]:
    """Races ``lo..hi-1`` of every cell of candidate ``values``, counted for the objective."""
    sc = s.base()
    g = get(sc.game)
    cols = _columns(s)
    out = []
    for pc in cells(s, values):
        counts = objective.Counts(pc.cell.players)
        for a in range(lo, hi, sc.chunk_size):
            b = min(a + sc.chunk_size, hi)
            keys = chunk_keys(s.seed, TUNE_KEY, a, b)
            counts.add(g.simulate(pc.cell, keys, threads, race_indices=np.arange(a, b)), cols)
        out.append(counts)
    return out


def _columns(s: Settings) -> tuple[str, ...]:
    """The result columns a candidate's counts keep: the terms', and the bounded measures'."""
    from simkit.analysis.side_effects import BY_NAME

    goal = s.goal()
    measured = [c for m in goal.measures() for c in BY_NAME[m].columns]
    return tuple(dict.fromkeys([*objective.columns(goal.terms), *measured]))


def add(a: list[objective.Counts], b: list[objective.Counts]) -> list[objective.Counts]:
    """The counts of two blocks of races of the same cells."""
    out = []
    for x, y in zip(a, b, strict=True):
        wins = {k: x.wins.get(k, 0) + y.wins.get(k, 0) for k in {*x.wins, *y.wins}}
        sums = {k: x.sums.get(k, 0.0) + y.sums.get(k, 0.0) for k in {*x.sums, *y.sums}}
        hist = {k: x.hist.get(k, 0) + y.hist.get(k, 0) for k in {*x.hist, *y.hist}}
        out.append(
            objective.Counts(x.players, x.races + y.races, x.decided + y.decided, wins, sums, hist)
        )
    return out


def book_counts(s: Settings, study: Any, races: int, threads: int | None) -> list:
    """The book's values on the candidates' first ``races`` races per cell, the reference of
    the goal's bounds and front: played once, kept in the study for every worker."""
    key = f"book_counts_{races}"
    kept = study.user_attrs.get(key)
    if kept is not None:
        return [objective.Counts.from_json(c) for c in kept]
    base = book_values(s.base(), s.search_space().keys)
    counts = play(s, base, 0, races, threads)
    study.set_user_attr(key, [c.to_json() for c in counts])
    return counts


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
    presets = get(s.scenario["game"]).bot_presets_file
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


# --- the study on disk -------------------------------------------------------------------


def _quiet() -> None:
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    warnings.filterwarnings("ignore", category=optuna.exceptions.ExperimentalWarning)


class _Unsynced(sqlite3.Connection):
    """A connection that hands its writes to the operating system without waiting for the
    disk (``PRAGMA synchronous = OFF``): a study survives any kill of its workers, only an
    operating-system crash during a write could damage it, and a candidate's dozen commits
    cost microseconds instead of a disk flush each (on this machine ~10 ms, as much as a
    thousand Snow Tails races)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.execute("PRAGMA synchronous = OFF")


def storage(out: Path) -> Any:
    """Optuna's SQLite storage in ``out``; writers wait for each other up to a minute."""
    import optuna

    _quiet()
    url = f"sqlite:///{(Path(out) / STUDY).resolve()}"
    connect = {"timeout": 60, "factory": _Unsynced}
    return optuna.storages.RDBStorage(url, engine_kwargs={"connect_args": connect})


def pruner(s: Settings) -> Any:
    """Optuna's successive halving, among the trials that count (:class:`_Counted`); none
    for a Pareto front (Optuna prunes single objectives only: every candidate plays in
    full)."""
    import optuna

    if s.goal().pareto:
        return optuna.pruners.NopPruner()

    halving = optuna.pruners.SuccessiveHalvingPruner(
        min_resource=s.min_races, reduction_factor=s.halving, min_early_stopping_rate=0
    )

    class Counted(optuna.pruners.BasePruner):
        def prune(self, study: Any, trial: Any) -> bool:
            return halving.prune(_Counted(study), trial)

    return Counted()


class _Counted:
    """The study as successive halving sees it: without failed trials, so a candidate lost
    to a kill competes in no rung (and a resumed tuning prunes as an uninterrupted one)."""

    def __init__(self, study: Any):
        self._study = study
        self._storage = study._storage  # the pruner records each trial's rung values there
        self.direction = study.direction

    def get_trials(self, deepcopy: bool = True, states: Any = None) -> list[Any]:
        from optuna.trial import TrialState

        trials = self._study.get_trials(deepcopy=deepcopy, states=states)
        return [t for t in trials if t.state != TrialState.FAIL]


def open_study(out: Path, s: Settings) -> Any:
    import optuna

    return optuna.load_study(study_name=STUDY_NAME, storage=storage(out), pruner=pruner(s))


def create(s: Settings, out: Path, force: bool = False) -> None:
    """A new tuning folder: ``tune.json``, then the study with the book's values first."""

    out = resolved(out)
    again = f"`simkit tune --resume {out}`, or add --force to start it again"
    common.refuse_existing(out, force, again)
    claim_folder(out, "tuning", force=force, ours=lambda p: (p / SETTINGS).is_file())
    check_confirm_folder(out)
    for name in (STUDY, SETTINGS):
        (out / name).unlink(missing_ok=True)
    _copy_inputs(s, out)  # before tune.json: a tuning folder always holds its copies
    common.write_settings(out, s.to_json())
    try:
        _create_study(s, out)
    except Exception as exc:
        why = disk_full(exc)
        if not why:
            raise
        # A study cut short is no tuning to resume: leave none, so the same command works.
        for name in (STUDY, SETTINGS):
            (out / name).unlink(missing_ok=True)
        raise RunError(f"cannot write '{out / STUDY}' ({why}, then run the command again") from None


def _create_study(s: Settings, out: Path) -> None:
    """The study with the book's values, then the references, queued first."""
    import optuna

    if s.goal().pareto:  # a front: the objective and the measure's distance from the book
        study = optuna.create_study(
            study_name=STUDY_NAME,
            storage=storage(out),
            directions=["minimize", "minimize"],
            pruner=pruner(s),
        )
    else:
        study = optuna.create_study(
            study_name=STUDY_NAME, storage=storage(out), direction="minimize", pruner=pruner(s)
        )
    params = book_params(s)
    if params is not None:  # the book's values are the first candidate the search plays
        study.enqueue_trial(params, user_attrs={"book": True})
    sp = s.search_space()
    base = book_values(s.base(), sp.keys)
    for ref in references(s):  # then the user's references, where the space holds them
        p = sp.params(ref, base)
        if p is not None:
            study.enqueue_trial(p, user_attrs={"reference": True})


def _copy_inputs(s: Settings, out: Path) -> None:
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


def check_confirm_folder(out: Path) -> None:
    """Refuse, before the search, a ``confirm/`` the confirmation could not write into."""
    from simkit.runner.storage import MANIFEST

    folder = Path(out) / "confirm"
    if not folder.exists() or (folder / MANIFEST).is_file():
        return
    if not folder.is_dir() or any(folder.iterdir()):
        raise RunError(
            f"'{folder}' holds files that are not a simkit run, and the tuning confirms its "
            "best candidates there; move them away, then start or resume the tuning"
        )


def load_settings(out: Path) -> Settings:
    common.require(out, STUDY)
    check_confirm_folder(out)
    return Settings(**common.read_settings(out))


# --- workers -------------------------------------------------------------------------------


def _worker() -> str:
    """This process, as trials record who plays them."""
    return f"{socket.gethostname()}:{os.getpid()}"


def alive(pid: int) -> bool:
    """Whether process ``pid`` runs on this machine."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def fail_lost(study: Any) -> list[int]:
    """Mark failed the trials whose worker is gone, queue again those that were queued (the
    book's values, the references), and return their numbers."""
    from optuna.trial import TrialState

    host, now, lost = socket.gethostname(), time.time(), []
    for t in study.get_trials(deepcopy=False, states=(TrialState.RUNNING,)):
        worker = t.user_attrs.get("worker")
        if worker is None:
            gone = now - t.datetime_start.timestamp() > UNCLAIMED_SECONDS
        else:
            where, _, pid = worker.rpartition(":")
            if where == host:
                gone = pid != str(os.getpid()) and not alive(int(pid))
            else:
                gone = now - t.user_attrs.get("alive_at", 0) > STALE_SECONDS
        if gone:
            study.tell(t.number, state=TrialState.FAIL, skip_if_finished=True)
            lost.append(t.number)
            queued = t.system_attrs.get("fixed_params")
            if queued is not None:
                attrs = {k: v for k, v in t.user_attrs.items() if k in ("book", "reference")}
                study.enqueue_trial(queued, user_attrs=attrs)
    return lost


def in_flight(out: Path) -> int:
    """Candidates other workers are playing now (after marking lost ones failed)."""
    from optuna.trial import TrialState

    s = load_settings(out)
    st = open_study(out, s)
    fail_lost(st)
    return len(st.get_trials(deepcopy=False, states=(TrialState.RUNNING,)))


def spent(study: Any) -> int:
    """Races played by every trial finished or under way (failed ones are played again)."""
    from optuna.trial import TrialState

    return sum(
        int(t.user_attrs.get("races", 0))
        for t in study.get_trials(deepcopy=False)
        if t.state != TrialState.FAIL
    )


def repeats(study: Any) -> int:
    """Candidates in a row, the latest finished, that were repeats of earlier ones (no
    races): the search ends at :data:`MAX_REPEATS`. Counted from the study, so a worker
    resumed after a kill, or on a finished tuning, ends where an uninterrupted one did."""
    from optuna.trial import TrialState

    done = study.get_trials(deepcopy=False, states=(TrialState.COMPLETE, TrialState.PRUNED))
    n = 0
    for t in sorted(done, key=lambda t: t.number, reverse=True):
        if "same_as" not in t.user_attrs:
            break
        n += 1
    return n


def _sampler(s: Settings, study: Any) -> Any:
    """A sampler seeded by the tuning's seed and the trials finished and under way, so a
    resumed tuning proposes what an uninterrupted one would have."""
    import optuna
    from optuna.trial import TrialState

    trials = study.get_trials(deepcopy=False)
    done = sum(t.state in (TrialState.COMPLETE, TrialState.PRUNED) for t in trials)
    running = sum(t.state == TrialState.RUNNING for t in trials)
    seed = int(np.random.SeedSequence([s.seed, done, running]).generate_state(1)[0])
    if s.goal().pareto:  # multi-objective: NSGA-II, whatever --sampler says
        return optuna.samplers.NSGAIISampler(seed=seed)
    if s.sampler == "random":
        return optuna.samplers.RandomSampler(seed=seed)
    if s.sampler == "cmaes":
        return optuna.samplers.CmaEsSampler(seed=seed, warn_independent_sampling=False)
    return optuna.samplers.TPESampler(seed=seed, multivariate=True, constant_liar=True)


def _same(study: Any, key: str, number: int) -> Any:
    """A finished trial of the same candidate, if any."""
    from optuna.trial import TrialState

    for t in study.get_trials(deepcopy=False, states=(TrialState.COMPLETE, TrialState.PRUNED)):
        if t.user_attrs.get("key") == key and t.number != number:
            return t
    return None


def _copy(study: Any, trial: Any, same: Any) -> None:
    """Finish ``trial`` as the trial ``same`` of the same candidate finished: no races."""
    from optuna.trial import TrialState

    trial.set_user_attr("same_as", same.number)
    if len(study.directions) > 1:
        study.tell(trial, same.values)
        return
    for step, v in sorted(same.intermediate_values.items()):
        trial.report(v, step)
    if same.state == TrialState.COMPLETE:
        study.tell(trial, same.value)
    else:
        study.tell(trial, state=TrialState.PRUNED)


def _evaluate(s: Settings, study: Any, trial: Any, values: dict, threads: int | None, bar) -> None:
    """Play the candidate rung by rung until it is pruned, stopped by the budget, or full."""
    from optuna.trial import TrialState

    goal, rungs = s.goal(), s.rungs
    n_cells = len(cells(s, values))
    if goal.pareto:
        _evaluate_front(s, study, trial, values, threads, bar, n_cells)
        return
    counts: list[objective.Counts] | None = None
    played = 0
    for k, r in enumerate(rungs):
        prev = rungs[k - 1] if k else 0
        need = (r - prev) * n_cells
        if spent(study) + need > s.budget:
            trial.set_user_attr("stopped", "budget")
            study.tell(trial, state=TrialState.PRUNED)
            return
        block = play(s, values, prev, r, threads)
        counts = block if counts is None else add(counts, block)
        played += need
        trial.set_user_attr("races", played)
        trial.set_user_attr("alive_at", time.time())
        book = book_counts(s, study, r, threads) if goal.bounds else None
        v = objective.bounded_value(goal, counts, book)
        trial.report(v, r)
        bar.update(need)
        if k < len(rungs) - 1 and trial.should_prune():
            study.tell(trial, state=TrialState.PRUNED)
            return
    trial.set_user_attr("counts", [c.to_json() for c in counts or []])
    study.tell(trial, v)


def _evaluate_front(
    s: Settings, study: Any, trial: Any, values: dict, threads: int | None, bar, n_cells: int
) -> None:
    """A candidate of a Pareto front: every race at once (no rungs), then its two values."""
    from optuna.trial import TrialState

    need = s.max_races * n_cells
    if spent(study) + need > s.budget:
        trial.set_user_attr("stopped", "budget")
        study.tell(trial, state=TrialState.PRUNED)
        return
    trial.set_user_attr("races", need)
    counts = play(s, values, 0, s.max_races, threads)
    trial.set_user_attr("alive_at", time.time())
    goal = s.goal()
    book = book_counts(s, study, s.max_races, threads)
    front = [objective.value(goal.terms, counts), objective.distance(goal, counts, book)]
    trial.set_user_attr("counts", [c.to_json() for c in counts])
    bar.update(need)
    study.tell(trial, front)


def search(
    out: str | Path,
    *,
    threads: int | None = None,
    progress: bool = False,
    contents: dict[str, bytes] | None = None,
) -> int:
    """Work on the study in ``out`` until its budget is spent; return the trials this
    worker finished. Safe to run in several processes at once.

    ``contents`` are the tuning's recorded inputs (path -> bytes), for a worker in another
    process (Dask) to read what the tuning's own process reads.
    """
    with files.replaying(contents or {}):
        return _search(Path(out), threads, progress)


def _search(out: Path, threads: int | None, progress: bool) -> int:
    s = load_settings(out)
    study = open_study(out, s)
    fail_lost(study)
    sp = s.search_space()
    base = book_values(s.base(), sp.keys)
    game = get(s.scenario["game"])
    shown = common.progress_bar(game, s.budget, min(spent(study), s.budget), progress)
    first = (s.max_races if s.goal().pareto else s.rungs[0]) * len(cells(s, base))
    finished = 0
    trial = None
    try:
        while spent(study) + first <= s.budget and repeats(study) < MAX_REPEATS:
            study.sampler = _sampler(s, study)
            trial = None
            trial = study.ask()
            trial.set_user_attr("worker", _worker())
            values = sp.candidate(sp.suggest(trial), base)
            key = json.dumps(values, sort_keys=True)
            trial.set_user_attr("candidate", values)
            trial.set_user_attr("key", key)
            same = _same(study, key, trial.number)
            if same is not None:
                _copy(study, trial, same)
            else:
                _evaluate(s, study, trial, values, threads, shown)
            finished += 1
            best = _best_value(study)
            shown.set_postfix_str(f"trial {trial.number} best {best:.2f}")
    except Exception as exc:
        why = disk_full(exc)
        if not why:
            raise
        if trial is not None:
            _give_back(study, trial.number)
        raise RunError(
            f"cannot write '{out / STUDY}' ({why}, then continue with `simkit tune --resume {out}`"
        ) from None
    finally:
        shown.close()
    return finished


_FULL = "no space left on the device); free some space"
# SQLite says "disk I/O error" where a write fails otherwise (EFBIG under a file-size limit).
_IO = (
    "SQLite: disk I/O error, as under a file-size limit or on a failing disk); raise the "
    "file-size limit (ulimit -f) or free some space"
)


def disk_full(exc: BaseException) -> str:
    """Why a write of the study failed and what to do (what ``exc``, or what it wraps, says:
    SQLAlchemy keeps SQLite's error as ``orig``), or "" if it is no failed write."""
    seen: set[int] = set()
    stack: list[BaseException | None] = [exc]
    while stack:
        e = stack.pop()
        if e is None or id(e) in seen:
            continue
        seen.add(id(e))
        if isinstance(e, OSError) and e.errno in (errno.ENOSPC, errno.EDQUOT):
            return _FULL
        if isinstance(e, OSError) and e.errno == errno.EFBIG:
            return "file too large); raise the file-size limit (ulimit -f)"
        if isinstance(e, sqlite3.OperationalError) and "full" in str(e):
            return _FULL
        if isinstance(e, sqlite3.OperationalError) and "disk I/O error" in str(e):
            return _IO
        stack += [e.__cause__, e.__context__, getattr(e, "orig", None)]
    return ""


def _give_back(study: Any, number: int) -> None:
    """Mark the candidate a full disk interrupted as failed, and queue it again if it was
    queued (the book's values, a reference), as :func:`fail_lost` does for a lost worker; if
    the disk is still full this fails too, and the next ``--resume`` does it instead."""
    from optuna.trial import TrialState

    try:
        t = next(t for t in study.get_trials(deepcopy=False) if t.number == number)
        if t.state != TrialState.RUNNING:
            return
        study.tell(number, state=TrialState.FAIL, skip_if_finished=True)
        queued = t.system_attrs.get("fixed_params")
        if queued is not None:
            attrs = {k: v for k, v in t.user_attrs.items() if k in ("book", "reference")}
            study.enqueue_trial(queued, user_attrs=attrs)
    except Exception:  # still no space: left to fail_lost on resume
        return


def _best_value(study: Any) -> float:
    try:
        if len(study.directions) > 1:  # a front: its fairest point's objective
            return min((float(t.values[0]) for t in study.best_trials), default=math.nan)
        return float(study.best_value)
    except (ValueError, RuntimeError):
        return math.nan
