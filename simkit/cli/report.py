"""``simkit report`` and ``simkit compare``: balance reports from run directories."""

from __future__ import annotations

from pathlib import Path

import click

_RUN = click.Path(exists=True, file_okay=False, path_type=Path)
_TOLERANCE = click.option(
    "--tolerance",
    type=click.FloatRange(0.0, 1.0, min_open=True),
    default=0.02,
    show_default=True,
    help="Fairness tolerance on win rates (0.02 = 2 percentage points of 1/players).",
)
_TITLE = click.option("--title", help="Report title (default: from the run's scenario).")


@click.command()
@click.argument("run_dir", type=_RUN)
@click.option(
    "--out",
    "-o",
    type=click.Path(file_okay=False, path_type=Path),
    help="Folder for the report (default: RUN_DIR/report).",
)
@_TOLERANCE
@_TITLE
def report(run_dir: Path, out: Path | None, tolerance: float, title: str | None) -> None:
    """Write a balance report of RUN_DIR: start-slot fairness, track tuning, comparisons.

    The folder holds index.html (self-contained, plots embedded), report.md, the plots as
    PNG and a CSV of every table. Prints the path of index.html.

    \b
    Examples:
      simkit report runs/demo
      simkit report runs/fairness -o reports/fairness --tolerance 0.01
    """
    from simkit.report import build

    click.echo(build(run_dir, out or run_dir / "report", tolerance=tolerance, title=title))


@click.command()
@click.argument("run_a", type=_RUN)
@click.argument("run_b", type=_RUN)
@click.option(
    "--out",
    "-o",
    type=click.Path(file_okay=False, path_type=Path),
    help="Folder for the report (default: RUN_A/compare-<RUN_B name>).",
)
@_TOLERANCE
@_TITLE
def compare(run_a: Path, run_b: Path, out: Path | None, tolerance: float, title: str | None):
    """Compare two runs that share seeds, race by race: differences are B - A.

    Cells are matched by position and races by (race index, start slot), so the luck of
    the draw cancels out (common random numbers). Both runs must keep per-race rows.
    Prints the path of the report's index.html.

    \b
    Example:
      simkit compare runs/st1 runs/st1-no-bonus -o reports/bonus
    """
    from simkit.report import build_comparison

    target = out or run_a / f"compare-{run_b.resolve().name}"
    click.echo(build_comparison(run_a, run_b, target, tolerance=tolerance, title=title))
