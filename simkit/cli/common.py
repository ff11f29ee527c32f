"""What every command shares: error translation, option parsing, games from the registry."""

from __future__ import annotations

import errno
import json
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import click

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
    if exc.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
        return f"cannot write {where} ({why}); free some space, then {then}"
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


class ExamplesCommand(click.Command):
    """A command whose help ends with the games' own examples of it (``Game.examples``)."""

    def format_epilog(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        from simkit.games import games

        super().format_epilog(ctx, formatter)
        words = ctx.command_path.split()[1:]
        prefix = " ".join(["simkit", *words]) + " "
        lines = [line for g in games() for line in g.examples if line.startswith(prefix)]
        if lines:
            with formatter.section("Examples from the games"):
                for line in lines:  # unwrapped, so each can be pasted
                    formatter.write(f"{'':>{formatter.current_indent}}{line}\n")
