"""Golden files: whole races and CLI outputs pinned byte for byte (OpenSpiel's playthroughs).

A case says what to run and which file holds its output. Test modules declare their cases
next to the tests that check them, in a module-level list named ``GOLDEN``, and assert
``case.render() == case.read()``. ``make golden`` (``python -m tests.golden.regenerate``)
rewrites the file of every declared case: after an intended rule change, run it, review
the diff like code and commit it with the change.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class TraceCase:
    """One race's JSON trace, as ``simkit race --json`` prints it (a whole unit for seasons)."""

    path: Path
    game: str
    track: str | None
    bots: tuple[str, ...]
    seed: int
    race: int = 0
    preset: str | None = None
    overrides: Mapping[str, Any] = field(default_factory=dict)

    @property
    def id(self) -> str:
        return self.path.stem

    def trace(self) -> dict:
        from simkit.games import get
        from simkit.games.cells import build_cell
        from simkit.rng import race_key

        cell = build_cell(
            self.game,
            preset=self.preset,
            overrides=dict(self.overrides),
            track=self.track,
            players=len(self.bots),
            bots=self.bots,
        )
        return get(self.game).trace(cell, int(race_key(self.seed, 0, self.race))).to_json()

    def render(self) -> str:
        return json.dumps(self.trace(), indent=1) + "\n"

    def read(self) -> str:
        return self.path.read_text()


@dataclass(frozen=True)
class CliCase:
    """What ``simkit ARGS`` prints on stdout (notices on stderr are not part of it)."""

    path: Path
    args: tuple[str, ...]

    @property
    def id(self) -> str:
        return self.path.name

    def render(self) -> str:
        from click.testing import CliRunner

        from simkit.cli import main

        res = CliRunner().invoke(main, list(self.args))
        if res.exit_code != 0:
            raise RuntimeError(f"simkit {' '.join(self.args)} failed: {res.output}")
        return res.stdout

    def read(self) -> str:
        return self.path.read_text()


Case = TraceCase | CliCase
