"""The bots: ``random``, ``greedy`` (rules of thumb) and ``lookahead`` (one ply + evaluation).

Bots see only what their player sees: their own hand and display, the face-up forest,
decay pile and discards, and the opponent's display, sticks and hand size. ``lookahead``
plays each legal action on a copy of the state and ends the turn *without* refilling the
forest, so it never learns the draw pile's order. Bot parameters are a float vector
(``B_*``), set from a bot spec such as ``greedy:cook_at=3`` (see :mod:`.bots`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simkit.games.mushroomwalk.cards import (
    CARD_BASKET,
    CARD_BUTTER,
    CARD_CIDER,
    CARD_MOON,
    CARD_PAN,
    CARD_POISON,
    N_KINDS,
    NIGHT_BASE,
)
from simkit.games.mushroomwalk.layout import (
    A_COOK,
    A_DECAY,
    A_PAN,
    A_SELL,
    A_TAKE,
    EV_DISCARD,
    N_ACTIONS,
    N_SLOTS,
    P_BUTTER_PER,
    P_BUTTER_PTS,
    P_CIDER_PER,
    P_CIDER_PTS,
    P_COOK,
    P_COST,
    P_MIN_COOK,
    P_MIN_SELL,
    P_NIGHT_MULT,
    P_SELL,
    PL_BASKETS,
    PL_HAND,
    PL_PANS,
    PL_SCORE,
    PL_STICKS,
    S_DECAY,
    S_DECAY_N,
    S_ENDED,
    S_FOREST,
    S_FOREST_N,
    S_NIGHT,
    S_NIGHT_END,
    S_NIGHT_TOP,
)
from simkit.games.mushroomwalk.rules import (
    base,
    best_extras,
    discard_card,
    do_action,
    draw_left,
    emit,
    end_of_turn,
    hand_limit,
    hand_size,
    legal,
    mushrooms,
    winner,
)
from simkit.rng import below

BOT_RANDOM = 0
BOT_GREEDY = 1
BOT_LOOKAHEAD = 2

# Bot parameter vector (float64).
B_STICK = 0  # points a walking stick is worth
B_PAN = 1  # points the first pan is worth
B_COOK_AT = 2  # greedy: cook a kind once this many are held
B_ENDGAME = 3  # cards left (draw pile + forest) below which holdings lose value
B_OPP = 4  # lookahead: weight of the opponent's best next take
B_INCOMPLETE = 5  # value of an unfinished set per mushroom, relative to cooking it
B_HOLD = 6  # lookahead: value of a complete set kept in hand, relative to cooking it
N_BPAR = 7


@njit(cache=True)
def _time_factor(s, bpar):
    left = draw_left(s) + s[S_FOREST_N]
    return min(1.0, left / bpar[B_ENDGAME])


@njit(cache=True)
def evaluate(s, p, prm, bpar):
    """Points now plus what the holdings are likely worth before the forest runs out."""
    b = base(p)
    h = b + PL_HAND
    tf = _time_factor(s, bpar)
    sv = bpar[B_STICK] * tf
    pans = s[b + PL_PANS] + s[h + CARD_PAN]
    v = float(s[b + PL_SCORE])
    biggest = 0
    ready = np.zeros(N_KINDS)  # complete sets: each needs a pan of its own
    n_ready = 0
    for k in range(N_KINDS):
        m = mushrooms(s, p, k, prm)
        if m == 0:
            continue
        biggest = max(biggest, m)
        sell = prm[P_SELL + k] * m * sv * (1.0 if m >= prm[P_MIN_SELL] else 0.5)
        if m >= prm[P_MIN_COOK]:
            cookv = prm[P_COOK + k] * m
            if cookv > sell:
                ready[n_ready] = cookv
                n_ready += 1
                continue
            v += sell
        else:
            v += max(prm[P_COOK + k] * m * bpar[B_INCOMPLETE] * (0.6 + 0.4 * m) * tf, sell)
    # the best complete sets get the pans held; a set kept uncooked is worth a little less
    # than the dish (it can still grow, but poison or a full hand can cost it)
    if n_ready > 0:
        vals = np.sort(ready[:n_ready])[::-1]
        for i in range(n_ready):
            v += vals[i] * (bpar[B_HOLD] if i < pans else 0.6 * tf)
    full_b = 1.0 if biggest >= prm[P_BUTTER_PER] else 0.4 * tf
    full_c = 1.0 if biggest >= prm[P_CIDER_PER] else 0.3 * tf
    v += s[h + CARD_BUTTER] * prm[P_BUTTER_PTS] * full_b * 0.8
    v += s[h + CARD_CIDER] * prm[P_CIDER_PTS] * full_c * 0.8
    spare = pans - n_ready  # pans not yet spoken for by a complete set
    if spare > 0:
        v += bpar[B_PAN] * tf + 0.4 * bpar[B_PAN] * tf * min(spare - 1, 2)
    st = s[b + PL_STICKS]
    v += sv * min(st, 8) + 0.3 * sv * max(st - 8, 0)
    v += 1.0 * s[b + PL_BASKETS] * tf
    room = hand_limit(s, p, prm, 0) - hand_size(s, p)
    if room <= 0:
        v -= 2.0
    elif room == 1:
        v -= 0.5
    return v


@njit(cache=True)
def _worth(s, p, c, prm, bpar, tf):
    """Greedy's quick value of one more card ``c`` for ``p``."""
    h = base(p) + PL_HAND
    if c < N_KINDS or (c >= NIGHT_BASE and c < NIGHT_BASE + N_KINDS):
        k = c if c < N_KINDS else c - NIGHT_BASE
        add = 1 if c < N_KINDS else prm[P_NIGHT_MULT]
        m = mushrooms(s, p, k, prm) + add
        done = 1.0 if m >= prm[P_MIN_COOK] else bpar[B_INCOMPLETE] * (0.6 + 0.4 * m)
        cookv = prm[P_COOK + k] * add * done * tf
        sellv = prm[P_SELL + k] * add * bpar[B_STICK] * tf
        return max(cookv, sellv)
    if c == CARD_PAN:
        pans = s[base(p) + PL_PANS] + s[h + CARD_PAN]
        return bpar[B_PAN] * tf if pans == 0 else (0.4 * bpar[B_PAN] * tf if pans == 1 else 0.3)
    if c == CARD_BUTTER:
        return 0.5 * prm[P_BUTTER_PTS] * tf
    if c == CARD_CIDER:
        return 0.4 * prm[P_CIDER_PTS] * tf
    if c == CARD_BASKET:
        return 1.5 * tf
    if c == CARD_MOON:
        return 2.5 * tf
    if c == CARD_POISON:
        return -1.0
    return 0.0


@njit(cache=True)
def _greedy_score(s, p, a, prm, bpar):
    b = base(p)
    tf = _time_factor(s, bpar)
    room = hand_limit(s, p, prm, 0) - hand_size(s, p)
    if a < A_DECAY:
        i = a - A_TAKE
        return _worth(s, p, s[S_FOREST + i], prm, bpar, tf) - prm[P_COST + i] * bpar[B_STICK] * tf
    if a == A_DECAY:
        tot = 0.0
        for j in range(s[S_DECAY_N]):
            tot += _worth(s, p, s[S_DECAY + j], prm, bpar, tf)
        return tot
    if a < A_SELL:
        k = a - A_COOK
        m = mushrooms(s, p, k, prm)
        nb, nc = best_extras(m, s[b + PL_HAND + CARD_BUTTER], s[b + PL_HAND + CARD_CIDER], prm)
        pts = m * prm[P_COOK + k] + nb * prm[P_BUTTER_PTS] + nc * prm[P_CIDER_PTS]
        if m >= bpar[B_COOK_AT] or room <= 1 or tf < 1.0:
            return 10.0 + pts
        return 0.1 * pts - 1.0
    if a < A_PAN:
        k = a - A_SELL
        m = mushrooms(s, p, k, prm)
        keep = prm[P_COOK + k] * m * (1.0 if m >= prm[P_MIN_COOK] else bpar[B_INCOMPLETE])
        gain = prm[P_SELL + k] * m * bpar[B_STICK] * tf * (1.0 if s[b + PL_STICKS] < 6 else 0.3)
        return gain - keep + (2.0 if room <= 0 else 0.0)
    return 0.5 if room <= 1 and s[b + PL_PANS] == 0 else -0.5


@njit(cache=True)
def _threat(s, q, prm, bpar):
    """What ``q`` could grab next turn from the public forest and decay pile.

    Uses generic card values (no peeking at ``q``'s hand, part of which is hidden)."""
    sticks = s[base(q) + PL_STICKS]
    best = 0.0
    for i in range(s[S_FOREST_N]):
        if prm[P_COST + i] <= sticks:
            v = _generic(s[S_FOREST + i], prm, bpar) - prm[P_COST + i] * bpar[B_STICK]
            best = max(best, v)
    tot = 0.0
    for j in range(s[S_DECAY_N]):
        tot += _generic(s[S_DECAY + j], prm, bpar)
    return max(best, tot)


@njit(cache=True)
def _generic(c, prm, bpar):
    if c < N_KINDS:
        return 0.6 * prm[P_COOK + c]
    if c == CARD_PAN:
        return 0.5 * bpar[B_PAN]
    if c == CARD_MOON:
        return 2.5
    if c == CARD_BUTTER:
        return 0.4 * prm[P_BUTTER_PTS]
    if c == CARD_CIDER:
        return 0.3 * prm[P_CIDER_PTS]
    if c == CARD_BASKET:
        return 1.0
    return 0.0


@njit(cache=True)
def choose_discard(s, p, prm, kind, bpar, rng, ri):
    """Which hand card ``p`` gives up to the poison's lower limit ('The poison mushroom')."""
    h = base(p) + PL_HAND
    if kind == BOT_RANDOM:
        r = below(rng, ri, hand_size(s, p))
        for c in range(N_SLOTS):
            if r < s[h + c]:
                return c
            r -= s[h + c]
    best_c = -1
    best_v = 1e300
    before = evaluate(s, p, prm, bpar)
    for c in range(N_SLOTS):
        if s[h + c] > 0:
            s[h + c] -= 1
            loss = before - evaluate(s, p, prm, bpar)
            s[h + c] += 1
            if loss < best_v:
                best_v = loss
                best_c = c
    return best_c


@njit(cache=True)
def pay_poison(s, p, owed, prm, kind, bpar, rng, ri, ev, evc):
    """Discard ``owed`` hand cards chosen by the bot; trace one event per card."""
    for _ in range(owed):
        c = choose_discard(s, p, prm, kind, bpar, rng, ri)
        discard_card(s, p, c)
        emit(ev, evc, s, EV_DISCARD, p, -1, c, 1, 0, 0, 0, 0)


@njit(cache=True)
def _draws_night(s, a):
    """Whether action ``a`` brings a moon (and so a hidden night card) to the player."""
    if a < A_DECAY:
        return s[S_FOREST + a - A_TAKE] == CARD_MOON
    if a == A_DECAY:
        for j in range(s[S_DECAY_N]):
            if s[S_DECAY + j] == CARD_MOON:
                return True
    return False


@njit(cache=True)
def _look(s, p, a, prm, kind, bpar, rng, ri, scratch, top, dummy_ev, dummy_evc):
    """Value of action ``a`` one ply ahead, the night pile's order replaced by a guess.

    The night pile's contents are public (night cards lie face up once taken) but its
    order is not: the copy holds the remaining night cards in rank order, rotated so that
    the ``top``-th comes first. The forest is not refilled, so the draw pile stays unseen.
    """
    scratch[:] = s
    lo = S_NIGHT + s[S_NIGHT_TOP]
    n = s[S_NIGHT_END] - s[S_NIGHT_TOP]
    scratch[lo : lo + n] = np.sort(scratch[lo : lo + n])
    for _ in range(top):
        first = scratch[lo]
        for i in range(n - 1):
            scratch[lo + i] = scratch[lo + i + 1]
        scratch[lo + n - 1] = first
    r = do_action(scratch, p, a, prm, dummy_ev, dummy_evc)
    pay_poison(scratch, p, r[6], prm, kind, bpar, rng, ri, dummy_ev, dummy_evc)
    if scratch[S_ENDED] == 0:
        end_of_turn(scratch, p, prm, False, dummy_ev, dummy_evc)
    v = evaluate(scratch, p, prm, bpar)
    if scratch[S_ENDED] == 0:
        v -= bpar[B_OPP] * _threat(scratch, 1 - p, prm, bpar)
    else:
        w = winner(scratch)  # the action ends the game: only the result counts
        v += 0.0 if w < 0 else (100.0 if w == p else -100.0)
    return v


@njit(cache=True)
def choose(s, p, prm, kind, bpar, rng, ri, mask, scratch, dummy_ev, dummy_evc):
    """The action bot ``kind`` plays for ``p`` (at least one action must be legal)."""
    n = legal(s, p, prm, mask)
    if kind == BOT_RANDOM:
        r = below(rng, ri, n)
        for a in range(N_ACTIONS):
            if mask[a]:
                if r == 0:
                    return a
                r -= 1
    best_a = -1
    best_v = -1e300
    nl = s[S_NIGHT_END] - s[S_NIGHT_TOP]
    for a in range(N_ACTIONS):
        if not mask[a]:
            continue
        if kind == BOT_GREEDY:
            v = _greedy_score(s, p, a, prm, bpar)
        elif nl > 1 and _draws_night(s, a):
            # a moon: average over every night card that could be on top
            v = 0.0
            for top in range(nl):
                v += _look(s, p, a, prm, kind, bpar, rng, ri, scratch, top, dummy_ev, dummy_evc)
            v /= nl
        else:
            v = _look(s, p, a, prm, kind, bpar, rng, ri, scratch, 0, dummy_ev, dummy_evc)
        if v > best_v:
            best_v = v
            best_a = a
    return best_a


def default_bpar(kind: int) -> np.ndarray:
    """Default parameters of bot ``kind`` (lookahead's were tuned against greedy)."""
    v = np.zeros(N_BPAR, dtype=np.float64)
    v[B_STICK] = 0.6
    v[B_PAN] = 4.0
    v[B_COOK_AT] = 4.0
    v[B_ENDGAME] = 16.0
    v[B_OPP] = 1.0
    v[B_INCOMPLETE] = 0.6
    v[B_HOLD] = 0.9
    if kind == BOT_LOOKAHEAD:
        v[B_ENDGAME] = 40.0
        v[B_OPP] = 0.5
        v[B_HOLD] = 0.95
    return v
