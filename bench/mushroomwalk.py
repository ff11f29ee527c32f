"""Mushroom Walk throughput: games/s with two greedy bots, the JIT's gain, and the
lookahead bot's rate (``bench.common``).

Games: ``SIMKIT_BENCH_MW_GAMES`` (default 50,000); the lookahead row plays a fifth of them;
10 games without the JIT.
"""

from __future__ import annotations

import os

from bench.common import engine_rows, rate

GAMES = int(os.environ.get("SIMKIT_BENCH_MW_GAMES", "50000"))


def main() -> None:
    engine_rows(
        "mushroomwalk", GAMES, 10, "2 greedy bots, preset mushroomwalk", "games", bots="greedy"
    )
    look, _ = rate("mushroomwalk", 1, max(GAMES // 5, 1), bots=["lookahead", "greedy"])
    print(f"  lookahead vs greedy, threads=1: {look:10,.0f} games/s")


if __name__ == "__main__":
    main()
