"""Reports: text tables for the terminal, and HTML + Markdown balance reports.

``build(run_dir, out_dir)`` writes a balance report folder; ``build_comparison(a, b, out)``
compares two runs that share seeds. Both accept a run directory or a loaded ``Results``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pathlib import Path

__all__ = ["build", "build_comparison"]


def build(results_or_dir: Any, out_dir: str | Path, **kwargs: Any) -> Path:
    """Balance report of one run; see :func:`simkit.report.balance.build`."""
    from simkit.report.balance import build as _build

    return _build(results_or_dir, out_dir, **kwargs)


def build_comparison(run_a: Any, run_b: Any, out_dir: str | Path, **kwargs: Any) -> Path:
    """Paired comparison report of two runs; see :func:`simkit.report.balance.build_comparison`."""
    from simkit.report.balance import build_comparison as _build

    return _build(run_a, run_b, out_dir, **kwargs)
