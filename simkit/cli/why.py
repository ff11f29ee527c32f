"""``simkit why``: where a study's worst slot loses, which element causes it, what fixes it."""

from __future__ import annotations

import shlex
from pathlib import Path

import click

from simkit.cli.common import force_option, out_option, races_option, seed_option, threads_option
from simkit.cli.report import TOLERANCE
from simkit.runner.scenario import MAX_RACES

_RACES = click.IntRange(1, MAX_RACES)  # a scenario's bound on races per cell


@click.command()
@click.argument("target", type=click.Path(exists=True, path_type=Path))
@out_option("Folder for the diagnosis: its runs and report/ (default: runs/why-<name>).")
@races_option("Races per cell of the ablation and of each change tried [4000].", type=_RACES)
@click.option(
    "--fix-races",
    type=_RACES,
    help="Races per cell of each change tried on fresh races (default: --races).",
)
@click.option(
    "--replays",
    type=_RACES,
    default=500,
    show_default=True,
    help="Races replayed with the trace for the breakdown by place and round.",
)
@click.option(
    "--cells",
    metavar="C,C,...",
    help="Diagnose the settings of these cells of the study (default: every unfair setting, "
    "the least fair first, at most 4).",
)
@TOLERANCE
@seed_option("Seed of the ablation (default: the study's); the changes play seed + 1.")
@threads_option()
@force_option("Write into a folder that holds something other than a diagnosis.")
def why(target, out, races, fix_races, replays, cells, tolerance, seed, threads, force) -> None:
    """Why is the study TARGET unfair, and what is the smallest change that fixes it?

    TARGET is a run folder, or a scenario file played first (--races per cell). For each
    unfair setting: where the worst and best slots gain or lose places against the field
    (per corner, straight and round, with the crashes, overspeed dents, blocked moves,
    tie-breaks and bonuses there, on a track); the causes, each element of the rules and
    the track switched off alone on the same races and ranked by how far that moves the
    worst slot toward fair; and the smallest change among the top causes that brings the
    worst slot within the tolerance at every skill level, tested on fresh races, with its
    side effects and a scenario file that plays it again. docs/diagnosis.md.

    \b
    Examples:
      simkit why scenarios/demo.toml --races 4000
      simkit why runs/fairness --cells 2 -o runs/why-fairness
    """
    from simkit.cli.report import answer_lines, report_folder
    from simkit.files import claim_folder
    from simkit.report.why import build
    from simkit.why import DEFAULT_RACES, diagnose

    try:
        chosen = [int(c) for c in cells.split(",")] if cells else []
    except ValueError:
        raise click.BadParameter(f"'{cells}' is no list of cell numbers, e.g. 0,2") from None
    folder = out or Path("runs") / f"why-{target.stem if target.is_file() else target.name}"
    folder = claim_folder(folder, "diagnosis", force=force)
    report = report_folder(folder / "report", True)
    d = diagnose(
        target,
        folder,
        races=races or DEFAULT_RACES,
        fix_races=fix_races,
        replays=replays,
        tolerance=tolerance,
        seed=seed,
        cells=chosen or None,
        threads=threads,
        progress=True,
    )
    words = ["simkit", "why", str(target), "--out", str(out or folder)]
    words += ["--races", str(d.options["races"]), "--replays", str(replays)]
    if fix_races:
        words += ["--fix-races", str(fix_races)]
    words += ["--cells", cells] if cells else []
    words += ["--seed", str(d.options["seed"]), "--tolerance", f"{tolerance:g}"]
    index = build(d, report, shlex.join(words))
    for line in answer_lines(index):
        click.echo(line)
    click.echo(index)
