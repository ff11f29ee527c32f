"""What every command shares: error translation and common option parsing."""

from __future__ import annotations

import json
from collections.abc import Sequence
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
