"""The balanced design of a ladder: which bot sits in which seat (docs/ladder.md).

Below the runner, which checks skill levels with the same design (:mod:`simkit.runner.levels`),
and below :mod:`simkit.ladder`, which plays it.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence


def lineups(bots: Sequence[str], players: int) -> list[tuple[str, ...]]:
    """The balanced design: which bot sits in which seat, one tuple per lineup.

    With at least as many bots as seats (K >= N): every set of N of the K bots, each in its N
    cyclic rotations over the seats (a Latin square per set), so each pair of bots also
    shares equally many lineups. With fewer bots than seats, the K rotations of the bots
    repeated along the seats (seat j of rotation r gets bot ``(j + r) % K``); pairs then
    meet nearly, not exactly, equally often. Either way every bot sits in every seat equally
    often, the smallest design that does (N lineups, not N! orders, per set). Under common
    random numbers race ``i`` of every lineup draws the same seat-to-slot order (R-06), so
    every bot also starts from every slot equally often at every race index, not just on
    average. Bots first appear in the order given, which is how :func:`bots_of` reads them
    back.
    """
    k = len(bots)
    if k >= players:
        sets = itertools.combinations(bots, players)
        return [
            tuple(s[(j + r) % players] for j in range(players))
            for s in sets
            for r in range(players)
        ]
    return [tuple(bots[(j + r) % k] for j in range(players)) for r in range(k)]


def lineup_count(bots: int, players: int) -> int:
    """How many lineups :func:`lineups` makes, without making them."""
    return math.comb(bots, players) * players if bots >= players else bots


def bots_of(design: Sequence[Sequence[str]]) -> tuple[str, ...]:
    """The ladder's bots in their given order (first appearance in the lineups)."""
    return tuple(dict.fromkeys(b for lineup in design for b in lineup))
