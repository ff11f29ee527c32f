"""Whole games: setup, the turn loop with stuck players, and the batch over games.

``run_game`` is the one code path for both ``simulate`` (many games, no trace) and
``trace`` (one game, events written to ``ev``), so a trace shows exactly what a run
counted. Random numbers (simkit.rng): forest deck on (STREAM_DECK, 0), night pile on
(STREAM_DECK, 1), bot decisions on (STREAM_BOT, seat), who starts on (STREAM_SLOTS, 0).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from simkit.games.mushroomwalk.cards import (
    CARD_BASKET,
    CARD_MOON,
    CARD_POISON,
    N_FOREST_CODES,
    N_KINDS,
    NIGHT_BASE,
)
from simkit.games.mushroomwalk.layout import (
    E_WIDTH,
    EV_DEAL,
    EV_END,
    EV_START,
    EV_STUCK,
    EV_TURN,
    MAX_DECAY,
    N_ACTIONS,
    P_COUNT,
    P_DEAL,
    P_FOREST_SIZE,
    P_NIGHT,
    P_START_PANS,
    P_WHO_STARTS,
    PL_BASKETS,
    PL_BUTTER_USED,
    PL_CIDER_USED,
    PL_COOKED,
    PL_DECAY_TAKES,
    PL_DISCARDED,
    PL_DISHES,
    PL_FIRST_DISH_TURN,
    PL_FIRST_PAN_TURN,
    PL_HAND,
    PL_NIGHT_TAKEN,
    PL_PANS,
    PL_PANS_TAKEN,
    PL_POISON_TAKEN,
    PL_SCORE,
    PL_SOLD,
    PL_STICKS,
    PL_STICKS_EARNED,
    PL_STICKS_PAID,
    PL_TURNS,
    PL_TURNS_STUCK,
    S_DECAY,
    S_DISCARD,
    S_DRAW,
    S_DRAW_END,
    S_DRAW_TOP,
    S_END_REASON,
    S_ENDED,
    S_FOREST,
    S_FOREST_N,
    S_NIGHT,
    S_NIGHT_END,
    S_NIGHT_TOP,
    S_SIZE,
    S_STARTER,
    S_TURN,
)
from simkit.games.mushroomwalk.policy import choose, pay_poison
from simkit.games.mushroomwalk.rules import (
    base,
    do_action,
    emit,
    end_of_turn,
    hand_size,
    legal,
    winner,
)
from simkit.rng import STREAM_BOT, STREAM_DECK, STREAM_SLOTS, below, shuffle, stream_key

N_RNG = 5  # deck, night pile, bot seat 0, bot seat 1, who starts
R_DECK = 0
R_NIGHT = 1
R_BOT = 2
R_SLOTS = 4

# Per-seat result columns written by the batch kernel, in this order.
SEAT_FIELDS = (
    "score",
    "mushrooms_cooked",
    "dishes",
    "sticks_left",
    "sticks_earned",
    "sticks_paid",
    "poison_taken",
    "pans_taken",
    "baskets",
    "night_cards",
    "butter_used",
    "cider_used",
    "mushrooms_sold",
    "decay_takes",
    "cards_discarded",
    "hand_left",
    "turns_taken",
    "turns_stuck",
    "first_pan_turn",
    "first_dish_turn",
)
_SEAT_OFFSETS = (
    PL_SCORE,
    PL_COOKED,
    PL_DISHES,
    PL_STICKS,
    PL_STICKS_EARNED,
    PL_STICKS_PAID,
    PL_POISON_TAKEN,
    PL_PANS_TAKEN,
    PL_BASKETS,
    PL_NIGHT_TAKEN,
    PL_BUTTER_USED,
    PL_CIDER_USED,
    PL_SOLD,
    PL_DECAY_TAKES,
    PL_DISCARDED,
    -1,  # hand_left: computed
    PL_TURNS,
    PL_TURNS_STUCK,
    PL_FIRST_PAN_TURN,
    PL_FIRST_DISH_TURN,
)
SEAT_OFFSETS = np.array(_SEAT_OFFSETS, dtype=np.int64)
# Per-race result columns: winner seat (-1 draw), turns, end reason, starting seat.
RACE_FIELDS = ("winner", "turns", "end_reason", "starter")


@njit(cache=True)
def setup(s, prm, rng, starter, ev, evc):
    """'Setup' 1-6: starting pans, forest deck and forest, night pile, the deal."""
    s[:] = 0
    for i in range(S_FOREST, S_FOREST_N):
        s[i] = -1
    for i in range(S_DECAY, S_DECAY + MAX_DECAY):
        s[i] = -1
    n = 0
    for c in range(N_FOREST_CODES):
        for _ in range(prm[P_COUNT + c]):
            s[S_DRAW + n] = c
            n += 1
    shuffle(rng, R_DECK, s, S_DRAW, S_DRAW + n)  # 'Setup' 2: shuffle the forest deck
    s[S_DRAW_TOP] = 0
    s[S_DRAW_END] = n
    m = 0
    for k in range(N_KINDS):
        if prm[P_NIGHT + k] > 0:  # 'Building the decks': one night card each of 2..9
            s[S_NIGHT + m] = NIGHT_BASE + k
            m += 1
    shuffle(rng, R_NIGHT, s, S_NIGHT, S_NIGHT + m)  # 'Setup' 4
    s[S_NIGHT_TOP] = 0
    s[S_NIGHT_END] = m
    # 'Setup' 2: the top cards are laid in a line leading away from the draw pile, so the
    # first card laid ends up furthest from the decay pile.
    f = prm[P_FOREST_SIZE]
    for i in range(f):
        s[S_FOREST + f - 1 - i] = s[S_DRAW + i]
    s[S_DRAW_TOP] = f
    s[S_FOREST_N] = f
    for p in range(2):
        b = base(p)
        s[b + PL_PANS] = prm[P_START_PANS]  # 'Setup' 1: a spare card as starting pan
        s[b + PL_FIRST_PAN_TURN] = -1
        s[b + PL_FIRST_DISH_TURN] = -1
    # 'Setup' 5: deal one card at a time, seat 0 first (who starts is decided after).
    for _ in range(prm[P_DEAL]):
        for p in range(2):
            if s[S_DRAW_TOP] >= s[S_DRAW_END]:
                break
            c = s[S_DRAW + s[S_DRAW_TOP]]
            s[S_DRAW_TOP] += 1
            b = base(p)
            nc = -1
            if c == CARD_BASKET:
                s[b + PL_BASKETS] += 1  # straight into the display, not replaced
            elif c == CARD_POISON:
                s[S_DISCARD + CARD_POISON] += 1  # discarded, not replaced
            elif c == CARD_MOON:
                s[S_DISCARD + CARD_MOON] += 1  # discarded for the top night card
                if s[S_NIGHT_TOP] < s[S_NIGHT_END]:
                    nc = s[S_NIGHT + s[S_NIGHT_TOP]]
                    s[S_NIGHT_TOP] += 1
                    s[b + PL_HAND + nc] += 1
                    s[b + PL_NIGHT_TAKEN] += 1
            else:
                s[b + PL_HAND + c] += 1
            emit(ev, evc, s, EV_DEAL, p, -1, c, 1, 0, 0, nc, 0)
    s[S_STARTER] = starter  # 'Setup' 6, R-51
    emit(ev, evc, s, EV_START, starter, -1, -1, 0, 0, 0, 0, 0)


@njit(cache=True)
def pick_starter(prm, rng, race_index):
    """R-51: who starts is an input of the study: random, alternate by race, or seat 0."""
    mode = prm[P_WHO_STARTS]
    if mode == 0:
        return below(rng, R_SLOTS, 2)
    if mode == 1:
        return race_index % 2
    return 0


@njit(cache=True)
def seed_streams(key, rng):
    rng[R_DECK] = stream_key(key, STREAM_DECK, 0)
    rng[R_NIGHT] = stream_key(key, STREAM_DECK, 1)
    rng[R_BOT] = stream_key(key, STREAM_BOT, 0)
    rng[R_BOT + 1] = stream_key(key, STREAM_BOT, 1)
    rng[R_SLOTS] = stream_key(key, STREAM_SLOTS, 0)


@njit(cache=True)
def start_game(key, race_index, prm, rng, s, ev, evc):
    """Seed the streams, pick the starter and set up; return the starting seat."""
    seed_streams(key, rng)
    starter = pick_starter(prm, rng, race_index)
    setup(s, prm, rng, starter, ev, evc)
    return starter


@njit(cache=True)
def play_turn(cur, prm, kinds, bpar, s, scratch, mask, rng, ev, evc, noev):
    """One turn of seat ``cur`` (or of its opponent if ``cur`` is stuck); the next ``cur``."""
    actor = cur
    nxt = 1 - cur
    if legal(s, cur, prm, mask) == 0:
        # the opponent takes turns one after another until you can act again.
        if legal(s, 1 - cur, prm, mask) == 0:
            s[S_ENDED] = 1  # neither can act, the game ends as if the forest were empty
            s[S_END_REASON] = 1
            emit(ev, evc, s, EV_STUCK, -1, -1, -1, 0, 0, 0, 0, 0)
            return cur
        s[base(cur) + PL_TURNS_STUCK] += 1
        emit(ev, evc, s, EV_STUCK, cur, -1, -1, 0, 0, 0, 0, 0)
        actor = 1 - cur
        nxt = cur
    s[S_TURN] += 1
    ri = R_BOT + actor
    a = choose(s, actor, prm, kinds[actor], bpar[actor], rng, ri, mask, scratch, noev, evc)
    card, n, gain, cost, x1, x2, owed = do_action(s, actor, a, prm, ev, evc)
    if owed > 0 and s[S_ENDED] == 0:
        pay_poison(s, actor, owed, prm, kinds[actor], bpar[actor], rng, ri, ev, evc)
        s[base(actor) + PL_DISCARDED] += owed
    s[base(actor) + PL_TURNS] += 1
    if s[S_ENDED] == 0:
        end_of_turn(s, actor, prm, True, ev, evc)
    emit(ev, evc, s, EV_TURN, actor, a, card, n, gain, cost, x1, x2)
    return nxt


@njit(cache=True)
def run_game(key, race_index, prm, kinds, bpar, s, ev, evc):
    """Play one game from its root key into ``s``; trace events if ``ev`` has room."""
    scratch = np.zeros(S_SIZE, dtype=np.int32)
    mask = np.zeros(N_ACTIONS, dtype=np.int8)
    rng = np.zeros(N_RNG, dtype=np.uint64)
    noev = np.zeros((1, E_WIDTH), dtype=np.int32)  # for the bots' look-ahead: no events
    cur = start_game(key, race_index, prm, rng, s, ev, evc)
    cap = 4 * (s[S_DRAW_END] + 10)  # every turn uses up a forest card; a safety bound only
    while s[S_ENDED] == 0 and s[S_TURN] < cap:
        cur = play_turn(cur, prm, kinds, bpar, s, scratch, mask, rng, ev, evc, noev)
    emit(ev, evc, s, EV_END, winner(s), -1, -1, s[S_END_REASON], 0, 0, 0, 0)


@njit(cache=True)
def _results(s, seat_out, race_out, g):
    for p in range(2):
        b = base(p)
        for j in range(SEAT_OFFSETS.shape[0]):
            off = SEAT_OFFSETS[j]
            seat_out[g, p, j] = hand_size(s, p) if off < 0 else s[b + off]
    race_out[g, 0] = winner(s)
    race_out[g, 1] = s[S_TURN]
    race_out[g, 2] = s[S_END_REASON]
    race_out[g, 3] = s[S_STARTER]


@njit(cache=True, parallel=True)
def play_batch(keys, race_index, prm, kinds, bpar, seat_out, race_out, ev, evc, last):
    """One game per key; game ``g`` writes only row ``g`` of the outputs.

    ``simulate`` passes a one-row ``ev`` (no events). ``trace`` plays a single key with a
    large ``ev`` and gets the final state in ``last``: the same kernel, the same code path.
    """
    for g in prange(keys.shape[0]):
        s = np.zeros(S_SIZE, dtype=np.int32)
        run_game(keys[g], race_index[g], prm, kinds, bpar, s, ev, evc)
        _results(s, seat_out, race_out, np.int64(g))
        if keys.shape[0] == 1:
            last[:] = s
