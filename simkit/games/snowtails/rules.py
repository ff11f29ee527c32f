"""Small rule kernels shared by the turn, the bots and the state oracle.

What a play is and what it does to the dogs and brake (R-12, R-13, R-01, R-14), and the
race order (R-03, R-04).
"""

from __future__ import annotations

from numba import njit

from simkit.games.snowtails.layout import (
    M_BRAKE,
    M_LEFT,
    M_RIGHT,
    OUT,
    RACING,
    S_LEFT,
    S_LEVEL,
    S_RIGHT,
    S_TIE,
    ST_BRAKE,
    ST_LEFT,
    ST_RIGHT,
    ST_SPACE,
    ST_STATUS,
)
from simkit.games.snowtails.params import (
    K_BONUS_R1,
    K_BONUS_RULE,
    K_BRAKE_ON,
    K_MAX_CARDS,
    MAX_VALUE,
)


@njit(cache=True, inline="always")
def popcount3(mask):
    return (mask & 1) + ((mask >> 1) & 1) + ((mask >> 2) & 1)


@njit(cache=True, inline="always")
def list_plays(hand, p, prm, plays):
    """Every legal play of seat ``p`` into ``plays`` rows (value, mask); returns the count.

    R-12: 1 to ``max_cards`` cards of one value, at most one onto each of left dog, right
    dog and brake (the brake only when the variant has one).
    """
    n = 0
    top = 8 if prm[K_BRAKE_ON] != 0 else 4
    for v in range(MAX_VALUE + 1):
        have = hand[p, v]
        if have == 0:
            continue
        for mask in range(1, top):
            k = popcount3(mask)
            if k <= have and k <= prm[K_MAX_CARDS]:
                plays[n, 0] = v
                plays[n, 1] = mask
                n += 1
    return n


@njit(cache=True, inline="always")
def play_effect(st, p, v, mask, prm, rnd, pos):
    """Dogs, brake, speed, drift and bonus size after seat ``p`` plays ``v`` onto ``mask``.

    Returns (left, right, brake, speed, drift, drift column, raw drift, bonus size):
    speed = left + right - brake, 0 when not positive (R-13); drift is the dogs'
    difference toward the stronger dog, capped at the speed (R-01); the bonus is the race
    position for a balanced sled with speed >= 1, not in round 1 (R-14), else 0.
    """
    left = v if mask & M_LEFT else st[p, ST_LEFT]
    right = v if mask & M_RIGHT else st[p, ST_RIGHT]
    brake = v if mask & M_BRAKE else st[p, ST_BRAKE]
    speed = left + right - brake
    if speed < 0:
        speed = 0
    raw = right - left
    drift = raw if raw > 0 else -raw
    if drift > speed:
        drift = speed  # drift above speed is ignored
    dcol = S_RIGHT if raw > 0 else S_LEFT
    bonus = 0
    if prm[K_BONUS_RULE] == 0 and raw == 0 and speed >= 1 and (rnd > 1 or prm[K_BONUS_R1]):
        bonus = pos
    return left, right, brake, speed, drift, dcol, raw, bonus


@njit(cache=True, inline="always")
def ahead(tab, a, b):
    """Space ``a`` is ahead of space ``b`` in race order (R-03).

    Further along first; on level spaces the ST1 tie-break (inside of the current or next
    corner, flag side on the final straight); the space index only keeps the order total.
    """
    la = tab[a, S_LEVEL]
    lb = tab[b, S_LEVEL]
    if la != lb:
        return la > lb
    ta = tab[a, S_TIE]
    tb = tab[b, S_TIE]
    if ta != tb:
        return ta < tb
    return a < b


@njit(cache=True, inline="always")
def race_order(tab, st, n_seats, racing_only, out):
    """Seats in race order into ``out`` (R-03); eliminated sleds never count. Returns count."""
    n = 0
    for p in range(n_seats):
        s = st[p, ST_STATUS]
        if s == OUT or (racing_only and s != RACING):
            continue
        j = n
        while j > 0 and ahead(tab, st[p, ST_SPACE], st[out[j - 1], ST_SPACE]):
            out[j] = out[j - 1]
            j -= 1
        out[j] = p
        n += 1
    return n


@njit(cache=True, inline="always")
def race_position(tab, st, n_seats, p):
    """Seat ``p``'s race position (R-04): 1 + sleds ahead of it still in the race."""
    pos = 1
    for q in range(n_seats):
        if q != p and st[q, ST_STATUS] != OUT and ahead(tab, st[q, ST_SPACE], st[p, ST_SPACE]):
            pos += 1
    return pos


@njit(cache=True, inline="always")
def canine_count(hand, p):
    n = 0
    for v in range(MAX_VALUE + 1):
        n += hand[p, v]
    return n
