"""The search of ``simkit tune``: an Optuna study in the output folder (docs/tuning.md).

A tuning folder holds ``tune.json`` (the settings, written once: :mod:`simkit.tune.tuning`)
and ``study.db``: Optuna's SQLite storage (:mod:`simkit.tune.storage`), where every
candidate (a *trial*) is kept with its scenario values, the races it played
(:mod:`simkit.tune.races`) and its objective after each rung. Nothing else holds state.
:func:`create` makes the folder and the study; :func:`search` is one worker on it:

- **Budget.** A rung is played only if the races of every candidate finished or under way
  (not those lost to a kill) plus the rung's stay within ``budget``.
- **Resuming.** A trial whose process is gone (same machine, pid not alive; elsewhere, no
  sign of life for :data:`STALE_SECONDS`) is marked failed and not counted; its candidate
  is proposed again. The sampler of each trial is seeded from the tuning's seed and the
  number of trials finished and under way, so one process resumed after ``kill -9`` asks
  exactly the questions an uninterrupted one would have asked, and ends with the same best.
- **Several workers.** Any number of processes (``simkit tune --resume DIR`` in several
  shells, or Dask workers) may work on one study at once; they share the SQLite file.
"""

from __future__ import annotations

import json
import math
import os
import socket
import time
from pathlib import Path
from typing import Any

import numpy as np

from simkit import files
from simkit.errors import RunError
from simkit.files import claim_folder, resolved
from simkit.games import get
from simkit.tune import common, objective
from simkit.tune.common import SETTINGS
from simkit.tune.races import add, play
from simkit.tune.storage import STUDY, STUDY_NAME, disk_full, open_study, pruner, storage

# DEFAULTS and settings are re-exported: the tests name them study.DEFAULTS, study.settings.
from simkit.tune.tuning import DEFAULTS as DEFAULTS
from simkit.tune.tuning import Settings, book_params, book_values, cells, copy_inputs, references
from simkit.tune.tuning import settings as settings

STALE_SECONDS = 600  # a trial on another machine with no sign of life this long is lost
UNCLAIMED_SECONDS = 5  # a trial no worker has claimed this long after it began is lost
MAX_REPEATS = 30  # the sampler proposing only candidates already played this often: done


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


# --- the folder ---------------------------------------------------------------------------


def create(s: Settings, out: Path, force: bool = False) -> None:
    """A new tuning folder: ``tune.json``, then the study with the book's values first."""

    out = resolved(out)
    again = f"`simkit tune --resume {out}`, or add --force to start it again"
    common.refuse_existing(out, force, again)
    claim_folder(out, "tuning", force=force, ours=lambda p: (p / SETTINGS).is_file())
    check_confirm_folder(out)
    for name in (STUDY, SETTINGS):
        (out / name).unlink(missing_ok=True)
    copy_inputs(s, out)  # before tune.json: a tuning folder always holds its copies
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
            _fail(study, t)
            lost.append(t.number)
    return lost


def _fail(study: Any, t: Any) -> None:
    """Mark trial ``t`` failed, and queue its candidate again if it was queued (the book's
    values, a reference: Optuna keeps a queued trial's values as ``fixed_params``)."""
    from optuna.trial import TrialState

    study.tell(t.number, state=TrialState.FAIL, skip_if_finished=True)
    queued = t.system_attrs.get("fixed_params")
    if queued is not None:
        attrs = {k: v for k, v in t.user_attrs.items() if k in ("book", "reference")}
        study.enqueue_trial(queued, user_attrs=attrs)


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


def _give_back(study: Any, number: int) -> None:
    """Mark the candidate a full disk interrupted as failed, and queue it again if it was
    queued (the book's values, a reference), as :func:`fail_lost` does for a lost worker; if
    the disk is still full this fails too, and the next ``--resume`` does it instead."""
    from optuna.trial import TrialState

    try:
        t = next(t for t in study.get_trials(deepcopy=False) if t.number == number)
        if t.state != TrialState.RUNNING:
            return
        _fail(study, t)
    except Exception:  # still no space: left to fail_lost on resume
        return


def _best_value(study: Any) -> float:
    try:
        if len(study.directions) > 1:  # a front: its fairest point's objective
            return min((float(t.values[0]) for t in study.best_trials), default=math.nan)
        return float(study.best_value)
    except (ValueError, RuntimeError):
        return math.nan
