"""Tuning: ``simkit tune`` searches rules and track parts for the fairest (or any)
objective; ``simkit bots tune`` fits a bot's weights (:mod:`simkit.tune.bots`). What both
do alike (the folder and its guard, ``tune.json``, the progress bar, the confirmation's
interval and verdict, the report's settings) is in :mod:`simkit.tune.common`.

For ``simkit tune``:
:func:`start` creates a tuning folder and runs it; :func:`resume` continues one (after a
kill, or as one more worker); both end with the confirmation run and the report. The
search lives in :mod:`simkit.tune.study`, the space file in :mod:`simkit.tune.space`, the
objective in :mod:`simkit.tune.objective`, the confirmation in :mod:`simkit.tune.confirm`
and the report in :mod:`simkit.tune.report`; docs/tuning.md says how to use them.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from simkit.tune.tuning import Settings, settings

__all__ = ["Outcome", "Settings", "resume", "settings", "start"]
LOCK = "confirm.lock"


@dataclass(frozen=True)
class Outcome:
    """What a tuning found: the confirmation table (the book first) and where it wrote."""

    settings: Settings
    best: dict[str, Any]  # the best confirmed candidate's scenario values
    confirmation: pd.DataFrame
    report: Path


def start(
    s: Settings,
    out: str | Path,
    *,
    force: bool = False,
    report: str | Path | None = None,
    threads: int | None = None,
    dask: str | None = None,
    progress: bool = False,
) -> Outcome:
    """Tune from scratch into ``out`` (``tune.json`` and the study first, so a kill at any
    moment can be resumed)."""
    from simkit.tune import study

    study.create(s, Path(out), force)
    return resume(out, report=report, threads=threads, dask=dask, progress=progress)


def resume(
    out: str | Path,
    *,
    report: str | Path | None = None,
    threads: int | None = None,
    dask: str | None = None,
    progress: bool = False,
    notify: Callable[[str], None] | None = None,
) -> Outcome | None:
    """Work on the tuning in ``out`` until its budget is spent, then confirm and report.

    Returns None when other workers are still playing candidates, or confirming: the last
    worker to finish its candidates confirms and reports (one at a time, ``confirm.lock``).
    Every worker reads the tuning's recorded inputs, not the files on disk; ``notify``
    (default: stderr) is told of each file that changed since the tuning started.
    """
    from simkit.runner.inputs import replayed
    from simkit.tune import study

    out = Path(out)
    s = study.load_settings(out)
    with replayed(out, {"inputs": s.inputs}, what="tuning") as notices:
        for line in notices:
            (notify or _stderr)(line)
        if dask is None:
            study.search(out, threads=threads, progress=progress)
        else:
            _search_on_dask(out, dask, threads)
        if study.in_flight(out):
            return None
        with _lock(out) as mine:
            if not mine:
                return None
            return finish(out, report=report, threads=threads, progress=progress)


def _stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


@contextlib.contextmanager
def _lock(out: Path) -> Iterator[bool]:
    """Whether this process may confirm: it holds ``confirm.lock`` (a lock left by a process
    that died is taken over)."""
    from simkit.tune.study import alive

    path = out / LOCK
    for _ in range(2):
        try:
            fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            owner = path.read_text().strip() if path.exists() else ""
            if owner.isdigit() and not alive(int(owner)):
                path.unlink(missing_ok=True)
                continue
            yield False
            return
        with os.fdopen(fd, "w") as fh:
            fh.write(str(os.getpid()))
        try:
            yield True
        finally:
            path.unlink(missing_ok=True)
        return
    yield False


def _search_on_dask(out: Path, address: str, threads: int | None) -> None:
    """One search worker per Dask worker, all on the study in ``out`` (a folder every
    worker can reach)."""
    from simkit.files import replayed_contents
    from simkit.runner.backends import DaskBackend
    from simkit.tune import study

    backend = DaskBackend(address, threads)
    try:
        n = len(backend.client.scheduler_info().get("workers", {})) or 1
        futures = [
            backend.client.submit(
                study.search,
                str(out.resolve()),
                threads=backend.threads,
                contents=replayed_contents(),
                pure=False,
                key=f"tune-{i}",
            )
            for i in range(n)
        ]
        backend.client.gather(futures)
    finally:
        backend.close()


def finish(
    out: str | Path,
    *,
    report: str | Path | None = None,
    threads: int | None = None,
    progress: bool = False,
) -> Outcome:
    """Confirm the search's best candidates in ``out`` and write the report."""
    from simkit import load
    from simkit.tune import confirm, study
    from simkit.tune.report import best_candidate, build

    out = Path(out)
    s = study.load_settings(out)
    st = study.open_study(out, s)
    top = confirm.best_trials(st, s)
    candidates = [t.user_attrs["candidate"] for t in top]
    folder = confirm.run(out, s, candidates, threads=threads, progress=progress)
    results = load(folder)
    v = confirm.verdicts(results, s, s.seed)
    title = str(s.scenario.get("title") or Path(s.scenario_path).stem)
    index = build(Path(report or out / "report"), s, st, v, results, title)
    k = best_candidate(v)  # rows: the book, the references, then the candidates found
    best = {} if k is None else candidates[k - int((v["role"] != "found").sum())]
    return Outcome(s, best, v, index)
