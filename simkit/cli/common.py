"""What every command shares: error translation, option parsing, games from the registry."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import click

from simkit.errors import SimkitError


class SimkitGroup(click.Group):
    """A click group whose commands turn ``SimkitError`` into a one-line error, exit code 1."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except SimkitError as exc:
            raise click.ClickException(str(exc)) from exc


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
        try:
            value = json.loads(raw)
        except json.JSONDecodeError:
            value = raw
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
