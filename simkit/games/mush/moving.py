"""A racing turn of MUSH: opponents act, the dice roll, the sled walks its path, a dog tires.

Opponents act just before the roll (text, Réduire les dés; Déplacer un bâton), clockwise
from the mover: each may place, move or remove one avalanche marker and pay toward
removing the mover's dice. The mover rolls one die per uncovered dog (colour by training
against weather, R-41); rerolls may be bought (text, Relancer un dé); the bonus d6 follows
when weather matches training (R-42). The mover then declares its path (a play) and walks
it, rolling for avalanches and rough terrain and paying to pass sleds as it meets them
(text, Mouvement; R-46). Every function leaves ``pos.phase`` at the next step.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simkit.games.mush.records import (
    A_BONUS,
    A_ROLL,
    A_ROUND_END,
    A_TURN,
    A_TURN_END,
    A_WALK,
    EV_AVAL,
    EV_BACK,
    EV_BONUS,
    EV_COVER,
    EV_FINISH,
    EV_JUMP,
    EV_MARKER,
    EV_PASS,
    EV_REDUCE,
    EV_REROLL,
    EV_ROLL,
    EV_ROUGH,
    EV_STATE,
    EV_STEP,
    H_AVAL_FAIL,
    H_ROUGH_FAIL,
    MAX_PATH,
    P_MARKER,
    P_PASS,
    P_REROLL,
    PH_AVAL,
    PH_BONUS_RR,
    PH_CHECK_RR,
    PH_DICE_RR,
    PH_MARKER,
    PH_MOVE,
    PH_PASS,
    PH_ROUGH,
    PLAY_PATH,
)
from simkit.games.mush.route import ROUGH, TOWN
from simkit.games.mush.rules import (
    blocked,
    check_roll,
    d6,
    ev,
    has_marker,
    leader,
    roll_dogs,
    seat_after,
    sleds_at,
    spend,
)


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def race_start(pos, prm, rt):
    """The mover races: the opponents' window before its roll opens."""
    s = pos.mover
    pos.own_dice = max(0, prm.dogs - pos.covered[s])
    pos.threat = 1 if leader(pos, rt) == s and pos.own_dice > 0 else 0
    pos.pool = 0
    pos.opp_q = 1
    pos.phase = PH_MARKER


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def marker(pos, prm, who, src, dst, rec):
    """``who`` pays to place (``src`` -1: from the box), move or remove (``dst`` -1) an
    avalanche marker before or during the mover's move (text, Déplacer un bâton avalanche)."""
    for i in range(prm.avalanche_markers):
        if pos.markers[i] == src:
            pos.markers[i] = dst
            break
    pos.on_board += int(dst >= 0) - int(src >= 0)
    spend(pos, who, prm.avalanche_cost)
    if dst >= 0:
        pos.stats[who].avalanches_placed += 1
    else:
        pos.stats[who].avalanches_removed += 1
    ev(rec, pos.round_no, EV_MARKER, who, dst, src, pos.mover, 0, 0)


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def reduce(pos, prm, tokens, rec):
    """The asked opponent pays ``tokens`` toward removing the mover's dice: a die for every
    ``reduce_cost`` paid in all, at most ``reduce_max_dice`` (text, Réduire les dés)."""
    s = pos.mover
    o = seat_after(pos, s, pos.opp_q)
    if tokens > 0:
        cost = prm.reduce_cost
        k = (pos.pool + tokens) // cost - pos.pool // cost
        pos.pool += tokens
        spend(pos, o, tokens)
        pos.stats[o].dice_removed += k
        pos.stats[s].dice_lost += k
        ev(rec, pos.round_no, EV_REDUCE, o, s, k, tokens, 0, 0)
    pos.opp_q += 1
    pos.phase = PH_MARKER if pos.opp_q < pos.n else A_ROLL


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def roll(pos, prm, rec):
    """Dog dice: one per uncovered dog left after removals, colour from training against
    weather (R-41)."""
    s = pos.mover
    reduced = pos.pool // prm.reduce_cost
    pos.ndice = max(0, prm.dogs - pos.covered[s] - reduced)
    pos.colour = prm.dice_colour[pos.stats[s].training * 3 + pos.weather]
    fc = prm.dog_faces[pos.colour]
    pos.faces = roll_dogs(pos.streams, s, pos.ndice, fc, prm.die_sides)
    ev(rec, pos.round_no, EV_ROLL, s, pos.ndice, pos.colour, pos.faces, 0, -1)
    pos.rr = 0
    pos.ask_i = 0
    _ask_next(pos, prm, np.int64(PH_DICE_RR), np.int64(A_BONUS))


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _ask_next(pos, prm, ask, then):
    """Ask the roller, then each opponent clockwise, whether it pays for a reroll (text,
    Relancer un dé); after the last one declines, go on to ``then``."""
    if pos.rr < prm.max_rerolls and pos.ask_i < pos.n:
        pos.phase = ask
    else:
        pos.phase = then


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def asked(pos):
    """The seat asked in a reroll round of the mover's roll."""
    return pos.mover if pos.ask_i == 0 else seat_after(pos, pos.mover, pos.ask_i)


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def dice_answer(pos, prm, kind, rec):
    """A reroll of all the dog dice (text: all are rolled again), or the next seat asked."""
    if kind == P_REROLL:
        s = pos.mover
        by = asked(pos)
        spend(pos, by, prm.reroll_cost)
        pos.stats[by].rerolls += 1
        pos.rr += 1
        fc = prm.dog_faces[pos.colour]
        pos.faces = roll_dogs(pos.streams, s, pos.ndice, fc, prm.die_sides)
        ev(rec, pos.round_no, EV_ROLL, s, pos.ndice, pos.colour, pos.faces, pos.rr, by)
        pos.ask_i = 0
    else:
        pos.ask_i += 1
    _ask_next(pos, prm, np.int64(PH_DICE_RR), np.int64(A_BONUS))


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def bonus(pos, prm, rec):
    """The bonus d6 when weather matches training (R-42)."""
    s = pos.mover
    pos.bf = 0
    pos.crossed = 0
    if prm.bonus_on_match != 0 and pos.stats[s].training == pos.weather:
        pos.bf = d6(pos.streams, s)
        ev(rec, pos.round_no, EV_BONUS, s, pos.bf, prm.bonus_table[pos.bf - 1], 0, 0, 0)
        pos.rr = 0
        pos.ask_i = 0
        _ask_next(pos, prm, np.int64(PH_BONUS_RR), np.int64(PH_MOVE))
    else:
        pos.phase = PH_MOVE
    if pos.phase == PH_MOVE:
        _movement(pos, prm)


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def bonus_answer(pos, prm, kind, rec):
    """A reroll of the bonus die, or the next seat asked."""
    if kind == P_REROLL:
        s = pos.mover
        by = asked(pos)
        spend(pos, by, prm.reroll_cost)
        pos.stats[by].rerolls += 1
        ev(rec, pos.round_no, EV_REROLL, by, s, prm.reroll_cost, 0, 0, 0)
        pos.bf = d6(pos.streams, s)
        pos.rr += 1
        ev(rec, pos.round_no, EV_BONUS, s, pos.bf, prm.bonus_table[pos.bf - 1], pos.rr, 0, 0)
        pos.ask_i = 0
    else:
        pos.ask_i += 1
    _ask_next(pos, prm, np.int64(PH_BONUS_RR), np.int64(PH_MOVE))
    if pos.phase == PH_MOVE:
        _movement(pos, prm)


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _movement(pos, prm):
    """Spaces the mover may move: its dogs, the bonus and the highest bid's extra (R-47)."""
    extra = 0
    if pos.bf > 0:
        res = prm.bonus_table[pos.bf - 1]
        if res < 0:
            pos.crossed = 1  # a crossed-out dog: cover one more, no move
        else:
            extra = res
    if pos.mover == pos.bid_winner:
        extra += prm.bid_extra
    pos.moves = min(pos.faces + extra, MAX_PATH)


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def declare(pos, play):
    """The mover's path for this move (a play: every seat sees it)."""
    pos.plen = play[1]
    for k in range(pos.plen):
        pos.path[k] = play[PLAY_PATH + k]
    pos.step = 0
    pos.stage = 0
    pos.paid = 0
    pos.done = 0
    pos.phase = A_WALK


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def walk(pos, prm, rt, rec):
    """Walk the declared path until a seat must decide, a roll fails or the path ends.

    Entering each line: an avalanche marker on it, then a sled on the space beyond, then
    rough terrain there (text, Mouvement; R-46). The goal ends the move, and in the
    skip-Central game so does a space that jumps to Unalakleet (text, shorter games).
    """
    s = pos.mover
    while pos.step < pos.plen:
        e = pos.path[pos.step]
        nxt = rt.ln[e].to
        if pos.stage == 0:
            pos.stage = 1
            if has_marker(pos, prm, e):  # text, Passer au travers d'une avalanche
                pos.phase = PH_AVAL
                return
        if pos.stage == 1:
            pos.stage = 2
            if pos.paid == 0 and blocked(pos, rt, nxt):  # text, Passer un adversaire
                pos.phase = PH_PASS
                return
        if pos.stage == 2:
            pos.stage = 3
            if rt.sp[nxt].kind == ROUGH:  # text, Passer au travers de terrain accidenté
                pos.phase = PH_ROUGH
                return
        cur = pos.space[s]
        pos.space[s] = nxt
        ev(rec, pos.round_no, EV_STEP, s, cur, nxt, e, 0, 0)
        pos.done += 1
        pos.step += 1
        pos.stage = 0
        if rt.sp[nxt].goal != 0:
            break
        if rt.sp[nxt].jump >= 0:  # text, shortened game 2: straight to Unalakleet
            pos.space[s] = rt.sp[nxt].jump
            ev(rec, pos.round_no, EV_JUMP, s, nxt, rt.sp[nxt].jump, 0, 0, 0)
            break
    pos.phase = A_TURN_END


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def pass_answer(pos, prm, kind, rec):
    """Pay to pass occupied wilderness for the rest of the turn, or stop here (text)."""
    if kind == P_PASS:
        s = pos.mover
        spend(pos, s, prm.pass_cost)
        pos.stats[s].passes += 1
        pos.paid = 1
        ev(rec, pos.round_no, EV_PASS, s, prm.pass_cost, 0, 0, 0, 0)
        pos.phase = A_WALK
    else:
        pos.phase = A_TURN_END


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def at_avalanche(pos, prm, kind, play, rec):
    """At a marker: move or remove it (5 tokens), or buy +1s and roll for a 6 (text)."""
    if kind == P_MARKER:
        marker(pos, prm, pos.mover, play[1], play[2], rec)
        pos.phase = A_WALK
    else:
        check(pos, prm, np.int64(0), pos.path[pos.step], play[1], rec)


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def check(pos, prm, rough, where, bought, rec):
    """A roll to enter rough terrain ``where`` or to cross an avalanche on line ``where``,
    with ``bought`` +1s paid before it (R-46)."""
    s = pos.mover
    spend(pos, s, bought)
    pos.chk_rough = rough
    pos.chk_where = where
    pos.chk_bought = bought
    pos.rr = 0
    _check_roll(pos, prm, rec)


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _check_target(pos, prm):
    return prm.rough_target if pos.chk_rough else prm.avalanche_target


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _check_roll(pos, prm, rec):
    """Roll the check; a failure is the roller's to reroll, a success its opponents'."""
    s = pos.mover
    die, ok = check_roll(pos.streams, s, _check_target(pos, prm), pos.chk_bought)
    pos.chk_ok = 1 if ok else 0
    w = pos.chk_where
    if pos.chk_rough:
        pos.stats[s].rough_rolls += 1
        ev(rec, pos.round_no, EV_ROUGH, s, w, die, pos.chk_bought, pos.chk_ok, pos.rr)
    else:
        pos.stats[s].avalanche_rolls += 1
        ev(rec, pos.round_no, EV_AVAL, s, w, die, pos.chk_bought, pos.chk_ok, pos.rr)
    pos.ask_i = 1 if ok else 0
    _check_next(pos, prm, rec)


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _check_next(pos, prm, rec):
    if pos.rr < prm.max_rerolls and (pos.ask_i == 0 or (pos.chk_ok and pos.ask_i < pos.n)):
        pos.phase = PH_CHECK_RR
    elif pos.chk_ok:
        pos.phase = A_WALK
    else:
        pos.phase = A_TURN_END
        s = pos.mover
        if pos.chk_rough:  # failure ends the movement (text example)
            pos.stats[s].rough_fails += 1
            rec.heat[H_ROUGH_FAIL, pos.chk_where] += 1
        else:  # 1-5: stop before the marker, the rest of the move is lost (text)
            pos.stats[s].avalanche_fails += 1
            rec.heat[H_AVAL_FAIL, pos.space[s]] += 1


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def check_answer(pos, prm, kind, rec):
    """A reroll of the check (text, Relancer un dé), or the next seat asked."""
    if kind == P_REROLL:
        by = asked(pos)
        spend(pos, by, prm.reroll_cost)
        pos.stats[by].rerolls += 1
        ev(rec, pos.round_no, EV_REROLL, by, pos.mover, prm.reroll_cost, 0, 0, 0)
        pos.rr += 1
        _check_roll(pos, prm, rec)
    elif pos.chk_ok:
        pos.ask_i += 1
        _check_next(pos, prm, rec)
    else:
        pos.ask_i = pos.n  # the roller lets the failure stand
        _check_next(pos, prm, rec)


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def turn_end(pos, prm, rt, rec):
    """Where the move ends, then a dog tires (text, Fatigue); the first into the goal wins."""
    s = pos.mover
    cur = pos.space[s]
    # A move that stops early on occupied wilderness it was passing through ends on the
    # last free space behind (assumption: one sled per wilderness space).
    sp = rt.sp
    while pos.done > 0 and sp[cur].kind != TOWN and sleds_at(pos, cur) > 1 and sp[cur].jump < 0:
        pos.done -= 1
        back = pos.turn_from if pos.done == 0 else rt.ln[pos.path[pos.done - 1]].to
        ev(rec, pos.round_no, EV_BACK, s, cur, back, 0, 0, 0)
        cur = back
        pos.space[s] = cur
    pos.stats[s].spaces += pos.done
    # Cover a dog after moving, even 0 spaces (text, Fatigue); R-42 crossed-out dog.
    pos.covered[s] = min(prm.dogs, pos.covered[s] + 1 + pos.crossed)
    pos.stats[s].dogs_covered_max = max(pos.stats[s].dogs_covered_max, pos.covered[s])
    ev(rec, pos.round_no, EV_COVER, s, pos.covered[s], pos.crossed, 0, 0, 0)
    ev(rec, pos.round_no, EV_STATE, s, cur, pos.covered[s], pos.tokens[s], 0, 0)
    if rt.sp[cur].goal != 0:
        pos.winner = s
        ev(rec, pos.round_no, EV_FINISH, s, cur, 0, 0, 0, 0)
        pos.phase = A_ROUND_END
    else:
        pos.turn_j += 1
        pos.phase = A_TURN
