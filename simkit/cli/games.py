"""``simkit games``, ``variants``, ``race`` and ``moves``: one game at a time."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

import click

from simkit.cli.common import (
    MAX_PLAYERS,
    ExamplesCommand,
    LazyChoice,
    bots_file_option,
    bots_option,
    fitted_bots,
    force_option,
    game_argument,
    game_names,
    parse_overrides,
    players_option,
    preset_option,
    renamed_option,
    seed_option,
    set_option,
    track_option,
)
from simkit.errors import StateError
from simkit.files import claim_file, read_json, write_replacing
from simkit.runner.scenario import MAX_CELLS


@click.command()
def games() -> None:
    """List the games simkit plays: name, title, players, presets, bots, board.

    GAME in other commands is one of these names; `simkit variants GAME` shows its rules.
    """
    from simkit.games import games as registered
    from simkit.report.text import table

    rows = [
        {
            "game": g.name,
            "title": g.title,
            "players": f"{g.min_players}-{g.max_players}",
            "presets": ", ".join(sorted(g.presets)),
            "bots": ", ".join(g.bots),
            "board": g.default_track or "-",
        }
        for g in registered()
    ]
    click.echo(table(rows, ["game", "title", "players", "presets", "bots", "board"]))


@click.command(cls=ExamplesCommand)
@game_argument()
@preset_option("Show this preset (default: the game's own).")
@set_option("Override a parameter (repeatable), to check a variant before running it.")
def variants(game: str, preset: str | None, overrides: tuple[str, ...]) -> None:
    """Print every variant parameter of GAME: value, bounds, meaning and source."""
    from simkit.games import get
    from simkit.report.text import table

    g = get(game)
    name = preset or g.default_preset
    variant = g.params.resolve(g.presets, name, parse_overrides(overrides))
    rows = variant.describe()
    click.echo(f"{g.title}: preset '{name}'" + (" with overrides" if overrides else ""))
    click.echo(f"presets: {', '.join(sorted(g.presets))}")
    click.echo("")
    click.echo(table(rows, ["name", "value", "bounds", "doc", "source"]))


@click.command(cls=ExamplesCommand)
@game_argument(required=False)
@renamed_option(
    "-g",
    "--game",
    into="game",
    new="GAME",
    write="the game first: {command} {value} [OPTIONS]",
    type=LazyChoice(game_names),
)
@preset_option()
@set_option()
@track_option("Track name or TOML path (default: the game's starter).")
@players_option("Number of seats (default: the game's).", type=click.IntRange(1, MAX_PLAYERS))
@bots_option("One bot for all seats, or a comma list, one per seat.")
@bots_file_option()
@seed_option("Run seed; the same seed always gives the same race.", default=0, show_default=True)
@click.option(
    "--race",
    "race_index",
    type=click.IntRange(0, 2**63 - 1),
    default=0,
    show_default=True,
    help="Race index within the seed (as in a run's tables).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the trace as JSON.")
@click.option(
    "--png",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Also draw final positions and paths to this PNG (track games).",
)
@click.option(
    "--replay",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    help="Replay race --race of cell --cell of this run directory (its game, cell and seed).",
)
@click.option(
    "--cell",
    type=click.IntRange(0, MAX_CELLS - 1),
    help="The run's cell to replay (with --replay).",
)
@force_option("Replace the --png file if it exists.")
def race(
    game,
    preset,
    overrides,
    track,
    players,
    bots,
    bots_file,
    seed,
    race_index,
    as_json,
    png,
    replay,
    cell,
    force,
) -> None:
    """Play one race of GAME and print it turn by turn, so a player can check every move.

    GAME is one of `simkit games`; with --replay, the run's own game is played instead.
    The first race of a game compiles its kernels (10 to 30 seconds, said on stderr).

    \b
    Examples:
      simkit race GAME --seed 7
      simkit race --replay runs/demo --cell 0 --race 1234
    """
    from simkit.games import get
    from simkit.games.cells import build_cell
    from simkit.rng import single_race_key
    from simkit.runner.progress import compile_notice

    if png is not None:  # before the race is played: a name it cannot write is refused now
        png = claim_file(png, suffix=".png", force=force, option="--png")
    inputs = contextlib.ExitStack()
    if replay is not None:
        if cell is None:
            raise click.UsageError("--replay needs --cell (and --race, default 0)")
        from simkit.runner import replay_cell
        from simkit.runner.inputs import of_run

        # The run's tracks and routes as they were when it started, not as they are now.
        for line in inputs.enter_context(of_run(replay)):
            click.echo(line, err=True)
        built, key = replay_cell(replay, cell, race_index)
        game = built.game
    else:
        if cell is not None:
            raise click.UsageError("--cell needs --replay RUN_DIR")
        if bots_file is not None and bots is None:
            raise click.UsageError("--bots-file names fits for --bots; give --bots too")
        if game is None:
            raise click.UsageError(
                "give the game first, `simkit race GAME` (`simkit games` lists them), or "
                "--replay RUN_DIR"
            )
        bot_arg = None if bots is None else (bots if "," not in bots else bots.split(","))
        bot_arg = fitted_bots(bot_arg, bots_file, game)
        built = build_cell(
            game,
            preset=preset,
            overrides=parse_overrides(overrides),
            track=track,
            players=players,
            bots=bot_arg,
        )
        key = single_race_key(seed, race_index)
    notice = compile_notice(get(game), "trace")
    if notice:
        click.echo(notice, err=True)
    with inputs:
        trace = get(game).trace(built, key, race_index=race_index)
        if as_json:
            click.echo(json.dumps(trace.to_json(), indent=1))
        else:
            click.echo(trace.text())
        if png is not None:
            if not hasattr(trace, "draw"):
                raise click.UsageError(f"{game} has no board to draw")
            write_replacing(png, trace.draw)
            click.echo(f"wrote {png}", err=True)


@click.command(cls=ExamplesCommand)
@click.argument("state_file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the plays as JSON.")
def moves(state_file: Path, as_json: bool) -> None:
    """List every legal play from a position and its exact outcome.

    STATE_FILE is JSON naming the game and the position (see docs/state.md), e.g.
    {"game": GAME, "round": 3, ...}.
    """
    from simkit.games import get

    state = read_json(state_file, lambda msg: StateError(f"{state_file}: {msg}"))
    if not isinstance(state, dict) or not isinstance(state.get("game"), str):
        raise StateError(f'{state_file}: expected a JSON object with a "game" key')
    result = get(state["game"]).moves(state)
    click.echo(json.dumps(result.to_json(), indent=1) if as_json else result.text())
