"""Strength against price: races per CPU-second of each bot of a game on a setting no fit
used (Snow Tails: Hairpin Valley, 2 sleds; MUSH: 2 mushers; Mushroom Walk: its 2
players), every seat that bot, one thread, and each bot's multiple of the game's strongest
reference bot (search:64, search:16, search:32). ``docs/bots.md`` ("Strength against
price") pairs these with the ladder's ratings.

``python -m bench.frontier [GAME] [BOT=RACES ...]``: every game's default bots with their
race counts (about 10 s of CPU each), or one game's (default snowtails when only bots are
given), or the bots given.

The bots are timed in ``ROUNDS`` interleaved rounds (each bot a quarter of its races, on
fresh keys, then the next bot), so a change of load on this shared machine falls on every
bot alike instead of on whichever ran then: one bot timed at once moved search:64's rate
by a fifth between runs (77 and 95 races per CPU-second within half an hour). The
multiple is of the totals; the range is the lowest and highest of the rounds' multiples.
"""

from __future__ import annotations

import sys

from bench.common import rate

ROUNDS = 4
# game: (the cell every bot plays, the reference bot, {bot: races})
FRONTIERS = {
    "snowtails": (
        {"players": 2, "track": "hairpins"},
        "search:64",
        {
            "greedy:tuned": 40_000,
            "policy:distilled": 10_000,
            "search:6h2wp3c4@policy:distilled": 16_000,
            "search:8h2wp3s5@policy:distilled": 16_000,
            "search:8h2wp3@policy:distilled": 12_000,
            "search:6h2vp3c4@policy:distilled": 12_000,
            "search:8h2vp3@policy:distilled": 8_000,
            "search:4": 3_000,
            "search:16h2v": 2_000,
            "search:16": 1_200,
            "search:64": 1_200,
        },
    ),
    "mush": (
        {"players": 2},
        "search:16",
        {"greedy": 40_000, "search:4": 400, "search:8": 200, "search:16": 100},
    ),
    "mushroomwalk": (
        {"players": 2},
        "search:32",
        {"greedy": 100_000, "lookahead": 20_000, "search:8": 4_000, "search:32": 1_200},
    ),
}


def main(argv: list[str]) -> int:
    games = list(FRONTIERS)
    if argv and "=" not in argv[0]:
        if argv[0] not in FRONTIERS:
            print(f"bench.frontier: no frontier for '{argv[0]}' (known: {', '.join(FRONTIERS)})")
            return 2
        games, argv = [argv[0]], argv[1:]
    elif argv:
        games = ["snowtails"]
    for game in games:
        cell, ref, bots = FRONTIERS[game]
        if argv:
            bots = {}
            for arg in argv:
                name, _, races = arg.partition("=")
                bots[name] = int(races or 200)
        frontier(game, cell, ref, bots)
    return 0


def frontier(game: str, cell: dict, ref: str, bots: dict[str, int]) -> None:
    """Print each bot's races per CPU-second and its multiple of ``ref``'s (when timed)."""
    where = ", ".join(f"{v} {k}" if k == "players" else f"{k} {v}" for k, v in cell.items())
    print(f"races per CPU-second, {game}, {where}, every seat the bot:")
    cells = {bot: {**cell, "bots": bot} for bot in bots}
    for c in cells.values():
        rate(game, 1, 2, **c)  # compile (or load the cache) outside the timing
    seconds = {bot: [] for bot in bots}  # CPU seconds of each round
    for k in range(ROUNDS):
        for bot, races in bots.items():
            n = races // ROUNDS
            _, per = rate(game, 1, n, first=k * n, **cells[bot])
            seconds[bot].append(n / per)
    has_ref = ref in bots
    for bot, races in bots.items():
        n = races // ROUNDS
        r = n * ROUNDS / sum(seconds[bot])
        times = ""
        if has_ref:
            nr = bots[ref] // ROUNDS
            each = [n * sr / (nr * s) for s, sr in zip(seconds[bot], seconds[ref], strict=True)]
            times = f"  {r / (nr * ROUNDS / sum(seconds[ref])):6.1f}x {ref}"
            times += f" (rounds {min(each):.1f} to {max(each):.1f})" if bot != ref else ""
        print(f"  {bot:14s} {r:10,.1f} races per CPU-second ({n * ROUNDS:,} races){times}")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
