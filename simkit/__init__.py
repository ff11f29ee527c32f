"""simkit: simulate board-game rules variants at scale and turn the results into balance reports."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

from simkit import _numba_cache

_numba_cache.configure()  # before any kernel module is imported: see simkit/_numba_cache.py

try:
    __version__ = version("simkit")
except PackageNotFoundError:  # pragma: no cover - running from a source tree without install
    __version__ = "0+unknown"

__all__ = ["__version__", "load"]


def __getattr__(name: str):
    # ``simkit.load`` is imported on first use, so ``import simkit`` (and the CLI) stay light.
    if name == "load":
        from simkit.results import load

        return load
    raise AttributeError(f"module 'simkit' has no attribute {name!r}")
