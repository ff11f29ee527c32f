"""Strength against price: races per CPU-second of each bot of a game on a setting no fit
used (Snow Tails: Hairpin Valley, 2 sleds; MUSH: 2 mushers; Mushroom Walk: its 2
players), every seat that bot, one thread, and each bot's multiple of the game's strongest
reference bot (search:64, search:16, search:32). ``docs/bots.md`` ("Strength against
price") pairs these with the ladder's ratings.

``python -m bench.frontier [GAME] [BOT=RACES ...]``: every game's default bots with their
race counts (about 10 s of CPU each), or one game's (default snowtails when only bots are
given), or the bots given.

``python -m bench.frontier ground NAME BOT=RACES ...``: the bots given on a held-out or
validation ground (``grounds.by_name``), against search:64 when it is among them.

``python -m bench.frontier heldout [GROUND ...]``: the cheap strong bot (``CHEAP``, each
game's own policy and value) against search:64 on every held-out ground
(``simkit/games/snowtails/heldout.toml``), or the ones named, each timed as above on its own
cell (its game, track and sleds): races per CPU-second of both and the multiple, one row a
ground. ``make bench`` runs it on ``BENCH_GROUNDS`` only (a minute of CPU); docs/bots.md
("The frontier on held-out grounds") pairs the rows with each ground's head to head.

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


CHEAP = "search:6h2xp3c4@policy:broad"  # the cheap strong bot of issue 34
HELD_OUT_RACES = (4_000, 160)  # races of the cheap bot and of search:64 on each ground
BENCH_GROUNDS = ("mm5-st-3", "mm6-mm-2")  # what ``make bench`` times of the held-out set


def main(argv: list[str]) -> int:
    if argv and argv[0] == "heldout":
        return held_out(argv[1:])
    if argv and argv[0] == "ground":  # ground NAME BOT=RACES ...: on a held-out or validation one
        from simkit.games.snowtails.grounds import by_name

        g = by_name(argv[1])
        bots = {n: int(r or 200) for n, _, r in (a.partition("=") for a in argv[2:])}
        frontier(g.game, {"track": g.track, "players": g.players}, "search:64", bots)
        return 0
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
    if not argv and games == list(FRONTIERS):
        held_out(list(BENCH_GROUNDS))
    return 0


def held_out(names: list[str]) -> int:
    """Print the cheap bot's price against search:64 on the held-out grounds ``names``
    (all when empty): one row each."""
    from simkit.games.snowtails.grounds import by_name
    from simkit.games.snowtails.grounds import held_out as grounds

    chosen = [by_name(n) for n in names] if names else list(grounds())
    cheap, ref = HELD_OUT_RACES
    print(f"held-out grounds: {CHEAP} against search:64, races per CPU-second, every seat the bot:")
    print(f"  {'ground':14s} {'cheap':>9s} {'s64':>7s} multiple")
    for g in chosen:
        cell = {"track": g.track, "players": g.players}
        got = frontier(g.game, cell, "search:64", {CHEAP: cheap, "search:64": ref}, quiet=True)
        (r, each), (r64, _) = got[CHEAP], got["search:64"]
        print(
            f"  {g.name:14s} {r:9,.1f} {r64:7,.1f} {r / r64:6.1f}x "
            f"(rounds {min(each):.1f} to {max(each):.1f})  {g.says()}",
            flush=True,
        )
    return 0


def frontier(
    game: str, cell: dict, ref: str, bots: dict[str, int], quiet: bool = False
) -> dict[str, tuple[float, list[float]]]:
    """Print each bot's races per CPU-second and its multiple of ``ref``'s (when timed);
    return, by bot, its rate and its rounds' multiples of ``ref`` (``quiet``: no print)."""
    where = ", ".join(f"{v} {k}" if k == "players" else f"{k} {v}" for k, v in cell.items())
    if not quiet:
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
    out = {}
    for bot, races in bots.items():
        n = races // ROUNDS
        r = n * ROUNDS / sum(seconds[bot])
        times = ""
        each = []
        if has_ref:
            nr = bots[ref] // ROUNDS
            each = [n * sr / (nr * s) for s, sr in zip(seconds[bot], seconds[ref], strict=True)]
            times = f"  {r / (nr * ROUNDS / sum(seconds[ref])):6.1f}x {ref}"
            times += f" (rounds {min(each):.1f} to {max(each):.1f})" if bot != ref else ""
        out[bot] = (r, each)
        if not quiet:
            print(f"  {bot:14s} {r:10,.1f} races per CPU-second ({n * ROUNDS:,} races){times}")
    return out


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
