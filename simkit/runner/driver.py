"""Run a scenario into a run directory: plan chunks, simulate them, write them, resume.

Chunks are planned round-robin over cells (chunk 0 of every cell, then chunk 1, ...), so a
run stopped early has every cell covered evenly. Races of chunk ``c`` are
``c*chunk_size .. (c+1)*chunk_size-1``; their keys depend only on (seed, cell key, race), so
the tables do not depend on chunk size, threads or backend.

With a precision target a cell stops after the first chunk (in chunk order) at which every
start slot's win-rate 95% Wilson interval is narrower than the target. The decision uses
only that cell's chunks 0..c, so it is the same on every backend and after a resume.
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow.parquet as pq

from simkit import __version__
from simkit.errors import RunError
from simkit.games import get
from simkit.outcomes import DRAW_FINISH
from simkit.runner import inputs
from simkit.runner.backends import ChunkResult, ChunkTask, DaskBackend, LocalBackend
from simkit.runner.grid import PlannedCell, expand
from simkit.runner.manifest import CELLS, LEVEL_PAIRS, LEVELS, chunk_races, part_name
from simkit.runner.progress import bar, compile_notice
from simkit.runner.scenario import Scenario
from simkit.runner.scenario_file import parse
from simkit.runner.storage import RunDir, command_of
from simkit.runner.tables import cells_table, parquet_bytes


@dataclass
class RunSummary:
    """What a call to :func:`start` or :func:`resume` did."""

    dir: Path
    cells: int
    races: int  # races in the run's tables
    new_races: int  # races simulated by this call
    seconds: float
    already_complete: bool = False
    repaired: list[str] = field(default_factory=list)  # what resume found damaged and redid
    notices: list[str] = field(default_factory=list)  # inputs changed on disk since the start

    @property
    def races_per_second(self) -> float:
        return self.new_races / self.seconds if self.seconds > 0 else 0.0


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def chunks_per_cell(races: int, chunk_size: int) -> int:
    return math.ceil(races / chunk_size)


def cap(scenario: Scenario, pc: PlannedCell) -> int:
    """Races cell ``pc`` plays at most: its skill level's own count, else the scenario's."""
    return pc.races if pc.races is not None else scenario.max_races


class _WinCounts:
    """Per-cell start-slot win counts, for the precision target."""

    def __init__(self, slots: tuple[int, ...]):
        self.slots = slots
        self.n = dict.fromkeys(slots, 0)
        self.k = dict.fromkeys(slots, 0)

    def add(self, slot_finish: pd.DataFrame) -> None:
        for slot, finish, count in slot_finish[["slot", "finish", "count"]].itertuples(index=False):
            if finish == DRAW_FINISH:
                continue  # a draw is not decided: no win rate counts it (docs/statistics.md)
            self.n[int(slot)] += int(count)
            if finish == 1:
                self.k[int(slot)] += int(count)

    def narrower_than(self, width: float) -> bool:
        # Imported here: scipy and statsmodels take about a second to import, which every
        # run without a precision target (most) would pay at start.
        from simkit.stats import wilson_interval

        n = np.array([self.n[s] for s in self.slots])
        k = np.array([self.k[s] for s in self.slots])
        low, high = wilson_interval(k, n)
        return bool(np.all(n > 0) and np.all(high - low < width))


def _backend(dask: str | None, threads: int | None) -> LocalBackend | DaskBackend:
    return LocalBackend(threads) if dask is None else DaskBackend(dask, threads)


def _manifest(scenario: Scenario, cells: list[PlannedCell]) -> dict[str, Any]:
    chunks = sum(chunks_per_cell(cap(scenario, pc), scenario.chunk_size) for pc in cells)
    return {
        "simkit_version": __version__,
        "code": inputs.code_record(scenario.game),  # what decides its races (resume compares)
        "scenario": scenario.to_json(),
        "scenario_path": scenario.path,
        "game": scenario.game,
        "seed": scenario.seed,
        "crn": scenario.crn,
        "chunk_size": scenario.chunk_size,
        "chunks_total": chunks,
        "chunks_done": [],
        "races_per_cell": scenario.max_races,
        "precision": None
        if scenario.precision is None
        else {"width": scenario.precision.width, "max_races": scenario.precision.max_races},
        "races_done": [0] * len(cells),
        "keep": scenario.keep,
        "heat": scenario.heat,
        "cells": [pc.spec() for pc in cells],
        "timings": {"started": _now(), "finished": None, "elapsed_s": 0.0, "simulate_s": 0.0},
        "status": "running",
        "files": {},
    }


def start(
    scenario: Scenario,
    out: str | Path,
    *,
    force: bool = False,
    threads: int | None = None,
    dask: str | None = None,
    progress: bool = False,
    options: dict[str, Any] | None = None,
) -> RunSummary:
    """Run ``scenario`` into a new run directory ``out`` (``--force`` replaces a run there).

    ``progress`` tells the user on stderr: a compile notice on a cold cache, then a bar.
    ``options`` are what the command that generated the scenario was also asked (a
    ladder's ``--bootstrap``), kept in the manifest for the command's ``--resume``.
    """
    cells, recorded = inputs.expand_recorded(
        lambda: expand(scenario), scenario.game, scenario.path, scenario.source
    )
    run = RunDir(out)
    run.command = command_of(scenario.path)
    backend = _backend(dask, threads)
    try:
        run.prepare()
        with run.lock():
            run.create(force)
            manifest = _manifest(scenario, cells)
            if options:
                manifest["options"] = dict(options)
            run.record_inputs(recorded, manifest)
            # Until the first manifest there is no run to resume: a failure says run again.
            run.write(CELLS, parquet_bytes(cells_table(cells)), manifest, then="run again")
            run.write_manifest(manifest, then="run again")
            return _execute(run, scenario, cells, manifest, backend, progress)
    finally:
        backend.close()


def resume(
    out: str | Path,
    *,
    races: int | None = None,
    threads: int | None = None,
    dask: str | None = None,
    progress: bool = False,
    level: str | None = None,
) -> RunSummary:
    """Finish the run in ``out`` where it stopped, after checking everything it wrote.

    The manifest must pass :func:`simkit.runner.manifest.check`; a chunk whose files are
    missing or differ from their recorded sha256 is simulated again (``repaired`` says
    which), files the manifest does not list are removed, and a finished run with nothing
    damaged is left as it is.

    ``races`` extends the run (``simkit run --resume DIR --races N``): every cell is raised
    to max(its races, ``races``), same keys, so the tables are those of one uninterrupted
    run in which each cell had that many races (:func:`_extend`); a precision target is
    dropped (every cell then plays N races; refused if one already has more). A skill level
    with its own races per cell keeps them unless ``level`` names it (or its field): then
    only that level's cells grow.
    """
    run = RunDir(out)
    run.read_manifest()  # a run (and the command that resumes it), before it is locked
    run.refuse_links(f"remove it, then resume with {run.resume_hint}")
    with run.lock():
        manifest = run.read_manifest()  # as it is now that no one else writes it
        return _resume_recorded(run, manifest, races, threads, dask, progress, level)


def _resume_recorded(
    run: RunDir,
    manifest: dict[str, Any],
    races: int | None,
    threads: int | None,
    dask: str | None,
    progress: bool,
    level: str | None = None,
) -> RunSummary:
    if "code" not in manifest:  # else compared with the inputs, below
        inputs.refuse_other_code(run.path, manifest, manifest["game"])
    with inputs.replayed(run.path, manifest) as notices:
        if progress:
            for line in notices:
                print(line, file=sys.stderr, flush=True)
        summary = _resume(run, manifest, races, threads, dask, progress, level)
    summary.notices = notices
    return summary


def _resume(
    run: RunDir,
    manifest: dict[str, Any],
    races: int | None,
    threads: int | None,
    dask: str | None,
    progress: bool,
    level: str | None = None,
) -> RunSummary:
    scenario = parse(manifest["scenario"], manifest["scenario_path"])
    cells = expand(scenario)
    if [pc.spec() for pc in cells] != manifest["cells"]:
        raise RunError(
            f"'{run.path}': this simkit version expands the run's scenario into different "
            "cells; start it again with --force"
        )
    run.restore_folders()
    repaired = _repair(run, manifest, cells)
    extended = False
    if level is not None and races is None:
        raise RunError(f"--level {level} says which level --races N raises; give --races too")
    if races is not None:
        scenario, cells, extended = _extend(run, manifest, scenario, cells, races, level)
        kept = {
            b: n
            for b, n in scenario.skill_races.items()
            if level is None or level not in (b, _field_of(scenario, b))
        }
        if progress and kept:
            print(
                "levels with their own races per cell keep them ("
                + ", ".join(f"{b} {n:,}" for b, n in kept.items())
                + "); --races N --level BOT raises one of them",
                file=sys.stderr,
                flush=True,
            )
    if manifest["status"] == "complete" and not repaired and not extended:
        races = sum(manifest["races_done"])
        return RunSummary(run.path, len(cells), races, 0, 0.0, already_complete=True)
    manifest["status"] = "running"
    run.write_manifest(manifest)
    backend = _backend(dask, threads)
    try:
        summary = _execute(run, scenario, cells, manifest, backend, progress)
    finally:
        backend.close()
    summary.repaired = repaired
    return summary


def _extend(
    run: RunDir,
    manifest: dict[str, Any],
    scenario: Scenario,
    cells: list[PlannedCell],
    races: int,
    level: str | None = None,
) -> tuple[Scenario, list[PlannedCell], bool]:
    """Raise every cell to max(its races, ``races``); True if any cell grew.

    Race ``r`` of a cell is the same race whatever the cell's total, so the races done stay;
    only a cell's last chunk, when it was cut short by the old total (``races`` not a
    multiple of the chunk size), is dropped and played again at its full size, so that every
    chunk file is the one an uninterrupted run of the new total writes. A level with its
    own races per cell keeps its own count (the resume says so). The manifest is written
    before the dropped chunk's files are removed (a crash in between leaves files that the
    next resume removes as unlisted).
    """
    data = scenario.to_json()
    if scenario.precision is not None:
        # The target goes: every cell plays N races. A cell it stopped with more than N
        # races cannot be expressed as "max(its races, N)" by one races per cell: refused.
        most = max(manifest["races_done"])
        if most > races:
            raise RunError(
                f"'{run.path}': a cell of this run already has {most:,} races (its precision "
                f"target stopped it there), more than --races {races:,}; give --races {most} "
                "or more"
            )
        del data["precision"]
        data["races"] = races
    if level is None:
        # A level with its own races per cell (a costly bot capped on purpose) keeps them:
        # --races raises the scenario's count, not a cost the file chose (the resume says so).
        data["races"] = max(data["races"], races)
    else:
        data["skill"] = _raise_level(scenario, level, races, run.path)
    grown = parse(data, scenario.path)
    new_cells = [replace(pc, races=grown.level_races(pc.skill)) for pc in cells]
    size = scenario.chunk_size
    drop = []
    for pc, new in zip(cells, new_cells, strict=True):
        i, before, after = pc.cell.cell_id, cap(scenario, pc), cap(grown, new)
        last = chunks_per_cell(before, size) - 1
        if after > before and before % size and [i, last] in manifest["chunks_done"]:
            drop.append((i, last))
            manifest["chunks_done"].remove([i, last])
            manifest["races_done"][i] -= before % size
    same = all(cap(grown, n) == cap(scenario, p) for p, n in zip(cells, new_cells, strict=True))
    if same and scenario.precision is None:
        return scenario, cells, False
    names = [f"{t}/{part_name(i, c)}" for i, c in drop for t in ("races", "heat", "agg")]
    for name in names:
        manifest["files"].pop(name, None)
    manifest.update(
        scenario=grown.to_json(),
        races_per_cell=grown.max_races,
        precision=None,  # --races replaces a target, as on a fresh run
        cells=[pc.spec() for pc in new_cells],
        chunks_total=sum(chunks_per_cell(cap(grown, pc), size) for pc in new_cells),
        status="running",
    )
    manifest["timings"]["finished"] = None
    run.write_manifest(manifest)
    for name in names:
        (run.path / name).unlink(missing_ok=True)
    return grown, new_cells, True


def _field_of(scenario: Scenario, bot: str) -> str | None:
    return next((name for name, bots in scenario.fields.items() if bot in bots), None)


def _raise_level(scenario: Scenario, level: str, races: int, where: Path) -> list[Any]:
    """The scenario's ``skill`` list with ``level`` (a bot or a field) raised to at least
    ``races`` per cell, the other levels as they were."""
    names = [name for name, _ in scenario.levels]
    level = _field_of(scenario, level) or level  # a bot of a field raises its whole field
    if level not in names:
        raise RunError(
            f"'{where}': --level {level} is not a skill level of this run; its levels: "
            + ", ".join(names)
        )
    out = scenario.to_json()["skill"]
    for k, (name, bots) in enumerate(scenario.levels):
        if name == level:
            now = scenario.level_races(bots[0]) or scenario.max_races
            entry = out[k] if isinstance(out[k], dict) else {"bot": out[k]}
            out[k] = {**entry, "races": max(now, races)}
    return out


def _repair(run: RunDir, manifest: dict[str, Any], cells: list[PlannedCell]) -> list[str]:
    """Drop what cannot be trusted: unlisted files, and chunks with a damaged file.

    Returns one line per damaged file and what was done about it. ``cells.parquet`` is
    rebuilt from the cells (it depends on nothing else). Under a precision target a cell's
    later chunks go too, since whether they belong depends on the chunks before them.
    """
    for path in run.unlisted(manifest):
        path.unlink(missing_ok=True)
    lines, bad = [], set()
    for name in run.damaged(manifest):
        if name == CELLS:
            run.write(CELLS, parquet_bytes(cells_table(cells)), manifest)
            lines.append(f"{run.path / name} was damaged or missing: rebuilt")
        elif name in (LEVELS, LEVEL_PAIRS):  # the level check runs again at the end
            for table in (LEVELS, LEVEL_PAIRS):
                manifest["files"].pop(table, None)
            lines.append(f"{run.path / name} was damaged or missing: checked again")
        else:
            bad.add(tuple(int(x) for x in Path(name).stem.split("-")[1:]))
            lines.append(f"{run.path / name} was damaged or missing: its chunk runs again")
    if manifest["precision"] is not None:
        bad |= {(i, c) for i, c in manifest["chunks_done"] if any(i == j and c > k for j, k in bad)}
    for cell, chunk in bad:
        manifest["chunks_done"].remove([cell, chunk])
        manifest["races_done"][cell] -= chunk_races(manifest, cell, chunk)
        for table in ("races", "heat", "agg"):
            entry = f"{table}/{part_name(cell, chunk)}"
            manifest["files"].pop(entry, None)
            (run.path / entry).unlink(missing_ok=True)
    return lines


def _execute(
    run: RunDir,
    scenario: Scenario,
    cells: list[PlannedCell],
    manifest: dict[str, Any],
    backend: LocalBackend | DaskBackend,
    show: bool,
) -> RunSummary:
    game = get(scenario.game)
    size = scenario.chunk_size
    caps = [cap(scenario, pc) for pc in cells]
    per_cell = max(chunks_per_cell(c, size) for c in caps)
    done = {(i, c) for i, c in manifest["chunks_done"]}
    races_done = list(manifest["races_done"])
    wins = [_WinCounts(pc.slots) for pc in cells]
    stopped = [False] * len(cells)
    # Replay the precision decisions of earlier sessions from the files, in chunk order.
    if scenario.precision is not None:
        for pc in cells:
            i = pc.cell.cell_id
            c = 0
            while (i, c) in done and not stopped[i]:
                wins[i].add(_slot_finish(run, i, c))
                stopped[i] = wins[i].narrower_than(scenario.precision.width)
                c += 1

    skip = frozenset(done)

    def tasks() -> Iterator[ChunkTask]:
        for c in range(per_cell):
            for pc in cells:
                i = pc.cell.cell_id
                lo = c * size
                if not stopped[i] and (i, c) not in skip and lo < caps[i]:
                    yield ChunkTask(pc, c, lo, min(lo + size, caps[i]))

    expected = {b for pc in cells for b in pc.cell.bots}
    if scenario.checks_levels and scenario.reference:
        expected.add(scenario.reference)
    game.expect(sorted(expected))  # before the first compile: one kernel for every cell
    notice = compile_notice(game, "simulate") if show else None
    if notice:
        print(notice, file=sys.stderr, flush=True)
    shown = bar(sum(caps), sum(races_done), enabled=show)
    writer = _Writer(run, manifest, done, races_done)
    new_races = 0
    try:
        for res in backend.map(game, tasks(), scenario.seed, scenario.keep, scenario.heat):
            i = res.task.cell.cell.cell_id
            if stopped[i]:
                continue  # computed ahead by a parallel backend; the cell already met its target
            writer.submit(res)
            n = res.task.hi - res.task.lo
            new_races += n
            if scenario.precision is not None:
                wins[i].add(res.slot_finish)
                if wins[i].narrower_than(scenario.precision.width):
                    stopped[i] = True
                    shown.total -= caps[i] - res.task.hi
            shown.update(n)
        writer.drain()
    finally:
        shown.close()
        writer.close()
    if scenario.checks_levels:
        # Imported here: scipy and choix take 0.6 s of CPU to import (measured), which a run
        # without a skill axis, such as the speed yardstick's, would pay for nothing.
        from simkit.runner.level_store import store

        store(run, scenario, cells, manifest, threads=backend.threads, progress=show)
    writer.finish()
    return RunSummary(run.path, len(cells), sum(races_done), new_races, writer.seconds)


class _Writer:
    """Writes chunk files and then the manifest on one background thread, in chunk order.

    Writing (parquet encoding, fsync) overlaps with simulating the next chunk; at most one
    chunk waits to be written, so memory stays bounded.
    """

    def __init__(
        self,
        run: RunDir,
        manifest: dict[str, Any],
        done: set[tuple[int, int]],
        races_done: list[int],
    ):
        self.run, self.manifest, self.done, self.races_done = run, manifest, done, races_done
        self.timings = manifest["timings"]
        self.elapsed0 = self.timings["elapsed_s"]
        self.t0 = time.monotonic()
        self.seconds = 0.0
        self.pool = ThreadPoolExecutor(1, thread_name_prefix="simkit-writer")
        self.pending: Future | None = None

    def submit(self, res: ChunkResult) -> None:
        self.drain()
        self.pending = self.pool.submit(self._write, res)

    def drain(self) -> None:
        if self.pending is not None:
            self.pending.result()
            self.pending = None

    def close(self) -> None:
        self.pool.shutdown(wait=True)

    def _write(self, res: ChunkResult) -> None:
        i, c = res.task.cell.cell.cell_id, res.task.chunk
        self.run.write_chunk(i, c, res.files, self.manifest)
        self.done.add((i, c))
        self.races_done[i] += res.task.hi - res.task.lo
        self.timings["simulate_s"] = round(self.timings["simulate_s"] + res.seconds, 3)
        self._update()
        self.run.write_manifest(self.manifest, "manifest")

    def _update(self) -> None:
        self.seconds = time.monotonic() - self.t0
        self.timings["elapsed_s"] = round(self.elapsed0 + self.seconds, 3)
        done = sorted([list(d) for d in self.done])
        self.manifest.update(chunks_done=done, races_done=self.races_done)

    def finish(self) -> None:
        """Mark the run complete."""
        self._update()
        self.timings["finished"] = _now()
        self.manifest["status"] = "complete"
        self.run.write_manifest(self.manifest)


def _slot_finish(run: RunDir, cell: int, chunk: int) -> pd.DataFrame:
    agg = pq.read_table(run.path / "agg" / part_name(cell, chunk)).to_pandas()
    return agg[agg["table"] == "slot_finish"]
