"""Strength against price: races per CPU-second of each Snow Tails bot on a track and
player count no fit used (Hairpin Valley, 2 sleds), every seat that bot, one thread.
``docs/bots.md`` ("Strength against price") pairs these with the ladder's ratings.

``python -m bench.frontier [BOT=RACES ...]``: the default bots with their race counts
(about 10 s of CPU each), or the ones given. Prints each bot's rate and its multiple of
search:64's in the same run.
"""

from __future__ import annotations

import sys

from bench.common import rate

TRACK = "hairpins"
PLAYERS = 2
BOTS = {
    "greedy:tuned": 40_000,
    "policy:distilled": 10_000,
    "search:8h2vp3@policy:distilled": 2_000,
    "search:4": 3_000,
    "search:16h3": 2_000,
    "search:16h3v": 2_000,
    "search:16h2v": 2_000,
    "search:16h1v": 3_000,
    "search:16": 1_200,
    "search:32h3": 1_200,
    "search:64": 400,
}


def main(argv: list[str]) -> int:
    bots = dict(BOTS)
    if argv:
        bots = {}
        for arg in argv:
            name, _, races = arg.partition("=")
            bots[name] = int(races or 200)
    print(f"races per CPU-second, snowtails, {TRACK}, {PLAYERS} sleds, every seat the bot:")
    rates = {}
    for bot, races in bots.items():
        cell = {"players": PLAYERS, "track": TRACK, "bots": bot}
        rate("snowtails", 1, 2, **cell)  # compile (or load the cache) outside the timing
        _, rates[bot] = rate("snowtails", 1, races, **cell)
    ref = rates.get("search:64")
    for bot, r in rates.items():
        times = f"  {r / ref:6.1f}x search:64" if ref else ""
        print(f"  {bot:14s} {r:10,.1f} races per CPU-second ({bots[bot]:,} races){times}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
