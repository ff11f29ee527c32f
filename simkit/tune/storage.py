"""The study on disk: Optuna's SQLite storage in a tuning folder, and its pruner.

``study.db`` (:data:`STUDY`) holds every candidate of a tuning (a *trial*) with its
scenario values, the races it played and its objective after each rung; any number of
workers share it (writers wait for each other, :func:`storage`).

- **Successive halving.** A candidate plays ``min_races`` races per cell, then, if it is
  among the best ``1/halving`` of those that reached that rung (Optuna's
  ``SuccessiveHalvingPruner``, :func:`pruner`), ``halving`` times as many, and so on up to
  ``max_races``. Poor candidates cost a few races, good ones many; only full candidates
  compete for best. Trials lost to a kill compete in no rung (:class:`_Counted`).

:func:`disk_full` says why a write of the study failed and what to do. What the workers do
with the study is in :mod:`simkit.tune.study`.
"""

from __future__ import annotations

import errno
import sqlite3
import warnings
from pathlib import Path
from typing import Any

from simkit.tune.tuning import Settings

STUDY = "study.db"
STUDY_NAME = "tune"


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
        self.direction = study.direction

    @property
    def _storage(self) -> Any:
        """The study's own storage, where the pruner records each trial's rung values.

        Optuna's ``SuccessiveHalvingPruner.prune`` writes them through ``study._storage`` of
        whatever study it is handed, and Optuna has no public name for a study's storage
        (its own ``HyperbandPruner`` lends its bracket studies ``study._storage`` the same
        way), so this is the one place simkit reaches into Optuna's private attributes.
        """
        return self._study._storage

    def get_trials(self, deepcopy: bool = True, states: Any = None) -> list[Any]:
        from optuna.trial import TrialState

        trials = self._study.get_trials(deepcopy=deepcopy, states=states)
        return [t for t in trials if t.state != TrialState.FAIL]


def open_study(out: Path, s: Settings) -> Any:
    import optuna

    return optuna.load_study(study_name=STUDY_NAME, storage=storage(out), pruner=pruner(s))


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
