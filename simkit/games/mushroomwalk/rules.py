"""The rules of Mushroom Walk as numba kernels over a position record (``records.POSITION``).

Every rule cites the book (``001_3be794a22b0ef5b2.txt``, section in quotes) or a ruling.
These functions carry out what a play says and what follows by itself; they never choose:
every choice the book leaves to a player is a field of the play (:mod:`.position`). A
seat's record is ``pos.seats[p]``; ``prm`` is the variant's record
(``MushroomWalkParams.to_kernel()[0]``). Functions that may append trace events take
``ev``/``evc``; a one-row ``ev`` turns tracing off. Internal kernels: Python calls them
through :mod:`.kernels`.
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
from simkit.games.mushroomwalk.records import (
    EV_NIGHT,
    EV_POISON,
    EV_POISON_END,
    N_SLOTS,
)


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def hand_size(me):
    """Hand cards of a seat, night cards included ('Your hand': they count as hand cards)."""
    n = 0
    for c in range(N_SLOTS):
        n += me.hand[c]
    return n


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def hand_limit(me, prm):
    """'Your hand': 8 + 2 per basket; 'The poison mushroom': 4 + 2 per basket meanwhile."""
    lim = prm.poison_limit if me.poison > 0 else prm.hand_limit
    return lim + prm.basket_bonus * me.baskets


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def mushrooms(me, k, prm):
    """Mushrooms of kind ``k`` held; 'Your hand': a night card counts as two."""
    return me.hand[k] + prm.night_multiplier * me.hand[NIGHT_BASE + k]


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def deck_count(prm, c):
    """Cards of code ``c`` in the variant's forest deck ('Building the decks')."""
    if c < N_KINDS:
        return prm.mushroom_cards[c]
    if c == CARD_BUTTER:
        return prm.butter_cards
    if c == CARD_CIDER:
        return prm.cider_cards
    if c == CARD_BASKET:
        return prm.basket_cards
    if c == CARD_POISON:
        return prm.poison_cards
    if c == CARD_PAN:
        return prm.pan_cards
    if c == CARD_MOON:
        return prm.moon_cards
    return 0


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def night_left(pos):
    return pos.night_end - pos.night_top


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def draw_left(pos):
    return pos.draw_end - pos.draw_top


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def needs_room(pos, c, moons_before):
    """Hand slots a card takes: baskets/poison none ('Your hand'), a moon one night card
    if the night pile still has one ('Playing a turn' 1)."""
    if c in (CARD_BASKET, CARD_POISON):
        return 0
    if c == CARD_MOON:
        return 1 if night_left(pos) > moons_before else 0
    return 1


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def can_take(pos, me, i, prm):
    """'Playing a turn' 1: position ``i`` is paid for and its card fits ('Your hand')."""
    c = np.int64(pos.forest[i])
    fits = hand_size(me) + needs_room(pos, c, np.int64(0)) <= hand_limit(me, prm)
    return prm.stick_costs[i] <= me.sticks and fits


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def can_take_decay(pos, me, prm):
    """'Playing a turn' 2: the whole decay pile fits; its baskets count first."""
    if pos.decay_n == 0:
        return False
    extra = 0
    room = 0
    moons = np.int64(0)  # not a literal: needs_room would compile twice
    for j in range(pos.decay_n):
        c = np.int64(pos.decay[j])
        if c == CARD_BASKET:
            extra += 1
        room += needs_room(pos, c, moons)
        if c == CARD_MOON:
            moons += 1
    return hand_size(me) + room <= hand_limit(me, prm) + prm.basket_bonus * extra


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def can_act(pos, p, prm):
    """Whether seat ``p`` has any of the five actions at the start of a turn (R-50)."""
    me = pos.seats[p]
    for i in range(pos.forest_n):
        if can_take(pos, me, i, prm):
            return True
    if can_take_decay(pos, me, prm) or me.hand[CARD_PAN] > 0:
        return True
    has_pan = me.pans > 0 or me.hand[CARD_PAN] > 0
    for k in range(N_KINDS):
        m = mushrooms(me, k, prm)
        if m > 0 and (m >= prm.min_sell or (has_pan and m >= prm.min_cook)):
            return True
    return False


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def emit(ev, evc, pos, kind, seat, card, n):
    """Append one trace event with a snapshot of the public position.

    Traces pass an event array with many rows; simulations and look-ahead pass a single
    row, which turns tracing off.
    """
    r = evc[0]
    if ev.shape[0] <= 1 or r >= ev.shape[0]:
        return
    evc[0] = r + 1
    e = ev[r]
    e.kind = kind
    e.turn = pos.turn
    e.seat = seat
    e.card = card
    e.n = n
    e.play[0] = pos.turn_play[0]
    e.outcome[0] = pos.outcome[0]
    for q in range(2):
        e.score[q] = pos.seats[q].score
        e.sticks[q] = pos.seats[q].sticks
        e.hand[q] = hand_size(pos.seats[q])
    e.draw_left = draw_left(pos)
    e.forest_n = pos.forest_n
    e.decay_n = pos.decay_n
    for i in range(e.forest.shape[0]):
        e.forest[i] = pos.forest[i] if i < pos.forest_n else -1
    for j in range(e.decay.shape[0]):
        e.decay[j] = pos.decay[j] if j < pos.decay_n else -1


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def draw_night(pos, p, ev, evc):
    """A moon is exchanged for the top night card, face up ('Playing a turn' 1, 'Setup'
    5). Returns the night card, or -1 when the night pile is empty."""
    pos.discard[CARD_MOON] += 1
    if night_left(pos) == 0:
        return -1
    me = pos.seats[p]
    nc = np.int64(pos.night[pos.night_top])
    pos.night_top += 1
    me.hand[nc] += 1
    me.seen[nc] += 1  # night cards lie face up in the display ('Your hand')
    me.night_taken += 1
    emit(ev, evc, pos, EV_NIGHT, p, nc, np.int64(1))
    return nc


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def receive(pos, p, c, ev, evc):
    """A face-up card comes to ``p`` from the forest or the decay pile ('Playing a turn' 1).

    A basket goes to the display, a moon to the discard pile for the top night card, a
    poison mushroom to the display (the caller starts its limit), anything else to the
    hand, where the opponent has seen it arrive. Returns the night card a moon gave, or -1.
    """
    me = pos.seats[p]
    if c == CARD_BASKET:
        me.baskets += 1
        return -1
    if c == CARD_POISON:
        me.poison += 1
        me.poison_taken += 1
        return -1
    if c == CARD_MOON:
        return draw_night(pos, p, ev, evc)
    if c == CARD_PAN:
        me.pans_taken += 1
        if me.first_pan_turn < 0:
            me.first_pan_turn = pos.turn
    me.hand[c] += 1
    me.seen[c] += 1
    return -1


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def give_up(me, c, x):
    """``x`` hand cards of code ``c`` leave the hand face up: the opponent's sure knowledge
    of the rest shrinks by as many (it cannot tell which of them went)."""
    me.hand[c] -= x
    me.seen[c] = max(me.seen[c] - x, 0)


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def start_poison(pos, p, prm, ev, evc):
    """'The poison mushroom': the lower limit holds from now to the end of the taker's next
    turn (``poison_turns`` own turns after this one); a second poison restarts the count."""
    me = pos.seats[p]
    me.poison_left = prm.poison_turns + 1
    emit(ev, evc, pos, EV_POISON, p, CARD_POISON, np.int64(hand_limit(me, prm)))


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def take_forest(pos, p, i, prm, ev, evc):
    """'Playing a turn' 1: take forest position ``i``, paying its sticks; close the gap."""
    me = pos.seats[p]
    c = np.int64(pos.forest[i])
    cost = prm.stick_costs[i]
    me.sticks -= cost
    me.sticks_paid += cost
    n = pos.forest_n
    for j in range(i, n - 1):
        pos.forest[j] = pos.forest[j + 1]
    pos.forest[n - 1] = -1
    pos.forest_n = n - 1
    out = pos.outcome[0]
    out.card = c
    out.n = 1
    out.cost = cost
    out.night = receive(pos, p, c, ev, evc)
    if c == CARD_POISON:
        start_poison(pos, p, prm, ev, evc)
    if pos.forest_n == 0:
        pos.ended = 1  # 'End of the game': the forest's last card was taken


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def take_decay(pos, p, prm, ev, evc):
    """'Playing a turn' 2: take the whole decay pile."""
    poison = False
    dn = pos.decay_n
    for j in range(dn):
        c = np.int64(pos.decay[j])
        receive(pos, p, c, ev, evc)
        poison = poison or c == CARD_POISON
        pos.decay[j] = -1
    pos.decay_n = 0
    pos.seats[p].decay_takes += 1
    pos.outcome[0].n = dn
    if poison:
        start_poison(pos, p, prm, ev, evc)


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def cook(pos, p, play, prm):
    """'Playing a turn' 3: the play's mushrooms of one kind, butter and cider go into a pan.

    The pan is one played from the hand (``hand_pan``) or an empty display pan; the dish
    is final. 'End of the game': each mushroom scores its cook points (a night card
    double), each butter and cider its points.
    """
    me = pos.seats[p]
    k = play.arg
    m = play.plain + prm.night_multiplier * play.night
    pts = m * prm.cook_points[k] + play.butter * prm.butter_points + play.cider * prm.cider_points
    if play.hand_pan:
        give_up(me, CARD_PAN, np.int64(1))
    else:
        me.pans -= 1
    me.dish[CARD_PAN] += 1
    give_up(me, k, play.plain)
    give_up(me, NIGHT_BASE + k, play.night)
    give_up(me, CARD_BUTTER, play.butter)
    give_up(me, CARD_CIDER, play.cider)
    me.dish[k] += play.plain
    me.dish[NIGHT_BASE + k] += play.night
    me.dish[CARD_BUTTER] += play.butter
    me.dish[CARD_CIDER] += play.cider
    me.score += pts
    me.cooked += m
    me.dishes += 1
    me.butter_used += play.butter
    me.cider_used += play.cider
    if me.first_dish_turn < 0:
        me.first_dish_turn = pos.turn
    out = pos.outcome[0]
    out.card = k
    out.n = m
    out.gain = pts


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def sell(pos, p, play, prm):
    """'Playing a turn' 4: the play's mushrooms of one kind go to the discard pile for
    their sell values (a night card double)."""
    me = pos.seats[p]
    k = play.arg
    m = play.plain + prm.night_multiplier * play.night
    sticks = m * prm.sell_sticks[k]
    give_up(me, k, play.plain)
    give_up(me, NIGHT_BASE + k, play.night)
    pos.discard[k] += play.plain
    pos.discard[NIGHT_BASE + k] += play.night
    me.sticks += sticks
    me.sticks_earned += sticks
    me.sold += m
    out = pos.outcome[0]
    out.card = k
    out.n = m
    out.gain = sticks


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def put_pan(pos, p):
    """'Playing a turn' 5: a pan from the hand goes empty into the display."""
    me = pos.seats[p]
    give_up(me, CARD_PAN, np.int64(1))
    me.pans += 1
    pos.outcome[0].card = CARD_PAN
    pos.outcome[0].n = 1


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def discard(pos, p, c):
    """'The poison mushroom': one hand card (night cards count) goes to the discard pile."""
    me = pos.seats[p]
    give_up(me, c, np.int64(1))
    pos.discard[c] += 1
    me.discarded += 1


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def end_poison(pos, p, ev, evc):
    """'The poison mushroom': after the taker's next turn the poison goes to the discard
    pile and the normal limit is back. Only the taker's own turns count (simkit, R-50)."""
    me = pos.seats[p]
    if me.poison == 0:
        return
    me.poison_left -= 1
    if me.poison_left <= 0:
        pos.discard[CARD_POISON] += me.poison
        emit(ev, evc, pos, EV_POISON_END, p, CARD_POISON, np.int64(me.poison))
        me.poison = 0
        me.poison_left = 0


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def end_of_turn(pos, p, prm, ev, evc):
    """'After every turn' 1-3 and the end of a poison's lower limit; may end the game."""
    end_poison(pos, p, ev, evc)
    n = pos.forest_n
    if n > 0:
        # 1. The card next to the decay pile decays; a full pile goes to the discard first.
        if pos.decay_n >= prm.decay_size:
            for j in range(pos.decay_n):
                pos.discard[pos.decay[j]] += 1
                pos.decay[j] = -1
            pos.decay_n = 0
        pos.decay[pos.decay_n] = pos.forest[0]
        pos.decay_n += 1
        # 2. Slide the forest towards the decay pile.
        for j in range(n - 1):
            pos.forest[j] = pos.forest[j + 1]
        pos.forest[n - 1] = -1
        pos.forest_n = n - 1
    # 3. Refill at the far end; an empty draw pile leaves the forest shorter.
    while pos.forest_n < prm.forest_size and pos.draw_top < pos.draw_end:
        pos.forest[pos.forest_n] = pos.draw[pos.draw_top]
        pos.draw_top += 1
        pos.forest_n += 1
    if pos.forest_n == 0:
        pos.ended = 1  # 'End of the game': the last card dropped into the decay pile


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def winner(pos):
    """'End of the game': higher score, then more mushrooms cooked; -1 for a draw."""
    a = pos.seats[0]
    b = pos.seats[1]
    if a.score != b.score:
        return 0 if a.score > b.score else 1
    if a.cooked != b.cooked:
        return 0 if a.cooked > b.cooked else 1
    return -1
