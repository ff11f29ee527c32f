"""What both tuners do alike: ``simkit tune`` (rules) and ``simkit bots tune`` (bot weights).

- **The folder.** A tuning folder holds ``tune.json`` (:data:`SETTINGS`, the settings,
  written once) beside the search's own state. :func:`refuse_existing` keeps a new tuning
  from replacing an earlier one without ``--force``; :func:`write_settings` and
  :func:`read_settings` write and read ``tune.json``, with the same advice when it is
  missing.
- **The progress bar.** :func:`progress_bar` says first when the game's kernels are
  compiling, then counts races.
- **The confirmation.** Both confirm on fresh races with a 95% percentile bootstrap
  (:func:`simkit.analysis.stats.percentile_interval`, :data:`RESAMPLES` resamples, seeded
  by the tuning's seed) and say where an interval lies against parity (:func:`separated`).
- **The report.** Both end with the settings the tuning played and the command that plays
  it again (:func:`settings_section`).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from simkit.errors import RunError, SimkitError
from simkit.files import read_json, refuse_links
from simkit.runner.storage import write_atomic

SETTINGS = "tune.json"
RESAMPLES = 2_000  # bootstrap resamples of a confirmation's interval


def refuse_existing(out: Path, force: bool, advice: str) -> None:
    """Refuse a folder that already holds a tuning, unless ``force``.

    ``advice`` ends the message: how to continue that tuning, or start it again.
    """
    if (Path(out) / SETTINGS).exists() and not force:
        raise RunError(f"'{out}' already holds a tuning; continue it with {advice}")


def write_settings(out: Path, data: dict[str, Any]) -> None:
    """Write ``tune.json`` into ``out`` atomically."""
    text = json.dumps(data, indent=1) + "\n"
    write_atomic(Path(out) / SETTINGS, text.encode(), "start the tuning again")


def require(out: Path, *also: str) -> None:
    """Refuse a folder without ``tune.json`` (or without any of the files ``also`` names),
    or holding a symbolic link (:func:`simkit.files.refuse_links`: a tuning writes there)."""
    out = Path(out)
    if not (out / SETTINGS).is_file() or not all((out / name).is_file() for name in also):
        raise RunError(f"'{out}' holds no tuning ({SETTINGS} missing); start one without --resume")
    try:
        refuse_links(out, "remove it, then resume")
    except SimkitError as exc:
        raise RunError(str(exc)) from None


def read_settings(out: Path) -> dict[str, Any]:
    """The content of ``tune.json`` in ``out`` (a JSON object, read as every file simkit is
    given is: :func:`simkit.files.read_json`)."""
    require(out)
    path = Path(out) / SETTINGS
    data = read_json(path, lambda msg: RunError(f"'{path}': {msg}"))
    if not isinstance(data, dict):
        raise RunError(f"'{path}': not the settings of a tuning (a JSON object)")
    return data


def progress_bar(game: Any, total: int, done: int, enabled: bool) -> Any:
    """A bar over ``total`` races, ``done`` of them already played; when shown, the notice
    that the game's kernels are compiling is printed first."""
    from simkit.runner.progress import bar, compile_notice

    notice = compile_notice(game, "simulate") if enabled else None
    if notice:
        print(notice, file=sys.stderr, flush=True)
    return bar(total, done, enabled=enabled)


def separated(low: float, high: float, parity: float, *, smaller_is_better: bool) -> str:
    """``better``, ``worse`` or ``not separated``: where the interval lies against parity."""
    if high < parity:
        return "better" if smaller_is_better else "worse"
    if low > parity:
        return "worse" if smaller_is_better else "better"
    return "not separated"


def setting_rows(settings: dict[str, Any], skip: tuple[str, ...] = ()) -> list[tuple[str, str]]:
    """(item, value) rows of a tuning's settings for the report: the recorded input files
    one per clause, a file of the simkit package named from the package (the same on every
    machine), with its use and the start of its sha256."""
    rows = []
    for key, value in settings.items():
        if key in skip:
            continue
        if key == "inputs" and isinstance(value, dict):
            value = "; ".join(
                sorted(
                    f"{_package_relative(p)} ({e.get('use')}, sha256 {str(e.get('sha256'))[:12]})"
                    for p, e in value.items()
                )
            )
        rows.append((key, str(value)))
    return rows


def _package_relative(path: str) -> str:
    """``path`` from the simkit package's parent when it lies in the package, else as is."""
    import simkit

    root = Path(simkit.__file__).resolve().parent
    try:
        return str(Path(path).resolve().relative_to(root.parent))
    except ValueError:
        return path


def settings_section(doc: Any, heading: str, rows: list[tuple[str, str]], command: str) -> None:
    """The report's last section: what the tuning played (``settings.csv``, the simkit
    version last) and the command that plays it again."""
    import pandas as pd

    from simkit import __version__
    from simkit.report.document import Code, Heading, Paragraph, Table

    doc.add(Heading(heading))
    facts = pd.DataFrame([*rows, ("simkit", __version__)], columns=["item", "value"])
    doc.add(Table(facts, "settings.csv", "What the tuning played."))
    doc.add(Paragraph("To play this tuning again:"), Code(command))
