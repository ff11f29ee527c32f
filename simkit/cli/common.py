"""What every command shares: error translation, its options (declared here once, old names
of renamed ones kept working), option parsing, games from the registry."""

from __future__ import annotations

import errno
import functools
import json
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import click
from click.core import ParameterSource

from simkit.errors import SimkitError
from simkit.files import LINE_CHARS, one_line, shown


class SimkitGroup(click.Group):
    """A click group whose commands end every user-fixable failure in one line, exit code 1.

    ``SimkitError`` is the library's own; ``OSError`` is the disk as it is (a read-only
    folder, a full disk, a missing permission) wherever it surfaces, e.g. writing a report.
    The line is escaped to printable characters and cut to a readable length.
    """

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except SimkitError as exc:
            raise click.ClickException(_line(str(exc))) from exc
        except OSError as exc:
            raise click.ClickException(_line(disk_message(exc))) from exc


def disk_message(exc: OSError, then: str = "run the command again") -> str:
    """One line for an OSError: the file (:func:`simkit.files.failed_file`), why, and the
    remedy for a full disk (free some space, ``then``)."""
    from simkit.files import failed_file

    path = failed_file(exc)
    where = f"'{path}'" if path else "a file"
    why = exc.strerror or str(exc)
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return f"cannot write {where} ({why}); free some space, then {then}"
    if exc.errno == errno.EFBIG:
        from simkit.runner.storage import FILE_LIMIT

        return f"cannot write {where} ({why}); {FILE_LIMIT}, then {then}"
    return f"cannot use {where} ({why})"


def _line(text: str) -> str:
    line = one_line(text)
    return line if len(line) <= LINE_CHARS else line[: LINE_CHARS - 3] + "..."


MAX_VALUE_CHARS = 1_000  # of one --set value: lists of a few dozen numbers at most


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not a number a parameter takes")


def parse_overrides(items: Sequence[str]) -> dict[str, Any]:
    """``--set name=value`` pairs into a dict; values are JSON where they parse as JSON.

    ``--set hand_size=6`` gives 6, ``--set extra_cards=[0,0,0,1,2]`` a list,
    ``--set bonus=false`` False; anything else stays a string.
    """
    out: dict[str, Any] = {}
    for item in items:
        if "=" not in item:
            raise click.BadParameter(f"expected NAME=VALUE, got '{item}'", param_hint="--set")
        key, _, raw = item.partition("=")
        if len(raw) > MAX_VALUE_CHARS:
            raise SimkitError(
                f"--set {shown(key.strip())}: the value is {len(raw):,} characters long, more "
                f"than {MAX_VALUE_CHARS:,}; no parameter takes one so long"
            )
        try:
            value = json.loads(raw, parse_constant=_no_constant)
        except json.JSONDecodeError:
            value = raw
        except (ValueError, RecursionError) as exc:  # NaN, Infinity; nested too deep
            raise SimkitError(f"--set {shown(key.strip())}: {one_line(str(exc))[:80]}") from None
        out[key.strip()] = value
    return out


class LazyChoice(click.Choice):
    """A choice among values asked for only when needed (parsing, help), e.g. registered games.

    Asking the registry imports every game, so commands ask at use rather than when the
    CLI module is imported: ``simkit --help`` stays fast.
    """

    def __init__(self, source: Callable[[], Iterable[str]]):
        self._source = source
        self.case_sensitive = True

    @property
    def choices(self) -> tuple[str, ...]:  # type: ignore[override]
        return tuple(self._source())

    def get_invalid_choice_message(self, value: Any, ctx: click.Context | None) -> str:
        from simkit.names import closest

        close = closest(str(value), self.choices)
        hint = f" Did you mean '{close}'?" if close else ""
        return super().get_invalid_choice_message(value, ctx) + hint


def game_names() -> list[str]:
    from simkit.games import names

    return names()


def game_argument(required: bool = True) -> Callable:
    """GAME, the first argument of every command that plays or shows one game: a registered
    game's name (`simkit games` lists them). Optional (``required=False``) only where the
    command may read the game from a folder instead (``race --replay``, ``--resume``)."""
    return click.argument(
        "game",
        type=LazyChoice(game_names),
        required=required,
        metavar="GAME" if required else "[GAME]",
    )


class ExamplesCommand(click.Command):
    """A command whose help ends with the games' own examples of it (``Game.extras.examples``)."""

    def format_epilog(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        from simkit.games import games

        super().format_epilog(ctx, formatter)
        words = ctx.command_path.split()[1:]
        prefix = " ".join(["simkit", *words]) + " "
        lines = [line for g in games() for line in g.extras.examples if line.startswith(prefix)]
        if lines:
            with formatter.section("Examples from the games"):
                for line in lines:  # unwrapped, so each can be pasted
                    formatter.write(f"{'':>{formatter.current_indent}}{line}\n")


# Shared options (as sqlite-utils does): every option that more than one command takes is
# declared here once, so a long name has one short flag everywhere (tests/test_cli.py checks
# that no short flag has two meanings). A command passes its own help text (what the option
# means for it) and, where it differs, its type.
# Short flags: -s --seed, -r --races, -p --players, -b --bots, -t --threads, -o --out,
# -f --field; --preset, --track, --budget, --name and --family have none. -g is race's old,
# hidden --game (:func:`renamed_option`): the game is every command's first argument.

SEED = click.IntRange(0, 2**63 - 1)
_OUT = click.Path(file_okay=False, path_type=Path)
_COUNT = click.IntRange(1)
# Bounds of counts every command shares (tests/test_cli_bounds.py: every number has one).
MAX_PLAYERS = 64  # a scenario's (simkit.runner.scenario.MAX_PLAYERS); games allow fewer
MAX_THREADS = 1_024  # beyond any machine's cores; a run also checks numba's own limit


def comma_list(ctx: click.Context | None, param: Any, value: str | None) -> list[str] | None:
    """A click callback: ``"a, b,c"`` into ``["a", "b", "c"]`` (blank items dropped)."""
    if value is None:
        return None
    return [b.strip() for b in value.split(",") if b.strip()]


def seed_option(help: str, **kw: Any) -> Callable:
    """``--seed/-s``: a run seed, 0 to 2**63-1."""
    return click.option("--seed", "-s", type=SEED, help=help, **kw)


def races_option(help: str, type: click.ParamType = _COUNT, **kw: Any) -> Callable:
    """``--races/-r``: a number of races."""
    return click.option("--races", "-r", type=type, help=help, **kw)


def players_option(help: str, **kw: Any) -> Callable:
    """``--players/-p``: seats (a command may take a list, with its own callback)."""
    kw.setdefault("type", click.IntRange(2, MAX_PLAYERS))
    return click.option("--players", "-p", help=help, **kw)


def bots_option(help: str, **kw: Any) -> Callable:
    """``--bots/-b``: bots by name, comma-separated."""
    return click.option("--bots", "-b", help=help, **kw)


def bots_file_option() -> Callable:
    """``--bots-file FILE``: a bots file (``simkit bots tune``'s ``DIR/bots.toml``) whose
    fitted presets ``--bots`` may then name (:func:`fitted_bots`)."""
    return click.option(
        "--bots-file",
        type=click.Path(dir_okay=False, path_type=Path),
        metavar="FILE",
        help="A bots file (simkit bots tune writes DIR/bots.toml): --bots may then name its "
        "fits, e.g. greedy:fitted.",
    )


def fitted_bots(bots: Any, bots_file: Path | None, game: str) -> Any:
    """``bots`` (a name, or a list) with the fits of ``bots_file`` played by their weights
    (:func:`simkit.tune.bots.presets.played_as`); unchanged without a file."""
    if bots_file is None or bots is None:
        return bots
    from simkit.tune.bots.presets import aliases, played_as

    return played_as(bots, aliases(bots_file, game))


def preset_option(help: str = "Rules preset (default: the game's).") -> Callable:
    """``--preset``: a rules preset (no short flag: -p is --players)."""
    return click.option("--preset", help=help)


def set_option(
    help: str = "Override a variant parameter (repeatable), e.g. --set hand_size=6.",
) -> Callable:
    """``--set NAME=VALUE``, repeatable, into ``overrides`` (:func:`parse_overrides`)."""
    return click.option("--set", "overrides", multiple=True, metavar="NAME=VALUE", help=help)


def track_option(help: str, **kw: Any) -> Callable:
    """``--track``: a track name or TOML file (no short flag: -t is --threads)."""
    return click.option("--track", help=help, **kw)


def budget_option(help: str, type: click.ParamType) -> Callable:
    """``--budget``: the races a search may play in all, within the command's bound ``type``
    (no short flag: -b is --bots). A count of anything else has its own name (``bots tune
    --evaluations``)."""
    return click.option("--budget", type=type, help=help)


def max_races_option(help: str, type: click.ParamType, **kw: Any) -> Callable:
    """``--max-races``: the most races a cell plays, where a command stops or settles on
    its own before that (a scenario's ``precision.max_races``)."""
    return click.option("--max-races", type=type, help=help, **kw)


def confirm_option(help: str, type: click.ParamType) -> Callable:
    """``--confirm``: fresh races that confirm a search's result, within the command's
    bound ``type``."""
    return click.option("--confirm", type=type, help=help)


def threads_option() -> Callable:
    """``--threads/-t``: kernel threads."""
    return click.option(
        "--threads",
        "-t",
        type=click.IntRange(1, MAX_THREADS),
        help="Kernel threads (default: all cores).",
    )


def dask_option(
    help: str = "Run chunks on the Dask scheduler at ADDR (tcp://host:8786), or a local cluster.",
) -> Callable:
    """``--dask ADDR|local``: a Dask scheduler."""
    return click.option("--dask", metavar="ADDR|local", help=help)


def out_option(help: str, type: click.ParamType = _OUT) -> Callable:
    """``--out/-o``: the folder (or, given its ``type``, the file) a command writes."""
    return click.option("--out", "-o", type=type, help=help)


def force_option(help: str) -> Callable:
    """``--force``: replace what the output folder or file holds."""
    return click.option("--force", is_flag=True, help=help)


def resume_option(help: str) -> Callable:
    """``--resume DIR``, the one resume contract: the folder a command continues.

    Every command that resumes (``run``, ``tune``, ``ladder``, ``bots tune``) takes the
    folder as the option's value; :func:`resumed` then refuses the options that describe a
    new one.
    """
    return click.option("--resume", type=click.Path(path_type=Path), metavar="DIR", help=help)


def _given(value: Any) -> bool:
    return not (value is None or value is False or (isinstance(value, tuple) and not value))


def resumed(resume: Path, what: str, given: Iterable[tuple[str, Any]]) -> Path:
    """The folder of ``--resume DIR``, after refusing the ``(name, value)`` pairs given
    (those that describe a new run: they are the folder's own) and a DIR that is no folder
    (``what`` it should be, e.g. "a run directory")."""
    names = [name for name, value in given if _given(value)]
    if names:
        raise click.UsageError(f"{', '.join(names)} cannot be used with --resume")
    if not resume.is_dir():
        raise click.UsageError(f"--resume takes {what} (got '{resume}')")
    return resume


def renamed_option(*old: str, into: str, new: str, write: str, **kw: Any) -> Callable:
    """An option's old name, kept so that old command lines still work, hidden from --help.

    Its value goes to the command's parameter ``into`` (shown to the user as ``new``: GAME,
    --evaluations), after one line on stderr saying how to write it now (``write``, a format
    of ``{command}``, e.g. ``simkit race``, and ``{value}``). The old and the new name both
    given with different values is a usage error; ``kw`` is the option's type and bounds.
    """
    dest = f"{into}_as_before"

    def decorate(f: Callable) -> Callable:
        @functools.wraps(f)
        def run(*args: Any, **kwargs: Any) -> Any:
            before, now = kwargs.pop(dest), kwargs[into]
            if before is not None:
                ctx = click.get_current_context()
                names = "/".join(old)
                given = ctx.get_parameter_source(into) not in (None, ParameterSource.DEFAULT)
                if given and now != before:
                    raise click.UsageError(
                        f"{new} {shown(now)} and the old {names} {shown(before)} differ; "
                        f"give {new} only"
                    )
                path = " ".join(["simkit", *ctx.command_path.split()[1:]])
                how = write.format(command=path, value=before)
                click.echo(f"{path}: {names} is deprecated; write {how}", err=True)
                kwargs[into] = before
            return f(*args, **kwargs)

        return click.option(*old, dest, hidden=True, **kw)(run)

    return decorate
