"""The Snow Tails family race kernel: one race, or a season / tournament, turn by turn.

``play_race`` is the only path by which races are played: the batch simulator calls it
with tracing off, ``trace`` calls it with an event log, so a trace and a table row of the
same race cannot disagree. Every rule cites its source: ST1 = ``002_68b12fdd004c4f12.txt``,
ST2 = ``000_5b9c8f35afea07d2.txt`` (section named), R-xx = ``RULINGS.md``. Which book's
rule applies is a variant parameter (``params.K_*``), never a branch on the game's name.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simkit.games.snowtails.bots import (
    BOT_RANDOM,
    bothy_choice,
    discard_choice,
    greedy_choice,
    kennels_choice,
    random_choice,
    start_pair,
)
from simkit.games.snowtails.layout import (
    C_FIFTH,
    C_NONE,
    C_SLED,
    C_WALL,
    DENT_NO_CANINE,
    DENT_OVERSPEED,
    DENT_TREE,
    DENT_WALL,
    DIE_ADJUST,
    DIE_SLED,
    DIE_TAVERN,
    DIE_USED,
    EV_BONUS,
    EV_BUILDING,
    EV_COLLIDE,
    EV_DENT,
    EV_DIE,
    EV_DISCARD,
    EV_DRAW,
    EV_END,
    EV_FINISH,
    EV_HAND,
    EV_KEEP,
    EV_MOVE,
    EV_NO_CANINE,
    EV_OUT,
    EV_PLACE,
    EV_PLAY,
    EV_RACE,
    EV_REJOIN,
    EV_REPAIR,
    EV_RESHUFFLE,
    EV_ROUND,
    EV_STALL,
    EV_START,
    EV_TREE,
    EV_TURN,
    FINISHED,
    H_OUT,
    H_OVERSPEED,
    H_REPAIR,
    H_SLED,
    H_TREE,
    H_TURN_END,
    H_WALL,
    M_BRAKE,
    M_LEFT,
    M_RIGHT,
    MAX_DECK,
    MAX_PATH,
    MAX_RACES,
    MAX_SEATS,
    MV_BONUS,
    OUT,
    R_ELIMINATIONS,
    R_LEAD_CHANGES,
    R_LEADER1_WON,
    R_ROUNDS,
    R_TIMED_OUT,
    R_TREES_LEFT,
    RACING,
    REPAIR,
    S_CP,
    S_PAST,
    S_TREE,
    S_TRIG,
    SR_BASE,
    SR_GRID,
    SR_N,
    SR_NROW,
    SR_ROW,
    ST_BONUS_USED,
    ST_BOTHY,
    ST_BRAKE,
    ST_CHAPEL,
    ST_COLL_SLED,
    ST_COLL_WALL,
    ST_COLS,
    ST_DECKN,
    ST_DENTS,
    ST_DENTS_TAKEN,
    ST_DIE,
    ST_FIN_ROUND,
    ST_FINISH,
    ST_FIRST_SLOT,
    ST_FIVES,
    ST_KENNELS,
    ST_LCARD,
    ST_LEFT,
    ST_NO_CANINE,
    ST_ORDER,
    ST_OUT_ROUND,
    ST_OUT_SEQ,
    ST_OVERSPEED,
    ST_POINTS,
    ST_RACE_FIN,
    ST_RACE_PTS,
    ST_RCARD,
    ST_REPAIRS,
    ST_RESHUFFLES,
    ST_RIGHT,
    ST_SLOT,
    ST_SPACE,
    ST_STATUS,
    ST_TAVERN,
    ST_TREES,
    ST_TURNS,
    T_BOTHY,
    T_CHAPEL,
    T_KENNELS,
    T_TAVERN,
)
from simkit.games.snowtails.movement import N_COLS, O_COLS, walk
from simkit.games.snowtails.params import (
    K_BONUS_RULE,
    K_BRAKE0,
    K_CARRY,
    K_DECK,
    K_DENT_LIMIT,
    K_DENTS_PAST,
    K_DIE_MAX,
    K_DIE_START,
    K_DOGS,
    K_DOGS_FROM_DECK,
    K_EXPERIENCED,
    K_EXTRA,
    K_FIFTH_DENT,
    K_HAND,
    K_LIFT_FINISHED,
    K_MAX_ROUNDS,
    K_NEXT_START,
    K_NO_CANINE_DENT,
    K_POINTS,
    K_POINTS_ELIM,
    K_RACE_END,
    K_RACES,
    K_SAFETY,
    K_SET_ASIDE,
    K_SLED_DIE_LOSS,
    K_SLED_REFILL,
    K_START_RULE,
    K_TREE_DENTS,
    K_TWO_SLED_SECOND,
    K_WALL_DENTS,
    MAX_VALUE,
)
from simkit.games.snowtails.rules import (
    BONUS_DICE,
    canine_count,
    play_effect,
    race_order,
    race_position,
)
from simkit.rng import STREAM_BOT, STREAM_DECK, STREAM_SLOTS, below, shuffle, stream_key

ST_MAX = 1 + 2 * MAX_SEATS  # rng streams: slots, one deck per seat, one bot per seat
MAX_NODES = 16384  # search nodes of one turn: far above the ~35 plays x ~200 nodes worst case
MAX_OUTS = 4096

# What a turn did, for the round loop.
T_DONE = 0
T_OUT = 1  # a fifth dent took the sled out
T_REPAIR = 2  # a fifth dent sent it to repair
T_SECOND = 3  # a fifth dent in a 2-sled race: the race is over, this sled 2nd


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
def _eliminate(st, occ, p, rnd, seq, heat, log, nlog, trace):
    """R-18: a sled that must take one dent too many is out of the race."""
    space = st[p, ST_SPACE]
    st[p, ST_STATUS] = OUT
    st[p, ST_OUT_ROUND] = rnd
    st[p, ST_OUT_SEQ] = seq
    occ[space] -= 1
    heat[H_OUT, space] += 1
    if trace:
        _log(log, nlog, EV_OUT, p, space, 0, 0, 0, 0, 0, 0)


@njit(cache=True)  # not inlined: a rare path with five call sites
def _fifth(st, hand, disc, deck, occ, p, prm, bots, n_seats, rnd, seq, states, heat, log,
           nlog, trace):  # fmt: skip
    """One dent too many: out (R-18), or repair (R-25); returns the turn's ``T_*`` code."""
    if prm[K_FIFTH_DENT] == 0:
        _eliminate(st, occ, p, rnd, seq, heat, log, nlog, trace)
        return T_OUT
    space = st[p, ST_SPACE]
    heat[H_REPAIR, space] += 1
    st[p, ST_REPAIRS] += 1
    if n_seats == 2 and prm[K_TWO_SLED_SECOND] != 0:
        return T_SECOND  # in a 2-sled race it finishes 2nd at once
    # R-25 / ST2 C "Dent cards": the turn ends, every dent goes back, the hand is
    # discarded and 5 new canine cards drawn; the sled sits out until last in race order.
    st[p, ST_STATUS] = REPAIR
    st[p, ST_DENTS] = 0
    for v in range(MAX_VALUE + 1):
        disc[p, v] += hand[p, v]
        hand[p, v] = 0
    if trace:
        _log(log, nlog, EV_REPAIR, p, space, 0, 0, 0, 0, 0, 0)
    _refill(st, hand, disc, deck, p, prm, bots, states, log, nlog, trace, True)
    return T_REPAIR


@njit(cache=True, inline="always")
def _take_dents(tab, st, p, n, prm, log, nlog, trace, reason, corner, lim, speed, space):
    """Give seat ``p`` up to ``n`` dents for something at ``space``. Returns -1 if one more
    than the limit was due and the sled is not past the finish line (the caller applies
    R-18 or R-25), else the dents taken."""
    past = tab[space, S_PAST] != 0
    if past and prm[K_DENTS_PAST] == 0:
        return 0  # no dents once across the finish line
    taken = 0
    for _ in range(n):
        if st[p, ST_DENTS] >= prm[K_DENT_LIMIT]:
            if past:
                # already across the finish line: it stays where it is.
                if trace:
                    _log(log, nlog, EV_KEEP, p, space, 0, 0, 0, 0, 0, 0)
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
def _set_die(st, p, value, why, log, nlog, trace):
    """Turn seat ``p``'s bonus dice to ``value`` (0: no bonus available), logging why."""
    if trace and value != st[p, ST_DIE]:
        _log(log, nlog, EV_DIE, p, st[p, ST_DIE], value, why, 0, 0, 0, 0)
    st[p, ST_DIE] = value


@njit(cache=True, inline="always")
def _turn(
    tab, prog, safety, starts, race, prm, bots, weights, st, hand, disc, deck, occ, trees,
    states, n_seats, p, rnd, out_seq, scr_nodes, scr_outs, scr_keys, scr_plays, pattern,
    pattern2, path, heat, log, nlog, trace,
):  # fmt: skip
    """One turn of seat ``p`` (ST1 "Game Play", ST2 B). Returns a ``T_*`` code."""
    st[p, ST_TURNS] += 1
    pos = race_position(tab, st, n_seats, p, prm)  # R-04, at the start of its own turn
    if trace:
        _log(log, nlog, EV_TURN, p, rnd, pos, st[p, ST_SPACE], st[p, ST_LEFT],
             st[p, ST_RIGHT], st[p, ST_BRAKE], st[p, ST_DENTS])  # fmt: skip
        _log(log, nlog, EV_HAND, p, hand[p, 0], hand[p, 1], hand[p, 2], hand[p, 3],
             hand[p, 4], hand[p, 5], st[p, ST_DIE])  # fmt: skip
    n_row = starts[race, SR_NROW]
    if canine_count(hand, p) == 0:
        # R-19 / ST1 "Special Rule": take a dent (it can be the fatal one), draw up to the
        # hand size, then play normally.
        st[p, ST_NO_CANINE] += 1
        if trace:
            _log(log, nlog, EV_NO_CANINE, p, 0, 0, 0, 0, 0, 0, 0)
        if st[p, ST_SPACE] >= 0 and prm[K_NO_CANINE_DENT] != 0:
            got = _take_dents(tab, st, p, 1, prm, log, nlog, trace, DENT_NO_CANINE, -1, 0, 0,
                              st[p, ST_SPACE])  # fmt: skip
            if got < 0:
                return _fifth(st, hand, disc, deck, occ, p, prm, bots, n_seats, rnd, out_seq,
                              states, heat, log, nlog, trace)  # fmt: skip
        _refill(st, hand, disc, deck, p, prm, bots, states, log, nlog, trace, True)
        if canine_count(hand, p) == 0:
            if st[p, ST_SPACE] < 0:
                s = starts[race, SR_ROW]  # it must still enter the board
                st[p, ST_SPACE] = s
                occ[s] += 1
            if trace:
                _log(log, nlog, EV_STALL, p, 0, 0, 0, 0, 0, 0, 0)
            return T_DONE

    # ST2 B: in the first round a sled starts on any space directly before the start line;
    # sleds start one at a time, so a free one is always taken if there is one.
    placed = st[p, ST_SPACE] >= 0
    n_free = 0
    if not placed:
        for i in range(n_row):
            if occ[starts[race, SR_ROW + i]] == 0:
                n_free += 1
    if bots[p] == BOT_RANDOM:
        if not placed:
            r = below(states, _bot_stream(p), n_free if n_free > 0 else n_row)
            for i in range(n_row):
                s = starts[race, SR_ROW + i]
                if n_free == 0 or occ[s] == 0:
                    if r == 0:
                        st[p, ST_SPACE] = s
                        occ[s] += 1
                        break
                    r -= 1
        # 1. Play canine cards (R-12, ST2 B.1), chosen by the seat's bot.
        v, mask, npat, take = random_choice(
            st, hand, p, prm, rnd, pos, states, _bot_stream(p), scr_plays, pattern
        )
    else:
        # The greedy bot searches its play from its space, or from each free start space.
        best = -np.inf
        chosen = st[p, ST_SPACE]
        v = mask = npat = take = 0
        for i in range(1 if placed else n_row):
            if not placed:
                s = starts[race, SR_ROW + i]
                if n_free > 0 and occ[s] != 0:
                    continue
                st[p, ST_SPACE] = s
                occ[s] += 1
            cv, cm, cn, ct, sc = greedy_choice(
                tab, prog, safety, occ, trees, st, hand, p, prm, rnd, pos, weights[p],
                scr_nodes, scr_outs, scr_keys, scr_plays, pattern, best,
            )  # fmt: skip
            if placed:
                v, mask, npat, take = cv, cm, cn, ct
                break
            occ[s] -= 1
            if sc > best:
                best = sc
                chosen = s
                v, mask, npat, take = cv, cm, cn, ct
                for j in range(cn):
                    pattern2[j] = pattern[j]
        if not placed:
            for j in range(npat):
                pattern[j] = pattern2[j]
            st[p, ST_SPACE] = chosen
            occ[chosen] += 1
    if not placed and trace:
        _log(log, nlog, EV_PLACE, p, st[p, ST_SPACE], 0, 0, 0, 0, 0, 0)
    return resolve_play(
        tab, safety, prm, bots, st, hand, disc, deck, occ, trees, states, n_seats, p, rnd,
        pos, out_seq, v, mask, npat, take, pattern, path, heat, log, nlog, trace,
    )  # fmt: skip


@njit(cache=True, inline="always")
def resolve_play(
    tab, safety, prm, bots, st, hand, disc, deck, occ, trees, states, n_seats, p, rnd, pos,
    out_seq, v, mask, npat, take, pattern, path, heat, log, nlog, trace,
):  # fmt: skip
    """Carry out a chosen play: cards, bonus dice, movement along ``pattern`` (then
    ``take`` bonus moves), trees, dents, collisions, buildings and the hand's return to
    size. Returns a ``T_*`` code. The state oracle calls this too, so its outcomes are the
    engine's."""
    # Speed and drift and the bonus on offer after the play.
    left, right, brake, speed, _, dcol, raw, bonus = play_effect(st, p, v, mask, prm, rnd, pos)
    dice = prm[K_BONUS_RULE] == BONUS_DICE
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
    if dice:
        _set_die(st, p, bonus, DIE_ADJUST, log, nlog, trace)  # 2. R-23, ST2 B.2

    # 3. Move the sled, drifting as the bot chose, then 4. any bonus straight ahead.
    start = st[p, ST_SPACE]
    room = prm[K_DENT_LIMIT] - st[p, ST_DENTS]
    k, coll, b0 = walk(tab, occ, trees, start, pattern, npat, dcol, take, path, room,
                       prm[K_TREE_DENTS], prm[K_DENTS_PAST])  # fmt: skip
    end = path[k - 1]
    if trace:
        for j in range(1, k):
            kind = MV_BONUS if (b0 >= 0 and j >= b0) else pattern[j - 1]
            _log(log, nlog, EV_MOVE, p, path[j - 1], path[j], kind, 0, 0, 0, 0)
    occ[start] -= 1
    occ[end] += 1
    st[p, ST_SPACE] = end
    used = take > 0 and b0 >= 0
    if bonus > 0:
        if trace:
            _log(log, nlog, EV_BONUS, p, bonus, take if used else 0, 0, 0, 0, 0, 0)
        if used:
            st[p, ST_BONUS_USED] += 1
            if dice:
                _set_die(st, p, 0, DIE_USED, log, nlog, trace)  # spent in full
    total = speed + (take if used else 0)  # the bonus counts toward R-15
    if coll != C_NONE and coll != C_FIFTH and trace:
        attempt = MV_BONUS if used else pattern[k - 1]
        _log(log, nlog, EV_COLLIDE, p, coll, end, attempt, 0, 0, 0, 0)

    # R-21 / ST2 C "A tree": each tree entered is removed and dents; movement went on.
    for j in range(1, k):
        s = path[j]
        if trees[s] != 0:
            trees[s] = 0
            st[p, ST_TREES] += 1
            heat[H_TREE, s] += 1
            if trace:
                _log(log, nlog, EV_TREE, p, s, 0, 0, 0, 0, 0, 0)
            got = _take_dents(tab, st, p, prm[K_TREE_DENTS], prm, log, nlog, trace, DENT_TREE,
                              -1, 0, 0, s)  # fmt: skip
            if got < 0:
                return _fifth(st, hand, disc, deck, occ, p, prm, bots, n_seats, rnd, out_seq,
                              states, heat, log, nlog, trace)  # fmt: skip

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
                                  total, end)  # fmt: skip
                if got < 0:
                    return _fifth(st, hand, disc, deck, occ, p, prm, bots, n_seats, rnd,
                                  out_seq, states, heat, log, nlog, trace)  # fmt: skip

    # Then the collision, if any (ST1 "Dents and Hazards" 2 and 3, ST2 C).
    if coll == C_WALL:
        st[p, ST_COLL_WALL] += 1
        heat[H_WALL, end] += 1
        # one dent (a variant parameter), then refill as usual; none past the
        # finish line with R-26.
        got = _take_dents(tab, st, p, prm[K_WALL_DENTS], prm, log, nlog, trace, DENT_WALL, -1,
                          0, 0, end)  # fmt: skip
        if got < 0:
            return _fifth(st, hand, disc, deck, occ, p, prm, bots, n_seats, rnd, out_seq,
                          states, heat, log, nlog, trace)  # fmt: skip
    elif coll == C_SLED:
        st[p, ST_COLL_SLED] += 1
        heat[H_SLED, end] += 1
        loss = prm[K_SLED_DIE_LOSS]
        if dice and loss > 0 and st[p, ST_DIE] > 0:
            # the bonus dice loses a point; at 0 it is removed.
            _set_die(st, p, max(st[p, ST_DIE] - loss, 0), DIE_SLED, log, nlog, trace)

    # R-27 / ST2 F: building effects at the end of the turn, in this order: chapel,
    # bothy, the hand's return to size, kennels, tavern.
    trig = tab[end, S_TRIG]
    if trig & T_CHAPEL and st[p, ST_DENTS] > 0:
        if trace:
            _log(log, nlog, EV_BUILDING, p, T_CHAPEL, st[p, ST_DENTS], 0, 0, 0, 0, 0)
        st[p, ST_DENTS] = 0
        st[p, ST_CHAPEL] += 1
    if trig & T_BOTHY:
        drop = path  # reuse: the path is not needed any more
        bothy_choice(bots[p], hand, p, states, _bot_stream(p), drop)
        n_drop = 0
        for c in range(MAX_VALUE + 1):
            hand[p, c] -= drop[c]
            disc[p, c] += drop[c]
            n_drop += drop[c]
        if n_drop > 0:
            st[p, ST_BOTHY] += 1
            if trace:
                _log(log, nlog, EV_BUILDING, p, T_BOTHY, n_drop, 0, 0, 0, 0, 0)
    # 5. Return the hand to its size; after hitting a sled ST1 only discards.
    refill = coll != C_SLED or prm[K_SLED_REFILL] != 0
    _refill(st, hand, disc, deck, p, prm, bots, states, log, nlog, trace, refill)
    if trig & T_KENNELS and st[p, ST_FIVES] > 0 and kennels_choice(bots[p], states,
                                                                    _bot_stream(p)):  # fmt: skip
        # A set-aside 5 is shuffled into the draw deck (never a third: ST2 F "Kennels").
        n = st[p, ST_DECKN]
        deck[p, n] = MAX_VALUE
        shuffle(states, _deck_stream(p), deck[p], 0, n + 1)
        st[p, ST_DECKN] = n + 1
        st[p, ST_FIVES] -= 1
        st[p, ST_KENNELS] += 1
        if trace:
            _log(log, nlog, EV_BUILDING, p, T_KENNELS, st[p, ST_FIVES], 0, 0, 0, 0, 0)
    if trig & T_TAVERN and dice:
        d = st[p, ST_DIE]
        _set_die(st, p, 2 if d == 0 else min(d + 2, prm[K_DIE_MAX]), DIE_TAVERN, log, nlog,
                 trace)  # fmt: skip
        st[p, ST_TAVERN] += 1
    heat[H_TURN_END, end] += 1
    return T_DONE


@njit(cache=True, inline="always")
def _new_deck(st, hand, disc, deck, p, prm, bots, states, log, nlog, trace):
    """A fresh set-up of seat ``p``'s cards (ST1 Setup, ST2 A.5): deck, dogs, hand."""
    counts = np.zeros(MAX_VALUE + 1, np.int64)
    for v in range(MAX_VALUE + 1):
        counts[v] = prm[K_DECK + v]
        hand[p, v] = 0
        disc[p, v] = 0
    counts[MAX_VALUE] -= prm[K_SET_ASIDE]  # ST2 A.5: the 5s wait for the kennels
    st[p, ST_FIVES] = prm[K_SET_ASIDE]
    dogs = prm[K_DOGS]
    if prm[K_DOGS_FROM_DECK] != 0:
        if prm[K_EXPERIENCED] != 0:
            # ST2 A.5 option: an experienced sledder picks an equal, non-zero pair.
            chosen = start_pair(bots[p], counts, states, _bot_stream(p))
            if chosen > 0:
                dogs = chosen
        if counts[dogs] >= 2:
            counts[dogs] -= 2  # ST2 A.5: the pair leaves the deck for the dogs
            st[p, ST_LCARD] = 1
            st[p, ST_RCARD] = 1
    st[p, ST_LEFT] = dogs  # ST1 Setup: dogs printed at 3, brake marker at 3
    st[p, ST_RIGHT] = dogs
    st[p, ST_BRAKE] = prm[K_BRAKE0]
    n = 0
    for v in range(MAX_VALUE + 1):
        for _ in range(counts[v]):
            deck[p, n] = v
            n += 1
    shuffle(states, _deck_stream(p), deck[p], 0, n)  # ST1 Setup: shuffle the dog deck
    st[p, ST_DECKN] = n


@njit(cache=True, inline="always")
def _carry_deck(st, hand, disc, deck, p, prm, bots, states, log, nlog, trace):
    """Between tournament races (R-28, ST2 E): dents back, the cards under the dogs
    shuffled onto the bottom of the draw deck, the hand back up to size."""
    st[p, ST_DENTS] = 0
    k = 0
    for v in range(MAX_VALUE + 1):
        k += disc[p, v]
    n = st[p, ST_DECKN]
    for i in range(n - 1, -1, -1):
        deck[p, i + k] = deck[p, i]  # index 0 is the bottom, n - 1 the top
    i = 0
    for v in range(MAX_VALUE + 1):
        for _ in range(disc[p, v]):
            deck[p, i] = v
            i += 1
        disc[p, v] = 0
    shuffle(states, _deck_stream(p), deck[p], 0, k)
    st[p, ST_DECKN] = n + k
    _refill(st, hand, disc, deck, p, prm, bots, states, log, nlog, trace, True)


@njit(cache=True, inline="always")
def _setup_race(tab, starts, race, prm, slots, bots, st, hand, disc, deck, occ, trees, states,
                order, log, nlog, trace):  # fmt: skip
    """Set up race ``race`` (0-based) of the unit: trees, start order, cards, dice."""
    n_seats = slots.shape[0]
    base = starts[race, SR_BASE]
    for s in range(base, base + starts[race, SR_N]):
        trees[s] = tab[s, S_TREE]  # trees are per race
    occ[:] = 0
    if race == 0 or prm[K_NEXT_START] == 1:
        for p in range(n_seats):
            order[p] = slots[p]
        shuffle(states, 0, order, 0, n_seats)  # a random permutation of the slots
    else:
        # R-28 / ST2 E.5: the next race starts in reverse finishing order; the last sled
        # of the last race takes the first slot.
        sorted_slots = order[MAX_SEATS : MAX_SEATS + n_seats]
        for i in range(n_seats):
            sorted_slots[i] = slots[i]
        sorted_slots.sort()
        for p in range(n_seats):
            order[p] = sorted_slots[n_seats - st[p, ST_FINISH]]
    if trace:
        _log(log, nlog, EV_RACE, race + 1, base, 0, 0, 0, 0, 0, 0)
    fresh = race == 0 or prm[K_CARRY] == 0
    for p in range(n_seats):
        slot = order[p]
        st[p, ST_SLOT] = slot
        st[p, ST_ORDER] = slot
        if race == 0:
            st[p, ST_FIRST_SLOT] = slot
        st[p, ST_STATUS] = RACING
        st[p, ST_FINISH] = 0
        st[p, ST_FIN_ROUND] = 0
        st[p, ST_OUT_ROUND] = 0
        st[p, ST_OUT_SEQ] = 0
        deal = 0
        if fresh:
            st[p, ST_DENTS] = 0
            st[p, ST_LCARD] = 0
            st[p, ST_RCARD] = 0
            _new_deck(st, hand, disc, deck, p, prm, bots, states, log, nlog, trace)
            deal = prm[K_HAND] + prm[K_EXTRA + slot - 1]  # extra cards by start slot
            for _ in range(deal):
                _draw_one(st, hand, disc, deck, p, states, log, nlog, False)
        else:
            _carry_deck(st, hand, disc, deck, p, prm, bots, states, log, nlog, False)
        if prm[K_BONUS_RULE] == BONUS_DICE:
            st[p, ST_DIE] = prm[K_DIE_START + slot - 1]  # R-23, ST2 A.7 and E.6
        else:
            st[p, ST_DIE] = 0
        space = -1
        if prm[K_START_RULE] == 0:
            space = starts[race, SR_GRID + slot - 1]
            occ[space] += 1
        st[p, ST_SPACE] = space  # ST2 B: -1 until it enters the board in round 1
        if trace:
            _log(log, nlog, EV_START, p, slot, space, deal, st[p, ST_LEFT], st[p, ST_DIE], 0, 0)


@njit(cache=True, inline="always")
def _rank(st, p, rank, rnd, occ, prm, log, nlog, trace):
    """Seat ``p`` has finished in place ``rank`` in round ``rnd`` (R-05)."""
    st[p, ST_STATUS] = FINISHED
    st[p, ST_FINISH] = rank
    st[p, ST_FIN_ROUND] = rnd
    if prm[K_LIFT_FINISHED] != 0:
        occ[st[p, ST_SPACE]] -= 1  # its rank is fixed: it no longer blocks
    if trace:
        _log(log, nlog, EV_FINISH, p, rank, rnd, 0, 0, 0, 0, 0)


@njit(cache=True)
def play_race(
    tab, prog, safety, starts, prm, slots, bots, weights, key, st, hand, disc, deck, occ,
    trees, states, order, scr_nodes, scr_outs, scr_keys, scr_plays, pattern, pattern2, path,
    seat_out, race_out, heat, log, nlog, trace,
):  # fmt: skip
    """Play the unit with root ``key`` (one race, or a season / tournament of
    ``races``); write seat rows, race row and heat counts.

    ``slots`` lists the start slots in use (R-06); seats take them in a random order.
    ``starts`` has one row per race (``layout.SR_*``): its track's start spaces and where
    the track lies in the joined table.
    """
    n_seats = slots.shape[0]
    states[0] = stream_key(key, STREAM_SLOTS, 0)
    for p in range(MAX_SEATS):
        states[_deck_stream(p)] = stream_key(key, STREAM_DECK, p)
        states[_bot_stream(p)] = stream_key(key, STREAM_BOT, p)
    st[:, :] = 0
    hand[:, :] = 0
    disc[:, :] = 0
    total_rounds = 0
    lead_changes = 0
    timed_out = 0
    eliminations = 0
    won = 0
    n_races = prm[K_RACES]
    for race in range(n_races):
        _setup_race(tab, starts, race, prm, slots, bots, st, hand, disc, deck, occ, trees,
                    states, order, log, nlog, trace)  # fmt: skip
        rnd = 0
        out_seq = 0
        next_rank = 1
        leader = -1
        leader1 = -1
        over = False
        second = -1
        while not over:
            # a repairing sled rejoins when it is last in race order at the start of
            # a round, and plays that round.
            n = race_order(tab, st, n_seats, False, order, prm)
            for i in range(n - 1, -1, -1):
                q = order[i]
                if st[q, ST_STATUS] == FINISHED:
                    continue
                if st[q, ST_STATUS] == REPAIR:
                    st[q, ST_STATUS] = RACING
                    if trace:
                        _log(log, nlog, EV_REJOIN, q, rnd + 1, 0, 0, 0, 0, 0, 0)
                break
            n = race_order(tab, st, n_seats, True, order, prm)
            if n == 0:
                break
            if rnd >= prm[K_MAX_ROUNDS]:
                timed_out = 1
                break
            rnd += 1
            if trace:
                _log(log, nlog, EV_ROUND, rnd, 0, 0, 0, 0, 0, 0, 0)
            # turn order is the race order at the start of the round (sleds that have
            # not moved cannot change places among themselves).
            for i in range(n):
                order[MAX_SEATS + i] = order[i]
            for i in range(n):
                p = order[MAX_SEATS + i]
                code = _turn(
                    tab, prog, safety, starts, race, prm, bots, weights, st, hand, disc, deck,
                    occ, trees, states, n_seats, p, rnd, out_seq + 1, scr_nodes, scr_outs,
                    scr_keys, scr_plays, pattern, pattern2, path, heat, log, nlog, trace,
                )  # fmt: skip
                if code == T_OUT:
                    out_seq += 1
                elif code == T_SECOND:
                    second = p
                    over = True
                    break
            if over:
                # a fifth dent in a 2-sled race: the other sled 1st, this one 2nd.
                for q in range(n_seats):
                    if q != second:
                        _rank(st, q, 1, rnd, occ, prm, log, nlog, trace)
                _rank(st, second, 2, rnd, occ, prm, log, nlog, trace)
                next_rank = 3
                break
            if prm[K_RACE_END] == 0:
                # R-05 (ST1): at the end of a round every sled past the line has finished,
                # ranked by race order after those that finished in earlier rounds.
                n = race_order(tab, st, n_seats, True, order, prm)
                for i in range(n):
                    p = order[i]
                    if tab[st[p, ST_SPACE], S_PAST] != 0:
                        _rank(st, p, next_rank, rnd, occ, prm, log, nlog, trace)
                        next_rank += 1
            else:
                # R-05 / ST2 D: the race ends with the round in which a sled crosses the
                # line; every sled still in it is placed by race order, finished or not.
                crossed = False
                for p in range(n_seats):
                    s = st[p, ST_SPACE]
                    if st[p, ST_STATUS] == RACING and s >= 0 and tab[s, S_PAST] != 0:
                        crossed = True
                if crossed:
                    n = race_order(tab, st, n_seats, False, order, prm)
                    for i in range(n):
                        p = order[i]
                        _rank(st, p, next_rank, rnd, occ, prm, log, nlog, trace)
                        next_rank += 1
                    over = True
            n = race_order(tab, st, n_seats, False, order, prm)
            if n > 0:
                if rnd == 1:
                    leader1 = order[0]
                elif order[0] != leader:
                    lead_changes += 1
                leader = order[0]
        # Sleds still running at the round limit rank after the finishers, by race order.
        n = race_order(tab, st, n_seats, False, order, prm)
        for i in range(n):
            p = order[i]
            if st[p, ST_STATUS] != FINISHED:
                st[p, ST_FINISH] = next_rank
                next_rank += 1
        # eliminated sleds rank last, the last one out best among them.
        for seq in range(out_seq, 0, -1):
            for p in range(n_seats):
                if st[p, ST_STATUS] == OUT and st[p, ST_OUT_SEQ] == seq:
                    st[p, ST_FINISH] = next_rank
                    next_rank += 1
        for p in range(n_seats):
            f = st[p, ST_FINISH]
            stt = st[p, ST_STATUS]
            # ST2 D: with race_end = round every sled still in the race is placed.
            scores = stt == FINISHED if prm[K_RACE_END] == 0 else stt != OUT
            scores = scores or (stt == OUT and prm[K_POINTS_ELIM] != 0)
            pts = prm[K_POINTS + f - 1] if scores else 0
            if race < MAX_RACES:
                st[p, ST_RACE_FIN + race] = f
                st[p, ST_RACE_PTS + race] = pts
            st[p, ST_POINTS] += pts
        total_rounds += rnd
        eliminations += out_seq
        if race == 0:
            for p in range(n_seats):
                if p == leader1 and st[p, ST_FINISH] == 1 and st[p, ST_STATUS] == FINISHED:
                    won = 1
    if n_races > 1:
        # R-28 / ST2 E: most points over the races wins; ties go to the better place in
        # the final race (the ST1 season is ranked the same way).
        for p in range(n_seats):
            rank = 1
            for q in range(n_seats):
                if q == p:
                    continue
                if st[q, ST_POINTS] > st[p, ST_POINTS] or (
                    st[q, ST_POINTS] == st[p, ST_POINTS] and st[q, ST_FINISH] < st[p, ST_FINISH]
                ):
                    rank += 1
            order[MAX_SEATS + p] = rank
        for p in range(n_seats):
            st[p, ST_FINISH] = order[MAX_SEATS + p]
            st[p, ST_SLOT] = st[p, ST_FIRST_SLOT]
    for p in range(n_seats):
        for c in range(st.shape[1]):
            seat_out[p, c] = st[p, c]
    left = 0
    last = n_races - 1
    for s in range(starts[last, SR_BASE], starts[last, SR_BASE] + starts[last, SR_N]):
        left += trees[s]
    race_out[R_ROUNDS] = total_rounds
    race_out[R_LEAD_CHANGES] = lead_changes
    race_out[R_LEADER1_WON] = won
    race_out[R_TIMED_OUT] = timed_out
    race_out[R_ELIMINATIONS] = eliminations
    race_out[R_TREES_LEFT] = left
    if trace:
        _log(log, nlog, EV_END, total_rounds, timed_out, 0, 0, 0, 0, 0, 0)


@njit(cache=True)
def new_scratch(n_spaces):
    """Per-race working arrays, allocated once per block of races and reused."""
    return (
        np.zeros((MAX_SEATS, ST_COLS), np.int64),  # st
        np.zeros((MAX_SEATS, MAX_VALUE + 1), np.int64),  # hand
        np.zeros((MAX_SEATS, MAX_VALUE + 1), np.int64),  # disc
        np.zeros((MAX_SEATS, MAX_DECK), np.int64),  # deck
        np.zeros(n_spaces, np.int64),  # occ: sleds on each space
        np.zeros(n_spaces, np.int64),  # trees standing
        np.zeros(ST_MAX, np.uint64),  # rng states
        np.zeros(2 * MAX_SEATS, np.int64),  # order
        np.zeros((MAX_NODES, N_COLS), np.int64),  # search nodes
        np.zeros((MAX_OUTS, O_COLS), np.int64),  # outcomes
        np.zeros((64, 6), np.int64),  # outcome keys
        np.zeros((64, 2), np.int64),  # plays
        np.zeros(MAX_PATH, np.int64),  # pattern
        np.zeros(MAX_PATH, np.int64),  # pattern2 (the best start-row choice's pattern)
        np.zeros(MAX_PATH, np.int64),  # path
    )
