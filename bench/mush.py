"""MUSH throughput: games/s with 4 greedy bots on the standard route, and the JIT's gain
(``bench.common.engine_rows``).

Games: ``SIMKIT_BENCH_MUSH_GAMES`` (default 20,000); 4 games without the JIT.
"""

from __future__ import annotations

import os

from bench.common import engine_rows

GAMES = int(os.environ.get("SIMKIT_BENCH_MUSH_GAMES", "20000"))


def main() -> None:
    engine_rows(
        "mush", GAMES, 4, "4 greedy bots, standard route", "games", players=4, bots="greedy"
    )


if __name__ == "__main__":
    main()
