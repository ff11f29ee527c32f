"""The run directory on disk: atomic files, the checked manifest, verified chunk files.

Every file is written to a temporary name in its final directory, flushed to disk and then
renamed over its final name (``os.replace`` is atomic), so a reader never sees half a file;
a write that fails (full disk, read-only folder, no permission) removes its temporary file
and raises one :class:`RunError` line saying what and where. The manifest lists every file
with its sha256 (:mod:`simkit.runner.manifest`): a chunk counts as done only when the
manifest lists it and its files still match, so nothing on disk is trusted unverified.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import hashlib
import io
import os
import re
import shutil
import signal
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq

from simkit.errors import RunError, SimkitError
from simkit.files import create_new, read_json, refuse_links, resolved
from simkit.runner.manifest import CELLS, TABLES, check, entry, file_entry, part_name, seal

MANIFEST = "manifest.json"
LOCK = ".simkit-lock"  # flock()ed by the process writing the run; holds its pid
INPUTS = "inputs"  # the run's inputs, copied at start (simkit.runner.inputs)
MAX_MANIFEST_BYTES = 256 << 20  # a manifest lists every chunk file: large runs, large lists

# Fault injection for the resume tests: SIMKIT_CRASH="N:point" SIGKILLs this process at
# ``point`` of the N-th chunk it writes (1-based), e.g. "3:agg.tmp" or "2:manifest".
_CRASH_ENV = "SIMKIT_CRASH"
_written = 0

_DISK_FULL = (errno.ENOSPC, errno.EDQUOT)
# The remedy for EFBIG: a file-size limit (``ulimit -f``), or a file system's largest file.
FILE_LIMIT = "raise the file-size limit (ulimit -f) or write to another file system"


def _crash_point(point: str) -> None:
    spec = os.environ.get(_CRASH_ENV)
    if spec and spec == f"{_written}:{point}":
        os.kill(os.getpid(), signal.SIGKILL)


def disk_error(path: Path, exc: OSError, then: str) -> RunError:
    """One line for a failed write: what, where, why, and ``then`` (what to do after)."""
    why = exc.strerror or str(exc)
    if exc.errno in _DISK_FULL:
        fix = "free some space"
    elif exc.errno == errno.EFBIG:
        fix = FILE_LIMIT
    elif exc.errno == errno.ENOENT:
        fix = "its folder was removed while simkit wrote"
    else:
        fix = "make the folder writable or choose another --out"
    return RunError(f"cannot write '{path}' ({why}); {fix}, then {then}")


def _write_file(path: Path, data: bytes) -> None:
    with open(create_new(path), "wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())


def write_atomic(path: Path, data: bytes, then: str, point: str | None = None) -> None:
    """Write ``data`` to ``path`` so that ``path`` is either absent, old, or complete.

    On failure the temporary file is removed and a :func:`disk_error` is raised.
    """
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        _write_file(tmp, data)
        if point:
            _crash_point(f"{point}.tmp")
        os.replace(tmp, path)
    except OSError as exc:
        with contextlib.suppress(OSError):  # the folder itself may be unusable: said below
            tmp.unlink(missing_ok=True)
        raise disk_error(path, exc, then) from None
    if point:
        _crash_point(point)


_COPY_NAME = re.compile(r"^[0-9a-f]{12}-[A-Za-z0-9._-]{1,80}$")


def _own_leftover(p: Path, locked: bool) -> bool:
    """A file or folder a run killed before its first manifest may leave in its folder.

    Empty table folders hold nothing to lose; files are a run's only beside its lock
    (``locked``), which a run takes first: a user's lone ``cells.parquet`` is not.
    """
    if p.name in TABLES:
        return p.is_dir() and not any(p.iterdir())
    if not locked:
        return False
    if p.name in (CELLS, LOCK) or (p.name.startswith(".") and p.name.endswith(".tmp")):
        return p.is_file()
    if p.name == INPUTS:
        return p.is_dir() and all(_COPY_NAME.match(q.name) for q in p.iterdir())
    return False


def parquet_rows(data: bytes) -> int:
    """Rows of a parquet file held in memory (from its footer)."""
    return pq.ParquetFile(io.BytesIO(data)).metadata.num_rows


def _matches(path: Path, entry: dict[str, Any]) -> bool:
    """True when the file at ``path`` has the size and sha256 the manifest recorded."""
    try:
        if path.stat().st_size != entry.get("bytes"):
            return False
        h = hashlib.sha256()
        with open(path, "rb") as fh:
            while block := fh.read(1 << 20):
                h.update(block)
    except OSError:
        return False
    return h.hexdigest() == entry["sha256"]


def command_of(scenario_path: str) -> str:
    """What continues a run of this scenario: a generated scenario names its command."""
    return scenario_path if scenario_path in GENERATED else "simkit run"


GENERATED = ("simkit ladder",)  # scenarios made by a command, which also resumes them


class RunDir:
    """A run directory (docs/tables.md): paths, manifest, chunk files."""

    def __init__(self, path: str | Path):
        self.path = resolved(path)  # checked and written alike: `nosuch/../u` is `u`

    @property
    def manifest_path(self) -> Path:
        return self.path / MANIFEST

    # The command that continues this run: a scenario generated by another command (a
    # ladder's is named "simkit ladder") is continued by that command, not `simkit run`.
    command = "simkit run"

    @property
    def resume_hint(self) -> str:
        return f"`{self.command} --resume {self.path}`"

    @contextlib.contextmanager
    def lock(self, command: str = "simkit run") -> Iterator[None]:
        """Hold the run's advisory lock (``flock`` on :data:`LOCK`) inside the block.

        A second writer (``--resume``, ``--force``, or the same ``--out``) is refused with
        one line naming the holder; the system releases the lock when its holder ends,
        even by ``kill -9``, so a crashed run never leaves a stale lock behind. The file
        stays (removing a lock file while another process waits on it breaks the lock).
        """
        path = self.path / LOCK
        try:  # never through a link: the lock is truncated and written below
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                self.refuse_links("remove it, then try again")
            raise disk_error(path, exc, "run again") from None
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError as exc:
                if exc.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                    raise disk_error(path, exc, "run again") from None
                holder = os.pread(fd, 200, 0).decode("utf-8", "replace").strip()
                raise RunError(
                    f"'{self.path}' is being written by another process "
                    f"({holder or 'pid unknown'}); wait for it to end (or stop it), then try "
                    "again"
                ) from None
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{command}, pid {os.getpid()} on {socket.gethostname()}".encode(), 0)
            yield
        finally:
            os.close(fd)

    def exists(self) -> bool:
        return self.manifest_path.exists()

    def refuse_links(self, remedy: str) -> None:
        """Refuse the folder if it holds a symbolic link (:func:`simkit.files.refuse_links`):
        a run writes, truncates and removes files by name in it."""
        try:
            refuse_links(self.path, remedy)
        except SimkitError as exc:
            raise RunError(str(exc)) from None

    def read_manifest(self) -> dict[str, Any]:
        """The manifest, checked (:func:`simkit.runner.manifest.check`), or ``RunError``."""
        if not self.manifest_path.exists() and self.path.is_dir():
            raise RunError(f"'{self.path}' is not a simkit run (no {MANIFEST})")
        where = str(self.manifest_path)
        data = read_json(
            self.manifest_path, lambda msg: RunError(f"'{where}': {msg}"), MAX_MANIFEST_BYTES
        )
        manifest = check(data, where)
        self.command = command_of(manifest["scenario_path"])
        return manifest

    def write_manifest(
        self, manifest: dict[str, Any], point: str | None = None, then: str | None = None
    ) -> None:
        then = then or f"resume with {self.resume_hint}"
        write_atomic(self.manifest_path, seal(manifest), then, point)

    def record_inputs(self, recorded: dict[str, tuple[bytes, str]], manifest: dict[str, Any]):
        """Copy the run's inputs (path -> (bytes, use)) into ``inputs/`` and list them."""
        manifest["inputs"] = {}
        for path, (data, use) in sorted(recorded.items()):
            e = entry(path, data, use)
            write_atomic(self.path / e["copy"], data, "run again")
            manifest["inputs"][path] = e

    def write(
        self,
        name: str,
        data: bytes,
        manifest: dict[str, Any],
        point: str | None = None,
        then: str | None = None,
    ):
        """Write the file ``name`` (relative to the run) and list it in ``manifest``.

        ``then`` is the remedy after a failed write (default: resume the run; before its
        first manifest there is nothing to resume: run again).
        """
        then = then or f"resume with {self.resume_hint}"
        folder, _, _ = name.rpartition("/")
        if folder and (self.path / folder).is_symlink():  # made a link since the start
            self.refuse_links(f"remove it, then {then}")
        write_atomic(self.path / name, data, then, point)
        manifest["files"][name] = file_entry(data, parquet_rows(data))

    def prepare(self) -> None:
        """Make the folder a run can be written into: refuse a file, or a folder holding
        anything but a run (or what a run killed before its first manifest leaves); then
        :meth:`lock` it and :meth:`create` the run."""
        if self.path.exists() and not self.path.is_dir():
            raise RunError(f"'{self.path}' exists and is not a directory")
        self.refuse_links("remove it, or choose another --out")
        # A run killed before its first manifest leaves only its own files.
        held = list(self.path.iterdir()) if self.path.is_dir() and not self.exists() else []
        locked = (self.path / LOCK).is_file()
        if any(not _own_leftover(p, locked) for p in held):
            raise RunError(f"'{self.path}' is not empty and not a simkit run; choose another --out")
        try:
            self.path.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise disk_error(Path(exc.filename or self.path), exc, "run again") from None

    def create(self, force: bool) -> None:
        """Make an empty run directory (:meth:`prepare`d and :meth:`lock`ed); refuse to
        replace a run without ``force``."""
        if self.exists() and not force:
            status = self.read_manifest()["status"]
            if status == "complete":
                raise RunError(
                    f"'{self.path}' holds a finished run; use --force to overwrite it "
                    "or --out to write elsewhere"
                )
            raise RunError(
                f"'{self.path}' holds an unfinished run; continue it with "
                f"{self.resume_hint}, or use --force to start over"
            )
        if self.exists():
            self._clear()
        try:
            self.path.mkdir(parents=True, exist_ok=True)
            for table in (*TABLES, INPUTS):
                (self.path / table).mkdir(exist_ok=True)
        except OSError as exc:
            raise disk_error(Path(exc.filename or self.path), exc, "run again") from None

    def _clear(self) -> None:
        try:
            for table in (*TABLES, INPUTS):
                shutil.rmtree(self.path / table, ignore_errors=True)
            for name in (MANIFEST, CELLS):
                (self.path / name).unlink(missing_ok=True)
        except OSError as exc:
            raise disk_error(Path(exc.filename or self.path), exc, "run again") from None

    def restore_folders(self) -> None:
        """Make the run's table folders again if someone removed them (resume repairs)."""
        try:
            for table in (*TABLES, INPUTS):
                (self.path / table).mkdir(exist_ok=True)
        except OSError as exc:
            raise disk_error(Path(exc.filename or self.path), exc, "resume again") from None

    def damaged(self, manifest: dict[str, Any]) -> list[str]:
        """Files the manifest lists that are missing or differ from their sha256, sorted."""
        return sorted(
            name
            for name, entry in manifest["files"].items()
            if not _matches(self.path / name, entry)
        )

    def unlisted(self, manifest: dict[str, Any]) -> list[Path]:
        """Chunk files and temporary files on disk that the manifest does not list."""
        out = []
        for sub in (self.path, *(self.path / t for t in (*TABLES, INPUTS))):
            if sub.is_dir():
                out += list(sub.glob(".*.tmp"))
        for table in TABLES:
            folder = self.path / table
            if folder.is_dir():
                out += [
                    p
                    for p in folder.glob("part-*.parquet")
                    if f"{table}/{p.name}" not in manifest["files"]
                ]
        return sorted(out)

    def listed(self, manifest: dict[str, Any], table: str) -> list[Path]:
        """The table's chunk files the manifest lists, in (cell, chunk) order."""
        return [self.path / n for n in sorted(manifest["files"]) if n.startswith(f"{table}/")]

    def write_chunk(
        self, cell: int, chunk: int, files: dict[str, bytes], manifest: dict[str, Any]
    ) -> None:
        """Write one chunk's files atomically, ``agg`` last, and list them in ``manifest``."""
        global _written
        _written += 1
        _crash_point("start")
        name = part_name(cell, chunk)
        for table in TABLES:
            if table in files:
                self.write(f"{table}/{name}", files[table], manifest, table)
