"""simkit: simulate board-game rules variants at scale and turn the results into balance reports."""

from __future__ import annotations

from simkit import _numba_cache

_numba_cache.configure()  # before any kernel module is imported: see simkit/_numba_cache.py

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
