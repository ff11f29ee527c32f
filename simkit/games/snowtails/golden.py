"""Regenerate the Snow Tails golden files (``make golden``).

Golden traces pin whole races: when a rule change is intended, rerun this module, review
the diff of ``tests/golden/snowtails/`` like code, and commit it with the change::

    .venv/bin/python -m simkit.games.snowtails.golden

Each case is (file stem, track, bots, run seed, race index); the CLI outputs pinned are
``simkit race --game snowtails --seed 7`` and ``simkit moves docs/examples/state-snowtails.json``.
Mush! Mush! cases (``MM_CASES``, ``MM_CLI_CASES``) go to ``tests/golden/mushmush/``: a race
and a 3-race tournament on tracks 1-3, and the same two CLI outputs for the ``mushmush`` game.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from simkit.rng import race_key

ROOT = Path(__file__).resolve().parents[3]
GOLDEN = ROOT / "tests" / "golden" / "snowtails"
STATE_EXAMPLE = ROOT / "docs" / "examples" / "state-snowtails.json"
MM_GOLDEN = ROOT / "tests" / "golden" / "mushmush"
MM_STATE_EXAMPLE = ROOT / "docs" / "examples" / "state-mushmush.json"
MM_TOUR_TRACKS = ["mm2-tighter-than-i-thought", "mm3-ever-decreasing-circles"]

CASES = [
    ("nutcracker-4-greedy-s7", "nutcracker", ("greedy",) * 4, 7, 0),
    (
        "nutcracker-5-mixed-s1",
        "nutcracker",
        ("greedy", "random", "greedy:bold", "greedy:cautious", "random"),
        1,
        3,
    ),
    ("hairpins-3-mixed-s2", "hairpins", ("greedy:bold", "greedy", "random"), 2, 5),
]


# Mush! Mush! cases: (file stem, preset, overrides, track, bots, run seed, race index).
MM_CASES = [
    (
        "mm1-6-mixed-s4",
        "mushmush",
        {},
        "mm1-old-faithful",
        ("greedy", "random", "greedy:bold", "greedy:cautious", "greedy", "random"),
        4,
        2,
    ),
    (
        "tournament-4-greedy-s5",
        "mushmush-tournament",
        {"race_tracks": MM_TOUR_TRACKS},
        "mm1-old-faithful",
        ("greedy", "greedy:bold", "greedy:cautious", "random"),
        5,
        0,
    ),
]


def trace_case(
    track: str,
    bots: tuple[str, ...],
    seed: int,
    race: int,
    game: str = "snowtails",
    preset: str | None = None,
    overrides: dict | None = None,
) -> dict:
    """The JSON trace of one case, as ``simkit race --json`` prints it."""
    from simkit.games import get
    from simkit.games.cells import build_cell

    cell = build_cell(
        game, preset=preset, overrides=overrides, track=track, players=len(bots), bots=bots
    )
    return get(game).trace(cell, int(race_key(seed, 0, race))).to_json()


def mm_trace_case(case: tuple) -> dict:
    """The JSON trace of one ``MM_CASES`` entry."""
    _, preset, overrides, track, bots, seed, race = case
    return trace_case(track, bots, seed, race, "mushmush", preset, overrides)


def cli_output(args: list[str]) -> str:
    """What ``simkit ARGS`` prints (stdout)."""
    from click.testing import CliRunner

    from simkit.cli import main

    res = CliRunner().invoke(main, args)
    if res.exit_code != 0:
        raise RuntimeError(f"simkit {' '.join(args)} failed: {res.output}")
    return res.output


CLI_CASES = [
    ("race-seed7.txt", ["race", "--game", "snowtails", "--seed", "7"]),
    ("moves-example.txt", ["moves", str(STATE_EXAMPLE)]),
]
MM_CLI_CASES = [
    ("race-seed7.txt", ["race", "--game", "mushmush", "--seed", "7"]),
    ("moves-example.txt", ["moves", str(MM_STATE_EXAMPLE)]),
]


def main() -> int:
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for stem, track, bots, seed, race in CASES:
        data = trace_case(track, bots, seed, race)
        (GOLDEN / f"{stem}.json").write_text(json.dumps(data, indent=1) + "\n")
        print(f"wrote {GOLDEN / stem}.json")
    for name, args in CLI_CASES:
        (GOLDEN / name).write_text(cli_output(args))
        print(f"wrote {GOLDEN / name}")
    MM_GOLDEN.mkdir(parents=True, exist_ok=True)
    for case in MM_CASES:
        data = mm_trace_case(case)
        (MM_GOLDEN / f"{case[0]}.json").write_text(json.dumps(data, indent=1) + "\n")
        print(f"wrote {MM_GOLDEN / case[0]}.json")
    for name, args in MM_CLI_CASES:
        (MM_GOLDEN / name).write_text(cli_output(args))
        print(f"wrote {MM_GOLDEN / name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
