"""Where chunks are simulated: in this process (default) or as tasks on a Dask cluster.

A chunk is a pure function of (cell, race range, seed): :func:`simulate_chunk` turns it into
the bytes of its parquet files. Both backends call that same function and hand results back
in the order the chunks were asked for, so the driver writes identical files either way.
"""

from __future__ import annotations

import collections
import threading
import time
from collections.abc import Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import numba
import numpy as np
import pandas as pd

from simkit.errors import RunError
from simkit.files import one_line, replayed_contents, replaying
from simkit.games.base import Batch, Game
from simkit.rng import chunk_keys
from simkit.runner.grid import PlannedCell
from simkit.runner.tables import (
    MEASURE_TABLE,
    ROUND_TABLE,
    SEAT_TABLE,
    aggregate,
    arrow_agg,
    arrow_races,
    heat_table,
    measure_table,
    parquet_bytes,
    race_rows,
    round_table,
    seat_table,
)


@dataclass(frozen=True)
class ChunkTask:
    """Races ``lo..hi-1`` of one cell: the unit of work, of writing and of resuming."""

    cell: PlannedCell
    chunk: int
    lo: int
    hi: int


@dataclass
class ChunkResult:
    """A simulated chunk: its files' bytes and what the driver needs to decide and report."""

    task: ChunkTask
    files: dict[str, bytes]
    slot_finish: pd.DataFrame
    seconds: float


def simulate_chunk(
    game: Game,
    task: ChunkTask,
    seed: int,
    keep: str,
    heat: bool,
    threads: int | None,
    inputs: dict[str, bytes] | None = None,
) -> ChunkResult:
    """Play one chunk with ``game`` and encode its tables.

    The game object travels to Dask workers by pickle, i.e. as a reference to its class's
    module, which the worker imports: no registry lookup is needed there. ``inputs`` are
    the run's recorded inputs (:mod:`simkit.runner.inputs`), read instead of the worker's
    files.
    """
    with replaying(inputs or {}):
        batch, seconds = play_chunk(game, task, seed, threads)
    return encode_chunk(game, task, batch, seconds, keep, heat)


def play_chunk(game: Game, task: ChunkTask, seed: int, threads: int | None) -> tuple[Batch, float]:
    """The chunk's races played (the game's kernel, which releases the GIL), and seconds."""
    pc = task.cell
    t0 = time.perf_counter()
    keys = chunk_keys(seed, pc.cell_key, task.lo, task.hi)
    batch = game.simulate(pc.cell, keys, threads, race_indices=np.arange(task.lo, task.hi))
    return batch, time.perf_counter() - t0


def encode_chunk(
    game: Game, task: ChunkTask, batch: Batch, seconds: float, keep: str, heat: bool
) -> ChunkResult:
    """The played chunk's tables as parquet bytes, and its slot-finish counts."""
    pc = task.cell
    cols = race_rows(pc, task.lo, batch, game)
    aggs = aggregate(cols, game.seat_columns, game.race_columns)
    files = {}
    if keep == "races":
        files["races"] = parquet_bytes(arrow_races(cols))
    if heat:
        files["heat"] = parquet_bytes(heat_table(pc.cell.cell_id, batch, game.heat_kinds))
    files["agg"] = parquet_bytes(
        arrow_agg(
            {
                **aggs,
                ROUND_TABLE: round_table(pc.cell.cell_id, batch),
                MEASURE_TABLE: measure_table(pc.cell.cell_id, batch),
                SEAT_TABLE: seat_table(pc.cell.cell_id, batch),
            }
        )
    )
    return ChunkResult(task, files, aggs["slot_finish"], seconds)


class LocalBackend:
    """Chunks one after another in this process; the game's kernel uses the threads.

    The next chunk is played while this one's tables are encoded (and the driver writes
    the one before): the kernel releases the GIL, so the encoding no longer leaves the
    cores idle between chunks. At most two chunks' results are held at once.
    """

    name = "local"

    def __init__(self, threads: int | None = None):
        most = numba.config.NUMBA_NUM_THREADS
        if threads is not None and threads > most:
            raise RunError(f"--threads {threads}: this machine runs at most {most} threads")
        self.threads = threads

    def map(
        self, game: Game, tasks: Iterable[ChunkTask], seed: int, keep: str, heat: bool
    ) -> Iterator[ChunkResult]:
        it = iter(tasks)
        task = next(it, None)
        if task is None:
            return
        with ThreadPoolExecutor(1, thread_name_prefix="simkit-play") as pool:
            ahead = pool.submit(play_chunk, game, task, seed, self.threads)
            try:
                while task is not None:
                    batch, seconds = ahead.result()
                    following = next(it, None)
                    if following is not None:
                        ahead = pool.submit(play_chunk, game, following, seed, self.threads)
                    yield encode_chunk(game, task, batch, seconds, keep, heat)
                    task = following
            finally:
                ahead.cancel()

    def close(self) -> None:
        """Nothing to release."""


CONNECT_SECONDS = 20.0  # to reach a scheduler and hear its handshake


def _connect(client: type, address: str) -> Any:
    """A ``Client`` of the scheduler at ``address``, or one ``RunError`` line.

    Whatever listens there: nothing (refused), a server that closes, one that speaks first
    in another protocol (distributed reads its first bytes as a frame length and asks for
    exbibytes), or one that accepts and stays silent (distributed waits for the handshake
    with no timeout). The client is made on a daemon thread and waited for
    :data:`CONNECT_SECONDS`, so none of them hangs the command.
    """
    done: dict[str, Any] = {}

    def make() -> None:
        try:
            done["client"] = client(address, timeout="10s")
        except BaseException as exc:  # reported below, in the caller's thread
            done["error"] = exc

    maker = threading.Thread(target=make, name="simkit-dask-connect", daemon=True)
    maker.start()
    maker.join(CONNECT_SECONDS)
    fix = "give the tcp://HOST:PORT of a Dask scheduler, or local"
    if maker.is_alive():
        raise RunError(
            f"cannot use the Dask scheduler at {address}: the server there accepted the "
            f"connection but did not answer as a Dask scheduler within {CONNECT_SECONDS:g} s; "
            f"{fix}"
        )
    exc = done.get("error")
    if isinstance(exc, MemoryError):
        raise RunError(
            f"cannot use the Dask scheduler at {address}: the server there does not speak "
            f"Dask's protocol (its first bytes are no Dask message); {fix}"
        )
    if isinstance(exc, KeyboardInterrupt):
        raise exc
    if exc is not None:
        why = one_line(f"{type(exc).__name__}: {exc}")[:200]
        raise RunError(f"cannot reach the Dask scheduler at {address} ({why}); {fix}")
    return done["client"]


class DaskBackend:
    """Chunks as tasks on a dask.distributed cluster, results handed back in task order.

    At most ``window`` tasks are in flight, so the driver's memory stays bounded. A lost
    worker costs only its chunks: the scheduler reruns them elsewhere (chunks are pure).
    """

    def __init__(self, address: str, threads: int | None = None):
        try:
            from dask.distributed import Client, LocalCluster
        except ImportError:
            raise RunError("--dask needs dask.distributed: install simkit[distributed]") from None
        self.cluster = None
        if address == "local":
            self.cluster = LocalCluster(
                n_workers=2,
                threads_per_worker=1,
                processes=True,
                dashboard_address=None,
                host="127.0.0.1",  # a local cluster listens on this machine only
            )
            self.client = Client(self.cluster)
            threads = 1 if threads is None else threads
        else:
            self.client = _connect(Client, address)
        self.name = f"dask {address}"
        self.threads = threads
        workers = len(self.client.scheduler_info().get("workers", {})) or 1
        self.window = 2 * workers + 2

    def map(
        self, game: Game, tasks: Iterable[ChunkTask], seed: int, keep: str, heat: bool
    ) -> Iterator[ChunkResult]:
        pending: collections.deque = collections.deque()
        it = iter(tasks)
        exhausted = False
        while True:
            while not exhausted and len(pending) < self.window:
                task = next(it, None)
                if task is None:
                    exhausted = True
                    break
                pending.append(
                    self.client.submit(
                        simulate_chunk,
                        game,
                        task,
                        seed,
                        keep,
                        heat,
                        self.threads,
                        replayed_contents(),
                        pure=False,
                        retries=2,
                    )
                )
            if not pending:
                return
            yield pending.popleft().result()

    def close(self) -> None:
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()
