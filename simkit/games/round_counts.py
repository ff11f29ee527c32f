"""Per-round counts and per-race round measures, shared by every game that plays in rounds.

A game's kernel keeps each seat's race position at the end of every round of the race it
is playing (``ranks[r - 1, seat]``, 1-based) and, once the race is over, hands them to
:func:`add_race`. That adds the race to ``Batch.round_position`` (rounds counted from the
start), to ``Batch.end_position`` (rounds counted back from the race's last one), to
``Batch.seat_position`` (by seat, so by bot, instead of start slot) and
writes the race's round measures (:data:`MEASURES`; docs/statistics.md "Drama, lead
changes, uncertainty and stability"). Internal kernel: compiled into each game's batch
kernel (no wrapper, no cache entry); tests call ``add_race.py_func``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

# Per-race measures, in the column order of ``measures`` rows; docs/statistics.md.
MEASURES = ("lead_change", "drama", "stability")
M_LEAD, M_DRAMA, M_STABILITY = range(len(MEASURES))


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def add_race(ranks, n_rounds, n, slot, finish, decided, counts, ends, by_seat, measures):
    """Add one finished race of ``n`` seats and ``n_rounds`` rounds.

    Args:
        ranks: race position of each seat at the end of each round, ``ranks[r - 1, seat]``;
            rows past ``ranks.shape[0]`` (the game's round cap) were not kept.
        slot, finish: each seat's start slot and finish position.
        decided: the race had a single winner who finished (``finish == 1``).
        by_seat: ``Batch.seat_position``, like ``counts`` by seat instead of slot.
        counts, ends: ``Batch.round_position`` and ``Batch.end_position`` (same shape);
            ``ends[k]`` is the round ``k`` rounds before the race's last one. A race longer
            than the cap is left out of ``ends`` (its last rounds were not kept), and its
            measures cover the rounds kept.
        measures: the race's row of measures (``MEASURES``), NaN where undefined.
    """
    kept = min(n_rounds, ranks.shape[0], counts.shape[0])
    winner = -1
    for p in range(n):
        if decided and finish[p] == 1:
            winner = p
    whole = kept == n_rounds
    for r in range(kept):
        k = n_rounds - 1 - r
        for p in range(n):
            f = finish[p] if decided else 0
            counts[r, slot[p] - 1, ranks[r, p] - 1, f] += 1
            by_seat[r, p, ranks[r, p] - 1, f] += 1
            if whole and k < ends.shape[0]:
                ends[k, slot[p] - 1, ranks[r, p] - 1, f] += 1
    for m in range(measures.shape[0]):
        measures[m] = np.nan
    if n < 2 or kept < 1:
        return
    if winner >= 0:
        behind = 0.0
        for r in range(kept):
            behind += (ranks[r, winner] - 1) / (n - 1)
        measures[M_DRAMA] = behind / kept
    if kept < 2:
        return
    changes = 0
    moved = 0.0
    for r in range(1, kept):
        changed = False
        for p in range(n):
            if (ranks[r, p] == 1) != (ranks[r - 1, p] == 1):
                changed = True
            moved += abs(ranks[r, p] - ranks[r - 1, p]) / (n - 1)
        if changed:
            changes += 1
    measures[M_LEAD] = changes / (kept - 1)
    measures[M_STABILITY] = 1.0 - moved / ((kept - 1) * n)


@njit(cache=True, no_cfunc_wrapper=True)
def add_races(ranks, n_rounds, slots, finishes, decided, counts, ends, by_seat, measures):
    """:func:`add_race` for every race of a batch whose positions were computed outside a
    kernel: ``ranks[i]``, ``n_rounds[i]``, ``slots[i]``, ``finishes[i]``, ``decided[i]``
    and ``measures[i]`` are race ``i``'s (Snow Tails' tournaments and seasons)."""
    n = slots.shape[1]
    for i in range(ranks.shape[0]):
        add_race(
            ranks[i],
            n_rounds[i],
            n,
            slots[i],
            finishes[i],
            decided[i],
            counts,
            ends,
            by_seat,
            measures[i],
        )
