"""``simkit report`` and ``simkit compare``: balance reports from run directories."""

from __future__ import annotations

import json
import re
from pathlib import Path

import click

from simkit.cli.common import force_option, out_option

_RUN = click.Path(exists=True, file_okay=False, path_type=Path)


def _finite(ctx: click.Context, param: click.Parameter, value: float) -> float:
    """Refuse NaN, which every range check lets through (no comparison with it is true)."""
    if value != value:
        raise click.BadParameter("nan is not in the range 0.0<x<=1.0.")
    return value


TOLERANCE = click.option(
    "--tolerance",
    type=click.FloatRange(0.0, 1.0, min_open=True),
    callback=_finite,
    default=0.02,
    show_default=True,
    help="Fairness tolerance on win rates (0.02 = 2 percentage points of 1/players).",
)
_TITLE = click.option("--title", help="Report title (default: from the run's scenario).")
_FORCE = force_option("Write into a folder that holds something other than a report.")


def report_folder(path: Path, force: bool) -> Path:
    """The report folder, claimed (:func:`simkit.files.claim_folder`) before any work."""
    from simkit.files import claim_folder
    from simkit.report.document import GENERATOR

    def older_report(folder: Path) -> bool:  # written before folders carried a marker
        index = folder / "index.html"
        try:
            with open(index, "rb") as fh:
                head = fh.read(2000).decode("utf-8", "replace") if index.is_file() else ""
        except OSError:
            return False
        return f'content="{GENERATOR}"' in head

    return claim_folder(path, "report", force=force, ours=older_report)


MAX_LINES = 24  # verdict lines printed; the report holds every cell


def _capped(lines: list[str], index: Path) -> list[str]:
    if len(lines) <= MAX_LINES:
        return lines
    return [*lines[:MAX_LINES], f"... and {len(lines) - MAX_LINES} more in {index}"]


def verdict_lines(index: Path) -> list[str]:
    """The balance report's answer for the terminal: each cell's verdict sentence, then
    each skill axis's word on it, read from the report's ``summary.json``."""
    from simkit.report.summary import SUMMARY_JSON

    path = index.parent / SUMMARY_JSON
    if not path.is_file():
        return []
    cells = json.loads(path.read_text(encoding="utf-8")).get("cells", [])
    lines = [str(c["sentence"]) for c in cells if c.get("sentence")]
    across: dict[str, list[str]] = {}
    for c in cells:
        if c.get("across_skill"):
            across.setdefault(str(c["across_skill"]), []).append(str(c["cell"]))
    for says, ids in across.items():
        word = "cell" if len(ids) == 1 else "cells"
        lines.append(f"across skill levels ({word} {', '.join(ids)}): {says}")
    return _capped(lines, index)


def answer_lines(index: Path) -> list[str]:
    """The "Answer" section of the report beside ``index`` (``report.md``) as plain lines."""
    path = index.parent / "report.md"
    if not path.is_file():
        return []
    text = path.read_text(encoding="utf-8")
    m = re.search(r"^## Answer\n(.*?)(?=^## |\Z)", text, flags=re.S | re.M)
    if m is None:
        return []
    lines = [re.sub(r"\*\*|`", "", line).strip() for line in m.group(1).splitlines()]
    return _capped([line for line in lines if line], index)


@click.command()
@click.argument("run_dir", type=_RUN)
@out_option("Folder for the report (default: RUN_DIR/report).")
@TOLERANCE
@_TITLE
@_FORCE
def report(
    run_dir: Path, out: Path | None, tolerance: float, title: str | None, force: bool
) -> None:
    """Write a balance report of RUN_DIR: start-slot fairness, track tuning, comparisons.

    The folder holds index.html (self-contained, plots embedded), report.md, the plots as
    PNG and a CSV of every table. Prints each cell's verdict, then the path of index.html.

    \b
    Examples:
      simkit report runs/demo
      simkit report runs/fairness -o reports/fairness --tolerance 0.01
    """
    from simkit.report import build
    from simkit.runner.inputs import of_run

    # The run's tracks as they were when it started; a refit presets file is only named.
    with of_run(run_dir, plays=False) as notices:
        folder = report_folder(out or run_dir / "report", force)  # a run's, checked first
        for line in notices:
            click.echo(line, err=True)
        index = build(run_dir, folder, tolerance=tolerance, title=title)
    for line in verdict_lines(index):
        click.echo(line)
    click.echo(index)


@click.command()
@click.argument("run_a", type=_RUN)
@click.argument("run_b", type=_RUN)
@out_option("Folder for the report (default: RUN_A/compare-<RUN_B name>).")
@click.option(
    "--paired/--unpaired",
    default=None,
    help="Insist on a paired (same seeds, per-race rows) or an unpaired comparison. "
    "Default: paired when the runs allow it.",
)
@TOLERANCE
@_TITLE
@_FORCE
def compare(
    run_a: Path,
    run_b: Path,
    out: Path | None,
    paired: bool | None,
    tolerance: float,
    title: str | None,
    force: bool,
):
    """Compare two runs cell by cell: differences are B - A.

    Cells are matched by position. Runs that share seeds and kept per-race rows are paired
    race by race on (race index, start slot), so the luck of the draw cancels out (common
    random numbers); other runs are compared as independent samples (Welch). Says which on
    stderr, prints the report's answer (what differs, by how much), then the path of the
    report's index.html.

    \b
    Examples:
      simkit compare runs/st1 runs/st1-no-bonus -o reports/bonus
      simkit compare runs/seed1 runs/seed2 --unpaired
    """
    from simkit.analysis.compare import pairable
    from simkit.report import build_comparison
    from simkit.results import load

    a, b = load(run_a), load(run_b)
    why = pairable(a, b)
    if paired and why:
        raise click.ClickException(f"runs {run_a} and {run_b} cannot be paired: {why}")
    use = why is None if paired is None else paired
    target = report_folder(out or run_a / f"compare-{run_b.resolve().name}", force)
    index = build_comparison(a, b, target, tolerance=tolerance, title=title, paired=use)
    how = "paired race by race" if use else "unpaired (Welch)" + (f": {why}" if why else "")
    click.echo(f"comparison {how}", err=True)
    for line in answer_lines(index):
        click.echo(line)
    click.echo(index)
