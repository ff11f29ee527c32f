"""MUSH bots: the ``random`` baseline and the ``greedy`` musher, as numba decision functions.

A bot is a row of floats (``B_*`` offsets); its spec is ``name`` or ``name:key=value:...``
(e.g. ``greedy:reserve=8:train=cold``; colons because the CLI splits seats on commas).
The engine asks a bot at each decision point; bots read the position but never change
it. Random bots draw from their seat's ``STREAM_BOT``; greedy bots need no randomness.

greedy, in short: picks the training with the best expected dice along the route; rests
in a town when its dogs are tired (``rest_at``) or the next town looks out of reach with
the dogs it has left (``caution``), and keeps resting down to ``rest_to``; picks the
rest option worth most (``dog_value`` vs ``token_value``); plans each move over every
path within reach, trading distance against rough-terrain and avalanche risk, tokens and
a pull toward towns when tired; keeps ``reserve`` tokens and spends the rest where the
expected gain is worth it; bids when a rival is close; harasses a leader near the finish.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simkit.errors import SimkitError
from simkit.rng import below, uniform

BOT_KINDS = ("random", "greedy")
RANDOM, GREEDY = 0, 1

# name: (offset, random default, greedy default, doc)
BOT_PARAMS: dict[str, tuple[int, float, float, str]] = {
    "reserve": (1, 0.0, 4.0, "tokens kept back from optional spends (not from rolls)"),
    "token_value": (2, 0.5, 0.5, "an action token's worth in spaces"),
    "dog_value": (3, 1.0, 1.0, "an uncovered dog's worth in spaces (choosing rest options)"),
    "rest_at": (4, 8.0, 2.0, "covered dogs at which it rests when in a town"),
    "rest_to": (5, 0.0, 1.0, "once resting, rests until covered dogs are at most this"),
    "start_rest": (6, 0.0, 0.0, "rounds it rests in the start town first (gaining tokens)"),
    "caution": (7, 0.0, 0.35, "rests if caution x reach of its dogs < distance to next town"),
    "town_pull": (8, 0.0, 2.0, "spaces it gives up to end a move in a town when tired"),
    "rough_aversion": (9, 0.0, 2.0, "spaces a sure rough-terrain failure is worth avoiding"),
    "aval_aversion": (10, 0.0, 3.0, "spaces a sure avalanche failure is worth avoiding"),
    "rough_buy": (11, 1.0, 2.0, "tokens bought on a rough-terrain roll (capped by the rules)"),
    "aval_buy": (12, 2.0, 4.0, "tokens bought on an avalanche roll (capped by the rules)"),
    "bid": (13, 2.0, 1.0, "tokens bid for the order of play (random: most it bids)"),
    "bid_range": (14, 0.0, 3.0, "bids only when a rival is within this many spaces"),
    "harass_within": (15, 0.0, 20.0, "harasses a leader this close to the finish"),
    "harass_dice": (16, 1.0, 1.0, "dice it removes from a leader's roll"),
    "reroll_gap": (17, 0.0, 2.0, "rerolls dog dice this far from the expected count"),
    "avalanches": (18, 1.0, 1.0, "1: places and removes avalanche markers, 0: never"),
    "train": (19, -1.0, -1.0, "training it picks if allowed: warm, mild, cold or best"),
    "p": (20, 0.1, 0.0, "random: chance of each optional token spend"),
    "p_rest": (21, 0.3, 0.0, "random: chance of resting when in a town"),
    "stranded": (22, 0.0, 3.0, "spaces lost per space a move's end lies beyond its dogs' reach"),
}
B_KIND = 0
B_SIZE = 23
(
    B_RESERVE,
    B_TOKEN_VALUE,
    B_DOG_VALUE,
    B_REST_AT,
    B_REST_TO,
    B_START_REST,
    B_CAUTION,
    B_TOWN_PULL,
    B_ROUGH_AVERSION,
    B_AVAL_AVERSION,
    B_ROUGH_BUY,
    B_AVAL_BUY,
    B_BID,
    B_BID_RANGE,
    B_HARASS_WITHIN,
    B_HARASS_DICE,
    B_REROLL_GAP,
    B_AVALANCHES,
    B_TRAIN,
    B_P,
    B_P_REST,
    B_STRANDED,
) = range(1, 23)
_TRAIN_NAMES = {"warm": 0.0, "mild": 1.0, "cold": 2.0, "best": -1.0}


def bot_row(spec: str) -> np.ndarray:
    """The parameter row of a bot spec such as ``greedy`` or ``greedy:reserve=8:train=cold``."""
    name, *pairs = spec.split(":")
    if name not in BOT_KINDS:
        raise SimkitError(f"mush: unknown bot '{name}' (known: {', '.join(BOT_KINDS)})")
    kind = BOT_KINDS.index(name)
    row = np.zeros(B_SIZE, dtype=np.float64)
    row[B_KIND] = kind
    for _key, (i, rnd, grd, _doc) in BOT_PARAMS.items():
        row[i] = grd if kind == GREEDY else rnd
    for pair in pairs:
        key, eq, raw = pair.partition("=")
        if not eq or key not in BOT_PARAMS:
            known = ", ".join(BOT_PARAMS)
            raise SimkitError(f"mush: bot '{spec}': expected key=value with key one of {known}")
        i = BOT_PARAMS[key][0]
        if key == "train":
            if raw not in _TRAIN_NAMES:
                raise SimkitError(f"mush: bot '{spec}': train must be warm, mild, cold or best")
            row[i] = _TRAIN_NAMES[raw]
            continue
        try:
            row[i] = float(raw)
        except ValueError:
            raise SimkitError(f"mush: bot '{spec}': {key} must be a number (got '{raw}')") from None
        if row[i] < 0:
            raise SimkitError(f"mush: bot '{spec}': {key} must be >= 0 (got {raw})")
    return row


@njit(cache=True)
def chance(bp, states, bi):
    """A random bot's coin for an optional token spend."""
    return uniform(states, bi) < bp[B_P]


@njit(cache=True)
def choose_training(bp, states, bi, allowed, value):
    """R-44: a training within the limits; greedy takes its preference or the best value."""
    if bp[B_KIND] == RANDOM:
        k = 0
        for t in range(3):
            k += allowed[t]
        pick = below(states, bi, k)
        for t in range(3):
            if allowed[t]:
                if pick == 0:
                    return t
                pick -= 1
    want = int(bp[B_TRAIN])
    if want >= 0 and allowed[want]:
        return want
    best = -1
    for t in range(3):
        if allowed[t] and (best < 0 or value[t] > value[best]):
            best = t
    return best


@njit(cache=True)
def choose_bid(bp, states, bi, tokens, rival_ahead, in_town, exhausted):
    """R-47: tokens bid for the order of play; greedy bids racing close behind a rival,
    and an exhausted sled in the wilderness bids for the extra space, its only way on."""
    if bp[B_KIND] == RANDOM:
        return below(states, bi, min(tokens, int(bp[B_BID])) + 1)
    amount = int(bp[B_BID])
    if exhausted and tokens > 0:
        return max(1, min(amount, tokens))
    if in_town or amount <= 0 or rival_ahead > bp[B_BID_RANGE]:
        return 0
    if tokens - amount < bp[B_RESERVE]:
        return 0
    return amount


@njit(cache=True)
def wants_rest(bp, states, bi, rest_kind, covered, was_resting, start_rests, reach, next_town):
    """Whether to rest this turn instead of racing (R-45); ``reach``: spaces the dogs have left."""
    if bp[B_KIND] == RANDOM:
        return uniform(states, bi) < bp[B_P_REST]
    if rest_kind == 1:  # the start town: rest only to bank tokens before the start
        return start_rests < bp[B_START_REST]
    if covered == 0:
        return False
    if was_resting and covered > bp[B_REST_TO]:
        return True
    if covered >= bp[B_REST_AT]:
        return True
    return bp[B_CAUTION] * reach < next_town


@njit(cache=True)
def choose_rest(bp, states, bi, opts, n_opts, covered, cap_dogs, cap_tokens):
    """Which rest option (index into ``opts`` pairs); greedy: the one worth most to it."""
    if bp[B_KIND] == RANDOM:
        return below(states, bi, n_opts)
    best = 0
    best_v = -1e300
    for k in range(n_opts):
        d = min(opts[2 * k], covered, cap_dogs)
        t = min(opts[2 * k + 1], cap_tokens)
        v = d * bp[B_DOG_VALUE] + t * bp[B_TOKEN_VALUE] + d * 1e-6
        if d == 0 and covered > 0:
            v -= 1e6  # it rests for its dogs: an option that uncovers none is a last resort
        if v > best_v:
            best_v = v
            best = k
    return best


@njit(cache=True)
def spare(bp, tokens):
    """Tokens above the bot's reserve."""
    return max(0, tokens - int(bp[B_RESERVE]))


@njit(cache=True)
def buy_for_check(bp, states, bi, tokens, is_rough, token_max):
    """Tokens bought (+1 each) before a rough-terrain or avalanche roll (text, R-46).

    The reserve does not apply: getting through is what tokens are kept for.
    """
    want = bp[B_ROUGH_BUY] if is_rough else bp[B_AVAL_BUY]
    if bp[B_KIND] == RANDOM:
        return min(below(states, bi, int(want) + 1), tokens, token_max)
    return min(int(want), tokens, token_max)


@njit(cache=True)
def reroll_failed_check(bp, states, bi, tokens, cost, moves_left):
    """Pay to roll a failed rough/avalanche check again (text, "Relancer un dé")."""
    if tokens < cost:
        return False
    if bp[B_KIND] == RANDOM:
        return chance(bp, states, bi)
    return moves_left >= 2 and spare(bp, tokens) >= cost


@njit(cache=True)
def remove_avalanche(bp, states, bi, tokens, cost, moves_left):
    """Pay to take a marker off the line ahead instead of rolling for it."""
    if tokens < cost or bp[B_AVALANCHES] == 0:
        return False
    if bp[B_KIND] == RANDOM:
        return chance(bp, states, bi)
    return moves_left >= 3  # getting through is what tokens are kept for


@njit(cache=True)
def pay_to_pass(bp, states, bi, tokens, cost):
    """Pay to pass occupied wilderness for the rest of the turn (random bots; greedy plans it)."""
    if tokens < cost:
        return False
    return uniform(states, bi) < 0.5


@njit(cache=True)
def reroll_own_dice(bp, states, bi, tokens, cost, faces, expected):
    """Pay to reroll one's own dog dice after a poor roll."""
    if tokens < cost:
        return False
    if bp[B_KIND] == RANDOM:
        return chance(bp, states, bi)
    return faces <= expected - bp[B_REROLL_GAP] and spare(bp, tokens) >= cost


@njit(cache=True)
def harasses(bp, states, bi, leader_is_target, target_to_go):
    """Whether to consider slowing the sled about to roll (random bots: always)."""
    if bp[B_KIND] == RANDOM:
        return True
    return leader_is_target and target_to_go <= bp[B_HARASS_WITHIN]


@njit(cache=True)
def reroll_for_gain(bp, states, bi, tokens, cost, gain):
    """Pay to have a roll (weather, bonus die, an opponent's check) rolled again, worth
    ``gain`` spaces to this bot on average."""
    if tokens < cost:
        return False
    if bp[B_KIND] == RANDOM:
        return chance(bp, states, bi)
    return gain > cost * bp[B_TOKEN_VALUE] and spare(bp, tokens) >= cost


@njit(cache=True)
def force_reroll(bp, states, bi, tokens, cost, faces, expected, harass):
    """Pay to make an opponent reroll a good dog-dice roll."""
    if tokens < cost or not harass:
        return False
    if bp[B_KIND] == RANDOM:
        return chance(bp, states, bi)
    return faces >= expected + bp[B_REROLL_GAP] and spare(bp, tokens) >= cost


@njit(cache=True)
def dice_to_remove(bp, states, bi, tokens, cost, room, harass):
    """How many of an opponent's dice to remove before the roll (text, "Réduire les dés")."""
    if not harass or (bp[B_KIND] == RANDOM and not chance(bp, states, bi)):
        return 0
    if cost <= 0:
        return max(0, min(room, int(bp[B_HARASS_DICE])))
    afford = spare(bp, tokens) // cost if bp[B_KIND] == GREEDY else tokens // cost
    return max(0, min(room, int(bp[B_HARASS_DICE]), afford))


@njit(cache=True)
def places_avalanche(bp, states, bi, tokens, cost, harass):
    """Whether to place (or move) an avalanche marker ahead of the sled about to roll."""
    if not harass or bp[B_AVALANCHES] == 0 or tokens < cost:
        return False
    if bp[B_KIND] == RANDOM:
        return chance(bp, states, bi)
    return spare(bp, tokens) >= cost
