"""Flat layouts the kernels share: the parameter vector and the game-state array.

A game's whole state is one ``int32`` array (offsets ``S_*`` and, per player, ``PL_*``
added to ``player_base(p)``), so a bot can copy a position with one ``copy()`` and the
batch kernel keeps one row per game. The parameter vector (``P_*``, ``int64``) is built by
:meth:`MushroomWalkParams.to_kernel`. These are layout constants, not rule values.
"""

from __future__ import annotations

from simkit.games.mushroomwalk.cards import N_CODES, N_FOREST_CODES, N_KINDS

MAX_FOREST = 12
MAX_DECAY = 8
MAX_DECK = 200
N_SLOTS = N_CODES + 1  # per-code count arrays include CARD_UNKNOWN

# --- parameter vector -------------------------------------------------------------------
P_HAND_LIMIT = 0
P_BASKET_BONUS = 1
P_POISON_LIMIT = 2
P_POISON_TURNS = 3
P_DECAY_SIZE = 4
P_FOREST_SIZE = 5
P_DEAL = 6
P_START_PANS = 7
P_BUTTER_PER = 8
P_BUTTER_PTS = 9
P_CIDER_PER = 10
P_CIDER_PTS = 11
P_NIGHT_MULT = 12
P_MIN_COOK = 13
P_MIN_SELL = 14
P_WHO_STARTS = 15
P_COST = 16  # MAX_FOREST entries: sticks to take forest position i (0 = next to decay)
P_COOK = P_COST + MAX_FOREST  # N_KINDS entries
P_SELL = P_COOK + N_KINDS
P_COUNT = P_SELL + N_KINDS  # N_FOREST_CODES entries: forest-deck cards per code
P_NIGHT = P_COUNT + N_FOREST_CODES  # N_KINDS entries: night cards per kind
P_SIZE = P_NIGHT + N_KINDS

WHO_STARTS = ("random", "alternate", "seat0")

# --- game state -------------------------------------------------------------------------
S_DRAW = 0  # MAX_DECK card codes; cards S_DRAW_TOP..S_DRAW_END-1 are still in the pile
S_DRAW_TOP = S_DRAW + MAX_DECK
S_DRAW_END = S_DRAW_TOP + 1
S_NIGHT = S_DRAW_END + 1  # N_KINDS night cards, top at S_NIGHT_TOP
S_NIGHT_TOP = S_NIGHT + N_KINDS
S_NIGHT_END = S_NIGHT_TOP + 1
S_FOREST = S_NIGHT_END + 1  # MAX_FOREST codes; position 0 is next to the decay pile
S_FOREST_N = S_FOREST + MAX_FOREST
S_DECAY = S_FOREST_N + 1  # MAX_DECAY codes, oldest first
S_DECAY_N = S_DECAY + MAX_DECAY
S_DISCARD = S_DECAY_N + 1  # N_SLOTS counts
S_TURN = S_DISCARD + N_SLOTS  # turns played so far
S_CUR = S_TURN + 1  # seat whose turn it is (the stuck seat while R-50 applies)
S_ENDED = S_CUR + 1
S_END_REASON = S_ENDED + 1  # 0 forest empty, 1 neither player can act
S_STARTER = S_END_REASON + 1
S_PLAYERS = S_STARTER + 1

# per player, relative to player_base(p)
PL_HAND = 0  # N_SLOTS counts: hand cards and night cards (night cards count as hand cards)
PL_DISH = PL_HAND + N_SLOTS  # N_SLOTS counts of cards cooked into dishes (pans included)
PL_BASKETS = PL_DISH + N_SLOTS
PL_POISON = PL_BASKETS + 1  # poison cards lying in the display
PL_POISON_LEFT = PL_POISON + 1  # own turns the lower limit still lasts after this one
PL_PANS = PL_POISON_LEFT + 1  # empty pans in the display
PL_SCORE = PL_PANS + 1
PL_COOKED = PL_SCORE + 1  # mushrooms cooked, night cards counting double
PL_DISHES = PL_COOKED + 1
PL_STICKS = PL_DISHES + 1
PL_STICKS_EARNED = PL_STICKS + 1
PL_STICKS_PAID = PL_STICKS_EARNED + 1
PL_POISON_TAKEN = PL_STICKS_PAID + 1
PL_PANS_TAKEN = PL_POISON_TAKEN + 1
PL_TURNS_STUCK = PL_PANS_TAKEN + 1
PL_FIRST_PAN_TURN = PL_TURNS_STUCK + 1
PL_FIRST_DISH_TURN = PL_FIRST_PAN_TURN + 1
PL_BUTTER_USED = PL_FIRST_DISH_TURN + 1
PL_CIDER_USED = PL_BUTTER_USED + 1
PL_TURNS = PL_CIDER_USED + 1
PL_NIGHT_TAKEN = PL_TURNS + 1
PL_SOLD = PL_NIGHT_TAKEN + 1
PL_DECAY_TAKES = PL_SOLD + 1
PL_DISCARDED = PL_DECAY_TAKES + 1  # hand cards discarded to poison
PL_SIZE = PL_DISCARDED + 1

S_SIZE = S_PLAYERS + 2 * PL_SIZE

# --- actions ----------------------------------------------------------------------------
A_TAKE = 0  # A_TAKE + i: take forest position i
A_DECAY = MAX_FOREST
A_COOK = A_DECAY + 1  # A_COOK + k: cook every mushroom of kind k you hold
A_SELL = A_COOK + N_KINDS  # A_SELL + k: sell every mushroom of kind k you hold
A_PAN = A_SELL + N_KINDS  # put a pan from your hand into your display
N_ACTIONS = A_PAN + 1

# --- trace events -----------------------------------------------------------------------
EV_START = 0  # seat = starting player
EV_DEAL = 1  # seat, card dealt; x1 = night card taken for a moon (or -1)
EV_TURN = 2  # seat, action, card, n, gain, cost, x1 butter, x2 cider
EV_NIGHT = 3  # seat, card = night card taken for a moon
EV_POISON = 4  # seat, n = new lower limit
EV_DISCARD = 5  # seat, card, n = cards discarded to the poison's lower limit
EV_POISON_END = 6  # seat, n = poison cards put on the discard pile
EV_STUCK = 7  # seat that cannot act
EV_END = 8  # seat = winner or -1 for a draw; n = end reason
E_KIND = 0
E_TURN = 1
E_SEAT = 2
E_ACTION = 3
E_CARD = 4
E_N = 5
E_GAIN = 6
E_COST = 7
E_X1 = 8
E_X2 = 9
E_SCORE = 10  # 2 entries
E_STICKS = 12  # 2 entries
E_HAND = 14  # 2 entries
E_DRAW_LEFT = 16
E_FOREST_N = 17
E_DECAY_N = 18
E_FOREST = 19  # MAX_FOREST entries
E_DECAY = E_FOREST + MAX_FOREST  # MAX_DECAY entries
E_WIDTH = E_DECAY + MAX_DECAY


def player_base(p: int) -> int:
    """Offset of player ``p``'s block in the state array."""
    return S_PLAYERS + p * PL_SIZE
