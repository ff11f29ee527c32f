"""Small rule kernels shared by the turn, the bots and the state oracle.

What a play is and what it does to the dogs and brake (R-12, R-13, R-01, R-14, R-23), the
race order (R-03, R-04, R-29), and which sleds block a space. ``cfg`` is the cell record
(``records.cell_dtype``), ``pos`` a position (``records.POSITION``).
"""

from __future__ import annotations

from numba import njit

from simkit.games.snowtails.records import (
    FINISHED,
    M_BRAKE,
    M_LEFT,
    M_RIGHT,
    N_VALUES,
    OUT,
    RACING,
    S_FLAG,
    S_LEFT,
    S_LEVEL,
    S_RIGHT,
    S_SEG,
    S_TIE,
    S_TIGHT_IN,
    S_TREE,
)

BONUS_POSITION = 0  # params.BONUS_RULES
BONUS_DICE = 2


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def popcount3(mask):
    return (mask & 1) + ((mask >> 1) & 1) + ((mask >> 2) & 1)


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def list_plays(cfg, pos, p, plays):
    """Every legal card play of seat ``p`` into ``plays`` rows (value, mask); returns the count.

    R-12: 1 to ``max_cards`` cards of one value, at most one onto each of left dog, right
    dog and brake (the brake only when the variant has one). ST2 B.1 is the same rule with
    no brake and at most 2 cards: one card onto one dog, or a pair one onto each dog.
    """
    n = 0
    top = 8 if cfg.brake != 0 else 4
    for v in range(N_VALUES):
        have = pos.hand[p, v]
        if have == 0:
            continue
        for mask in range(1, top):
            k = popcount3(mask)
            if k <= have and k <= cfg.max_cards:
                plays[n, 0] = v
                plays[n, 1] = mask
                n += 1
    return n


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def play_effect(cfg, pos, p, v, mask, rnd, rank):
    """Dogs, brake, speed, drift and bonus size after seat ``p`` plays ``v`` onto ``mask``.

    Returns (left, right, brake, speed, drift, drift column, raw drift, bonus size):
    speed = left + right - brake, 0 when not positive (R-13); drift is the dogs'
    difference toward the stronger dog, capped at the speed (R-01). The bonus on offer is,
    for ``position`` (ST1), the race position ``rank`` for a balanced sled with speed >= 1,
    not in round 1 (R-14); for ``dice`` (ST2), the bonus dice after step 2: a balanced sled,
    not in round 1, sets it to its race position (max 6) if that raises it (R-23).
    """
    left = v if mask & M_LEFT else pos.left[p]
    right = v if mask & M_RIGHT else pos.right[p]
    brake = v if mask & M_BRAKE else pos.brake[p]
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
    if cfg.bonus_rule == BONUS_POSITION:
        if balanced and speed >= 1 and (rnd > 1 or cfg.bonus_first_round):
            bonus = rank
    elif cfg.bonus_rule == BONUS_DICE:
        bonus = pos.die[p]
        if balanced and (rnd > 1 or cfg.bonus_first_round):
            # R-23 / ST2 B.2: set it to the race position (at most 6), never lowering it.
            want = min(rank, cfg.bonus_dice_max)
            if want > bonus:
                bonus = want
    return left, right, brake, speed, drift, dcol, raw, bonus


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def ahead(cfg, pos, p, q):
    """Seat ``p`` is ahead of seat ``q`` in race order (R-03, R-29).

    A sled not yet on the board (ST2 start row, round 1) is behind every sled on it;
    such sleds go in start order. On a tight corner, with ``tight_corner_order``, sleds in
    its inside lane go before the other sleds on that corner (R-29). Otherwise further
    along first; among level sleds the ST1 tie-break (inside of the current or next corner,
    flag side on the final straight) or the ST2 one (faster sled, then flag side). The
    space index, then the start order, only keep the order total.
    """
    a = pos.space[p]
    b = pos.space[q]
    if a < 0 or b < 0:
        if a >= 0:
            return True
        if b >= 0:
            return False
        return pos.order[p] < pos.order[q]
    tab = cfg.tab
    if (
        cfg.tight_corner_order != 0
        and tab[a, S_TIGHT_IN] != tab[b, S_TIGHT_IN]
        and tab[a, S_SEG] == tab[b, S_SEG]
    ):
        return tab[a, S_TIGHT_IN] != 0
    la = tab[a, S_LEVEL]
    lb = tab[b, S_LEVEL]
    if la != lb:
        return la > lb
    if cfg.tie_break == 0:
        ta = tab[a, S_TIE]
        tb = tab[b, S_TIE]
        if ta != tb:
            return ta < tb
    else:
        va = pos.left[p] + pos.right[p] - pos.brake[p]
        vb = pos.left[q] + pos.right[q] - pos.brake[q]
        if va != vb:
            return va > vb
        ta = tab[a, S_FLAG]
        tb = tab[b, S_FLAG]
        if ta != tb:
            return ta < tb
    if a != b:
        return a < b
    return pos.order[p] < pos.order[q]


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def race_order(cfg, pos, racing_only, out):
    """Seats in race order into ``out`` (R-03); eliminated sleds never count. Returns count.

    ``racing_only`` keeps only sleds still racing (not finished, not repairing).
    """
    n = 0
    for p in range(pos.n_seats):
        s = pos.status[p]
        if s == OUT or (racing_only and s != RACING):
            continue
        j = n
        while j > 0 and ahead(cfg, pos, p, out[j - 1]):
            out[j] = out[j - 1]
            j -= 1
        out[j] = p
        n += 1
    return n


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def race_position(cfg, pos, p):
    """Seat ``p``'s race position (R-04): 1 + sleds ahead of it still in the race
    (finished and repairing sleds count, eliminated ones do not)."""
    rank = 1
    for q in range(pos.n_seats):
        if q != p and pos.status[q] != OUT and ahead(cfg, pos, q, p):
            rank += 1
    return rank


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def canine_count(pos, p):
    n = 0
    for v in range(N_VALUES):
        n += pos.hand[p, v]
    return n


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def sled_at(cfg, pos, s):
    """A sled blocks space ``s`` (R-16, R-24): on the board and still in the race; a sled
    that has finished no longer blocks once lifted (``lift_finished``); a repairing one
    does (R-25). Occupancy is derived from the sleds, never stored."""
    for q in range(pos.n_seats):
        st = pos.status[q]
        if pos.space[q] == s and st != OUT and (st != FINISHED or cfg.lift_finished == 0):
            return True
    return False


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def tree_at(cfg, pos, s):
    """A tree stands on space ``s`` (R-21): the track has one there and it is not gone."""
    t = cfg.tab[s, S_TREE]
    return t >= 0 and pos.trees[t] != 0


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def pair_count(cfg, v):
    """Cards of value ``v`` in a fresh deck, the kennels' 5s set aside (ST2 A.5)."""
    n = cfg.deck[v]
    if v == N_VALUES - 1:
        n -= cfg.set_aside
    return n


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def has_pair(cfg):
    """A fresh deck holds an equal, non-zero pair for an experienced sled (ST2 A.5)."""
    for v in range(1, N_VALUES):  # noqa: SIM110 - numba compiles no generator expressions
        if pair_count(cfg, v) >= 2:
            return True
    return False


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def entry_spaces(cfg, pos, out):
    """The start-row spaces a sled entering the board may take (ST2 B): any of them,
    shared or not ("sleds may use the same starting space if they want"). Returns the
    count written to ``out``."""
    r = pos.race
    for i in range(cfg.n_row[r]):
        out[i] = cfg.row[r, i]
    return cfg.n_row[r]
