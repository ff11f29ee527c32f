"""A MUSH round around the racing: setup, training, weather, bids, order, rests, the end.

The position code calls these when a play is applied (``train``, ``weather_answer``,
``bid``, ``rest``) and as automatic steps (``start``, ``round_start``, ``order``,
``turn_start``, ``turn_end``, ``round_end``, ``finish``). Each leaves ``pos.phase`` at the
next step: a seat's decision, or another automatic step. Sections of the text are cited by
their French headings, rulings by id.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simkit.games.mush.records import (
    A_END,
    A_ORDER,
    A_RACE,
    A_ROUND,
    A_ROUND_END,
    A_START,
    A_TURN,
    EV_BID,
    EV_END,
    EV_ORDER,
    EV_REST,
    EV_SLOT,
    EV_STATE,
    EV_TRAIN,
    EV_WEATHER,
    H_REST,
    I_BOT,
    I_SLOTS,
    I_WEATHER,
    MAX_SEATS,
    P_REROLL,
    P_REST,
    PH_BID,
    PH_OVER,
    PH_REST,
    PH_TRAIN,
    PH_WEATHER_RR,
    ROUND_CAP,
    STAT,
    WEATHER_SUB,
)
from simkit.games.mush.route import TOWN
from simkit.games.mush.rules import apply_rest, d6, ev, leader, spend
from simkit.rng import STREAM_BOT, STREAM_DICE, STREAM_SLOTS, below, shuffle, stream_key


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def clear(pos, n, start):
    """Every field of ``pos`` as before a race of ``n`` sleds in ``start``."""
    pos.n = n
    pos.phase = PH_TRAIN
    pos.round_no = 0
    pos.ini = 0
    pos.lead = 0
    pos.winner = -1
    pos.train_i = 0
    pos.ask_i = 0
    pos.rr = 0
    pos.bid_i = 0
    pos.bid_winner = -1
    pos.turn_j = 0
    pos.mover = -1
    pos.turn_from = start
    pos.threat = 0
    pos.own_dice = 0
    pos.opp_q = 0
    pos.pool = 0
    pos.weather = 0
    pos.wspace = start
    pos.ndice = 0
    pos.colour = 0
    pos.faces = 0
    pos.bf = 0
    pos.crossed = 0
    pos.moves = 0
    pos.plen = 0
    pos.step = 0
    pos.stage = 0
    pos.paid = 0
    pos.done = 0
    pos.chk_rough = 0
    pos.chk_where = 0
    pos.chk_bought = 0
    pos.chk_ok = 0
    pos.on_board = 0
    zero = np.zeros(1, STAT)
    for s in range(MAX_SEATS):
        pos.stats[s] = zero[0]
        pos.space[s] = start
        pos.covered[s] = 0
        pos.tokens[s] = 0
        pos.resting[s] = 0
        pos.start_rests[s] = 0
        pos.bid[s] = 0
        pos.seat_at[s] = s
        pos.place[s] = s
        pos.order[s] = s
    pos.path[:] = 0
    pos.markers[:] = -1
    pos.streams[:] = 0
    r = pos.race
    r.rounds = 0
    r.timed_out = 0
    r.warm_rounds = 0
    r.mild_rounds = 0
    r.cold_rounds = 0
    r.lead_changes = 0


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def streams(pos, key, keep):
    """Every random stream of the race from root ``key``, but the bot stream of seat
    ``keep`` (-1: none kept). Stream kinds go in as int64, not as constants: one compile."""
    dice, bot, slots = np.int64(STREAM_DICE), np.int64(STREAM_BOT), np.int64(STREAM_SLOTS)
    for s in range(pos.n):
        pos.streams[s] = stream_key(key, dice, s)
        if s != keep:
            pos.streams[I_BOT + s] = stream_key(key, bot, s)
    pos.streams[I_WEATHER] = stream_key(key, dice, np.int64(WEATHER_SUB))
    pos.streams[I_SLOTS] = stream_key(key, slots, np.int64(0))


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def seat(pos, prm, key, rec):
    """The race's streams from its root key, and the seating (R-06 analogue): seats sit in a
    random order; slot k is the k-th to choose training, clockwise from the winner of the
    text's die roll (text, Entraînement)."""
    n = pos.n
    streams(pos, key, -1)
    shuffle(pos.streams, np.int64(I_SLOTS), pos.seat_at, np.int64(0), n)
    for p in range(n):
        pos.stats[pos.seat_at[p]].slot = p + 1
        pos.place[pos.seat_at[p]] = p
    for s in range(n):
        ev(rec, 0, EV_SLOT, s, pos.stats[s].slot, 0, 0, 0, 0)
    pos.tokens[:n] = prm.start_tokens


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def train(pos, t, rec):
    """The seat at place ``train_i`` trains for ``t`` (text, Entraînement; R-44)."""
    s = pos.seat_at[pos.train_i]
    pos.stats[s].training = t
    ev(rec, 0, EV_TRAIN, s, t, 0, 0, 0, 0)
    pos.train_i += 1
    pos.phase = A_START if pos.train_i == pos.n else PH_TRAIN


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def start(pos, rt):
    """The polar bear: a die roll picks the first initiative player (text)."""
    pos.ini = below(pos.streams, np.int64(I_SLOTS), pos.n)
    pos.stats[pos.seat_at[pos.ini]].initiative_first = 1
    pos.lead = leader(pos, rt)
    pos.phase = A_ROUND


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def round_start(pos, prm, rt, rec):
    """Weather: the initiative player rolls on the table of the leading sled's board
    (text, Temps; R-43)."""
    pos.round_no += 1
    pos.race.rounds = pos.round_no
    ldr = leader(pos, rt)
    pos.wspace = pos.space[ldr]
    face = d6(pos.streams, np.int64(I_WEATHER))
    pos.weather = rt.sp[pos.wspace].weather[face - 1]
    holder = pos.seat_at[pos.ini]
    ev(rec, pos.round_no, EV_WEATHER, holder, pos.weather, rt.sp[pos.wspace].board, face, 0, -1)
    pos.rr = 0
    pos.ask_i = 0
    _weather_next(pos, prm)


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _weather_next(pos, prm):
    """Ask the next seat, clockwise from the initiative player, whether it pays for a
    reroll (text, Relancer un dé: any roll, the weather's too); then the bids."""
    if pos.rr < prm.max_rerolls and pos.ask_i < pos.n:
        pos.phase = PH_WEATHER_RR
        return
    w = pos.weather
    if w == 0:
        pos.race.warm_rounds += 1
    elif w == 1:
        pos.race.mild_rounds += 1
    else:
        pos.race.cold_rounds += 1
    for s in range(pos.n):
        pos.bid[s] = 0
    pos.bid_i = 0
    pos.phase = PH_BID if prm.bidding != 0 else A_ORDER


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def weather_answer(pos, prm, rt, kind, rec):
    """The asked seat pays for a reroll of the weather, or lets it stand."""
    if kind == P_REROLL:
        by = pos.seat_at[(pos.ini + pos.ask_i) % pos.n]
        spend(pos, by, prm.reroll_cost)
        pos.stats[by].rerolls += 1
        pos.rr += 1
        face = d6(pos.streams, np.int64(I_WEATHER))
        pos.weather = rt.sp[pos.wspace].weather[face - 1]
        holder = pos.seat_at[pos.ini]
        b = rt.sp[pos.wspace].board
        ev(rec, pos.round_no, EV_WEATHER, holder, pos.weather, b, face, pos.rr, by)
        pos.ask_i = 0
    else:
        pos.ask_i += 1
    _weather_next(pos, prm)


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def bid(pos, amount):
    """A secret bid of tokens (R-47), in turn clockwise from the initiative player; it is
    paid and seen only when every seat has bid."""
    pos.bid[pos.seat_at[(pos.ini + pos.bid_i) % pos.n]] = amount
    pos.bid_i += 1
    if pos.bid_i == pos.n:
        pos.phase = A_ORDER


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def order(pos, rec):
    """Order of play (R-47): bidders first (highest first, ties clockwise from the
    initiative player), then the initiative player, then the rest clockwise. Every bid is
    paid, won or lost."""
    n = pos.n
    for j in range(n):
        s = pos.seat_at[(pos.ini + j) % n]
        if pos.bid[s] > 0:
            spend(pos, s, pos.bid[s])
            pos.stats[s].bid_tokens += pos.bid[s]
            ev(rec, pos.round_no, EV_BID, s, pos.bid[s], 0, 0, 0, 0)
        pos.order[j] = s
    for j in range(1, n):  # insertion sort by _order_key (n <= 6)
        s = pos.order[j]
        k = _order_key(pos, s)
        i = j - 1
        while i >= 0 and _order_key(pos, pos.order[i]) > k:
            pos.order[i + 1] = pos.order[i]
            i -= 1
        pos.order[i + 1] = s
    pos.bid_winner = pos.order[0] if pos.bid[pos.order[0]] > 0 else -1
    if pos.bid_winner >= 0:
        pos.stats[pos.bid_winner].bids_won += 1
    packed = 0
    for j in range(n):
        packed = packed * 8 + pos.order[j]
    ev(rec, pos.round_no, EV_ORDER, pos.seat_at[pos.ini], packed, n, pos.bid_winner, 0, 0)
    pos.turn_j = 0
    pos.phase = A_TURN


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _order_key(pos, s):
    """Bidders first, highest first; then clockwise from the initiative player."""
    j = (pos.place[s] - pos.ini) % pos.n
    return j if pos.bid[s] == 0 else -pos.bid[s] * 8 + j - (1 << 40)


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def turn_start(pos, rt):
    """The next sled in the order: in a town it may rest instead of racing (text, Repos)."""
    if pos.turn_j == pos.n:
        pos.phase = A_ROUND_END
        return
    s = pos.order[pos.turn_j]
    pos.mover = s
    v = pos.space[s]
    pos.turn_from = v
    if rt.sp[v].kind == TOWN and rt.sp[v].rest > 0:
        pos.phase = PH_REST
    else:
        pos.resting[s] = 0
        pos.phase = A_RACE


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def rest(pos, prm, rt, kind, opt, rec):
    """Rest (option ``opt``) or race (text, Repos; R-45)."""
    s = pos.mover
    if kind != P_REST:
        pos.resting[s] = 0
        pos.phase = A_RACE
        return
    v = pos.space[s]
    rk = rt.sp[v].rest
    if rk == 1:  # Anchorage: one token a turn (text)
        d, t = 0, min(prm.rest_start_tokens, rt.sp[v].cap_tokens)
        pos.start_rests[s] += 1
    else:  # Nikolai and Unalakleet / any other town (text)
        opts = prm.rest_checkpoint if rk == 2 else prm.rest_town
        d, t = apply_rest(
            opts[2 * opt], opts[2 * opt + 1], pos.covered[s], rt.sp[v].cap_dogs, rt.sp[v].cap_tokens
        )
    pos.covered[s] -= d
    pos.tokens[s] += t
    pos.stats[s].tokens_gained += t
    pos.stats[s].rests += 1
    pos.resting[s] = 1
    rec.heat[H_REST, v] += 1
    ev(rec, pos.round_no, EV_REST, s, opt, d, t, v, 0)
    ev(rec, pos.round_no, EV_STATE, s, v, pos.covered[s], pos.tokens[s], 0, 0)
    pos.turn_j += 1
    pos.phase = A_TURN


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def round_end(pos, prm, rt, rec):
    """Race positions (for the per-round counts) and lead changes; the polar bear passes
    clockwise (R-43); the safety stop."""
    if pos.round_no <= ROUND_CAP:
        race_ranks(pos, rt, rec.ranks[pos.round_no - 1])
    now = leader(pos, rt)
    if now != pos.lead:
        pos.race.lead_changes += 1
        pos.lead = now
    if pos.winner >= 0 or pos.round_no >= prm.max_rounds:
        pos.phase = A_END
        return
    pos.ini = (pos.ini + 1) % pos.n
    pos.phase = A_ROUND


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def rank_of(pos, rt, s):
    """Seat ``s``'s race position: the winner first, the rest by moves still to go, ties by
    slot, as ``finish`` ranks them (R-47) and ``leader`` picks the first."""
    n = pos.n
    w = pos.winner
    better = 0
    for o in range(n):
        if o == s:
            continue
        if o == w:
            better += 1
        elif s != w:
            do, ds = rt.sp[pos.space[o]].dist, rt.sp[pos.space[s]].dist
            if do < ds or (do == ds and pos.stats[o].slot < pos.stats[s].slot):
                better += 1
    return better + 1


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def race_ranks(pos, rt, row):
    """Each seat's race position (``rank_of``) into ``row``."""
    for s in range(pos.n):
        row[s] = rank_of(pos, rt, s)


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def finish(pos, prm, rt, rec):
    """Ranking: the winner first, the rest by moves still to go, ties by slot (R-47)."""
    n = pos.n
    w = pos.winner
    for s in range(n):
        st = pos.stats[s]
        st.finish = rank_of(pos, rt, s)
        st.points = 1 if s == w else 0
        st.finished = 1 if s == w else 0
        st.tokens_left = pos.tokens[s]
        st.dogs_covered_end = pos.covered[s]
        st.to_go = rt.sp[pos.space[s]].dist
    pos.race.timed_out = 1 if w < 0 else 0
    ev(rec, pos.round_no, EV_END, w, pos.round_no, pos.race.timed_out, 0, 0, 0)
    pos.phase = PH_OVER
