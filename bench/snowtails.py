"""Snow Tails throughput: races/s with 4 greedy bots on The Nutcracker, the JIT's gain,
and the warm start (``bench.common.engine_rows``).

Races: ``SIMKIT_BENCH_SNOWTAILS_RACES`` (default 20,000); 3 races without the JIT.
"""

from __future__ import annotations

import os

from bench.common import engine_rows

RACES = int(os.environ.get("SIMKIT_BENCH_SNOWTAILS_RACES", "20000"))


def main() -> None:
    engine_rows(
        "snowtails",
        RACES,
        3,
        "4 greedy bots, nutcracker",
        players=4,
        bots="greedy",
        track="nutcracker",
    )


if __name__ == "__main__":
    main()
