"""Snow Tails' bots against the code of a named baseline commit, in the same run.

Issue 34 asks search:64's rollouts to get at least 3x faster *for the same races*, issue
38 greedy's races faster (its share of the yardstick: ``bench/yardstick.py``). This
exports ``BASELINE``'s ``simkit`` package (``git archive``, into a temporary folder; no old
code is kept in the package) and runs the same measurement in two long-lived child
interpreters, one importing today's code and one the baseline's (``PYTHONPATH``, each with
its own numba cache under ``NUMBA_CACHE_DIR``). Their timings interleave: each round times
every row in both, on that round's race keys, the order of the two swapped from round to
round, so a change of load on a shared machine falls on both alike. Every row's tables
(every seat and race column, and the heat) must be identical in both, round by round, and
so must those of ``SAME`` (every other kind of bot, a few races each): the bench stops
with the first column that differs. A bot whose races a later fix changed by design
(``CHANGED``) is timed all the same, and its line says which fix and that its tables were
not compared.

Rows are races per CPU-second at one thread (the children's own CPU time around
``simulate``), then today's over the baseline's, the median and the range of the rounds'
ratios; then today's against ``NUMBA_DISABLE_JIT=1`` (one race at 2 sleds, in a fresh
interpreter: a search race un-jitted takes minutes); last, each side's cold compile of a
search:64 cell (``bench/compile.py``'s measure, with an empty numba cache).

``python -m bench.baseline [REVISION]`` runs this block alone (default ``BASELINE``).
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from bench.common import child
from bench.compile import cold_seconds

ROOT = Path(__file__).resolve().parents[1]
# The code issue 34 measured search:64 at (before its rollouts got faster): every row is
# measured against it. Move it forward only with a reason (a later rules fix changes races).
BASELINE = "7d28aaf"
ROUNDS = 5
TRACK = "nutcracker"
# (bot, sleds): races per round, about 3 s of the baseline's CPU each (greedy, the
# rollouts' policy and the demo's lower level, first).
ROWS = {
    ("greedy", 4): 40_000,
    ("search:64", 2): 60,
    ("search:64", 4): 30,
    ("search:6h2wp3c4@policy:distilled", 2): 1_200,
    ("search:6h2wp3c4@policy:distilled", 4): 600,
}
# Cells whose tables must match the baseline's too (a few races each, not timed): every
# kind of bot, and Mush! Mush!'s rules (trees, buildings, the start row, the bonus dice).
SAME = [
    ("snowtails", {"bots": "greedy", "players": 4, "track": TRACK}, 2_000),
    ("snowtails", {"bots": "greedy:tuned", "players": 3, "track": "hairpins"}, 2_000),
    ("snowtails", {"bots": "random", "players": 4, "track": TRACK}, 2_000),
    ("mushmush", {"bots": "greedy:tuned", "players": 5, "track": "mm5-what-goes-up"}, 1_000),
    ("snowtails", {"bots": "search:16h2v", "players": 3, "track": "hairpins"}, 20),
    ("mushmush", {"bots": "search:16h2w", "players": 3, "track": "mm2-tighter-than-i-thought"}, 10),
    ("snowtails", {"bots": "search:8h2vp3@policy:distilled", "players": 4, "track": TRACK}, 40),
    ("snowtails", {"bots": "search:8h2wp3s5@policy:distilled", "players": 3}, 40),
    ("snowtails", {"bots": "policy:distilled", "players": 4, "track": "s-bends"}, 400),
    ("mushmush", {"bots": ["search:16", "greedy", "random"], "players": 3}, 10),
    ("mushmush", {"bots": "search:8", "players": 4, "preset": "mushmush-tournament"}, 4),
    ("snowtails", {"bots": "search:8", "players": 3, "preset": "snowtails-season"}, 4),
]

# Later fixes that change some bots' races by design: a row or cell of such a bot is still
# timed on the baseline's race keys, but its tables are not held to the baseline's and its
# line says why (its multiple then includes what the fix changed). Each: (commit, what it
# changed, which bots: a predicate on a bot's name).
CHANGED = (
    (
        "95c7cbf",
        "a search with a horizon whose place is settled plays greedy's best",
        lambda bot: "h" in bot.partition("@")[0].partition("search:")[2],
    ),
)


def changed(cell: dict) -> list[str]:
    """The ``CHANGED`` fixes that touch a bot of ``cell``, each as "commit: what"."""
    bots = [cell["bots"]] if isinstance(cell["bots"], str) else list(cell["bots"])
    return [f"{sha}: {what}" for sha, what, hit in CHANGED if any(hit(b) for b in bots)]


_SERVER = """
import hashlib, json, sys, time
import numpy as np
import simkit
assert simkit.__file__.startswith(sys.argv[1]), (simkit.__file__, sys.argv[1])
from simkit.games import get
from simkit.games.cells import build_cell
from simkit.rng import race_keys
for line in sys.stdin:
    ask = json.loads(line)
    game = get(ask["game"])
    cell = build_cell(ask["game"], **ask["cell"])
    keys = race_keys(1, 0, np.arange(ask["first"], ask["first"] + ask["races"]))
    t0 = time.process_time()
    batch = game.simulate(cell, keys, threads=1)
    cpu = time.process_time() - t0
    tables = {f"seats.{k}": v for k, v in batch.seats.items()}
    tables.update({f"races.{k}": v for k, v in batch.races.items()})
    tables.update({f"heat.{k}": v for k, v in batch.heat.items()})
    sums = {k: hashlib.sha256(np.ascontiguousarray(v).tobytes()).hexdigest()
            for k, v in tables.items()}
    print(json.dumps({"cpu": cpu, "tables": sums}), flush=True)
"""


class Side:
    """One child interpreter serving ``simulate`` calls on one tree's ``simkit``."""

    def __init__(self, label: str, tree: Path, cache: Path) -> None:
        self.label = label
        self.tree = tree
        env = {**os.environ, "PYTHONPATH": str(tree), "NUMBA_CACHE_DIR": str(cache)}
        self.proc = subprocess.Popen(
            [sys.executable, "-c", _SERVER, str(tree)],
            env=env,
            cwd=tree,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def run(
        self, cell: dict, first: int, races: int, game: str = "snowtails"
    ) -> tuple[float, dict[str, str]]:
        """(CPU seconds, digest of each table column) of ``races`` races from ``first``."""
        ask = {"game": game, "cell": cell, "first": first, "races": races}
        self.proc.stdin.write(json.dumps(ask) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"bench.baseline: the {self.label} child stopped (see stderr)")
        out = json.loads(line)
        return out["cpu"], out["tables"]

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait()


def _export(revision: str, into: Path) -> str | None:
    """``revision``'s ``simkit`` package into ``into``; its full hash, or None without git
    or the commit (a tarball, a shallow clone)."""
    try:
        sha = subprocess.run(
            ["git", "-C", str(ROOT), "rev-parse", "--verify", f"{revision}^{{commit}}"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        tar = subprocess.run(
            ["git", "-C", str(ROOT), "archive", "--format=tar", sha, "simkit"],
            capture_output=True,
            check=True,
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    subprocess.run(["tar", "-x", "-C", str(into)], input=tar, check=True)
    return sha


def _same(cell: dict, a: dict[str, str], b: dict[str, str]) -> None:
    """Stop unless every column both tables hold is identical (a column one of them lacks,
    added or renamed since the baseline, is not compared)."""
    common = sorted(set(a) & set(b))
    differ = [k for k in common if a[k] != b[k]]
    if differ or not common:
        raise SystemExit(f"bench.baseline: tables differ from the baseline's ({cell}): {differ}")


def main(argv: list[str]) -> int:
    revision = argv[0] if argv else BASELINE
    cache = Path(os.environ.get("NUMBA_CACHE_DIR", ROOT / ".numba_cache"))
    with tempfile.TemporaryDirectory(prefix="simkit-baseline-") as tmp:
        sha = _export(revision, Path(tmp))
        if sha is None:
            print(f"baseline: commit {revision} not available (no git history); skipped")
            return 0
        sides = [
            Side(f"baseline {sha[:7]}", Path(tmp), cache / f"baseline-{sha[:12]}"),
            Side("today", ROOT, cache),
        ]
        try:
            measure(sides, sha)
        finally:
            for side in sides:
                side.close()
    return 0


def measure(sides: list[Side], sha: str) -> None:
    """Print the rows: each side's races per CPU-second, and today's multiple."""
    base, today = sides
    cells = {(bot, sleds): {"bots": bot, "players": sleds, "track": TRACK} for bot, sleds in ROWS}
    for cell in cells.values():
        for side in sides:
            side.run(cell, 0, 1)  # compile, or load the cache, outside the timings
    seconds = {row: {side.label: [] for side in sides} for row in ROWS}
    for k in range(ROUNDS):
        for row, races in ROWS.items():
            got = {}
            for side in sides if k % 2 == 0 else sides[::-1]:
                cpu, got[side.label] = side.run(cells[row], 1 + k * races, races)
                seconds[row][side.label].append(cpu)
            if not changed(cells[row]):
                _same(cells[row], *got.values())
    print(f"bots against the baseline {sha[:7]} (bench/baseline.py), {TRACK}, 1 thread,")
    print(
        f"  {ROUNDS} interleaved rounds on the same race keys, tables identical in each "
        "(but where a later fix changed the races, said so):"
    )
    for row, races in ROWS.items():
        bot, sleds = row
        b, t = seconds[row][base.label], seconds[row][today.label]
        n = races * ROUNDS
        each = [x / y for x, y in zip(b, t, strict=True)]
        print(
            f"  {bot} {sleds} sleds: baseline {n / sum(b):8.1f}  today {n / sum(t):8.1f} races"
            f" per CPU-second  today {statistics.median(each):5.2f}x (the rounds' median;"
            f" {min(each):.2f} to {max(each):.2f}; {n} races)"
            + "".join(f"; races changed by {c}, tables not compared" for c in changed(cells[row]))
        )
    same = [c for c in SAME if not changed(c[1])]
    for game, cell, races in same:
        got = [side.run(cell, 0, races, game)[1] for side in sides]
        _same(cell, *got)
    print(f"  tables identical to the baseline's also for: {_names(same)}")
    moved = [c for c in SAME if changed(c[1])]
    if moved:
        why = "; ".join(sorted({x for c in moved for x in changed(c[1])}))
        print(f"  not compared, their races changed by design ({why}): {_names(moved)}")
    slow, _, _ = child("snowtails", 1, {"NUMBA_DISABLE_JIT": "1"}, **cells[("search:64", 2)])
    fast = ROWS[("search:64", 2)] * ROUNDS / sum(seconds[("search:64", 2)][today.label])
    print(
        f"  search:64 2 sleds, NUMBA_DISABLE_JIT=1: {slow:.4f} races/s (1 race);"
        f" jit / no-jit: {fast / slow:,.0f}x"
    )
    cell = cells[("search:64", 2)]
    cold = {side.label: cold_seconds("snowtails", cell, side.tree) for side in sides}
    print(
        f"  cold compile of a search:64 cell, empty numba cache: baseline"
        f" {cold[base.label]:.1f} s, today {cold[today.label]:.1f} s of CPU"
    )


def _names(cells: list[tuple[str, dict, int]]) -> str:
    out = []
    for game, cell, races in cells:
        bots = cell["bots"] if isinstance(cell["bots"], str) else "+".join(cell["bots"])
        where = ", ".join(str(cell[k]) for k in ("preset", "track") if k in cell) or game
        out.append(f"{bots} ({cell['players']} sleds, {where}, {races:,} races)")
    return "; ".join(out)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
