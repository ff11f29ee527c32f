"""Strength against price: races per CPU-second of each Snow Tails bot on a track and
player count no fit used (Hairpin Valley, 2 sleds), every seat that bot, one thread.
``docs/bots.md`` ("Strength against price") pairs these with the ladder's ratings.

``python -m bench.frontier [BOT=RACES ...]``: the default bots with their race counts
(about 10 s of CPU each), or the ones given. Prints each bot's rate and its multiple of
search:64's in the same run.

The bots are timed in ``ROUNDS`` interleaved rounds (each bot a quarter of its races, on
fresh keys, then the next bot), so a change of load on this shared machine falls on every
bot alike instead of on whichever ran then: one bot timed at once moved search:64's rate
by a fifth between runs (77 and 95 races per CPU-second within half an hour). The
multiple is of the totals; the range is the lowest and highest of the rounds' multiples.
"""

from __future__ import annotations

import sys

from bench.common import rate

TRACK = "hairpins"
PLAYERS = 2
ROUNDS = 4
BOTS = {
    "greedy:tuned": 40_000,
    "policy:distilled": 10_000,
    "search:8h2vp3s5@policy:distilled": 12_000,
    "search:6h2vp3c4@policy:distilled": 12_000,
    "search:8h2vp3@policy:distilled": 8_000,
    "search:4": 3_000,
    "search:16h3": 2_000,
    "search:16h3v": 2_000,
    "search:16h2v": 2_000,
    "search:16h1v": 3_000,
    "search:16": 1_200,
    "search:32h3": 1_200,
    "search:64": 1_200,
}


def main(argv: list[str]) -> int:
    bots = dict(BOTS)
    if argv:
        bots = {}
        for arg in argv:
            name, _, races = arg.partition("=")
            bots[name] = int(races or 200)
    print(f"races per CPU-second, snowtails, {TRACK}, {PLAYERS} sleds, every seat the bot:")
    cells = {bot: {"players": PLAYERS, "track": TRACK, "bots": bot} for bot in bots}
    for cell in cells.values():
        rate("snowtails", 1, 2, **cell)  # compile (or load the cache) outside the timing
    seconds = {bot: [] for bot in bots}  # CPU seconds of each round
    for k in range(ROUNDS):
        for bot, races in bots.items():
            n = races // ROUNDS
            _, per = rate("snowtails", 1, n, first=k * n, **cells[bot])
            seconds[bot].append(n / per)
    ref = "search:64" if "search:64" in bots else None
    for bot, races in bots.items():
        n = races // ROUNDS
        r = n * ROUNDS / sum(seconds[bot])
        times = ""
        if ref:
            n64 = bots[ref] // ROUNDS
            each = [n * s64 / (n64 * s) for s, s64 in zip(seconds[bot], seconds[ref], strict=True)]
            times = f"  {r / (n64 * ROUNDS / sum(seconds[ref])):6.1f}x search:64"
            times += f" (rounds {min(each):.1f} to {max(each):.1f})" if bot != ref else ""
        print(f"  {bot:14s} {r:10,.1f} races per CPU-second ({n * ROUNDS:,} races){times}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
