"""The Snow Tails race kernel: one whole race, turn by turn, on flat arrays.

``play_race`` is the only path by which races are played: the batch simulator calls it
with tracing off, ``trace`` calls it with an event log, so a trace and a table row of the
same race cannot disagree. Every rule cites its source: ST1 = ``002_68b12fdd004c4f12.txt``
(section named), R-xx = ``RULINGS.md``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simkit.games.snowtails.bots import (
    BOT_RANDOM,
    discard_choice,
    greedy_choice,
    random_choice,
)
from simkit.games.snowtails.layout import (
    C_NONE,
    C_SLED,
    C_WALL,
    DENT_NO_CANINE,
    DENT_OVERSPEED,
    DENT_WALL,
    EV_BONUS,
    EV_COLLIDE,
    EV_DENT,
    EV_DISCARD,
    EV_DRAW,
    EV_END,
    EV_FINISH,
    EV_HAND,
    EV_KEEP,
    EV_MOVE,
    EV_NO_CANINE,
    EV_OUT,
    EV_PLAY,
    EV_RESHUFFLE,
    EV_ROUND,
    EV_STALL,
    EV_START,
    EV_TURN,
    FINISHED,
    H_OUT,
    H_OVERSPEED,
    H_SLED,
    H_TURN_END,
    H_WALL,
    M_BRAKE,
    M_LEFT,
    M_RIGHT,
    MAX_DECK,
    MAX_PATH,
    MAX_SEATS,
    MV_BONUS,
    OUT,
    R_ELIMINATIONS,
    R_LEAD_CHANGES,
    R_LEADER1_WON,
    R_ROUNDS,
    R_TIMED_OUT,
    S_CP,
    S_PAST,
    ST_BONUS_USED,
    ST_BRAKE,
    ST_COLL_SLED,
    ST_COLL_WALL,
    ST_COLS,
    ST_DECKN,
    ST_DENTS,
    ST_DENTS_TAKEN,
    ST_FIN_ROUND,
    ST_FINISH,
    ST_LCARD,
    ST_LEFT,
    ST_NO_CANINE,
    ST_OUT_ROUND,
    ST_OUT_SEQ,
    ST_OVERSPEED,
    ST_POINTS,
    ST_RCARD,
    ST_RESHUFFLES,
    ST_RIGHT,
    ST_SLOT,
    ST_SPACE,
    ST_STATUS,
    ST_TURNS,
)
from simkit.games.snowtails.movement import N_COLS, O_COLS, walk
from simkit.games.snowtails.params import (
    K_BRAKE0,
    K_DECK,
    K_DENT_LIMIT,
    K_DOGS,
    K_EXTRA,
    K_HAND,
    K_LIFT_FINISHED,
    K_MAX_ROUNDS,
    K_NO_CANINE_DENT,
    K_POINTS,
    K_POINTS_ELIM,
    K_SAFETY,
    K_SLED_REFILL,
    K_WALL_DENTS,
    MAX_VALUE,
)
from simkit.games.snowtails.rules import canine_count, play_effect, race_order, race_position
from simkit.rng import STREAM_BOT, STREAM_DECK, STREAM_SLOTS, shuffle, stream_key

ST_MAX = 1 + 2 * MAX_SEATS  # rng streams: slots, one deck per seat, one bot per seat
MAX_NODES = 16384  # search nodes of one turn: far above the ~35 plays x ~200 nodes worst case
MAX_OUTS = 4096


@njit(cache=True, inline="always")
def _deck_stream(p):
    return 1 + p


@njit(cache=True, inline="always")
def _bot_stream(p):
    return 1 + MAX_SEATS + p


@njit(cache=True)
def _log(log, nlog, kind, a, b, c, d, e, f, g, h):
    """Append one event row (tracing only); rows past the log's end are counted, not kept."""
    i = nlog[0]
    if i < log.shape[0]:
        log[i, 0] = kind
        log[i, 1] = a
        log[i, 2] = b
        log[i, 3] = c
        log[i, 4] = d
        log[i, 5] = e
        log[i, 6] = f
        log[i, 7] = g
        log[i, 8] = h
    nlog[0] = i + 1


@njit(cache=True, inline="always")
def _draw_one(st, hand, disc, deck, p, states, log, nlog, trace):
    """Draw the top card of seat ``p``'s deck, reshuffling first if it is empty (R-07)."""
    if st[p, ST_DECKN] == 0:
        # played and discarded cards (not the two showing on the dogs) form a new deck.
        n = 0
        for v in range(MAX_VALUE + 1):
            for _ in range(disc[p, v]):
                deck[p, n] = v
                n += 1
            disc[p, v] = 0
        if n == 0:
            return False  # still empty, nothing to draw
        shuffle(states, _deck_stream(p), deck[p], 0, n)
        st[p, ST_DECKN] = n
        st[p, ST_RESHUFFLES] += 1
        if trace:
            _log(log, nlog, EV_RESHUFFLE, p, n, 0, 0, 0, 0, 0, 0)
    n = st[p, ST_DECKN] - 1
    v = deck[p, n]
    st[p, ST_DECKN] = n
    hand[p, v] += 1
    if trace:
        _log(log, nlog, EV_DRAW, p, v, 0, 0, 0, 0, 0, 0)
    return True


@njit(cache=True, inline="always")
def _refill(st, hand, disc, deck, p, prm, bots, states, log, nlog, trace, draw):
    """ST1 "Return hand size to five cards": draw up to, or discard canine cards down to,
    the hand size; dents count toward it and are never discarded. ``draw`` False only
    discards (R-16)."""
    size = prm[K_HAND]
    if draw:
        while canine_count(hand, p) + st[p, ST_DENTS] < size:
            if not _draw_one(st, hand, disc, deck, p, states, log, nlog, trace):
                break
    while canine_count(hand, p) + st[p, ST_DENTS] > size and canine_count(hand, p) > 0:
        v = discard_choice(bots[p], hand, p, states, _bot_stream(p))
        hand[p, v] -= 1
        disc[p, v] += 1
        if trace:
            _log(log, nlog, EV_DISCARD, p, v, 0, 0, 0, 0, 0, 0)


@njit(cache=True, inline="always")
def _eliminate(tab, st, occ, p, rnd, seq, heat, log, nlog, trace):
    """R-18: a sled that must take one dent too many is out of the race."""
    space = st[p, ST_SPACE]
    st[p, ST_STATUS] = OUT
    st[p, ST_OUT_ROUND] = rnd
    st[p, ST_OUT_SEQ] = seq
    occ[space] = 0
    heat[H_OUT, space] += 1
    if trace:
        _log(log, nlog, EV_OUT, p, space, 0, 0, 0, 0, 0, 0)


@njit(cache=True, inline="always")
def _take_dents(tab, st, p, n, prm, log, nlog, trace, reason, corner, lim, speed):
    """Give seat ``p`` up to ``n`` dents. Returns -1 if one more than the limit was due
    and the sled is not past the finish line (caller eliminates it), else dents taken."""
    taken = 0
    for _ in range(n):
        if st[p, ST_DENTS] >= prm[K_DENT_LIMIT]:
            if tab[st[p, ST_SPACE], S_PAST] != 0:
                # already across the finish line: it stays where it is.
                if trace:
                    _log(log, nlog, EV_KEEP, p, st[p, ST_SPACE], 0, 0, 0, 0, 0, 0)
                break
            if trace and taken > 0:
                _log(log, nlog, EV_DENT, p, reason, corner, lim, speed, st[p, ST_DENTS], taken, 0)
            return -1
        st[p, ST_DENTS] += 1
        st[p, ST_DENTS_TAKEN] += 1
        if reason == DENT_OVERSPEED:
            st[p, ST_OVERSPEED] += 1
        taken += 1
    if trace and taken > 0:
        _log(log, nlog, EV_DENT, p, reason, corner, lim, speed, st[p, ST_DENTS], taken, 0)
    return taken


@njit(cache=True, inline="always")
def _turn(
    tab, prog, safety, prm, bots, weights, st, hand, disc, deck, occ, states, n_seats, p,
    rnd, out_seq, scr_nodes, scr_outs, scr_keys, scr_plays, pattern, path, heat, log, nlog,
    trace,
):  # fmt: skip
    """One turn of seat ``p`` (ST1 "Game Play"). Returns 1 if the sled left the race."""
    st[p, ST_TURNS] += 1
    pos = race_position(tab, st, n_seats, p)  # R-04, at the start of its own turn
    if trace:
        _log(log, nlog, EV_TURN, p, rnd, pos, st[p, ST_SPACE], st[p, ST_LEFT],
             st[p, ST_RIGHT], st[p, ST_BRAKE], st[p, ST_DENTS])  # fmt: skip
        _log(log, nlog, EV_HAND, p, hand[p, 0], hand[p, 1], hand[p, 2], hand[p, 3],
             hand[p, 4], hand[p, 5], 0)  # fmt: skip
    if canine_count(hand, p) == 0:
        # R-19 / ST1 "Special Rule": take a dent (it can be the fatal one), draw up to the
        # hand size, then play normally.
        st[p, ST_NO_CANINE] += 1
        if trace:
            _log(log, nlog, EV_NO_CANINE, p, 0, 0, 0, 0, 0, 0, 0)
        if (
            prm[K_NO_CANINE_DENT] != 0
            and _take_dents(tab, st, p, 1, prm, log, nlog, trace, DENT_NO_CANINE, -1, 0, 0) < 0
        ):
            _eliminate(tab, st, occ, p, rnd, out_seq, heat, log, nlog, trace)
            return 1
        _refill(st, hand, disc, deck, p, prm, bots, states, log, nlog, trace, True)
        if canine_count(hand, p) == 0:
            if trace:
                _log(log, nlog, EV_STALL, p, 0, 0, 0, 0, 0, 0, 0)
            return 0

    # 1. Play 1-3 canine cards of one value, chosen by the seat's bot.
    if bots[p] == BOT_RANDOM:
        v, mask, npat, take = random_choice(
            st, hand, p, prm, rnd, pos, states, _bot_stream(p), scr_plays, pattern
        )
    else:
        v, mask, npat, take = greedy_choice(
            tab, prog, safety, occ, st, hand, p, prm, rnd, pos, weights[p], scr_nodes,
            scr_outs, scr_keys, scr_plays, pattern,
        )  # fmt: skip
    return resolve_play(
        tab, safety, prm, bots, st, hand, disc, deck, occ, states, p, rnd, pos, out_seq, v,
        mask, npat, take, pattern, path, heat, log, nlog, trace,
    )  # fmt: skip


@njit(cache=True, inline="always")
def resolve_play(
    tab, safety, prm, bots, st, hand, disc, deck, occ, states, p, rnd, pos, out_seq, v, mask,
    npat, take, pattern, path, heat, log, nlog, trace,
):  # fmt: skip
    """Carry out a chosen play: cards, movement along ``pattern`` (then the bonus if
    ``take``), dents, collisions and the hand's return to size. Returns 1 if the sled left
    the race. The state oracle calls this too, so its outcomes are the engine's."""
    # Speed and drift and the bonus on offer of the dogs after the play.
    left, right, brake, speed, _, dcol, raw, bonus = play_effect(st, p, v, mask, prm, rnd, pos)
    if mask & M_LEFT:
        if st[p, ST_LCARD]:
            disc[p, st[p, ST_LEFT]] += 1  # the covered card is used
        st[p, ST_LCARD] = 1
        hand[p, v] -= 1
    if mask & M_RIGHT:
        if st[p, ST_RCARD]:
            disc[p, st[p, ST_RIGHT]] += 1
        st[p, ST_RCARD] = 1
        hand[p, v] -= 1
    if mask & M_BRAKE:
        disc[p, v] += 1  # ST1: onto the discard pile, the brake marker moves to its value
        hand[p, v] -= 1
    st[p, ST_LEFT] = left
    st[p, ST_RIGHT] = right
    st[p, ST_BRAKE] = brake
    if trace:
        _log(log, nlog, EV_PLAY, p, v, mask, left, right, brake, speed, raw)

    # 2. Move their sled, drifting as the bot chose, then any bonus straight ahead.
    start = st[p, ST_SPACE]
    k, coll, b0 = walk(tab, occ, start, pattern, npat, dcol, bonus if take else 0, path)
    end = path[k - 1]
    if trace:
        for j in range(1, k):
            kind = MV_BONUS if (b0 >= 0 and j >= b0) else pattern[j - 1]
            _log(log, nlog, EV_MOVE, p, path[j - 1], path[j], kind, 0, 0, 0, 0)
    occ[start] = 0
    occ[end] = p + 1
    st[p, ST_SPACE] = end
    taken = b0 >= 0
    if bonus > 0:
        if trace:
            _log(log, nlog, EV_BONUS, p, bonus, 1 if taken else 0, 0, 0, 0, 0, 0)
        if taken:
            st[p, ST_BONUS_USED] += 1
    total = speed + (bonus if taken else 0)  # the bonus counts toward R-15
    if coll != C_NONE and trace:
        attempt = MV_BONUS if taken else pattern[k - 1]
        _log(log, nlog, EV_COLLIDE, p, coll, end, attempt, 0, 0, 0, 0)

    # ST1 "Dents and Hazards" 1 / R-15: after movement, each entry line crossed.
    if prm[K_SAFETY] != 0:
        for c in range(tab[start, S_CP], tab[end, S_CP]):
            lim = safety[c]
            if lim > 0 and total > lim:
                n = total - lim
                where = end
                for j in range(k):
                    if tab[path[j], S_CP] > c:
                        where = path[j]
                        break
                heat[H_OVERSPEED, where] += n
                got = _take_dents(tab, st, p, n, prm, log, nlog, trace, DENT_OVERSPEED, c, lim,
                                  total)  # fmt: skip
                if got < 0:
                    _eliminate(tab, st, occ, p, rnd, out_seq, heat, log, nlog, trace)
                    return 1

    # Then the collision, if any (ST1 "Dents and Hazards" 2 and 3).
    if coll == C_WALL:
        st[p, ST_COLL_WALL] += 1
        heat[H_WALL, end] += 1
        # one dent (a variant parameter), then refill as usual.
        got = _take_dents(tab, st, p, prm[K_WALL_DENTS], prm, log, nlog, trace, DENT_WALL, -1,
                          0, 0)  # fmt: skip
        if got < 0:
            _eliminate(tab, st, occ, p, rnd, out_seq, heat, log, nlog, trace)
            return 1
    elif coll == C_SLED:
        st[p, ST_COLL_SLED] += 1
        heat[H_SLED, end] += 1

    # 3. Return the hand to its size; after hitting a sled only discard.
    refill = coll != C_SLED or prm[K_SLED_REFILL] != 0
    _refill(st, hand, disc, deck, p, prm, bots, states, log, nlog, trace, refill)
    heat[H_TURN_END, end] += 1
    return 0


@njit(cache=True)
def play_race(
    tab, prog, safety, start_slots, prm, slots, bots, weights, key, st, hand, disc, deck,
    occ, states, order, scr_nodes, scr_outs, scr_keys, scr_plays, pattern, path, seat_out,
    race_out, heat, log, nlog, trace,
):  # fmt: skip
    """Play the race with root ``key``; write seat rows, race row and heat counts.

    ``slots`` lists the start slots in use (R-06); seats take them in a random order.
    """
    n_seats = slots.shape[0]
    states[0] = stream_key(key, STREAM_SLOTS, 0)
    for p in range(MAX_SEATS):
        states[_deck_stream(p)] = stream_key(key, STREAM_DECK, p)
        states[_bot_stream(p)] = stream_key(key, STREAM_BOT, p)
    occ[:] = 0
    st[:, :] = 0
    hand[:, :] = 0
    disc[:, :] = 0
    for p in range(n_seats):
        order[p] = slots[p]
    shuffle(states, 0, order, 0, n_seats)  # a random permutation of the slots
    total = 0
    for v in range(MAX_VALUE + 1):
        total += prm[K_DECK + v]
    for p in range(n_seats):
        slot = order[p]
        space = start_slots[slot - 1]
        st[p, ST_SLOT] = slot
        st[p, ST_SPACE] = space
        occ[space] = p + 1
        st[p, ST_LEFT] = prm[K_DOGS]  # ST1 Setup: dogs printed at 3, brake marker at 3
        st[p, ST_RIGHT] = prm[K_DOGS]
        st[p, ST_BRAKE] = prm[K_BRAKE0]
        n = 0
        for v in range(MAX_VALUE + 1):
            for _ in range(prm[K_DECK + v]):
                deck[p, n] = v
                n += 1
        shuffle(states, _deck_stream(p), deck[p], 0, n)  # ST1 Setup: shuffle the dog deck
        st[p, ST_DECKN] = n
        deal = prm[K_HAND] + prm[K_EXTRA + slot - 1]  # extra cards by start slot
        for _ in range(deal):
            _draw_one(st, hand, disc, deck, p, states, log, nlog, False)
        if trace:
            _log(log, nlog, EV_START, p, slot, space, deal, 0, 0, 0, 0)

    rnd = 0
    out_seq = 0
    next_rank = 1
    leader = -1
    leader1 = -1
    lead_changes = 0
    timed_out = 0
    while True:
        n = race_order(tab, st, n_seats, True, order)
        if n == 0:
            break
        if rnd >= prm[K_MAX_ROUNDS]:
            timed_out = 1
            break
        rnd += 1
        if trace:
            _log(log, nlog, EV_ROUND, rnd, 0, 0, 0, 0, 0, 0, 0)
        # turn order is the race order at the start of the round (sleds that have not
        # moved cannot change places among themselves).
        for i in range(n):
            order[MAX_SEATS + i] = order[i]
        for i in range(n):
            p = order[MAX_SEATS + i]
            out_seq += _turn(
                tab, prog, safety, prm, bots, weights, st, hand, disc, deck, occ, states,
                n_seats, p, rnd, out_seq + 1, scr_nodes, scr_outs, scr_keys, scr_plays,
                pattern, path, heat, log, nlog, trace,
            )  # fmt: skip
        # at the end of a round every sled past the line has finished, ranked by race
        # order after those that finished in earlier rounds.
        n = race_order(tab, st, n_seats, True, order)
        for i in range(n):
            p = order[i]
            if tab[st[p, ST_SPACE], S_PAST] != 0:
                st[p, ST_STATUS] = FINISHED
                st[p, ST_FINISH] = next_rank
                st[p, ST_FIN_ROUND] = rnd
                if prm[K_LIFT_FINISHED] != 0:
                    occ[st[p, ST_SPACE]] = 0  # its rank is fixed: it no longer blocks
                if trace:
                    _log(log, nlog, EV_FINISH, p, next_rank, rnd, 0, 0, 0, 0, 0)
                next_rank += 1
        n = race_order(tab, st, n_seats, False, order)
        if n > 0:
            if rnd == 1:
                leader1 = order[0]
            elif order[0] != leader:
                lead_changes += 1
            leader = order[0]
    # Sleds still running at the round limit rank after the finishers, by race order.
    n = race_order(tab, st, n_seats, True, order)
    for i in range(n):
        st[order[i], ST_FINISH] = next_rank
        next_rank += 1
    # eliminated sleds rank last, the last one out best among them.
    for seq in range(out_seq, 0, -1):
        for p in range(n_seats):
            if st[p, ST_STATUS] == OUT and st[p, ST_OUT_SEQ] == seq:
                st[p, ST_FINISH] = next_rank
                next_rank += 1
    for p in range(n_seats):
        f = st[p, ST_FINISH]
        scores = st[p, ST_STATUS] == FINISHED or (
            st[p, ST_STATUS] == OUT and prm[K_POINTS_ELIM] != 0
        )
        st[p, ST_POINTS] = prm[K_POINTS + f - 1] if scores else 0
        for c in range(st.shape[1]):
            seat_out[p, c] = st[p, c]
    race_out[R_ROUNDS] = rnd
    race_out[R_LEAD_CHANGES] = lead_changes
    won = False
    for p in range(n_seats):
        if p == leader1 and st[p, ST_FINISH] == 1 and st[p, ST_STATUS] == FINISHED:
            won = True
    race_out[R_LEADER1_WON] = 1 if won else 0
    race_out[R_TIMED_OUT] = timed_out
    race_out[R_ELIMINATIONS] = out_seq
    if trace:
        _log(log, nlog, EV_END, rnd, timed_out, 0, 0, 0, 0, 0, 0)


@njit(cache=True)
def new_scratch(n_spaces):
    """Per-race working arrays, allocated once per block of races and reused."""
    return (
        np.zeros((MAX_SEATS, ST_COLS), np.int64),  # st
        np.zeros((MAX_SEATS, MAX_VALUE + 1), np.int64),  # hand
        np.zeros((MAX_SEATS, MAX_VALUE + 1), np.int64),  # disc
        np.zeros((MAX_SEATS, MAX_DECK), np.int64),  # deck
        np.zeros(n_spaces, np.int64),  # occ
        np.zeros(ST_MAX, np.uint64),  # rng states
        np.zeros(2 * MAX_SEATS, np.int64),  # order
        np.zeros((MAX_NODES, N_COLS), np.int64),  # search nodes
        np.zeros((MAX_OUTS, O_COLS), np.int64),  # outcomes
        np.zeros((64, 6), np.int64),  # outcome keys
        np.zeros((64, 2), np.int64),  # plays
        np.zeros(MAX_PATH, np.int64),  # pattern
        np.zeros(MAX_PATH, np.int64),  # path
    )
