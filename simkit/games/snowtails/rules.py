"""Small rule kernels shared by the turn, the bots and the state oracle.

What a play is and what it does to the dogs and brake (R-12, R-13, R-01, R-14, R-23), and
the race order (R-03, R-04, R-29).
"""

from __future__ import annotations

from numba import njit

from simkit.games.snowtails.layout import (
    M_BRAKE,
    M_LEFT,
    M_RIGHT,
    OUT,
    RACING,
    S_FLAG,
    S_LEFT,
    S_LEVEL,
    S_RIGHT,
    S_SEG,
    S_TIE,
    S_TIGHT_IN,
    ST_BRAKE,
    ST_DIE,
    ST_LEFT,
    ST_ORDER,
    ST_RIGHT,
    ST_SPACE,
    ST_STATUS,
)
from simkit.games.snowtails.params import (
    K_BONUS_R1,
    K_BONUS_RULE,
    K_BRAKE_ON,
    K_DIE_MAX,
    K_MAX_CARDS,
    K_TIE_BREAK,
    K_TIGHT_ORDER,
    MAX_VALUE,
)

BONUS_POSITION = 0  # params.BONUS_RULES
BONUS_DICE = 2


@njit(cache=True, inline="always")
def popcount3(mask):
    return (mask & 1) + ((mask >> 1) & 1) + ((mask >> 2) & 1)


@njit(cache=True, inline="always")
def list_plays(hand, p, prm, plays):
    """Every legal play of seat ``p`` into ``plays`` rows (value, mask); returns the count.

    R-12: 1 to ``max_cards`` cards of one value, at most one onto each of left dog, right
    dog and brake (the brake only when the variant has one). ST2 B.1 is the same rule with
    no brake and at most 2 cards: one card onto one dog, or a pair one onto each dog.
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
    difference toward the stronger dog, capped at the speed (R-01). The bonus on offer is,
    for ``position`` (ST1), the race position for a balanced sled with speed >= 1, not in
    round 1 (R-14); for ``dice`` (ST2), the bonus dice after step 2: a balanced sled, not
    in round 1, sets it to its race position (max 6) if that raises it (R-23).
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
    balanced = raw == 0
    if prm[K_BONUS_RULE] == BONUS_POSITION:
        if balanced and speed >= 1 and (rnd > 1 or prm[K_BONUS_R1]):
            bonus = pos
    elif prm[K_BONUS_RULE] == BONUS_DICE:
        bonus = st[p, ST_DIE]
        if balanced and (rnd > 1 or prm[K_BONUS_R1]):
            # R-23 / ST2 B.2: set it to the race position (at most 6), never lowering it.
            want = min(pos, prm[K_DIE_MAX])
            if want > bonus:
                bonus = want
    return left, right, brake, speed, drift, dcol, raw, bonus


@njit(cache=True, inline="always")
def ahead(tab, st, p, q, prm):
    """Seat ``p`` is ahead of seat ``q`` in race order (R-03, R-29).

    A sled not yet on the board (ST2 start row, round 1) is behind every sled on it;
    such sleds go in start order. On a tight corner, with ``tight_corner_order``, sleds in
    its inside lane go before the other sleds on that corner (R-29). Otherwise further
    along first; among level sleds the ST1 tie-break (inside of the current or next corner,
    flag side on the final straight) or the ST2 one (faster sled, then flag side). The
    space index, then the start order, only keep the order total.
    """
    a = st[p, ST_SPACE]
    b = st[q, ST_SPACE]
    if a < 0 or b < 0:
        if a >= 0:
            return True
        if b >= 0:
            return False
        return st[p, ST_ORDER] < st[q, ST_ORDER]
    if (
        prm[K_TIGHT_ORDER] != 0
        and tab[a, S_TIGHT_IN] != tab[b, S_TIGHT_IN]
        and tab[a, S_SEG] == tab[b, S_SEG]
    ):
        return tab[a, S_TIGHT_IN] != 0
    la = tab[a, S_LEVEL]
    lb = tab[b, S_LEVEL]
    if la != lb:
        return la > lb
    if prm[K_TIE_BREAK] == 0:
        ta = tab[a, S_TIE]
        tb = tab[b, S_TIE]
        if ta != tb:
            return ta < tb
    else:
        va = st[p, ST_LEFT] + st[p, ST_RIGHT] - st[p, ST_BRAKE]
        vb = st[q, ST_LEFT] + st[q, ST_RIGHT] - st[q, ST_BRAKE]
        if va != vb:
            return va > vb
        ta = tab[a, S_FLAG]
        tb = tab[b, S_FLAG]
        if ta != tb:
            return ta < tb
    if a != b:
        return a < b
    return st[p, ST_ORDER] < st[q, ST_ORDER]


@njit(cache=True, inline="always")
def race_order(tab, st, n_seats, racing_only, out, prm):
    """Seats in race order into ``out`` (R-03); eliminated sleds never count. Returns count.

    ``racing_only`` keeps only sleds still racing (not finished, not repairing).
    """
    n = 0
    for p in range(n_seats):
        s = st[p, ST_STATUS]
        if s == OUT or (racing_only and s != RACING):
            continue
        j = n
        while j > 0 and ahead(tab, st, p, out[j - 1], prm):
            out[j] = out[j - 1]
            j -= 1
        out[j] = p
        n += 1
    return n


@njit(cache=True, inline="always")
def race_position(tab, st, n_seats, p, prm):
    """Seat ``p``'s race position (R-04): 1 + sleds ahead of it still in the race
    (finished and repairing sleds count, eliminated ones do not)."""
    pos = 1
    for q in range(n_seats):
        if q != p and st[q, ST_STATUS] != OUT and ahead(tab, st, q, p, prm):
            pos += 1
    return pos


@njit(cache=True, inline="always")
def canine_count(hand, p):
    n = 0
    for v in range(MAX_VALUE + 1):
        n += hand[p, v]
    return n
