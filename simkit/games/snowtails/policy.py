"""The ``random`` and ``greedy`` bots' decisions (``decide``; specs and presets:
``bots.py``; ``choose`` gives each decision to a bot). Greedy's card play is its search,
``greedy.top_plays``, with the score in ``score.py``, the bounds in ``bound.py`` and the
reach tables they read in ``reach.py``; this module holds the rest of both bots' choices.

``random`` picks uniformly at each decision: a card play among the legal ones (value and
where the cards go), then a uniformly random drift pattern (each of the C(speed, drift)
patterns equally likely), and an available bonus with probability 1/2 (R-14) or a distance
uniform in 0..dice (R-23); a start-row space uniformly among the free ones; a uniformly
chosen card to discard; each card at the bothy with probability 1/2; the chapel and the
kennels each with probability 1/2; a uniformly chosen starting pair; a start-row space
uniformly among them all (ST2 B lets sleds share one).

``greedy`` looks one turn ahead: for every legal play it finds every distinct movement
outcome (``movement.outcomes``: each end space, collision and bonus choice) and scores the
resulting position (``score._score``). Discards keep variety: drop a copy of the value
held most. For speed it skips the search of a play whose upper bound on any outcome's score
(``bound.py``, from the track's reach table, ``reach.reach_table``) cannot beat the best
found: the choice is the one the full search would make.

Mush! Mush! decisions (ST2): the bonus dice distance is part of the outcome search (every
distance 1..dice, R-23) and scored with the value of a dice kept for later; ending a turn
on a building's trigger space is scored by what the building gives (R-27); trees cost
their dents like any other, so a path through a tree is taken only when it scores best.
Greedy always uses the chapel (dropping its dents) and adds a kennels' 5 while one is set
aside; at the bothy it discards its 0s and any copies beyond two of a value; an
experienced sled (ST2 A.5) starts on 3s. It may share a start-row space in round 1 when
that scores best (ST2 B).

Bots see only what a player sees: the board, every sled's dogs, brake, dents and bonus
dice, and their own hand (``position.observe``). Neither looks at any deck's order (their
own included) nor at other hands.
"""

from __future__ import annotations

from numba import njit

from simkit.games.snowtails.greedy import top_plays
from simkit.games.snowtails.records import (
    BOT_RANDOM,
    N_VALUES,
    NONE,
    ONE,
    PH_BOTHY,
    PH_CHAPEL,
    PH_DISCARD,
    PH_KENNELS,
    PH_PAIR,
    PH_PLAY,
    PL_BITS,
    PL_COUNTS,
    PL_ENTER,
    PL_KIND,
    PL_MASK,
    PL_NPAT,
    PL_TAKE,
    PL_VALUE,
    PLAY_W,
    ZERO,
)
from simkit.games.snowtails.rules import (
    BONUS_DICE,
    entry_spaces,
    list_plays,
    pair_count,
    play_effect,
)
from simkit.games.snowtails.turn import bot_stream
from simkit.rng import below, coin

START_PAIR = 3  # the pair an experienced greedy sled starts on (ST2 A.5)


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _set_play(wk, enter, v, mask, bits, npat, take):
    play = wk.play
    play[PL_KIND] = PH_PLAY
    play[PL_ENTER] = enter
    play[PL_VALUE] = v
    play[PL_MASK] = mask
    play[PL_BITS] = bits
    play[PL_NPAT] = npat
    play[PL_TAKE] = take


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _random_play(cfg, pos, wk, p):
    """A uniform card play, a uniform drift pattern, then the bonus: all of it with
    probability 1/2 (R-14), or a distance uniform in 0..dice (R-23); first, off the
    board, a uniform start-row space (ST2 B)."""
    stream = bot_stream(p)
    enter = NONE
    if pos.space[p] < 0:
        n = entry_spaces(cfg, pos, wk.path)
        enter = wk.path[below(pos.rng, stream, n)]
    n_pl = list_plays(cfg, pos, p, wk.plays)
    i = below(pos.rng, stream, n_pl)
    v = wk.plays[i, 0]
    mask = wk.plays[i, 1]
    _, _, _, speed, drift, _, _, bonus = play_effect(cfg, pos, p, v, mask, pos.rnd, pos.t_pos)
    made = 0
    bits = ZERO
    for j in range(speed):
        left = drift - made
        # Drift now with probability drifts left / moves left: every pattern equally likely,
        # and a sled with as many drifts as moves left must drift (ST1 drift timing).
        if left > 0 and below(pos.rng, stream, speed - j) < left:
            bits |= 1 << j
            made += 1
    take = ZERO
    if bonus > 0:
        if cfg.bonus_rule == BONUS_DICE:
            take = below(pos.rng, stream, bonus + 1)
        else:
            take = coin(pos.rng, stream) * bonus
    _set_play(wk, enter, v, mask, bits, speed, take)


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _discard(pos, wk, p, kind):
    """The canine card seat ``p`` discards to get down to hand size."""
    hand = pos.hand[p]
    v = -1
    if kind == BOT_RANDOM:
        total = ZERO  # not a literal 0: numba would compile ``below`` for it too
        for c in range(N_VALUES):
            total += hand[c]
        r = below(pos.rng, bot_stream(p), total)
        for c in range(N_VALUES):
            if r < hand[c]:
                v = c
                break
            r -= hand[c]
    else:
        for c in range(N_VALUES - 1, -1, -1):
            if hand[c] > 0 and (v < 0 or hand[c] > hand[v]):
                v = c
    wk.play[PL_KIND] = PH_DISCARD
    wk.play[PL_VALUE] = v


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _bothy(pos, wk, p, kind):
    """The canine cards seat ``p`` discards at the bothy (R-27), as counts by value."""
    wk.play[PL_KIND] = PH_BOTHY
    for v in range(N_VALUES):
        held = pos.hand[p, v]
        n = 0
        if kind == BOT_RANDOM:
            for _ in range(held):
                n += coin(pos.rng, bot_stream(p))
        elif v == 0:
            n = held
        elif held > 2:
            n = held - 2
        wk.play[PL_COUNTS + v] = n


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _pair(cfg, pos, wk, p, kind):
    """The value of the pair an experienced sled starts on (ST2 A.5): equal, non-zero."""
    n = ZERO  # not a literal 0: numba would compile ``below`` for it too
    best = -1
    for v in range(1, N_VALUES):
        if pair_count(cfg, v) >= 2:
            n += 1
            if best < 0 or abs(v - START_PAIR) < abs(best - START_PAIR):
                best = v
    if kind == BOT_RANDOM:
        r = below(pos.rng, bot_stream(p), n)
        for v in range(1, N_VALUES):
            if pair_count(cfg, v) >= 2:
                if r == 0:
                    best = v
                    break
                r -= 1
    wk.play[PL_KIND] = PH_PAIR
    wk.play[PL_VALUE] = best


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def decide(cfg, reach, pos, wk, kind, wr):
    """The decision ``pos.phase`` of seat ``pos.to_move`` as bot ``kind`` (random or
    greedy, with the weights in row ``wr`` of ``cfg.weights``) takes it: writes
    ``wk.play``.

    Weights go down the search as a row number, not as an array: every function that
    takes an array counts a reference to it on entry and on return, and greedy's scoring
    runs once per movement outcome (in perf, those calls were 8% of a race)."""
    p = pos.to_move
    phase = pos.phase
    if phase == PH_PLAY:
        if kind == BOT_RANDOM:
            _random_play(cfg, pos, wk, p)
        else:
            top_plays(cfg, reach, pos, wk, p, wr, ONE)
            for c in range(PLAY_W):
                wk.play[c] = wk.top[0, c]
    elif phase == PH_DISCARD:
        _discard(pos, wk, p, kind)
    elif phase == PH_BOTHY:
        _bothy(pos, wk, p, kind)
    elif phase in (PH_KENNELS, PH_CHAPEL):
        # Greedy always drops its dents at the chapel and adds a kennels' 5 (R-27).
        wk.play[PL_KIND] = phase
        wk.play[PL_VALUE] = 1 if kind != BOT_RANDOM else coin(pos.rng, bot_stream(p))
    else:
        _pair(cfg, pos, wk, p, kind)
