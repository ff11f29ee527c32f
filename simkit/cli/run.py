"""``simkit run`` and ``simkit scenario check``: Monte Carlo studies from scenario files."""

from __future__ import annotations

from pathlib import Path

import click

from simkit.cli.common import (
    dask_option,
    force_option,
    out_option,
    races_option,
    resume_option,
    resumed,
    seed_option,
    threads_option,
)
from simkit.runner.scenario import MAX_CHUNK, MAX_RACES


def _describe(scenario, cells) -> str:
    """One line: game, cells, races per cell and in all."""
    from simkit.runner.driver import cap

    n = len(cells)
    own = "".join(f" ({b}: {r:,})" for b, r in scenario.skill_races.items() if b in scenario.skill)
    races = sum(cap(scenario, pc) for pc in cells)
    if scenario.precision is None:
        per = f"{scenario.races:,} races per cell{own}"
        total = f"{races:,} races in all"
    else:
        per = (
            f"up to {scenario.max_races:,} races per cell{own}, until every start slot's "
            f"win-rate 95% interval is narrower than {scenario.precision.width:g}"
        )
        total = f"at most {races:,} races in all"
    return f"game {scenario.game}, {n:,} cell{'s' if n != 1 else ''}, {per}, {total}"


def default_out(target: Path, prefix: str = "") -> Path:
    """``runs/<prefix><file name without .toml>``; a name that is no folder name (``...toml``
    gives ``..``) is refused rather than let it point outside ``runs/``."""
    stem = prefix + target.stem.removeprefix(prefix) if prefix else target.stem
    if stem in ("", ".", "..") or "/" in stem or "\\" in stem:
        raise click.UsageError(
            f"'{target.name}' gives no folder name for the run; name the folder with --out"
        )
    return Path("runs") / stem


def refuse_folder(target: Path) -> None:
    """A folder given where a scenario file is expected, refused in one line saying what it
    is and what to type: a run folder is resumed or reported on, not run."""
    if not target.is_dir():
        return
    from simkit.runner.storage import MANIFEST

    if (target / MANIFEST).is_file():
        raise click.ClickException(
            f"'{target}' is a run folder, not a scenario file: to finish or extend that run, "
            f"`simkit run --resume {target}`; to report on it, `simkit report {target}`"
        )
    raise click.ClickException(
        f"'{target}' is a folder, not a scenario file; give a scenario file "
        "(`simkit run FILE.toml`), or a run folder to finish with `simkit run --resume DIR`"
    )


@click.group()
def scenario() -> None:
    """Inspect scenario files before running them (see docs/scenarios.md)."""


@scenario.command()
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
def check(file: Path) -> None:
    """Validate FILE and print its cells (id and label) and how many races it asks for.

    \b
    Example:
      simkit scenario check scenarios/demo.toml
    """
    from simkit.report.text import table
    from simkit.runner import expand, load_scenario

    sc = load_scenario(file)
    cells = expand(sc)
    click.echo(f"{file}: {_describe(sc, cells)}")
    click.echo(
        table([{"cell": pc.cell.cell_id, "label": pc.label} for pc in cells], ["cell", "label"])
    )


@click.command()
@click.argument("target", type=click.Path(path_type=Path), required=False)
@races_option(
    "Races per cell (overrides the file); with --resume, raise every cell to at least N "
    "(a skill level with its own races per cell keeps them; see --level).",
    type=click.IntRange(1, MAX_RACES),
)
@seed_option("Run seed (overrides the file).")
@threads_option()
@out_option("Run directory (default: runs/<scenario name>).")
@click.option(
    "--chunk-size",
    type=click.IntRange(1, MAX_CHUNK),
    help="Races per chunk (overrides the file).",
)
@resume_option("Finish the run in DIR where it stopped; with --races N, extend it.")
@click.option(
    "--level",
    metavar="LEVEL",
    help="With --resume and --races N: raise only this skill level (a bot or a field of "
    "the scenario's skill list) to N races per cell.",
)
@force_option("Replace a run already in the output directory.")
@dask_option()
def run(target, races, seed, threads, out, chunk_size, resume, force, dask, level) -> None:
    """Run the scenario file TARGET into parquet tables, or finish a run with --resume DIR.

    Results are the same for any --threads, --chunk-size or --dask: every race's random
    numbers depend only on the seed, its cell and its index. Progress goes to stderr (a
    line every few seconds when it is not a terminal), after a notice when the game's
    kernels compile on a first run.

    \b
    Examples:
      simkit run scenarios/demo.toml
      simkit run scenarios/demo.toml --races 200000 --seed 7 --out runs/big
      simkit run --resume runs/big
      simkit run --resume runs/big --races 400000
      simkit run --resume runs/fairness --races 4000 --level search:64
      simkit run scenarios/demo.toml --dask tcp://10.0.0.5:8786
    """
    from simkit import runner

    if resume is not None:
        run_dir = resumed(
            resume,
            "a run directory",
            [
                ("TARGET", target),
                ("--seed", seed),
                ("--chunk-size", chunk_size),
                ("--out", out),
                ("--force", force),
            ],
        )
    elif level is not None:
        raise click.UsageError("--level raises a level of a run: give it with --resume DIR")
    elif target is None:
        raise click.UsageError("give a scenario file TARGET (or --resume DIR)")
    else:
        refuse_folder(target)
        run_dir = out or default_out(target)
    try:
        if resume is not None:
            summary = runner.resume(
                run_dir, races=races, threads=threads, dask=dask, progress=True, level=level
            )
        else:
            sc = runner.load_scenario(target)
            sc = sc.with_overrides(races=races, seed=seed, chunk_size=chunk_size)
            summary = runner.start(
                sc, run_dir, force=force, threads=threads, dask=dask, progress=True
            )
    except KeyboardInterrupt:
        raise click.ClickException(
            f"interrupted; finish the run with `simkit run --resume {run_dir}`"
        ) from None
    for line in summary.repaired:
        click.echo(f"repaired: {line}", err=True)
    if summary.already_complete:
        click.echo(f"{summary.dir}: already complete ({summary.races:,} races); nothing to do")
        return
    click.echo(
        f"{summary.dir}: {summary.races:,} races in {summary.cells} "
        f"cell{'s' if summary.cells != 1 else ''} "
        f"({summary.new_races:,} simulated now in {summary.seconds:.1f} s, "
        f"{summary.races_per_second:,.0f} races/s)"
    )
