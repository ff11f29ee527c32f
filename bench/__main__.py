"""``make bench``: throughput of every registered game on this machine.

Snow Tails end to end against the speed yardstick first (``bench/yardstick.py``), then the
runner's overhead (on the game whose ``BenchSpec`` says ``runner=True``), then one
block per game from its ``Game.extras.bench``: races per second with numba at 1 and 2 threads, the
ratio against the same code run with ``NUMBA_DISABLE_JIT=1`` (in a subprocess), the warm
start, and the cost per seat-turn for games with a ``turns`` column. A game's race count is
``SIMKIT_BENCH_<NAME>_RACES`` (e.g. ``SIMKIT_BENCH_SNOWTAILS_RACES=2000``) when set.
Then each game's bots' price on the strength frontier (``bench/frontier.py``), Snow Tails'
searches against the code of a named baseline commit in the same run, tables compared
(``bench/baseline.py``). Last, each game's cold compile (``bench/compile.py``), and
``simkit serve``'s time to an answer (``bench/serve.py``).
"""

from __future__ import annotations

import sys

from bench import baseline, frontier, runner, yardstick
from bench import compile as cold
from bench import serve as live
from bench.common import game_rows


def main() -> int:
    from simkit.games import games

    benched = [g for g in games() if g.extras.bench is not None]
    yardstick.main()
    runner.main(next((g for g in benched if g.extras.bench.runner), None))
    per_turn = {}
    for game in benched:
        rate = game_rows(game)
        if rate is not None:
            per_turn[game.name] = rate
    if len(per_turn) > 1:
        fastest = max(per_turn.values())
        each = ", ".join(f"{n} {r:,.0f}/s ({fastest / r:.2f}x)" for n, r in per_turn.items())
        print(f"per seat-turn at 1 thread (x: slower than the fastest): {each}")
    frontier.main([])
    baseline.main([])
    cold.main(benched)
    live.main()
    return 0


if __name__ == "__main__":
    sys.exit(main())
