"""Keep numba's on-disk cache from serving kernels compiled from older simkit sources.

numba keys a cached kernel on its own file only: when a kernel calls a helper in another
module (rules, bots, the RNG), an edit to that helper leaves the cached machine code in
use, silently playing the old rules. simkit therefore points numba at a cache directory
named by a hash of every source a kernel can read (``KERNEL_SOURCES``: the game packages,
where every kernel and its layouts live, and the shared modules kernels import): any edit
there gives a fresh cache, while an edit to the CLI, runner or reports keeps it. A test
checks that every module defining a kernel is covered.

The base directory is ``NUMBA_CACHE_DIR`` when set, else ``~/.cache/simkit/numba``. This
module must run before any module that defines a cached kernel is imported, which
``simkit/__init__.py`` guarantees.
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent
# Globs, relative to the package, of every file a kernel's machine code can depend on.
KERNEL_SOURCES = (
    "games/**/*.py",
    "rng.py",
    "params.py",
    "runner/backends.py",
    "_numba_cache.py",
    "_numba_link.py",
)


def kernel_files(package: Path = _PACKAGE) -> list[Path]:
    """The files ``source_hash`` covers, sorted."""
    return sorted({p for pattern in KERNEL_SOURCES for p in package.glob(pattern)})


def source_hash(package: Path = _PACKAGE) -> str:
    """A short hash of every kernel source of the package (paths and contents)."""
    h = hashlib.sha256()
    for path in kernel_files(package):
        h.update(str(path.relative_to(package)).encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


def cache_dir() -> Path:
    """The cache directory for this exact source tree (idempotent: see ``configure``)."""
    base = os.environ.get("NUMBA_CACHE_DIR") or str(Path.home() / ".cache" / "simkit" / "numba")
    name = f"simkit-{source_hash()}"
    return Path(base) if Path(base).name == name else Path(base) / name


def configure() -> None:
    """Point numba's cache at :func:`cache_dir` (before any kernel is defined).

    Before numba is imported the environment variable is enough (and keeps ``simkit --help``
    from importing numba); subprocesses inherit it and resolve to the same directory.
    """
    path = str(cache_dir())
    if "numba" in sys.modules:
        from numba.core import config

        config.CACHE_DIR = path
    os.environ["NUMBA_CACHE_DIR"] = path
