"""MUSH bots' leaf decisions: the ``random`` baseline and the ``greedy`` musher.

Each function answers one question for one bot (``bp``, a ``BOT`` record) from numbers
``heuristic.py`` reads off the position. Random bots draw from their seat's stream
(``states[bi]``); greedy bots need no randomness (a search bot is greedy here).

greedy, in short: picks the training with the best expected dice along the route; rests
in a town when its dogs are tired (``rest_at``) or the next town looks out of reach with
the dogs it has left (``caution``), and keeps resting down to ``rest_to``; picks the
rest option worth most (``dog_value`` vs ``token_value``); plans each move over every
path within reach (planner.py); keeps ``reserve`` tokens and spends the rest where the
expected gain is worth it; bids when a rival is close; harasses a leader near the finish.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simkit.games.mush.bots import RANDOM
from simkit.rng import below, uniform


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def chance(bp, states, bi):
    """A random bot's coin for an optional token spend."""
    return uniform(states, bi) < bp.p


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def choose_training(bp, states, bi, allowed, value):
    """R-44: a training within the limits; greedy takes its preference or the best value."""
    if bp.kind == RANDOM:
        k = np.int64(0)  # not a literal 0: numba would compile ``below`` for it too
        for t in range(3):
            k += allowed[t]
        pick = below(states, bi, k)
        for t in range(3):
            if allowed[t]:
                if pick == 0:
                    return t
                pick -= 1
    want = int(bp.train)
    if want >= 0 and allowed[want]:
        return want
    best = -1
    for t in range(3):
        if allowed[t] and (best < 0 or value[t] > value[best]):
            best = t
    return best


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def choose_bid(bp, states, bi, tokens, rival_ahead, in_town, exhausted):
    """R-47: tokens bid for the order of play; greedy bids racing close behind a rival,
    and an exhausted sled in the wilderness bids for the extra space, its only way on."""
    if bp.kind == RANDOM:
        return below(states, bi, min(tokens, int(bp.bid)) + 1)
    amount = int(bp.bid)
    if exhausted and tokens > 0:
        return max(1, min(amount, tokens))
    if in_town or amount <= 0 or rival_ahead > bp.bid_range:
        return 0
    if tokens - amount < bp.reserve:
        return 0
    return amount


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def wants_rest(bp, states, bi, rest_kind, covered, was_resting, start_rests, reach, next_town):
    """Whether to rest this turn instead of racing (R-45); ``reach``: spaces the dogs have left."""
    if bp.kind == RANDOM:
        return uniform(states, bi) < bp.p_rest
    if rest_kind == 1:  # the start town: rest only to bank tokens before the start
        return start_rests < bp.start_rest
    if covered == 0:
        return False
    if was_resting and covered > bp.rest_to:
        return True
    if covered >= bp.rest_at:
        return True
    return bp.caution * reach < next_town


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def choose_rest(bp, states, bi, opts, n_opts, covered, cap_dogs, cap_tokens):
    """Which rest option (index into ``opts`` pairs); greedy: the one worth most to it."""
    if bp.kind == RANDOM:
        return below(states, bi, n_opts)
    best = 0
    best_v = -1e300
    for k in range(n_opts):
        d = min(opts[2 * k], covered, cap_dogs)
        t = min(opts[2 * k + 1], cap_tokens)
        v = d * bp.dog_value + t * bp.token_value + d * 1e-6
        if d == 0 and covered > 0:
            v -= 1e6  # it rests for its dogs: an option that uncovers none is a last resort
        if v > best_v:
            best_v = v
            best = k
    return best


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def spare(bp, tokens):
    """Tokens above the bot's reserve."""
    return max(0, tokens - int(bp.reserve))


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def buy_for_check(bp, states, bi, tokens, is_rough, token_max):
    """Tokens bought (+1 each) before a rough-terrain or avalanche roll (text, R-46).

    The reserve does not apply: getting through is what tokens are kept for.
    """
    want = bp.rough_buy if is_rough else bp.aval_buy
    if bp.kind == RANDOM:
        return min(below(states, bi, int(want) + 1), tokens, token_max)
    return min(int(want), tokens, token_max)


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def reroll_failed_check(bp, states, bi, tokens, cost, moves_left):
    """Pay to roll a failed rough/avalanche check again (text, "Relancer un dé")."""
    if tokens < cost:
        return False
    if bp.kind == RANDOM:
        return chance(bp, states, bi)
    return moves_left >= 2 and spare(bp, tokens) >= cost


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def remove_avalanche(bp, states, bi, tokens, cost, moves_left):
    """Pay to take a marker off the line ahead instead of rolling for it."""
    if tokens < cost or bp.avalanches == 0:
        return False
    if bp.kind == RANDOM:
        return chance(bp, states, bi)
    return moves_left >= 3  # getting through is what tokens are kept for


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def pay_to_pass(bp, states, bi, tokens, cost):
    """Pay to pass occupied wilderness for the rest of the turn (greedy planned it)."""
    if tokens < cost:
        return False
    if bp.kind == RANDOM:
        return uniform(states, bi) < 0.5
    return True


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def reroll_own_dice(bp, states, bi, tokens, cost, faces, expected):
    """Pay to reroll one's own dog dice after a poor roll."""
    if tokens < cost:
        return False
    if bp.kind == RANDOM:
        return chance(bp, states, bi)
    return faces <= expected - bp.reroll_gap and spare(bp, tokens) >= cost


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def harasses(bp, leader_is_target, target_to_go):
    """Whether to consider slowing the sled about to roll (random bots: always)."""
    if bp.kind == RANDOM:
        return True
    return leader_is_target and target_to_go <= bp.harass_within


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def reroll_for_gain(bp, states, bi, tokens, cost, gain):
    """Pay to have a roll (weather, bonus die, an opponent's check) rolled again, worth
    ``gain`` spaces to this bot on average."""
    if tokens < cost:
        return False
    if bp.kind == RANDOM:
        return chance(bp, states, bi)
    return gain > cost * bp.token_value and spare(bp, tokens) >= cost


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def force_reroll(bp, states, bi, tokens, cost, faces, expected, harass):
    """Pay to make an opponent reroll a good dog-dice roll."""
    if tokens < cost or not harass:
        return False
    if bp.kind == RANDOM:
        return chance(bp, states, bi)
    return faces >= expected + bp.reroll_gap and spare(bp, tokens) >= cost


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def dice_to_remove(bp, states, bi, tokens, cost, room, harass):
    """How many of an opponent's dice to remove before the roll (text, "Réduire les dés")."""
    if not harass or (bp.kind == RANDOM and not chance(bp, states, bi)):
        return 0
    afford = tokens // cost if bp.kind == RANDOM else spare(bp, tokens) // cost
    return max(0, min(room, int(bp.harass_dice), afford))


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def places_avalanche(bp, states, bi, tokens, cost, harass):
    """Whether to place, move or remove an avalanche marker before the sled about to roll."""
    if not harass or bp.avalanches == 0 or tokens < cost:
        return False
    if bp.kind == RANDOM:
        return chance(bp, states, bi)
    return spare(bp, tokens) >= cost
