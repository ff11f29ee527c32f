"""``simkit tune``: search a scenario's rules or track parts for fairness (docs/tuning.md)."""

from __future__ import annotations

from pathlib import Path

import click

from simkit.cli.common import (
    budget_option,
    confirm_option,
    dask_option,
    force_option,
    max_races_option,
    out_option,
    resume_option,
    resumed,
    seed_option,
    threads_option,
)
from simkit.runner.scenario import MAX_RACES
from simkit.tune.tuning import DEFAULTS, SAMPLERS

# Bounds of the counts (docs/tuning.md): races per cell as a scenario's; the budget a
# thousand times that; rungs and confirmed candidates far beyond any useful study.
MAX_BUDGET = 1_000 * MAX_RACES
MAX_HALVING = 100
MAX_TOP = 100


@click.command()
@click.argument("target", type=click.Path(path_type=Path), required=False)
@click.option(
    "--space",
    type=click.Path(dir_okay=False, path_type=Path),
    help="The search space file: the keys to move and their ranges (required to start).",
)
@click.option(
    "--objective",
    help="What to minimise: fairness (default), COLUMN=TARGET, or a weighted sum such as "
    "'fairness + 0.5*rounds=12'.",
)
@budget_option(
    f"Races the search may play in all [{DEFAULTS['budget']:,}].",
    type=click.IntRange(1, MAX_BUDGET),
)
@click.option(
    "--min-races",
    type=click.IntRange(1, MAX_RACES),
    help=f"Races per cell of a candidate's first rung [{DEFAULTS['min_races']:,}].",
)
@max_races_option(
    f"Races per cell of a full candidate [{DEFAULTS['max_races']:,}].",
    type=click.IntRange(1, MAX_RACES),
)
@click.option(
    "--halving",
    type=click.IntRange(2, MAX_HALVING),
    help=f"Keep the best 1/H of each rung, playing H times the races [{DEFAULTS['halving']}].",
)
@click.option(
    "--sampler", type=click.Choice(SAMPLERS), help=f"Optuna's sampler [{DEFAULTS['sampler']}]."
)
@click.option(
    "--top",
    type=click.IntRange(1, MAX_TOP),
    help=f"Best candidates to confirm beside the book's values [{DEFAULTS['top']}].",
)
@confirm_option(
    f"Fresh races per cell of the confirmation [{DEFAULTS['confirm']:,}].",
    type=click.IntRange(1, MAX_RACES),
)
@seed_option("Seed (default: the scenario's).")
@out_option("Tuning folder (default: runs/tune-<scenario name>).")
@click.option(
    "--report",
    type=click.Path(file_okay=False, path_type=Path),
    help="Report folder (default: <tuning folder>/report).",
)
@resume_option("Continue the tuning in the folder DIR.")
@force_option("Replace a tuning already in the folder.")
@threads_option()
@dask_option("One search worker per Dask worker (tcp://host:8786, or a local cluster).")
def tune(target, space, resume, force, out, report, threads, dask, **opts) -> None:
    """Search the parameter space of SPACE for the best rules of the scenario TARGET.

    Candidates play the same races (common random numbers); successive halving gives poor
    ones few races and good ones many; the best few are then confirmed on fresh races
    against the book's values, with intervals and a verdict, and reported. The study lives
    in the tuning folder (Optuna's SQLite file): killed at any moment, --resume continues
    it, losing at most the candidates in flight; several processes (each `simkit tune
    --resume DIR`) or Dask workers can work on one study. Every candidate is played by the
    scenario's bots (or each of its skill levels, its worst counting), so name the level of
    play the rule is for, e.g. bots = "greedy:tuned".

    \b
    A space file has a table per key to move (docs/tuning.md):
      [extra_cards]                  # slots 2-5: 0 to 5 extra cards each,
      elements = [2, 3, 4, 5]        #   never fewer for a slot further back
      low = 0
      high = 5
      order = "non-decreasing"
      [track.corner.1.safety]        # a track part: values 2, 3, ..., 7
      low = 2
      high = 7
      [[reference]]                  # a table to confirm beside the book's
      extra_cards = [0, 1, 1, 2, 2]
      [search]                       # options kept with the space; the
      budget = 200000                #   command line's win

    \b
    Examples:
      simkit tune scenarios/tune-extra-cards.toml --space scenarios/extra-cards-space.toml
      simkit tune scenarios/tune-s-bends.toml --space scenarios/s-bends-space.toml --budget 50000
      simkit tune --resume runs/tune-extra-cards
      simkit tune --resume runs/tune-extra-cards --dask local
    """
    from simkit import tune as tuning
    from simkit.cli.report import report_folder
    from simkit.cli.run import default_out

    if resume is not None:
        given = [("TARGET", target)]
        given += [(f"--{k.replace('_', '-')}", v) for k, v in opts.items()]
        given += [("--space", space), ("--out", out), ("--force", force)]
        folder = resumed(resume, "a tuning folder", given)
    elif target is None or space is None:
        raise click.UsageError(
            "give a scenario file TARGET and the search space: --space SPACE.toml (or --resume DIR)"
        )
    else:
        folder = out or default_out(target, "tune-")
    if report is not None:  # claimed before the search, not after it
        report = report_folder(report, force)
    try:
        if resume is not None:
            done = tuning.resume(folder, report=report, threads=threads, dask=dask, progress=True)
        else:
            s = tuning.settings(target, space, **opts)
            done = tuning.start(
                s, folder, force=force, report=report, threads=threads, dask=dask, progress=True
            )
    except KeyboardInterrupt:
        raise click.ClickException(
            f"interrupted; continue with `simkit tune --resume {folder}`"
        ) from None
    except OSError as exc:  # the report's files: the tuning's resume writes them again
        from simkit.cli.common import disk_message

        then = f"continue with `simkit tune --resume {folder}`"
        raise click.ClickException(disk_message(exc, then)) from None
    if done is None:
        click.echo(
            f"{folder}: the search's budget is spent; other workers are still playing or "
            "confirming candidates, and the last of them writes the report"
        )
        return
    v = done.confirmation
    click.echo(f"{folder}: best {', '.join(f'{k}={v}' for k, v in done.best.items()) or '-'}")
    for row in v.itertuples():
        vs = "" if row.candidate == 0 else f", vs the book {row.vs_book:+.2f} ({row.paired})"
        if row.role == "found" and "vs_reference" in v:
            vs += f", vs the best reference {row.vs_reference:+.2f} ({row.against})"
        click.echo(
            f"  {row.label}: objective {row.objective:.2f} [{row.low:.2f}, {row.high:.2f}]{vs}"
        )
    click.echo(f"report: {done.report}")
