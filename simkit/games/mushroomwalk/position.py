"""Mushroom Walk's position: the functions of docs/positions.md over ``records.POSITION``.

``new`` sets a race up from its root key; ``legal_plays`` lists every decision the book
gives the seat to move (docs/rules-mushroomwalk.md "Choices"), ``apply`` carries one out
with everything that follows up to the next decision. The batch kernel, traces,
``simkit moves`` and every bot step positions through these functions only. Like every
kernel of the game but ``batch.play_games`` they are internal (``no_cpython_wrapper``, not
cached): Python calls them through their doors in :mod:`.kernels`.

Random streams (simkit.rng), slots of ``pos.rng``: the forest deck on (STREAM_DECK, 0),
the night pile on (STREAM_DECK, 1), each seat's bot on (STREAM_BOT, seat), who starts on
(STREAM_SLOTS, 0). Every shuffle happens in ``new``; after it only bots draw.

Hidden information: the draw pile and the night pile lie face down, and a hand is hidden
from the opponent except for the cards the opponent saw arrive (taken face up from the
forest or the decay pile; ``seat.seen``) and the night cards, which lie face up. Every
other card is in view (forest, decay and discard piles, displays, dishes).
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
    CARD_UNKNOWN,
    N_FOREST_CODES,
    N_KINDS,
    NIGHT_BASE,
)
from simkit.games.mushroomwalk.records import (
    COOK,
    DECAY,
    DISCARD,
    EV_DEAL,
    EV_DISCARD,
    EV_END,
    EV_START,
    EV_STUCK,
    EV_TURN,
    MAX_DECAY,
    MAX_DECK,
    MAX_FOREST,
    N_RNG,
    N_SEATS,
    N_SLOTS,
    PAN,
    POSITION,
    R_BOT,
    R_DECK,
    R_NIGHT,
    R_SLOTS,
    SELL,
    STREAMS,
    TAKE,
)
from simkit.games.mushroomwalk.rules import (
    can_act,
    can_take,
    can_take_decay,
    cook,
    deck_count,
    discard,
    draw_night,
    emit,
    end_of_turn,
    hand_limit,
    hand_size,
    put_pan,
    sell,
    take_decay,
    take_forest,
    winner,
)
from simkit.rng import below, shuffle, stream_key

_NONE = np.int64(-1)
_BLANK = np.zeros(1, POSITION)


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def copy(dst, src):
    """``dst`` = ``src``, every field (a test checks none is missed). Element by element:
    numba compiles a slice assignment of a nested array into far more code."""
    for p in range(N_SEATS):
        dst.seats[p] = src.seats[p]
    for i in range(MAX_DECK):
        dst.draw[i] = src.draw[i]
    for i in range(N_KINDS):
        dst.night[i] = src.night[i]
    for i in range(MAX_FOREST):
        dst.forest[i] = src.forest[i]
    for i in range(MAX_DECAY):
        dst.decay[i] = src.decay[i]
    for c in range(N_SLOTS):
        dst.discard[c] = src.discard[c]
    for r in range(N_RNG):
        dst.rng[r] = src.rng[r]
    dst.draw_top = src.draw_top
    dst.draw_end = src.draw_end
    dst.night_top = src.night_top
    dst.night_end = src.night_end
    dst.forest_n = src.forest_n
    dst.decay_n = src.decay_n
    dst.turn = src.turn
    dst.cur = src.cur
    dst.mover = src.mover
    dst.ended = src.ended
    dst.end_reason = src.end_reason
    dst.starter = src.starter
    dst.turn_play[0] = src.turn_play[0]
    dst.outcome[0] = src.outcome[0]


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def to_move(pos):
    """The seat whose decision it is; -1 once the game is over."""
    return pos.mover


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def is_over(pos):
    return pos.ended != 0


# --- setting up ---------------------------------------------------------------------------


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _lay_out(pos, prm):
    """'Building the decks', 'Setup' 2 and 4: shuffle both piles, lay out the forest."""
    n = np.int64(0)  # not a literal 0 (nor m): numba would compile ``shuffle`` for it too
    for c in range(N_FOREST_CODES):
        for _ in range(deck_count(prm, c)):
            pos.draw[n] = c
            n += 1
    shuffle(pos.rng, R_DECK, pos.draw, np.int64(0), n)  # 'Setup' 2: shuffle the forest deck
    pos.draw_end = n
    m = np.int64(0)
    for k in range(N_KINDS):
        if prm.night_cards[k] > 0:  # 'Building the decks': one night card each of 2..9
            pos.night[m] = NIGHT_BASE + k
            m += 1
    shuffle(pos.rng, R_NIGHT, pos.night, np.int64(0), m)  # 'Setup' 4
    pos.night_end = m
    # 'Setup' 2: the top cards are laid in a line leading away from the draw pile, so the
    # first card laid ends up furthest from the decay pile.
    f = prm.forest_size
    for i in range(f):
        pos.forest[f - 1 - i] = pos.draw[i]
    pos.draw_top = f
    pos.forest_n = f


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _deal(pos, prm, ev, evc):
    """'Setup' 5: deal one card at a time, seat 0 first (who starts is decided after). The
    cards are dealt face down; a basket goes to the display and is not replaced, a moon to
    the discard pile for the top night card, a poison mushroom to the discard pile."""
    for _ in range(prm.deal):
        for p in range(2):
            if pos.draw_top >= pos.draw_end:
                break
            c = np.int64(pos.draw[pos.draw_top])
            pos.draw_top += 1
            me = pos.seats[p]
            nc = _NONE
            if c == CARD_BASKET:
                me.baskets += 1
            elif c == CARD_POISON:
                pos.discard[CARD_POISON] += 1
            elif c == CARD_MOON:
                nc = draw_night(pos, np.int64(p), ev, evc)
            else:
                me.hand[c] += 1
            emit(ev, evc, pos, EV_DEAL, np.int64(p), c, nc)


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def new(pos, prm, key, race_index, ev, evc):
    """Set up the race with root ``key`` ('Setup' 1-6) and advance to its first decision.

    ``race_index`` matters only to who_starts = 'alternate' (R-51).
    """
    copy(pos, _BLANK[0])
    for i in range(MAX_FOREST):
        pos.forest[i] = -1
    for i in range(MAX_DECAY):
        pos.decay[i] = -1
    pos.turn_play[0].kind = _NONE
    pos.outcome[0].card = _NONE
    for r in range(N_RNG):
        pos.rng[r] = stream_key(key, STREAMS[r, 0], STREAMS[r, 1])
    # who starts is an input of the study: random, alternate by race, or seat 0.
    if prm.who_starts == 0:
        starter = below(pos.rng, R_SLOTS, np.int64(2))
    elif prm.who_starts == 1:
        starter = race_index % 2
    else:
        starter = 0
    _lay_out(pos, prm)
    for p in range(2):
        me = pos.seats[p]
        me.pans = prm.starting_pans  # 'Setup' 1: a spare card as starting pan
        me.first_pan_turn = -1
        me.first_dish_turn = -1
    _deal(pos, prm, ev, evc)
    pos.starter = starter  # 'Setup' 6, R-51
    pos.cur = starter
    emit(ev, evc, pos, EV_START, np.int64(starter), _NONE, np.int64(0))
    _next_decision(pos, prm, ev, evc)


# --- the decisions ------------------------------------------------------------------------


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _add(out, n, kind, arg):
    play = out[n]
    play.kind = kind
    play.arg = arg
    play.plain = 0
    play.night = 0
    play.butter = 0
    play.cider = 0
    play.hand_pan = 0
    return n + 1


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _cooks(me, k, prm, out, n):
    """'Playing a turn' 3: every dish of kind ``k`` the seat can make: any number of its
    plain and night cards making at least ``min_cook`` mushrooms, with any number of
    butter (one per 4) and cider (one per 5), a mushroom counting for one of them only,
    in a pan from the hand or an empty display pan. Largest first."""
    for night in range(me.hand[NIGHT_BASE + k], -1, -1):
        for plain in range(me.hand[k], -1, -1):
            m = plain + prm.night_multiplier * night
            if m < prm.min_cook or m == 0:
                continue
            for hand_pan in range(1, -1, -1):
                if (me.hand[CARD_PAN] if hand_pan else me.pans) == 0:
                    continue
                for cider in range(min(me.hand[CARD_CIDER], m // prm.cider_per), -1, -1):
                    left = m - cider * prm.cider_per
                    for butter in range(min(me.hand[CARD_BUTTER], left // prm.butter_per), -1, -1):
                        play = out[n]
                        n = _add(out, n, COOK, k)
                        play.plain = plain
                        play.night = night
                        play.butter = butter
                        play.cider = cider
                        play.hand_pan = hand_pan
    return n


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _sells(me, k, prm, out, n):
    """'Playing a turn' 4: any number of plain and night cards of kind ``k`` making at
    least ``min_sell`` mushrooms (one night card alone is enough). Largest first."""
    for night in range(me.hand[NIGHT_BASE + k], -1, -1):
        for plain in range(me.hand[k], -1, -1):
            m = plain + prm.night_multiplier * night
            if m < prm.min_sell or m == 0:
                continue
            play = out[n]
            n = _add(out, n, SELL, k)
            play.plain = plain
            play.night = night
    return n


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def legal_plays(pos, prm, out):
    """Write every play the seat to move may make into ``out`` (PLAY records); return n.

    A seat over its hand limit has just taken poison and must discard ('The poison
    mushroom'): its plays are the hand cards, one at a time. Otherwise the five actions of
    'Playing a turn', each with every choice the book leaves to the player.
    """
    if pos.mover < 0:
        return 0
    me = pos.seats[pos.mover]
    n = np.int64(0)  # not a literal: _add would compile twice
    if hand_size(me) > hand_limit(me, prm):
        for c in range(N_SLOTS):
            if me.hand[c] > 0:
                n = _add(out, n, DISCARD, np.int64(c))
        return n
    for i in range(pos.forest_n):
        if can_take(pos, me, i, prm):
            n = _add(out, n, TAKE, np.int64(i))
    if can_take_decay(pos, me, prm):
        n = _add(out, n, DECAY, np.int64(0))
    for k in range(N_KINDS):
        n = _cooks(me, k, prm, out, n)
    for k in range(N_KINDS):
        n = _sells(me, k, prm, out, n)
    if me.hand[CARD_PAN] > 0:
        n = _add(out, n, PAN, np.int64(0))
    return n


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def max_plays(prm):
    """A bound on ``legal_plays`` for any position of the variant (sizes ``out``)."""
    hand = prm.hand_limit + prm.basket_bonus * prm.basket_cards
    extras = (min(prm.butter_cards, hand) + 1) * (min(prm.cider_cards, hand) + 1)
    n = prm.forest_size + 2 + N_SLOTS
    for k in range(N_KINDS):
        sets = (min(prm.mushroom_cards[k], hand) + 1) * (prm.night_cards[k] + 1)
        n += sets * (1 + 2 * extras)
    return n


# --- carrying out a play ------------------------------------------------------------------


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _next_decision(pos, prm, ev, evc):
    """Whose decision comes next: ``cur``'s, unless it cannot act (R-50: the opponent
    takes turns one after another until it can; if neither can, the game ends)."""
    if pos.ended:
        pos.mover = -1
        emit(ev, evc, pos, EV_END, np.int64(winner(pos)), _NONE, np.int64(pos.end_reason))
        return
    cur = np.int64(pos.cur)
    if can_act(pos, cur, prm):
        pos.mover = cur
        return
    if not can_act(pos, 1 - cur, prm):
        pos.ended = 1  # neither can act, the game ends as if the forest were empty
        pos.end_reason = 1
        emit(ev, evc, pos, EV_STUCK, _NONE, _NONE, np.int64(0))
        pos.mover = -1
        emit(ev, evc, pos, EV_END, np.int64(winner(pos)), _NONE, np.int64(1))
        return
    pos.seats[cur].turns_stuck += 1
    emit(ev, evc, pos, EV_STUCK, cur, _NONE, np.int64(0))
    pos.mover = 1 - cur


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _main(pos, p, prm, play, ev, evc):
    """One of the five actions of 'Playing a turn'."""
    pos.turn += 1
    pos.turn_play[0] = play
    out = pos.outcome[0]
    out.card = _NONE
    out.n = 0
    out.gain = 0
    out.cost = 0
    out.night = _NONE
    if play.kind == TAKE:
        take_forest(pos, p, play.arg, prm, ev, evc)
    elif play.kind == DECAY:
        take_decay(pos, p, prm, ev, evc)
    elif play.kind == COOK:
        cook(pos, p, play, prm)
    elif play.kind == SELL:
        sell(pos, p, play, prm)
    else:
        put_pan(pos, p)


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def apply(pos, prm, play, ev, evc):
    """Carry out ``play`` (legal) for the seat to move, then everything that follows by
    itself up to the next decision: 'After every turn', the poison's countdown, R-50.

    A poison taken leaves the seat over its lower limit: it stays to move, discarding one
    card per play, and its turn ends with the last discard ('The poison mushroom').
    """
    p = np.int64(pos.mover)
    me = pos.seats[p]
    if play.kind == DISCARD:
        discard(pos, p, play.arg)
        emit(ev, evc, pos, EV_DISCARD, p, play.arg, np.int64(1))
    else:
        _main(pos, p, prm, play, ev, evc)
    if not pos.ended and hand_size(me) > hand_limit(me, prm):
        return  # discards still owed
    me.turns += 1
    if not pos.ended:
        end_of_turn(pos, p, prm, ev, evc)
    emit(ev, evc, pos, EV_TURN, p, pos.outcome[0].card, pos.outcome[0].n)
    if p == pos.cur:
        pos.cur = 1 - p  # a stand-in for a stuck seat leaves the turn with it
    _next_decision(pos, prm, ev, evc)


# --- results, views and samples -----------------------------------------------------------


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def result(pos, seat_out, race_out):
    """The table rows of a finished race: both seats' records and the race's row."""
    for p in range(2):
        seat_out[p] = pos.seats[p]
    race_out.winner = winner(pos)
    race_out.turns = pos.turn
    race_out.end_reason = pos.end_reason
    race_out.starter = pos.starter


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def observe(pos, seat, out):
    """``out`` = what ``seat`` may see: the face-down piles and the opponent's unseen hand
    cards become ``CARD_UNKNOWN``; every random stream but the seat's own bot stream is
    cleared."""
    copy(out, pos)
    for i in range(out.draw_top, out.draw_end):
        out.draw[i] = CARD_UNKNOWN
    for i in range(out.night_top, out.night_end):
        out.night[i] = CARD_UNKNOWN
    opp = out.seats[1 - seat]
    for c in range(N_SLOTS - 1):
        hidden = opp.hand[c] - opp.seen[c]
        opp.hand[c] -= hidden
        opp.hand[CARD_UNKNOWN] += hidden
    for r in range(N_RNG):
        if r != R_BOT + seat:
            out.rng[r] = 0


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def determinize(pos, seat, key, out):
    """``out`` = one sample of everything ``seat`` cannot see, consistent with what it saw.

    The unseen cards (the draw pile and the opponent's unseen hand cards) are dealt again
    at random over the same places, and the night pile is shuffled again; cards in view,
    every count, the seat's own hand and the opponent's seen cards stay. The sample depends
    only on what the seat may see and on ``key`` (a canonical order is shuffled), so two
    positions the seat cannot tell apart give the same sample. Random streams are fresh
    from ``key`` but the seat's own bot stream, which it knows.
    """
    copy(out, pos)
    opp = out.seats[1 - seat]
    top = np.int64(out.draw_top)
    end = np.int64(out.draw_end)
    # Nothing is allocated (the search bot calls this per rollout): the unseen cards are
    # counted in the opponent's hand, laid out in a canonical order in ``out.draw`` ending
    # at the draw pile's end, where the opponent's unseen cards take the places of cards
    # drawn before the pile's top (every hand card was drawn from the deck, and
    # ``state_from_json`` keeps that true), and shuffled there.
    for i in range(top, end):
        opp.hand[out.draw[i]] += 1
    lo = end
    for c in range(N_SLOTS):
        lo -= opp.hand[c] - opp.seen[c]
    i = lo
    for c in range(N_SLOTS):
        for _ in range(opp.hand[c] - opp.seen[c]):
            out.draw[i] = c
            i += 1
        opp.hand[c] = opp.seen[c]
    for r in range(N_RNG):
        if r != R_BOT + seat:
            out.rng[r] = stream_key(key, STREAMS[r, 0], STREAMS[r, 1])
    shuffle(out.rng, R_DECK, out.draw, lo, end)
    # the opponent's unseen cards are the first ones, the draw pile the rest; the places
    # they took get their drawn cards back
    for j in range(lo, top):
        opp.hand[out.draw[j]] += 1
        out.draw[j] = pos.draw[j]
    # the night pile's remaining cards are known, not their order: rank order, shuffled
    i = out.night_top
    for c in range(NIGHT_BASE, N_SLOTS):  # night cards, then unknown ones
        for j in range(pos.night_top, pos.night_end):
            if pos.night[j] == c:
                out.night[i] = c
                i += 1
    shuffle(out.rng, R_NIGHT, out.night, np.int64(out.night_top), np.int64(out.night_end))
