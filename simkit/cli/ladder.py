"""``simkit ladder``: rate bots against each other with intervals (docs/ladder.md)."""

from __future__ import annotations

from pathlib import Path

import click

from simkit.cli.common import (
    ExamplesCommand,
    bots_file_option,
    bots_option,
    comma_list,
    dask_option,
    fitted_bots,
    force_option,
    game_argument,
    out_option,
    players_option,
    preset_option,
    races_option,
    resume_option,
    resumed,
    seed_option,
    set_option,
    threads_option,
    track_option,
)
from simkit.runner.scenario import MAX_RACES

# Each replicate refits the ratings: fifty times the default is the most a command takes.
MAX_BOOTSTRAP = 10_000


@click.command(cls=ExamplesCommand)
@game_argument(required=False)
@bots_option(
    "The bots to rate, comma-separated, e.g. random,greedy,greedy:bold (an unknown name "
    "lists the game's bots).",
    callback=comma_list,
    metavar="A,B,...",
)
@bots_file_option()
@players_option("Seats (default: the game's).")
@races_option("Races per lineup [default: 2,000].", type=click.IntRange(1, MAX_RACES))
@seed_option("Run seed [default: 0].")
@preset_option()
@set_option()
@track_option("Track name or TOML file (games raced on a track).")
@threads_option()
@dask_option()
@out_option("Run directory (default: runs/ladder-GAME); the report goes to OUT/report.")
@force_option("Replace a run already in the output directory.")
@resume_option("Finish the interrupted ladder in DIR (or rebuild a finished one's report).")
@click.option(
    "--bootstrap",
    type=click.IntRange(20, MAX_BOOTSTRAP),
    help="Bootstrap replicates behind each 95% interval [default: 200] (at most 10,000); "
    "--resume reuses the ladder's own.",
)
@click.option(
    "--reference",
    metavar="BOT",
    help="The model-free player the top rung is certified against where the ladder plays "
    "[default: the game's, search:64 in Snow Tails]; 'none' for no certificate.",
)
@click.option(
    "--reference-races",
    type=click.IntRange(1, 1_000_000),
    help="Races per lineup of the top rung against the reference, when it is not on the "
    "ladder, at most: the match stops after a quarter or a half of them once its certificate "
    "is settled [default: --races].",
)
def ladder(
    game,
    bots,
    bots_file,
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
    reference,
    reference_races,
) -> None:
    """Rate bots against each other: GAME played by every lineup of --bots, then ranked.

    The lineups form a balanced design (every bot in every seat and start slot equally
    often) and share their random numbers, so every lineup sees the same deals and dice. The
    ratings are Plackett-Luce (Bradley-Terry for two players) fitted by choix on the finish
    orders of decided races, with 95% bootstrap intervals. The run directory holds the
    tables; OUT/report holds the report (ratings, head-to-head matrix, skill depth). The
    ratings are printed, best first, with one line per pair of adjacent rungs, then the top
    rung's certificate: is it as strong as the game's model-free reference (search:64 in
    Snow Tails) here, measured on this ladder's races or on a pair of the two played in its
    setting (head to head's 95% low end at least 45%).

    \b
    Examples:
      simkit ladder GAME --bots A,B,C --races 5000
      simkit ladder GAME --bots A,B --reference none
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
        run_dir = resumed(
            resume,
            "a ladder's run directory",
            [
                ("GAME", game),
                ("--bots", bots),
                ("--bots-file", bots_file),
                ("--players", players),
                ("--races", races),
                ("--seed", seed),
                ("--preset", preset),
                ("--set", overrides),
                ("--track", track),
                ("--out", out),
                ("--force", force),
            ],
        )
    else:
        if game is None or not bots:
            raise click.UsageError("give a GAME and --bots A,B,... (or --resume DIR)")
        run_dir = out or Path("runs") / f"ladder-{game}"
    try:
        if resume is not None:
            summary = lib.resume(run_dir, threads=threads, dask=dask, progress=True)
            manifest = RunDir(run_dir).read_manifest()
            bootstrap = bootstrap or lib.recorded_bootstrap(manifest)
            reference, reference_races = lib.recorded_reference(
                manifest, reference, reference_races
            )
        else:
            sc = lib.scenario(
                game,
                fitted_bots(bots, bots_file, game),
                players=players,
                races=races or lib.DEFAULT_RACES,
                seed=seed or 0,
                preset=preset,
                track=track,
                overrides=parse_overrides(overrides),
            )
            bootstrap = bootstrap or REPLICATES
            reference = lib.reference_of(sc, reference)
            reference_races = reference_races or sc.races
            summary = runner.start(
                sc,
                run_dir,
                force=force,
                threads=threads,
                dask=dask,
                progress=True,
                options={
                    "bootstrap": bootstrap,
                    "reference": reference,
                    "reference_races": reference_races,
                },
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
    try:
        cert = lib.certify(lad, reference, races=reference_races, threads=threads, progress=True)
    except KeyboardInterrupt:
        raise click.ClickException(
            f"interrupted; certify the top rung with `simkit ladder --resume {run_dir}`"
        ) from None
    from simkit.analysis.ratings_text import COLUMNS, ratings_rows
    from simkit.report.text import table

    click.echo(table(ratings_rows(lad.table), COLUMNS))
    for sentence in lad.rungs:
        click.echo(sentence)
    game_name = lad.results.manifest["scenario"]["game"]
    click.echo(cert.sentence if cert else lib.uncertified_text(game_name))
    click.echo(report.build(lad, run_dir / "report", certificate=cert))
