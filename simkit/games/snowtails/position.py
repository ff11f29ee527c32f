"""The Snow Tails family position: the one state every caller steps (``docs/positions.md``).

``new`` sets up a unit from its root key, ``apply`` carries out the play in ``wk.play``
and runs on to the next decision, ``legal_plays`` lists every play the books allow the seat
to move, ``observe`` / ``determinize`` give what a seat may see and a sample of what it
may not. The batch loop, ``simkit race`` traces, the ``simkit moves`` oracle and the bots
all go through these, so a rule lives in one place.

``cfg`` is the cell record (``records.cell_dtype``), ``pos`` a ``records.POSITION`` record,
``wk`` a ``records.WORK`` record (one per thread).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simkit.games.snowtails.movement import outcomes, pattern_bits
from simkit.games.snowtails.race import SS_END, advance, begin_unit, end_turn, new_deck
from simkit.games.snowtails.records import (
    FL_DONE,
    FL_SETUP,
    MAX_DECK,
    MAX_SEATS,
    N_STREAMS,
    N_VALUES,
    O_BONUS,
    PH_BOTHY,
    PH_CHAPEL,
    PH_DISCARD,
    PH_KENNELS,
    PH_NONE,
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
    ZERO,
)
from simkit.games.snowtails.rules import (
    BONUS_DICE,
    canine_count,
    entry_spaces,
    list_plays,
    pair_count,
    play_effect,
)
from simkit.games.snowtails.turn import apply_choice, bot_stream, resolve_play
from simkit.rng import shuffle, stream_key

STREAM_DETERMINIZE = np.int64(7)  # rng stream kind of determinize's samples (simkit.rng: 0..3)


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def clear(pos):
    """Every field of ``pos`` back to zero (a unit starts from a clean record)."""
    for p in range(MAX_SEATS):
        pos.space[p] = 0
        pos.left[p] = 0
        pos.right[p] = 0
        pos.brake[p] = 0
        pos.lcard[p] = 0
        pos.rcard[p] = 0
        pos.dents[p] = 0
        pos.status[p] = 0
        pos.deckn[p] = 0
        pos.slot[p] = 0
        pos.fin_round[p] = 0
        pos.out_round[p] = 0
        pos.out_seq[p] = 0
        pos.finish[p] = 0
        pos.dents_taken[p] = 0
        pos.overspeed[p] = 0
        pos.coll_wall[p] = 0
        pos.coll_sled[p] = 0
        pos.bonus_used[p] = 0
        pos.turns[p] = 0
        pos.reshuffles[p] = 0
        pos.no_canine[p] = 0
        pos.points[p] = 0
        pos.die[p] = 0
        pos.fives[p] = 0
        pos.trees_hit[p] = 0
        pos.repairs[p] = 0
        pos.chapel[p] = 0
        pos.bothy[p] = 0
        pos.kennels[p] = 0
        pos.tavern[p] = 0
        pos.order[p] = 0
        pos.first_slot[p] = 0
        pos.unseen[p] = 0
        pos.still[p] = 0
    pos.turn_order[:] = 0
    pos.race_fin[:, :] = 0
    pos.race_pts[:, :] = 0
    pos.hand[:, :] = 0
    pos.disc[:, :] = 0
    pos.deck[:, :] = 0
    pos.trees[:] = 0
    pos.rng[:] = 0
    pos.n_seats = 0
    pos.race = 0
    pos.rnd = 0
    pos.flow = 0
    pos.phase = 0
    pos.to_move = 0
    pos.setup_seat = 0
    pos.deal = 0
    pos.turn_i = 0
    pos.round_n = 0
    pos.stage = 0
    pos.t_pos = 0
    pos.t_trig = 0
    pos.t_refill = 0
    pos.t_end = 0
    pos.t_code = 0
    pos.turns_done = 0
    pos.n_out = 0
    pos.next_rank = 0
    pos.leader = 0
    pos.leader1 = 0
    pos.second = 0
    pos.over = 0
    pos.lead_changes = 0
    pos.timed_out = 0
    pos.eliminations = 0
    pos.won = 0
    pos.total_rounds = 0


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def new(pos, cfg, wk, key):
    """Set ``pos`` up as the unit with root ``key`` and run it to its first decision."""
    clear(pos)
    wk.reading = 0  # no search is noting the spaces it reads (``movement.note``)
    begin_unit(cfg, pos, wk, key)


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def to_move(pos):
    """The seat whose decision it is, -1 once the unit is over."""
    return pos.to_move


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def is_over(pos):
    return pos.flow == FL_DONE


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def apply(pos, cfg, wk):
    """Carry out ``wk.play`` for the seat to move, then run on to the next decision."""
    p = pos.to_move
    play = wk.play
    phase = pos.phase
    pos.phase = PH_NONE
    done = pos.turns_done
    if phase == PH_PLAY:
        code = resolve_play(cfg, pos, wk, p, play)
        if code >= 0:
            end_turn(cfg, pos, wk, code)
    elif phase == PH_PAIR:
        pos.deal = new_deck(cfg, pos, wk, p, play[PL_VALUE])
        pos.stage = SS_END
    elif phase == PH_DISCARD and pos.flow == FL_SETUP:
        # A carried-over hand above its size: not part of any turn's log.
        trace = wk.tracing
        wk.tracing = 0
        apply_choice(cfg, pos, wk, p, phase, play)
        wk.tracing = trace
    else:
        apply_choice(cfg, pos, wk, p, phase, play)
    if wk.halt != 0 and pos.turns_done != done:
        return  # the state oracle stops where the turn ends
    advance(cfg, pos, wk)


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def result(pos, cfg, out):
    """The table rows of a finished unit into ``out`` (a ``records.RESULT`` record)."""
    for p in range(pos.n_seats):
        out.slot[p] = pos.slot[p]
        out.finish[p] = pos.finish[p]
        out.points[p] = pos.points[p]
        out.status[p] = pos.status[p]
        out.dents[p] = pos.dents[p]
        out.dents_taken[p] = pos.dents_taken[p]
        out.overspeed[p] = pos.overspeed[p]
        out.coll_wall[p] = pos.coll_wall[p]
        out.coll_sled[p] = pos.coll_sled[p]
        out.bonus_used[p] = pos.bonus_used[p]
        out.no_canine[p] = pos.no_canine[p]
        out.reshuffles[p] = pos.reshuffles[p]
        out.turns[p] = pos.turns[p]
        out.fin_round[p] = pos.fin_round[p]
        out.out_round[p] = pos.out_round[p]
        out.trees_hit[p] = pos.trees_hit[p]
        out.repairs[p] = pos.repairs[p]
        out.die[p] = pos.die[p]
        out.chapel[p] = pos.chapel[p]
        out.bothy[p] = pos.bothy[p]
        out.kennels[p] = pos.kennels[p]
        out.tavern[p] = pos.tavern[p]
        for r in range(pos.race_fin.shape[1]):
            out.race_fin[p, r] = pos.race_fin[p, r]
            out.race_pts[p, r] = pos.race_pts[p, r]
    out.total_rounds = pos.total_rounds
    out.lead_changes = pos.lead_changes
    out.won = pos.won
    out.timed_out = pos.timed_out
    out.eliminations = pos.eliminations
    last = pos.race
    left = 0
    for t in range(cfg.tree_lo[last], cfg.tree_hi[last]):
        left += pos.trees[t]
    out.trees_left = left


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _card_plays(cfg, pos, wk, p, enter, out, n):
    """Every card play of seat ``p`` from its space, each distinct outcome a row (the
    movement search's, R-01, R-14, R-23: every drift pattern and bonus distance)."""
    n_pl = list_plays(cfg, pos, p, wk.plays)
    room = cfg.dent_limit - pos.dents[p]
    partial = 1 if cfg.bonus_rule == BONUS_DICE else 0
    for i in range(n_pl):
        v = wk.plays[i, 0]
        mask = wk.plays[i, 1]
        _, _, _, speed, drift, dcol, _, bonus = play_effect(
            cfg, pos, p, v, mask, pos.rnd, pos.t_pos
        )
        wk.found[0] = 0
        wk.found[1] = 0
        outcomes(cfg, pos, wk, pos.space[p], speed, drift, dcol, bonus, partial, room, wk.found)
        for o in range(wk.found[1]):
            if n >= out.shape[0]:
                return n
            npat, bits = pattern_bits(wk, o)
            row = out[n]
            row[:] = 0
            row[PL_KIND] = PH_PLAY
            row[PL_ENTER] = enter
            row[PL_VALUE] = v
            row[PL_MASK] = mask
            row[PL_BITS] = bits
            row[PL_NPAT] = npat
            row[PL_TAKE] = wk.outs[o, O_BONUS]
            n += 1
    return n


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def legal_plays(pos, cfg, wk, out):
    """Every play the books allow the seat to move, one row each into ``out`` (``PL_*``
    columns); returns the count (at most ``out.shape[0]``)."""
    p = pos.to_move
    phase = pos.phase
    n = 0
    if phase == PH_PLAY:
        if pos.space[p] >= 0:
            return _card_plays(cfg, pos, wk, p, -1, out, 0)
        spaces = wk.order  # the start-row spaces (ST2 B)
        m = entry_spaces(cfg, pos, wk.path)
        for i in range(m):
            spaces[i] = wk.path[i]
        for i in range(m):
            pos.space[p] = spaces[i]
            n = _card_plays(cfg, pos, wk, p, spaces[i], out, n)
        pos.space[p] = -1
        return n
    if phase == PH_DISCARD:
        for v in range(N_VALUES):
            if pos.hand[p, v] > 0:
                out[n, :] = 0
                out[n, PL_KIND] = PH_DISCARD
                out[n, PL_VALUE] = v
                n += 1
        return n
    if phase == PH_BOTHY:
        return _bothy_plays(pos, p, out)
    if phase in (PH_KENNELS, PH_CHAPEL):
        for yes in range(2):
            out[n, :] = 0
            out[n, PL_KIND] = phase
            out[n, PL_VALUE] = yes
            n += 1
        return n
    if phase == PH_PAIR:
        for v in range(1, N_VALUES):
            if pair_count(cfg, v) >= 2:
                out[n, :] = 0
                out[n, PL_KIND] = PH_PAIR
                out[n, PL_VALUE] = v
                n += 1
    return n


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _bothy_plays(pos, p, out):
    """Every choice of canine cards to drop at the bothy (R-27): counts by value."""
    n = 0
    total = 1
    for v in range(N_VALUES):
        total *= pos.hand[p, v] + 1
    for code in range(total):
        if n >= out.shape[0]:
            break
        out[n, :] = 0
        out[n, PL_KIND] = PH_BOTHY
        c = code
        for v in range(N_VALUES):
            base = pos.hand[p, v] + 1
            out[n, PL_COUNTS + v] = c % base
            c //= base
        n += 1
    return n


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def observe(pos, seat, out, j):
    """``out[j]`` = what ``seat`` may see of ``pos``: other hands and every deck's order
    erased (an opponent's hand size stays, as ``unseen``), random streams cleared but the
    seat's own bot stream (its own mind)."""
    out[j] = pos
    obs = out[j]
    for q in range(pos.n_seats):
        if q != seat:
            obs.unseen[q] = canine_count(pos, q)
            for v in range(N_VALUES):
                obs.hand[q, v] = 0
            for i in range(MAX_DECK):
                obs.deck[q, i] = 0  # an opponent's deck: only its size is known
        else:
            _sorted_pool(pos, q, obs, False)  # its own deck's cards, not their order
    for i in range(N_STREAMS):
        if i != bot_stream(seat):
            obs.rng[i] = 0


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _sorted_pool(pos, q, d, with_hand):
    """Seat ``q``'s draw deck (and hand) in ``pos`` as one sorted run at the bottom of
    ``d``'s deck: what an observer knows of it, in an order that tells nothing. Returns
    its length."""
    counts = np.zeros(N_VALUES, np.int64)
    for i in range(pos.deckn[q]):
        counts[pos.deck[q, i]] += 1
    k = 0
    for v in range(N_VALUES):
        c = counts[v] + (pos.hand[q, v] if with_hand else 0)
        for _ in range(c):
            d.deck[q, k] = v
            k += 1
    return k


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def determinize(pos, seat, key, out, j):
    """``out[j]`` = one sample of everything ``seat`` cannot see in ``pos``, consistent with
    what it has seen, with fresh random streams from ``key``.

    An opponent's hand and deck are one pool to the seat (its deck's cards are known, the
    played and discarded ones are face up), dealt again at random into the same hand size;
    the seat's own deck is shuffled; every random stream still to be drawn from (decks,
    other bots, start order of later races) is drawn anew from ``key``, but the seat's own
    bot stream, which is its own. Pools are sorted before they are dealt, so the sample
    depends only on what the seat may see and on ``key``.
    """
    out[j] = pos
    d = out[j]
    for q in range(MAX_SEATS):
        d.rng[q] = stream_key(key, STREAM_DETERMINIZE, q)
    for q in range(pos.n_seats):
        own = q == seat
        k = _sorted_pool(pos, q, d, not own)
        shuffle(d.rng, q, d.deck[q], ZERO, k)
        if own:
            continue
        for v in range(N_VALUES):
            d.hand[q, v] = 0
        for i in range(pos.deckn[q], k):
            d.hand[q, d.deck[q, i]] += 1
    for i in range(N_STREAMS):
        if i != bot_stream(seat):
            d.rng[i] = stream_key(key, STREAM_DETERMINIZE, MAX_SEATS + i)
