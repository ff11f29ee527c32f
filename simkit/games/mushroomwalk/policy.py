"""The heuristic bots: ``greedy`` (rules of thumb) and ``lookahead`` (one ply + evaluation).

:mod:`.choose` gives each decision to its seat's bot; :mod:`.search` builds on ``greedy``,
which plays its rollouts, and on ``evaluate``. Each bot chooses among the plays
``position.legal_plays`` lists, so it sees every choice the book gives a player. Bots read
only what their seat may see (``position.observe``): their own hand and display, the
face-up forest, decay and discard piles, the opponent's display, sticks, hand size and the
cards it saw the opponent take. ``lookahead`` plays every play on samples of the hidden
cards drawn by ``position.determinize``, so it never learns the real draw pile, night pile
or opponent's hand. Bot parameters are a ``records.BOT`` record, set from a bot spec such
as ``greedy:cook_at=3`` (:mod:`.bots`).
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
from simkit.games.mushroomwalk.position import apply, determinize
from simkit.games.mushroomwalk.records import (
    COOK,
    DECAY,
    DISCARD,
    N_SLOTS,
    R_BOT,
    SELL,
    TAKE,
)
from simkit.games.mushroomwalk.rules import (
    draw_left,
    hand_limit,
    hand_size,
    mushrooms,
    night_left,
    winner,
)
from simkit.rng import STREAM_BOT, next_u64, stream_key

# lookahead's scratch positions: the common sample, the one played out, another sample
_COMMON, _EXTRA = np.int64(0), np.int64(2)
_SAMPLES = np.int64(STREAM_BOT)  # the samples' keys: sub-streams of one bot draw


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _time_factor(pos, bot):
    left = draw_left(pos) + pos.forest_n
    return min(1.0, left / bot.endgame)


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _sale(k, m, prm, sv):
    """What selling all ``m`` mushrooms of kind ``k`` is worth (half below ``min_sell``)."""
    return prm.sell_sticks[k] * m * sv * (1.0 if m >= prm.min_sell else 0.5)


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _ready(me, k, prm, sv):
    """The dish a complete set of kind ``k`` makes, if cooking beats selling it; else 0."""
    m = mushrooms(me, k, prm)
    if m == 0 or m < prm.min_cook:
        return 0.0
    cookv = float(prm.cook_points[k] * m)
    return cookv if cookv > _sale(k, m, prm, sv) else 0.0


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def evaluate(pos, p, prm, bot):
    """Points now plus what the holdings are likely worth before the forest runs out.

    Allocates nothing: the search bot's rollouts call it (through ``best_discard``)."""
    me = pos.seats[p]
    tf = _time_factor(pos, bot)
    sv = bot.stick * tf
    pans = me.pans + me.hand[CARD_PAN]
    v = float(me.score)
    biggest = 0
    n_ready = 0  # complete sets worth cooking; each needs a pan
    for k in range(N_KINDS):
        m = mushrooms(me, k, prm)
        if m == 0:
            continue
        biggest = max(biggest, m)
        sell = _sale(k, m, prm, sv)
        if m >= prm.min_cook:
            if _ready(me, k, prm, sv) > 0:
                n_ready += 1
                continue
            v += sell
        else:
            v += max(prm.cook_points[k] * m * bot.incomplete * (0.6 + 0.4 * m) * tf, sell)
    # the best complete sets get the pans held; a set kept uncooked is worth a little less
    # than the dish (it can still grow, but poison or a full hand can cost it)
    for k in range(N_KINDS):
        dish = _ready(me, k, prm, sv)
        if dish > 0:
            rank = 0  # complete sets worth more, ties by kind
            for j in range(N_KINDS):
                other = _ready(me, j, prm, sv)
                if other > dish or (other == dish and j < k):
                    rank += 1
            v += dish * (bot.hold if rank < pans else 0.6 * tf)
    full_b = 1.0 if biggest >= prm.butter_per else 0.4 * tf
    full_c = 1.0 if biggest >= prm.cider_per else 0.3 * tf
    v += me.hand[CARD_BUTTER] * prm.butter_points * full_b * 0.8
    v += me.hand[CARD_CIDER] * prm.cider_points * full_c * 0.8
    spare = pans - n_ready  # pans not yet spoken for by a complete set
    if spare > 0:
        v += bot.pan * tf + 0.4 * bot.pan * tf * min(spare - 1, 2)
    st = me.sticks
    v += sv * min(st, 8) + 0.3 * sv * max(st - 8, 0)
    v += 1.0 * me.baskets * tf
    room = hand_limit(me, prm) - hand_size(me)
    if room <= 0:
        v -= 2.0
    elif room == 1:
        v -= 0.5
    return v


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _worth(me, c, prm, bot, tf):
    """Greedy's quick value of one more card ``c``."""
    if c < N_KINDS or (c >= NIGHT_BASE and c < NIGHT_BASE + N_KINDS):
        k = c if c < N_KINDS else c - NIGHT_BASE
        add = 1 if c < N_KINDS else prm.night_multiplier
        m = mushrooms(me, k, prm) + add
        done = 1.0 if m >= prm.min_cook else bot.incomplete * (0.6 + 0.4 * m)
        cookv = prm.cook_points[k] * add * done * tf
        sellv = prm.sell_sticks[k] * add * bot.stick * tf
        return max(cookv, sellv)
    if c == CARD_PAN:
        pans = me.pans + me.hand[CARD_PAN]
        return bot.pan * tf if pans == 0 else (0.4 * bot.pan * tf if pans == 1 else 0.3)
    if c == CARD_BUTTER:
        return 0.5 * prm.butter_points * tf
    if c == CARD_CIDER:
        return 0.4 * prm.cider_points * tf
    if c == CARD_BASKET:
        return 1.5 * tf
    if c == CARD_MOON:
        return 2.5 * tf
    if c == CARD_POISON:
        return -1.0
    return 0.0


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _kept(k, m, prm, bot):
    """Greedy's value of keeping ``m`` mushrooms of kind ``k`` for a dish."""
    return prm.cook_points[k] * m * (1.0 if m >= prm.min_cook else bot.incomplete)


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def greedy_score(pos, p, play, prm, bot):
    me = pos.seats[p]
    tf = _time_factor(pos, bot)
    room = hand_limit(me, prm) - hand_size(me)
    if play.kind == TAKE:
        i = play.arg
        cost = prm.stick_costs[i] * bot.stick * tf
        return _worth(me, np.int64(pos.forest[i]), prm, bot, tf) - cost
    if play.kind == DECAY:
        tot = 0.0
        for j in range(pos.decay_n):
            tot += _worth(me, np.int64(pos.decay[j]), prm, bot, tf)
        return tot
    k = play.arg
    m = play.plain + prm.night_multiplier * play.night
    if play.kind == COOK:
        pts = m * prm.cook_points[k] + play.butter * prm.butter_points
        pts += play.cider * prm.cider_points
        if m >= bot.cook_at or room <= 1 or tf < 1.0:
            return 10.0 + pts
        return 0.1 * pts - 1.0
    if play.kind == SELL:
        held = mushrooms(me, k, prm)
        keep = _kept(k, held, prm, bot) - _kept(k, held - m, prm, bot)
        gain = prm.sell_sticks[k] * m * bot.stick * tf * (1.0 if me.sticks < 6 else 0.3)
        return gain - keep + (2.0 if room <= 0 else 0.0)
    return 0.5 if room <= 1 and me.pans == 0 else -0.5


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _generic(c, prm, bot):
    if c < N_KINDS:
        return 0.6 * prm.cook_points[c]
    if c == CARD_PAN:
        return 0.5 * bot.pan
    if c == CARD_MOON:
        return 2.5
    if c == CARD_BUTTER:
        return 0.4 * prm.butter_points
    if c == CARD_CIDER:
        return 0.3 * prm.cider_points
    if c == CARD_BASKET:
        return 1.0
    return 0.0


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _threat(pos, q, prm, bot):
    """What ``q`` could grab next turn from the public forest and decay pile, valued
    generically (its hand is partly hidden)."""
    sticks = pos.seats[q].sticks
    best = 0.0
    for i in range(pos.forest_n):
        if prm.stick_costs[i] <= sticks:
            v = _generic(np.int64(pos.forest[i]), prm, bot) - prm.stick_costs[i] * bot.stick
            best = max(best, v)
    tot = 0.0
    for j in range(pos.decay_n):
        tot += _generic(np.int64(pos.decay[j]), prm, bot)
    return max(best, tot)


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def best_discard(pos, p, prm, bot):
    """The hand card whose loss ``evaluate`` feels least ('The poison mushroom')."""
    me = pos.seats[p]
    best_c = -1
    best_v = 1e300
    before = evaluate(pos, p, prm, bot)
    for c in range(N_SLOTS):
        if me.hand[c] > 0:
            me.hand[c] -= 1
            loss = before - evaluate(pos, p, prm, bot)
            me.hand[c] += 1
            if loss < best_v:
                best_v = loss
                best_c = c
    return best_c


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _reveals(pos, play):
    """Whether ``play`` brings a moon, and so a face-down night card, to the player."""
    if play.kind == TAKE:
        return pos.forest[play.arg] == CARD_MOON
    if play.kind == DECAY:
        for j in range(pos.decay_n):
            if pos.decay[j] == CARD_MOON:
                return True
    return False


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _look(pool, sample, seat, prm, bot, play, tmp, ev, evc):
    """Value of ``play`` one ply ahead on ``pool[sample]`` (a determinized position),
    played out in ``pool[1]``: the play, the bot's own discards to a poison, the turn's
    end; then ``evaluate``."""
    pool[1] = pool[sample]
    pos = pool[1]
    apply(pos, prm, play, ev, evc)
    me = pos.seats[seat]
    while pos.mover == seat and hand_size(me) > hand_limit(me, prm):
        tmp[0].kind = DISCARD
        tmp[0].arg = best_discard(pos, seat, prm, bot)
        apply(pos, prm, tmp[0], ev, evc)
    v = evaluate(pos, seat, prm, bot)
    if pos.ended == 0:
        return v - bot.opp * _threat(pos, 1 - seat, prm, bot)
    w = winner(pos)  # the play ends the game: only the result counts
    return v + (0.0 if w < 0 else (100.0 if w == seat else -100.0))


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def lookahead(pos, seat, prm, bot, plays, n, pool, tmp, ev, evc):
    """The play worth most one ply ahead, on samples of what ``seat`` cannot see.

    Every play is tried on one common sample; a play bringing a night card is averaged
    over ``samples`` samples (its value depends on the hidden night pile)."""
    key = next_u64(pos.rng, R_BOT + seat)
    determinize(pos, seat, stream_key(key, _SAMPLES, np.int64(0)), pool[0])
    many = night_left(pos) > 1
    best_i = 0
    best_v = -1e300
    for i in range(n):
        play = plays[i]
        if many and _reveals(pos, play):
            v = 0.0
            s_n = max(1, int(bot.samples))
            for s in range(s_n):
                if s == 0:
                    pool[2] = pool[0]
                else:
                    determinize(pos, seat, stream_key(key, _SAMPLES, np.int64(s)), pool[2])
                v += _look(pool, _EXTRA, seat, prm, bot, play, tmp, ev, evc)
            v /= s_n
        else:
            v = _look(pool, _COMMON, seat, prm, bot, play, tmp, ev, evc)
        if v > best_v:
            best_v = v
            best_i = i
    return best_i


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def greedy(pos, seat, prm, bot, plays, n):
    """Index of greedy's play among ``plays[:n]`` (the legal plays of ``seat``, to move):
    its best discard to a poison, else the play its rules of thumb score highest."""
    if plays[0].kind == DISCARD:
        c = best_discard(pos, seat, prm, bot)
        for i in range(n):
            if plays[i].arg == c:
                return i
    best_i = 0
    best_v = -1e300
    for i in range(n):
        v = greedy_score(pos, seat, plays[i], prm, bot)
        if v > best_v:
            best_v = v
            best_i = i
    return best_i
