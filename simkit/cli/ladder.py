"""``simkit ladder``: rate bots against each other with intervals (docs/ladder.md)."""

from __future__ import annotations

from pathlib import Path

import click

from simkit.cli.common import ExamplesCommand


def _bots(ctx, param, value: str | None) -> list[str] | None:
    if value is None:
        return None
    return [b.strip() for b in value.split(",") if b.strip()]


@click.command(cls=ExamplesCommand)
@click.argument("game", required=False)
@click.option(
    "--bots",
    "-b",
    callback=_bots,
    metavar="A,B,...",
    help="The bots to rate, comma-separated, e.g. random,greedy,greedy:bold (an unknown name "
    "lists the game's bots).",
)
@click.option("--players", "-p", type=click.IntRange(2), help="Seats (default: the game's).")
@click.option(
    "--races",
    "-r",
    type=click.IntRange(1),
    help="Races per lineup [default: 2,000].",
)
@click.option(
    "--seed",
    "-s",
    type=click.IntRange(0, 2**63 - 1),
    help="Run seed [default: 0].",
)
@click.option("--preset", help="Rules preset (default: the game's).")
@click.option(
    "--set",
    "overrides",
    multiple=True,
    metavar="NAME=VALUE",
    help="Override a variant parameter (repeatable), e.g. --set hand_size=6.",
)
@click.option("--track", help="Track name or TOML file (games raced on a track).")
@click.option(
    "--threads", "-t", type=click.IntRange(1), help="Kernel threads (default: all cores)."
)
@click.option(
    "--dask",
    metavar="ADDR|local",
    help="Run chunks on the Dask scheduler at ADDR (tcp://host:8786), or a local cluster.",
)
@click.option(
    "--out",
    "-o",
    type=click.Path(file_okay=False, path_type=Path),
    help="Run directory (default: runs/ladder-GAME); the report goes to OUT/report.",
)
@click.option("--force", is_flag=True, help="Replace a run already in the output directory.")
@click.option(
    "--resume",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    metavar="DIR",
    help="Finish the interrupted ladder in DIR (or rebuild a finished one's report).",
)
@click.option(
    "--bootstrap",
    type=click.IntRange(20),
    help="Bootstrap replicates behind each 95% interval [default: 200]; --resume reuses the "
    "ladder's own.",
)
def ladder(
    game,
    bots,
    players,
    races,
    seed,
    preset,
    overrides,
    track,
    threads,
    dask,
    out,
    force,
    resume,
    bootstrap,
) -> None:
    """Rate bots against each other: GAME played by every lineup of --bots, then ranked.

    The lineups form a balanced design (every bot in every seat and start slot equally
    often) and share their random numbers, so every lineup sees the same deals and dice. The
    ratings are Plackett-Luce (Bradley-Terry for two players) fitted by choix on the finish
    orders of decided races, with 95% bootstrap intervals. The run directory holds the
    tables; OUT/report holds the report (ratings, head-to-head matrix, skill depth). The
    ratings are printed, best first, with one line per pair of adjacent rungs.

    \b
    Examples:
      simkit ladder GAME --bots A,B,C --races 5000
      simkit ladder --resume runs/ladder-GAME
    """
    from simkit import ladder as lib
    from simkit import runner
    from simkit.analysis.ladder import analyse
    from simkit.analysis.ratings import REPLICATES
    from simkit.cli.common import parse_overrides
    from simkit.report import ladder as report
    from simkit.runner.storage import RunDir

    if resume is not None:
        given = [
            name
            for name, value in (
                ("GAME", game),
                ("--bots", bots),
                ("--players", players),
                ("--races", races),
                ("--seed", seed),
                ("--preset", preset),
                ("--set", overrides or None),
                ("--track", track),
                ("--out", out),
                ("--force", force or None),
            )
            if value is not None
        ]
        if given:
            raise click.UsageError(f"{', '.join(given)} cannot be used with --resume")
        run_dir = resume
    else:
        if game is None or not bots:
            raise click.UsageError("give a GAME and --bots A,B,... (or --resume DIR)")
        run_dir = out or Path("runs") / f"ladder-{game}"
    try:
        if resume is not None:
            summary = lib.resume(run_dir, threads=threads, dask=dask, progress=True)
            recorded = lib.recorded_bootstrap(RunDir(run_dir).read_manifest())
            bootstrap = bootstrap or recorded
        else:
            sc = lib.scenario(
                game,
                bots,
                players=players,
                races=races or lib.DEFAULT_RACES,
                seed=seed or 0,
                preset=preset,
                track=track,
                overrides=parse_overrides(overrides),
            )
            bootstrap = bootstrap or REPLICATES
            summary = runner.start(
                sc,
                run_dir,
                force=force,
                threads=threads,
                dask=dask,
                progress=True,
                options={"bootstrap": bootstrap},
            )
    except KeyboardInterrupt:
        raise click.ClickException(
            f"interrupted; finish the ladder with `simkit ladder --resume {run_dir}`"
        ) from None
    click.echo(
        f"{summary.dir}: {summary.races:,} races in {summary.cells} lineups "
        f"({summary.new_races:,} simulated now in {summary.seconds:.1f} s)",
        err=True,
    )
    lad = analyse(run_dir, replicates=bootstrap or REPLICATES)
    from simkit.report.text import table

    rows = [
        {
            "rung": r.rung,
            "bot": r.bot,
            "rating": f"{r.rating:+.3f}",
            "95% interval": f"[{r.low:+.3f}, {r.high:+.3f}]",
            "wins/seat": f"{r.win_rate:.3f}",
        }
        for r in lad.table.itertuples()
    ]
    click.echo(table(rows, ["rung", "bot", "rating", "95% interval", "wins/seat"]))
    for sentence in lad.rungs:
        click.echo(sentence)
    click.echo(report.build(lad, run_dir / "report"))
