"""The run directory on disk: atomic chunk files, the manifest, and what is already done.

Every file is written to a temporary name in its final directory, flushed to disk and then
renamed over its final name (``os.replace`` is atomic), so a reader or a resumed run never
sees half a file. Within a chunk the aggregate file is written last: a chunk is done exactly
when its ``agg`` file exists. The manifest's ``chunks_done`` is a convenience for readers;
the files are the truth.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
from pathlib import Path
from typing import Any

from simkit.errors import RunError

MANIFEST = "manifest.json"
CELLS = "cells.parquet"
TABLES = ("races", "heat", "agg")  # write order within a chunk; agg last marks it done
_PART = re.compile(r"^part-(\d{5})-(\d{6})\.parquet$")

# Fault injection for the resume tests: SIMKIT_CRASH="N:point" SIGKILLs this process at
# ``point`` of the N-th chunk it writes (1-based), e.g. "3:agg.tmp" or "2:manifest".
_CRASH_ENV = "SIMKIT_CRASH"
_written = 0


def _crash_point(point: str) -> None:
    spec = os.environ.get(_CRASH_ENV)
    if spec and spec == f"{_written}:{point}":
        os.kill(os.getpid(), signal.SIGKILL)


def part_name(cell: int, chunk: int) -> str:
    return f"part-{cell:05d}-{chunk:06d}.parquet"


def write_atomic(path: Path, data: bytes, point: str | None = None) -> None:
    """Write ``data`` to ``path`` so that ``path`` is either absent, old, or complete."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(tmp, "wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())
    if point:
        _crash_point(f"{point}.tmp")
    os.replace(tmp, path)
    if point:
        _crash_point(point)


class RunDir:
    """A run directory (docs/tables.md): paths, manifest, chunk files."""

    def __init__(self, path: str | Path):
        self.path = Path(path)

    @property
    def manifest_path(self) -> Path:
        return self.path / MANIFEST

    def exists(self) -> bool:
        return self.manifest_path.exists()

    def read_manifest(self) -> dict[str, Any]:
        try:
            return json.loads(self.manifest_path.read_text())
        except FileNotFoundError:
            raise RunError(f"'{self.path}' is not a simkit run (no {MANIFEST})") from None
        except json.JSONDecodeError as exc:
            raise RunError(f"'{self.manifest_path}' is not valid JSON ({exc.msg})") from None

    def write_manifest(self, manifest: dict[str, Any], point: str | None = None) -> None:
        data = json.dumps(manifest, indent=1).encode() + b"\n"
        write_atomic(self.manifest_path, data, point)

    def create(self, force: bool) -> None:
        """Make an empty run directory; refuse to replace a run without ``force``."""
        if self.exists():
            status = self.read_manifest().get("status")
            if not force:
                if status == "complete":
                    raise RunError(
                        f"'{self.path}' holds a finished run; use --force to overwrite it "
                        "or --out to write elsewhere"
                    )
                raise RunError(
                    f"'{self.path}' holds an unfinished run; continue it with "
                    f"`simkit run --resume {self.path}`, or use --force to start over"
                )
            self._clear()
        elif self.path.exists():
            if not self.path.is_dir():
                raise RunError(f"'{self.path}' exists and is not a directory")
            # A run killed before its first manifest leaves only its own empty folders.
            ours = {*TABLES, CELLS}
            if any(
                p.name not in ours or (p.is_dir() and any(p.iterdir())) for p in self.path.iterdir()
            ):
                raise RunError(
                    f"'{self.path}' is not empty and not a simkit run; choose another --out"
                )
        self.path.mkdir(parents=True, exist_ok=True)
        for table in TABLES:
            (self.path / table).mkdir(exist_ok=True)

    def _clear(self) -> None:
        for table in TABLES:
            shutil.rmtree(self.path / table, ignore_errors=True)
        for name in (MANIFEST, CELLS):
            (self.path / name).unlink(missing_ok=True)

    def remove_temps(self) -> None:
        """Drop temporary files a killed writer left behind."""
        for sub in (self.path, *(self.path / t for t in TABLES)):
            for tmp in sub.glob(".*.tmp"):
                tmp.unlink(missing_ok=True)

    def parts(self, table: str) -> list[Path]:
        """The table's chunk files in (cell, chunk) order."""
        folder = self.path / table
        if not folder.is_dir():
            return []
        return sorted(p for p in folder.iterdir() if _PART.match(p.name))

    def done(self) -> set[tuple[int, int]]:
        """(cell, chunk) of every chunk whose files are all written."""
        out = set()
        for p in self.parts("agg"):
            m = _PART.match(p.name)
            out.add((int(m.group(1)), int(m.group(2))))
        return out

    def write_chunk(self, cell: int, chunk: int, files: dict[str, bytes]) -> None:
        """Write one chunk's files atomically, ``agg`` last."""
        global _written
        _written += 1
        _crash_point("start")
        name = part_name(cell, chunk)
        for table in TABLES:
            if table in files:
                write_atomic(self.path / table / name, files[table], table)
