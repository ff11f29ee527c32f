"""The rules of Mushroom Walk as numba kernels over one state array (layout ``S_*``).

Every rule cites the book (``001_3be794a22b0ef5b2.txt``, section in quotes) or a ruling.
Functions here change the state and, when ``ev`` has room (traces), append events; they never
choose: where the book leaves a choice to the player (which cards to discard to the
poison's limit) the caller's policy decides (``discard`` argument, see :mod:`.policy`).
"""

from __future__ import annotations

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
    E_ACTION,
    E_CARD,
    E_COST,
    E_DECAY,
    E_DECAY_N,
    E_DRAW_LEFT,
    E_FOREST,
    E_FOREST_N,
    E_GAIN,
    E_HAND,
    E_KIND,
    E_N,
    E_SCORE,
    E_SEAT,
    E_STICKS,
    E_TURN,
    E_WIDTH,
    E_X1,
    E_X2,
    EV_NIGHT,
    EV_POISON,
    EV_POISON_END,
    N_ACTIONS,
    N_SLOTS,
    P_BASKET_BONUS,
    P_BUTTER_PER,
    P_BUTTER_PTS,
    P_CIDER_PER,
    P_CIDER_PTS,
    P_COOK,
    P_COST,
    P_DECAY_SIZE,
    P_FOREST_SIZE,
    P_HAND_LIMIT,
    P_MIN_COOK,
    P_MIN_SELL,
    P_NIGHT_MULT,
    P_POISON_LIMIT,
    P_POISON_TURNS,
    P_SELL,
    PL_BASKETS,
    PL_BUTTER_USED,
    PL_CIDER_USED,
    PL_COOKED,
    PL_DECAY_TAKES,
    PL_DISH,
    PL_DISHES,
    PL_FIRST_DISH_TURN,
    PL_FIRST_PAN_TURN,
    PL_HAND,
    PL_NIGHT_TAKEN,
    PL_PANS,
    PL_PANS_TAKEN,
    PL_POISON,
    PL_POISON_LEFT,
    PL_POISON_TAKEN,
    PL_SCORE,
    PL_SIZE,
    PL_SOLD,
    PL_STICKS,
    PL_STICKS_EARNED,
    PL_STICKS_PAID,
    S_DECAY,
    S_DECAY_N,
    S_DISCARD,
    S_DRAW,
    S_DRAW_END,
    S_DRAW_TOP,
    S_ENDED,
    S_FOREST,
    S_FOREST_N,
    S_NIGHT,
    S_NIGHT_END,
    S_NIGHT_TOP,
    S_PLAYERS,
    S_TURN,
)

# Explicit signatures on the helpers called with constant arguments: without them numba
# compiles one specialisation per literal value (emit had 20), which multiplies compile time.
_I32 = "int32[::1]"
_I64 = "int64[::1]"
_EV = "int32[:, ::1]"


@njit(cache=True, inline="always")
def base(p):
    """Offset of player ``p``'s block."""
    return S_PLAYERS + p * PL_SIZE


@njit(cache=True)
def hand_size(s, p):
    """Hand cards of ``p``, night cards included ('Your hand': they count as hand cards)."""
    b = base(p) + PL_HAND
    n = 0
    for c in range(N_SLOTS):
        n += s[b + c]
    return n


@njit(f"int64({_I32}, int64, {_I64}, int64)", cache=True)
def hand_limit(s, p, prm, extra_baskets):
    """'Your hand': 8 + 2 per basket; 'The poison mushroom': 4 + 2 per basket meanwhile."""
    b = base(p)
    lim = prm[P_POISON_LIMIT] if s[b + PL_POISON] > 0 else prm[P_HAND_LIMIT]
    return lim + prm[P_BASKET_BONUS] * (s[b + PL_BASKETS] + extra_baskets)


@njit(cache=True)
def mushrooms(s, p, k, prm):
    """Mushrooms of kind ``k`` held; 'Your hand': a night card counts as two."""
    b = base(p) + PL_HAND
    return s[b + k] + prm[P_NIGHT_MULT] * s[b + NIGHT_BASE + k]


@njit(cache=True)
def night_left(s):
    return s[S_NIGHT_END] - s[S_NIGHT_TOP]


@njit(cache=True)
def draw_left(s):
    return s[S_DRAW_END] - s[S_DRAW_TOP]


@njit(f"int64({_I32}, int64, int64)", cache=True)
def _needs_room(s, c, moons_before):
    """Hand slots a card takes: baskets/poison none ('Your hand'), a moon one night card
    if the night pile still has one ('Playing a turn' 1)."""
    if c in (CARD_BASKET, CARD_POISON):
        return 0
    if c == CARD_MOON:
        return 1 if night_left(s) > moons_before else 0
    return 1


@njit(cache=True)
def legal(s, p, prm, mask):
    """Fill ``mask`` (length N_ACTIONS) with the legal actions of ``p``; return how many.

    'Playing a turn': take from the forest, take the decay pile, cook, sell, put down a pan.
    """
    for a in range(N_ACTIONS):
        mask[a] = 0
    b = base(p)
    held = hand_size(s, p)
    limit = hand_limit(s, p, prm, 0)
    sticks = s[b + PL_STICKS]
    n = 0
    # 1. Take a forest card: pay the position's sticks; it must fit ("can't take cards
    # that don't fit", 'Your hand').
    for i in range(s[S_FOREST_N]):
        c = s[S_FOREST + i]
        if prm[P_COST + i] <= sticks and held + _needs_room(s, c, 0) <= limit:
            mask[A_TAKE + i] = 1
            n += 1
    # 2. Take the whole decay pile if everything fits; its baskets count first.
    dn = s[S_DECAY_N]
    if dn > 0:
        extra = 0
        room = 0
        moons = 0
        for j in range(dn):
            c = s[S_DECAY + j]
            if c == CARD_BASKET:
                extra += 1
            room += _needs_room(s, c, moons)
            if c == CARD_MOON:
                moons += 1
        if held + room <= hand_limit(s, p, prm, extra):
            mask[A_DECAY] = 1
            n += 1
    # 3. Cook: 3+ of a kind and a pan (empty in the display or played from the hand).
    has_pan = s[b + PL_PANS] > 0 or s[b + PL_HAND + CARD_PAN] > 0
    for k in range(N_KINDS):
        m = mushrooms(s, p, k, prm)
        if has_pan and m >= prm[P_MIN_COOK]:
            mask[A_COOK + k] = 1
            n += 1
        # 4. Sell: 2+ of a kind (one night card alone is enough).
        if m >= prm[P_MIN_SELL] and m > 0:
            mask[A_SELL + k] = 1
            n += 1
    # 5. Put down a pan from the hand.
    if s[b + PL_HAND + CARD_PAN] > 0:
        mask[A_PAN] = 1
        n += 1
    return n


@njit(f"void({_EV}, {_I64}, {_I32}, " + ", ".join(["int64"] * 9) + ")", cache=True)
def emit(ev, evc, s, kind, seat, action, card, n, gain, cost, x1, x2):
    """Append one trace event with a snapshot of the public state.

    Traces pass an event array with many rows; simulations and look-ahead pass a single
    row, which turns tracing off.
    """
    r = evc[0]
    if ev.shape[0] <= 1 or r >= ev.shape[0]:
        return
    evc[0] = r + 1
    ev[r, E_KIND] = kind
    ev[r, E_TURN] = s[S_TURN]
    ev[r, E_SEAT] = seat
    ev[r, E_ACTION] = action
    ev[r, E_CARD] = card
    ev[r, E_N] = n
    ev[r, E_GAIN] = gain
    ev[r, E_COST] = cost
    ev[r, E_X1] = x1
    ev[r, E_X2] = x2
    for q in range(2):
        ev[r, E_SCORE + q] = s[base(q) + PL_SCORE]
        ev[r, E_STICKS + q] = s[base(q) + PL_STICKS]
        ev[r, E_HAND + q] = hand_size(s, q)
    ev[r, E_DRAW_LEFT] = draw_left(s)
    ev[r, E_FOREST_N] = s[S_FOREST_N]
    ev[r, E_DECAY_N] = s[S_DECAY_N]
    for i in range(E_DECAY - E_FOREST):
        ev[r, E_FOREST + i] = s[S_FOREST + i] if i < s[S_FOREST_N] else -1
    for j in range(E_WIDTH - E_DECAY):
        ev[r, E_DECAY + j] = s[S_DECAY + j] if j < s[S_DECAY_N] else -1


@njit(cache=True)
def receive(s, p, c, ev, evc):
    """A card comes to ``p`` from the forest, the decay pile or the deal ('Playing a turn' 1).

    A basket goes to the display, a moon to the discard pile for the top night card, a
    poison mushroom to the display (the caller applies its limit), anything else to the
    hand. Returns the night card code taken for a moon, or -1.
    """
    b = base(p)
    if c == CARD_BASKET:
        s[b + PL_BASKETS] += 1
        return -1
    if c == CARD_POISON:
        s[b + PL_POISON] += 1
        s[b + PL_POISON_TAKEN] += 1
        return -1
    if c == CARD_MOON:
        s[S_DISCARD + CARD_MOON] += 1
        if night_left(s) > 0:
            nc = s[S_NIGHT + s[S_NIGHT_TOP]]
            s[S_NIGHT_TOP] += 1
            s[b + PL_HAND + nc] += 1
            s[b + PL_NIGHT_TAKEN] += 1
            emit(ev, evc, s, EV_NIGHT, p, -1, nc, 1, 0, 0, 0, 0)
            return nc
        return -1
    if c == CARD_PAN:
        s[b + PL_PANS_TAKEN] += 1
        if s[b + PL_FIRST_PAN_TURN] < 0:
            s[b + PL_FIRST_PAN_TURN] = s[S_TURN]
    s[b + PL_HAND + c] += 1
    return -1


@njit(cache=True)
def discard_card(s, p, c):
    """Move one hand card ``c`` of ``p`` to the discard pile."""
    s[base(p) + PL_HAND + c] -= 1
    s[S_DISCARD + c] += 1


@njit(cache=True)
def start_poison(s, p, prm, ev, evc):
    """'The poison mushroom': the lower limit lasts until the end of your next turn.

    ``PL_POISON_LEFT`` counts the taker's turn ends still to come, this one included.
    Returns how many hand cards must be discarded now (0 if already within the limit).
    """
    b = base(p)
    s[b + PL_POISON_LEFT] = prm[P_POISON_TURNS] + 1
    low = hand_limit(s, p, prm, 0)
    emit(ev, evc, s, EV_POISON, p, -1, CARD_POISON, low, 0, 0, 0, 0)
    over = hand_size(s, p) - low
    return over if over > 0 else 0


@njit(cache=True)
def take_forest(s, p, i, prm, ev, evc):
    """'Playing a turn' 1: take forest position ``i``, paying its sticks; close the gap.

    Returns (card, night card or -1, sticks paid, poison discards owed).
    """
    b = base(p)
    c = s[S_FOREST + i]
    cost = prm[P_COST + i]
    s[b + PL_STICKS] -= cost
    s[b + PL_STICKS_PAID] += cost
    n = s[S_FOREST_N]
    for j in range(i, n - 1):
        s[S_FOREST + j] = s[S_FOREST + j + 1]
    s[S_FOREST + n - 1] = -1
    s[S_FOREST_N] = n - 1
    nc = receive(s, p, c, ev, evc)
    owed = start_poison(s, p, prm, ev, evc) if c == CARD_POISON else 0
    if s[S_FOREST_N] == 0:
        s[S_ENDED] = 1  # 'End of the game': the forest's last card was taken
    return c, nc, cost, owed


@njit(cache=True)
def take_decay(s, p, prm, ev, evc):
    """'Playing a turn' 2: take the whole decay pile. Returns (cards, poison discards owed)."""
    dn = s[S_DECAY_N]
    poison = False
    for j in range(dn):
        c = s[S_DECAY + j]
        receive(s, p, c, ev, evc)
        if c == CARD_POISON:
            poison = True
        s[S_DECAY + j] = -1
    s[S_DECAY_N] = 0
    s[base(p) + PL_DECAY_TAKES] += 1
    owed = start_poison(s, p, prm, ev, evc) if poison else 0
    return dn, owed


@njit(cache=True)
def best_extras(m, butter, cider, prm):
    """'Playing a turn' 3: butter per 4 and cider per 5 mushrooms, each mushroom counted
    once; the most points the held butter and cider can add to a dish of ``m``."""
    bp = prm[P_BUTTER_PER]
    cp = prm[P_CIDER_PER]
    best_pts = -1
    best_b = 0
    best_c = 0
    for nc in range(min(cider, m // cp), -1, -1):
        nb = min(butter, (m - nc * cp) // bp)
        pts = nb * prm[P_BUTTER_PTS] + nc * prm[P_CIDER_PTS]
        if pts > best_pts:
            best_pts = pts
            best_b = nb
            best_c = nc
    return best_b, best_c


@njit(cache=True)
def cook(s, p, k, prm):
    """'Playing a turn' 3: cook every mushroom of kind ``k`` held, with the best extras.

    Uses a pan from the hand if there is one, else an empty display pan: the hand pan
    frees a hand slot and leaves the display pan for later, so it is never worse.
    Returns (mushrooms, points, butter, cider).
    """
    b = base(p)
    h = b + PL_HAND
    d = b + PL_DISH
    m = mushrooms(s, p, k, prm)
    nb, nc = best_extras(m, s[h + CARD_BUTTER], s[h + CARD_CIDER], prm)
    pts = m * prm[P_COOK + k] + nb * prm[P_BUTTER_PTS] + nc * prm[P_CIDER_PTS]
    if s[h + CARD_PAN] > 0:
        s[h + CARD_PAN] -= 1
    else:
        s[b + PL_PANS] -= 1
    s[d + CARD_PAN] += 1
    for c in (k, NIGHT_BASE + k):
        s[d + c] += s[h + c]
        s[h + c] = 0
    s[h + CARD_BUTTER] -= nb
    s[d + CARD_BUTTER] += nb
    s[h + CARD_CIDER] -= nc
    s[d + CARD_CIDER] += nc
    s[b + PL_SCORE] += pts
    s[b + PL_COOKED] += m
    s[b + PL_DISHES] += 1
    s[b + PL_BUTTER_USED] += nb
    s[b + PL_CIDER_USED] += nc
    if s[b + PL_FIRST_DISH_TURN] < 0:
        s[b + PL_FIRST_DISH_TURN] = s[S_TURN]
    return m, pts, nb, nc


@njit(cache=True)
def sell(s, p, k, prm):
    """'Playing a turn' 4: discard every mushroom of kind ``k`` held for its sell value
    (a night card double). Returns (mushrooms, sticks)."""
    b = base(p)
    m = mushrooms(s, p, k, prm)
    sticks = m * prm[P_SELL + k]
    for c in (k, NIGHT_BASE + k):
        s[S_DISCARD + c] += s[b + PL_HAND + c]
        s[b + PL_HAND + c] = 0
    s[b + PL_STICKS] += sticks
    s[b + PL_STICKS_EARNED] += sticks
    s[b + PL_SOLD] += m
    return m, sticks


@njit(cache=True)
def put_pan(s, p):
    """'Playing a turn' 5: a pan from the hand goes empty into the display."""
    b = base(p)
    s[b + PL_HAND + CARD_PAN] -= 1
    s[b + PL_PANS] += 1


@njit(f"void({_I32}, int64, {_I64}, boolean, {_EV}, {_I64})", cache=True)
def end_of_turn(s, p, prm, refill, ev, evc):
    """'After every turn' 1-3 and the end of a poison's lower limit; may end the game.

    ``refill`` False leaves the forest short instead of drawing: bots looking ahead use it
    so they never see the draw pile.
    """
    b = base(p)
    # 'The poison mushroom': after the taker's next turn the poison goes to the discard pile.
    if s[b + PL_POISON] > 0:
        s[b + PL_POISON_LEFT] -= 1
        if s[b + PL_POISON_LEFT] <= 0:
            np_ = s[b + PL_POISON]
            s[S_DISCARD + CARD_POISON] += np_
            s[b + PL_POISON] = 0
            s[b + PL_POISON_LEFT] = 0
            emit(ev, evc, s, EV_POISON_END, p, -1, CARD_POISON, np_, 0, 0, 0, 0)
    n = s[S_FOREST_N]
    if n > 0:
        # 1. The card next to the decay pile decays; a full pile goes to the discard first.
        if s[S_DECAY_N] >= prm[P_DECAY_SIZE]:
            for j in range(s[S_DECAY_N]):
                s[S_DISCARD + s[S_DECAY + j]] += 1
                s[S_DECAY + j] = -1
            s[S_DECAY_N] = 0
        s[S_DECAY + s[S_DECAY_N]] = s[S_FOREST]
        s[S_DECAY_N] += 1
        # 2. Slide the forest towards the decay pile.
        for j in range(n - 1):
            s[S_FOREST + j] = s[S_FOREST + j + 1]
        s[S_FOREST + n - 1] = -1
        s[S_FOREST_N] = n - 1
    # 3. Refill at the far end; an empty draw pile leaves the forest shorter.
    if refill:
        while s[S_FOREST_N] < prm[P_FOREST_SIZE] and s[S_DRAW_TOP] < s[S_DRAW_END]:
            s[S_FOREST + s[S_FOREST_N]] = s[S_DRAW + s[S_DRAW_TOP]]
            s[S_DRAW_TOP] += 1
            s[S_FOREST_N] += 1
    if s[S_FOREST_N] == 0 and s[S_DRAW_TOP] >= s[S_DRAW_END]:
        s[S_ENDED] = 1  # 'End of the game': the last card dropped into the decay pile


@njit(cache=True)
def do_action(s, p, a, prm, ev, evc):
    """Carry out action ``a`` (legal) for ``p``; return (card, n, gain, cost, x1, x2, owed).

    The trace fields: card taken or kind, mushrooms or cards, points or sticks gained,
    sticks paid, butter/night card, cider; ``owed`` hand cards to discard to poison.
    """
    if a < A_DECAY:
        c, nc, cost, owed = take_forest(s, p, a - A_TAKE, prm, ev, evc)
        return c, 1, 0, cost, nc, 0, owed
    if a == A_DECAY:
        dn, owed = take_decay(s, p, prm, ev, evc)
        return -1, dn, 0, 0, 0, 0, owed
    if a < A_SELL:
        m, pts, nb, nc = cook(s, p, a - A_COOK, prm)
        return a - A_COOK, m, pts, 0, nb, nc, 0
    if a < A_PAN:
        m, sticks = sell(s, p, a - A_SELL, prm)
        return a - A_SELL, m, sticks, 0, 0, 0, 0
    put_pan(s, p)
    return CARD_PAN, 1, 0, 0, 0, 0, 0


@njit(cache=True)
def winner(s):
    """'End of the game': higher score, then more mushrooms cooked; -1 for a draw."""
    a = s[base(0) + PL_SCORE]
    b = s[base(1) + PL_SCORE]
    if a != b:
        return 0 if a > b else 1
    a = s[base(0) + PL_COOKED]
    b = s[base(1) + PL_COOKED]
    if a != b:
        return 0 if a > b else 1
    return -1
