"""``simkit bots``: the game's bots as a product; ``bots tune`` fits weights (docs/bots.md)."""

from __future__ import annotations

from pathlib import Path

import click

from simkit.cli.common import (
    MAX_PLAYERS,
    ExamplesCommand,
    SimkitGroup,
    comma_list,
    confirm_option,
    force_option,
    game_argument,
    out_option,
    players_option,
    preset_option,
    races_option,
    renamed_option,
    resume_option,
    resumed,
    seed_option,
    set_option,
    threads_option,
    track_option,
)
from simkit.tune.bots import MAX_BUDGET, MAX_CONFIRM, MAX_RACES

# What a tuning spends: candidates evaluated (simkit tune's --budget counts races instead).
_EVALUATIONS = click.IntRange(1, MAX_BUDGET)


def _counts(ctx, param, value: str | None) -> list[int] | None:
    names = comma_list(ctx, param, value)
    if names is None:
        return None
    try:
        counts = [int(n) for n in names]
    except ValueError:
        raise click.BadParameter(f"'{value}' is not a number or a list such as 2,4") from None
    if not counts or min(counts) < 2 or max(counts) > MAX_PLAYERS:
        raise click.BadParameter(f"'{value}': every count must be 2 to {MAX_PLAYERS}")
    return counts


@click.group(cls=SimkitGroup)
def bots() -> None:
    """Bots: fit a heuristic bot's weights (tune)."""


@bots.command(cls=ExamplesCommand)
@game_argument(required=False)
@click.argument("bot", required=False)
@click.option(
    "--field",
    "-f",
    callback=comma_list,
    metavar="A,B,...",
    help="The bots the tuned bot plays against, one per other seat, repeated if fewer "
    "[default: BOT with its default weights].",
)
@players_option(
    "Seats (default: the game's); several (2,4) fit one bot for the mix.",
    type=None,
    callback=_counts,
    metavar="N[,N...]",
)
@races_option(
    "Races per evaluation of one candidate, over all its seats [default: 2,000; at most 200,000].",
    type=click.IntRange(1, MAX_RACES),
)
@click.option(
    "--evaluations",
    type=_EVALUATIONS,
    help="Evaluations in all (one candidate playing --races races each), rounded up to whole "
    "generations [default: 300; at most 100,000].",
)
@renamed_option(
    "--budget",
    into="evaluations",
    new="--evaluations",
    write="--evaluations {value}",
    type=_EVALUATIONS,
)
@confirm_option(
    "Confirmation races per lineup, fitted against default [default: 10,000; at most 100,000].",
    type=click.IntRange(1, MAX_CONFIRM),
)
@seed_option("Seed [default: 0].")
@preset_option()
@set_option()
@track_option(
    "Track name or TOML file (games raced on a track); several fit one bot for the mix "
    "of tracks and player counts.",
    callback=comma_list,
    metavar="T[,T...]",
)
@click.option(
    "--name",
    help="The fit's name: OUT/bots.toml then plays it as BOT:NAME [default: fitted].",
)
@out_option(
    "Tuning directory (default: runs/tune-GAME-BOT): the fit goes to OUT/bots.toml, the "
    "report to OUT/report."
)
@force_option("Start a tuning again, or write into a folder that is not a tuning's.")
@threads_option()
@resume_option(
    "Continue the tuning in DIR from its last generation (a finished one: record the "
    "preset and write the report again)."
)
def tune(
    game,
    bot,
    field,
    players,
    races,
    evaluations,
    confirm,
    seed,
    preset,
    overrides,
    track,
    name,
    out,
    force,
    threads,
    resume,
) -> None:
    """Fit BOT's weights for GAME with CMA-ES, confirm them, and record them as BOT:NAME.

    \b
    How it works (docs/bots.md):
    - Each candidate weight vector plays one seat against --field in the others, once
      in every seat, on the same race keys: start slots and luck cancel.
    - Objective: the share of head-to-head comparisons it wins in decided races (ahead of
      a field seat: finished and the other did not, or finished earlier).
    - Every candidate of a generation plays the same races (common random numbers);
      each generation plays new ones, so no weight is fitted to one set of races.
    - After --evaluations candidates, the fitted weights (CMA-ES's mean) play the default
      weights head to head on fresh races (--confirm), with a 95% interval.
    - The weights go into OUT/bots.toml as [BOT.NAME] with the command, seed, field,
      budget (evaluations x races), date and confirmation; OUT/report has the report.
      A scenario with bots_file = "OUT/bots.toml" (or --bots-file OUT/bots.toml) plays
      them as BOT:NAME.

    Progress goes to stderr. Stopped at any moment (Ctrl-C, kill), `--resume OUT` goes
    on from the last finished generation and ends as an uninterrupted tuning would.

    \b
    Examples:
      simkit bots tune GAME BOT --field A,B,C --races 4000 --evaluations 600
      simkit bots tune GAME BOT --name strong --out runs/strong
      simkit bots tune --resume runs/tune-GAME-BOT
    """
    from simkit.cli.common import parse_overrides
    from simkit.tune.bots import run
    from simkit.tune.bots import search as lib

    if resume is not None:
        out = resumed(
            resume,
            "a tuning directory",
            [
                ("GAME", game),
                ("BOT", bot),
                ("--field", field),
                ("--players", players),
                ("--races", races),
                ("--evaluations", evaluations),
                ("--confirm", confirm),
                ("--seed", seed),
                ("--preset", preset),
                ("--set", overrides),
                ("--track", track),
                ("--name", name),
                ("--out", out),
                ("--force", force),
            ],
        )
    else:
        if game is None or bot is None:
            raise click.UsageError("give a GAME and a BOT (or --resume DIR)")
        out = out or Path("runs") / f"tune-{game}-{bot}"
    try:
        if resume is not None:
            done = run.resume(out, threads=threads, progress=True)
        else:
            given_rest = {
                "races": races,
                "budget": evaluations,
                "confirm": confirm,
                "seed": seed,
                "preset": preset,
                "name": name,
            }
            s = lib.settings(
                game,
                bot,
                field=field,
                players=players if players is None or len(players) > 1 else players[0],
                track=track if track is None or len(track) > 1 else track[0],
                overrides=parse_overrides(overrides),
                **{k: v for k, v in given_rest.items() if v is not None},
            )
            done = run.start(s, out, force=force, threads=threads, progress=True)
    except KeyboardInterrupt:
        raise click.ClickException(
            f"interrupted; continue with `simkit bots tune --resume {out}`"
        ) from None
    t = done.settings.tunable
    click.echo(f"{done.preset}: {t.spec(done.weights)}")
    click.echo(done.confirmation.sentence(f"{done.preset} (fitted)", f"{t.base} (default)"))
    click.echo(
        f"recorded as [{t.base}.{done.settings.name}] in {done.presets_file}; play it as "
        f"{done.preset} with --bots-file {done.presets_file}"
    )
    click.echo(done.report)
