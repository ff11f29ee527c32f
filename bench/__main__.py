"""``make bench``: throughput of every engine on this machine.

Each game's benchmark reports races per second with numba at 1 and 2 threads, and the
ratio against the same code run with ``NUMBA_DISABLE_JIT=1`` (measured in a subprocess in
the same run). Rows are added as engines land.
"""

from __future__ import annotations

import importlib
import sys

BENCHES = [
    "runner",
    "mush",
    "snowtails",
    "mushmush",
    "mushroomwalk",
]  # module names under bench/, each with a main() that prints its rows


def main() -> int:
    if not BENCHES:
        print("nothing to benchmark yet: no engine has landed")
        return 0
    for name in BENCHES:
        importlib.import_module(f"bench.{name}").main()
    return 0


if __name__ == "__main__":
    sys.exit(main())
