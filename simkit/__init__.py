"""simkit: simulate board-game rules variants at scale and turn the results into balance reports."""

from __future__ import annotations

import itertools
import os
import sys


def _as_the_command() -> bool:
    """Whether this import is the ``simkit`` command starting (its script, or ``python -m
    simkit``, whose package is imported before ``simkit/__main__.py``), not a library use."""
    argv = getattr(sys, "orig_argv", sys.argv)
    return os.path.basename(sys.argv[0]) == "simkit" or any(
        a == "-m" and b == "simkit" for a, b in itertools.pairwise(argv)
    )


try:
    from simkit import _numba_cache

    _numba_cache.configure()  # before any kernel module is imported: simkit/_numba_cache.py
except KeyboardInterrupt:
    # Ctrl-C this early in the command (its sources are hashed here) ends in one line, as
    # later in its start does (simkit/_entry.py); a library importing simkit gets it raised.
    if not _as_the_command():
        raise
    sys.stderr.write("Error: interrupted while starting; nothing was done\n")
    sys.stderr.flush()
    os._exit(130)

__all__ = ["__version__", "load"]


def __getattr__(name: str):
    # ``simkit.load`` is imported on first use, so ``import simkit`` (and the CLI) stay light;
    # so is the version (importlib.metadata takes 0.1 s), which also keeps that import inside
    # the command's own Ctrl-C handling (simkit/_entry.py).
    if name == "load":
        from simkit.results import load

        return load
    if name == "__version__":
        from importlib.metadata import PackageNotFoundError, version

        try:
            found = version("simkit")
        except PackageNotFoundError:  # pragma: no cover - a source tree without install
            found = "0+unknown"
        globals()["__version__"] = found
        return found
    raise AttributeError(f"module 'simkit' has no attribute {name!r}")
