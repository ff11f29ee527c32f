"""Regenerate the Snow Tails golden files (``make golden``).

Golden traces pin whole races: when a rule change is intended, rerun this module, review
the diff of ``tests/golden/snowtails/`` like code, and commit it with the change::

    .venv/bin/python -m simkit.games.snowtails.golden

Each case is (file stem, track, bots, run seed, race index); the CLI outputs pinned are
``simkit race --game snowtails --seed 7`` and ``simkit moves docs/examples/state-snowtails.json``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from simkit.rng import race_key

ROOT = Path(__file__).resolve().parents[3]
GOLDEN = ROOT / "tests" / "golden" / "snowtails"
STATE_EXAMPLE = ROOT / "docs" / "examples" / "state-snowtails.json"

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


def trace_case(track: str, bots: tuple[str, ...], seed: int, race: int) -> dict:
    """The JSON trace of one case, as ``simkit race --json`` prints it."""
    from simkit.games import get
    from simkit.games.cells import build_cell

    cell = build_cell("snowtails", track=track, players=len(bots), bots=bots)
    return get("snowtails").trace(cell, int(race_key(seed, 0, race))).to_json()


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


def main() -> int:
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for stem, track, bots, seed, race in CASES:
        data = trace_case(track, bots, seed, race)
        (GOLDEN / f"{stem}.json").write_text(json.dumps(data, indent=1) + "\n")
        print(f"wrote {GOLDEN / stem}.json")
    for name, args in CLI_CASES:
        (GOLDEN / name).write_text(cli_output(args))
        print(f"wrote {GOLDEN / name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
