"""One sled's turn: cards, movement, trees, dents, collisions, buildings, the hand's return.

Every rule cites its source: ST1 = ``002_68b12fdd004c4f12.txt``, ST2 =
``000_5b9c8f35afea07d2.txt`` (section named), R-xx = ``RULINGS.md``. Which book's rule
applies is a variant parameter read from the cell record ``cfg``, never a branch on the
game's name. Decisions a player takes during a turn (which card to discard, what to drop at
the bothy, whether to use the kennels) are plays of their own: the turn pauses at them
(``pos.phase``) and ``stage_step`` goes on once ``apply_choice`` has carried one out.
"""

from __future__ import annotations

from numba import njit

from simkit.games.snowtails.movement import walk
from simkit.games.snowtails.records import (
    C_FIFTH,
    C_NONE,
    C_SLED,
    C_WALL,
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
    EV_KEEP,
    EV_MOVE,
    EV_OUT,
    EV_PLACE,
    EV_PLAY,
    EV_REPAIR,
    EV_RESHUFFLE,
    EV_TREE,
    FL_STAGE,
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
    MAX_SEATS,
    MV_BONUS,
    MV_DRIFT,
    MV_STRAIGHT,
    N_VALUES,
    NONE,
    ONE,
    OUT,
    PH_BOTHY,
    PH_CHAPEL,
    PH_DISCARD,
    PH_KENNELS,
    PL_BITS,
    PL_COUNTS,
    PL_ENTER,
    PL_MASK,
    PL_NPAT,
    PL_TAKE,
    PL_VALUE,
    REPAIR,
    S_CP,
    S_PAST,
    S_TREE,
    S_TRIG,
    T_BOTHY,
    T_CHAPEL,
    T_DONE,
    T_KENNELS,
    T_OUT,
    T_REPAIR,
    T_SECOND,
    T_TAVERN,
    TS_BOTHY,
    TS_CHAPEL,
    TS_DISCARD,
    TS_KENNELS,
    TS_REFILL,
    TS_TAVERN,
    ZERO,
)
from simkit.games.snowtails.rules import BONUS_DICE, canine_count, play_effect
from simkit.rng import shuffle


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def deck_stream(p):
    """The random stream of seat ``p``'s deck shuffles."""
    return 1 + p


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def bot_stream(p):
    """The random stream of seat ``p``'s bot."""
    return 1 + MAX_SEATS + p


# log and heat are internal kernels, not numba-inlined: inline="always" typed and lowered
# a copy at each of their 40-odd call sites (5% of a cold `simkit run` of the demo, bench
# compile). LLVM still inlines them where it links the kernel: greedy and search:64 play
# at the same speed (paired runs, 5 December). Callers pass ZERO and ONE, not literal 0
# and 1: numba compiled log once for each pattern of literal zeros (7 times), heat twice.
@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def log(wk, kind, a, b, c, d, e, f, g, h):
    """Append one event row when tracing; rows past the log's end are counted, not kept."""
    if wk.tracing == 0:
        return
    i = wk.nlog
    if i < wk.log.shape[0]:
        row = wk.log[i]
        row[0] = kind
        row[1] = a
        row[2] = b
        row[3] = c
        row[4] = d
        row[5] = e
        row[6] = f
        row[7] = g
        row[8] = h
    wk.nlog = i + 1


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def heat(wk, kind, space, n):
    """Count ``n`` events of ``kind`` at ``space`` (batch heat maps)."""
    if wk.heat_on != 0:
        wk.heat[kind, space] += n


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def draw_one(pos, wk, p):
    """Draw the top card of seat ``p``'s deck, reshuffling first if it is empty (R-07)."""
    if pos.deckn[p] == 0:
        # played and discarded cards (not the two showing on the dogs) form a new deck.
        n = ZERO  # not a literal 0: the log call below would compile for it
        for v in range(N_VALUES):
            for _ in range(pos.disc[p, v]):
                pos.deck[p, n] = v
                n += 1
            pos.disc[p, v] = 0
        if n == 0:
            return False  # still empty, nothing to draw
        shuffle(pos.rng, deck_stream(p), pos.deck[p], ZERO, n)
        pos.deckn[p] = n
        pos.reshuffles[p] += 1
        log(wk, EV_RESHUFFLE, p, n, ZERO, ZERO, ZERO, ZERO, ZERO, ZERO)
    n = pos.deckn[p] - 1
    v = pos.deck[p, n]
    pos.deckn[p] = n
    pos.hand[p, v] += 1
    log(wk, EV_DRAW, p, v, ZERO, ZERO, ZERO, ZERO, ZERO, ZERO)
    return True


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def draw_up(cfg, pos, wk, p):
    """ST1 "Return hand size to five cards", drawing: dents count toward the size."""
    while canine_count(pos, p) + pos.dents[p] < cfg.hand_size:
        if not draw_one(pos, wk, p):
            break


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def over_size(cfg, pos, p):
    """The hand holds more than its size and a canine card to discard (dents never go)."""
    n = canine_count(pos, p)
    return n > 0 and n + pos.dents[p] > cfg.hand_size


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def discard(pos, wk, p, v):
    """Seat ``p`` discards one canine card of value ``v`` (ST1 Game Play 5, R-16)."""
    pos.hand[p, v] -= 1
    pos.disc[p, v] += 1
    log(wk, EV_DISCARD, p, v, ZERO, ZERO, ZERO, ZERO, ZERO, ZERO)


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def take_dents(cfg, pos, wk, p, n, reason, corner, lim, speed, space):
    """Give seat ``p`` up to ``n`` dents for something at ``space``. Returns -1 if one more
    than the limit was due and the sled is not past the finish line (the caller applies
    R-18 or R-25), else the dents taken."""
    past = cfg.tab[space, S_PAST] != 0
    if past and cfg.dents_past_finish == 0:
        return 0  # no dents once across the finish line
    taken = ZERO
    for _ in range(n):
        if pos.dents[p] >= cfg.dent_limit:
            if past:
                # already across the finish line: it stays where it is.
                log(wk, EV_KEEP, p, space, ZERO, ZERO, ZERO, ZERO, ZERO, ZERO)
                break
            if taken > 0:
                log(wk, EV_DENT, p, reason, corner, lim, speed, pos.dents[p], taken, ZERO)
            return -1
        pos.dents[p] += 1
        pos.dents_taken[p] += 1
        if reason == DENT_OVERSPEED:
            pos.overspeed[p] += 1
        taken += 1
    if taken > 0:
        log(wk, EV_DENT, p, reason, corner, lim, speed, pos.dents[p], taken, ZERO)
    return taken


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def fifth(cfg, pos, wk, p):
    """One dent too many: out (R-18), or repair (R-25); returns the turn's ``T_*`` code."""
    space = pos.space[p]
    if cfg.fifth_dent == 0:
        # a sled that must take one dent too many is out of the race.
        pos.status[p] = OUT
        pos.out_round[p] = pos.rnd
        pos.out_seq[p] = pos.n_out + 1
        heat(wk, H_OUT, space, ONE)
        log(wk, EV_OUT, p, space, ZERO, ZERO, ZERO, ZERO, ZERO, ZERO)
        return T_OUT
    heat(wk, H_REPAIR, space, ONE)
    pos.repairs[p] += 1
    if pos.n_seats == 2 and cfg.two_sled_second != 0:
        return T_SECOND  # in a 2-sled race it finishes 2nd at once
    # R-25 / ST2 C "Dent cards": the turn ends, every dent goes back, the hand is
    # discarded and 5 new canine cards drawn; the sled sits out until last in race order.
    pos.status[p] = REPAIR
    pos.dents[p] = 0
    for v in range(N_VALUES):
        pos.disc[p, v] += pos.hand[p, v]
        pos.hand[p, v] = 0
    log(wk, EV_REPAIR, p, space, ZERO, ZERO, ZERO, ZERO, ZERO, ZERO)
    draw_up(cfg, pos, wk, p)  # an empty hand never needs a discard
    return T_REPAIR


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def set_die(pos, wk, p, value, why):
    """Turn seat ``p``'s bonus dice to ``value`` (0: no bonus available), logging why."""
    if value != pos.die[p]:
        log(wk, EV_DIE, p, pos.die[p], value, why, ZERO, ZERO, ZERO, ZERO)
    pos.die[p] = value


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _lay_cards(pos, wk, p, v, mask, left, right, brake):
    """Step 1 (R-12, ST2 B.1): the cards go onto the dogs and brake; covered cards are used."""
    if mask & M_LEFT:
        if pos.lcard[p]:
            pos.disc[p, pos.left[p]] += 1  # the covered card is used
        pos.lcard[p] = 1
        pos.hand[p, v] -= 1
    if mask & M_RIGHT:
        if pos.rcard[p]:
            pos.disc[p, pos.right[p]] += 1
        pos.rcard[p] = 1
        pos.hand[p, v] -= 1
    if mask & M_BRAKE:
        pos.disc[p, v] += 1  # ST1: onto the discard pile, the brake marker moves to its value
        pos.hand[p, v] -= 1
    pos.left[p] = left
    pos.right[p] = right
    pos.brake[p] = brake


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _log_moves(wk, p, bits, path, k, b0):
    if wk.tracing == 0:
        return
    for j in range(1, k):
        kind = MV_BONUS
        if b0 < 0 or j < b0:
            kind = MV_DRIFT if (bits >> (j - 1)) & 1 else MV_STRAIGHT
        log(wk, EV_MOVE, p, path[j - 1], path[j], kind, ZERO, ZERO, ZERO, ZERO)


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _trees(cfg, pos, wk, p, k):
    """R-21 / ST2 C "A tree": each tree entered is removed and dents; movement went on.
    Returns -1 if a tree's dent was one too many (R-18 / R-25 follow), else 0."""
    if cfg.tree_lo[pos.race] == cfg.tree_hi[pos.race]:
        return 0  # no tree on this race's track (or trees not in play): nothing to enter
    path = wk.path
    for j in range(1, k):
        s = path[j]
        t = cfg.tab[s, S_TREE]
        if t >= 0 and pos.trees[t] != 0:
            pos.trees[t] = 0
            pos.trees_hit[p] += 1
            heat(wk, H_TREE, s, ONE)
            log(wk, EV_TREE, p, s, ZERO, ZERO, ZERO, ZERO, ZERO, ZERO)
            if take_dents(cfg, pos, wk, p, cfg.tree_dents, DENT_TREE, NONE, ZERO, ZERO, s) < 0:
                return -1
    return 0


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _overspeed_dents(cfg, pos, wk, p, start, end, k, total):
    """ST1 "Dents and Hazards" 1 / R-15: after movement, each entry line crossed at a
    speed (bonus included) above its safety speed dents. Returns -1 on one dent too many."""
    if cfg.safety_speeds == 0:
        return 0
    path = wk.path
    for c in range(cfg.tab[start, S_CP], cfg.tab[end, S_CP]):
        lim = cfg.safety[c]
        if lim > 0 and total > lim:
            n = total - lim
            where = end
            for j in range(k):
                if cfg.tab[path[j], S_CP] > c:
                    where = path[j]
                    break
            before = pos.overspeed[p]
            got = take_dents(cfg, pos, wk, p, n, DENT_OVERSPEED, c, lim, total, end)
            # The heat counts the dents the rules charged: none past the finish line with
            # R-26, and none beyond the dent limit, as ``overspeed`` does.
            heat(wk, H_OVERSPEED, where, pos.overspeed[p] - before)
            if got < 0:
                return -1
    return 0


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _collide(cfg, pos, wk, p, coll, end, dice):
    """ST1 "Dents and Hazards" 2 and 3, ST2 C: what hitting a wall or a sled costs.
    Returns -1 on one dent too many."""
    if coll == C_WALL:
        pos.coll_wall[p] += 1
        heat(wk, H_WALL, end, ONE)
        # one dent (a variant parameter), then refill as usual; none past the
        # finish line with R-26.
        if take_dents(cfg, pos, wk, p, cfg.wall_dents, DENT_WALL, NONE, ZERO, ZERO, end) < 0:
            return -1
    elif coll == C_SLED:
        pos.coll_sled[p] += 1
        heat(wk, H_SLED, end, ONE)
        loss = cfg.sled_collision_die
        if dice and loss > 0 and pos.die[p] > 0:
            # the bonus dice loses a point; at 0 it is removed.
            set_die(pos, wk, p, max(pos.die[p] - loss, 0), DIE_SLED)
    return 0


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def resolve_play(cfg, pos, wk, p, play):
    """Carry out seat ``p``'s card play: cards, bonus dice, movement along its drift
    pattern (then its bonus distance), trees, dents and collisions. Returns the turn's
    ``T_*`` code when a fifth dent ended the turn, else -1: the turn goes on with the end
    stages (``stage_step``). The state oracle resolves its outcomes through this too."""
    v = play[PL_VALUE]
    mask = play[PL_MASK]
    take = play[PL_TAKE]
    if play[PL_ENTER] >= 0:
        pos.space[p] = play[PL_ENTER]  # ST2 B: it enters on a start-row space
        log(wk, EV_PLACE, p, play[PL_ENTER], ZERO, ZERO, ZERO, ZERO, ZERO, ZERO)
    # Speed and drift and the bonus on offer after the play.
    left, right, brake, speed, _, dcol, raw, bonus = play_effect(
        cfg, pos, p, v, mask, pos.rnd, pos.t_pos
    )
    dice = cfg.bonus_rule == BONUS_DICE
    _lay_cards(pos, wk, p, v, mask, left, right, brake)
    log(wk, EV_PLAY, p, v, mask, left, right, brake, speed, raw)
    if dice:
        set_die(pos, wk, p, bonus, DIE_ADJUST)  # 2. R-23, ST2 B.2

    # 3. Move the sled, drifting as the bot chose, then 4. any bonus straight ahead.
    start = pos.space[p]
    room = cfg.dent_limit - pos.dents[p]
    k, coll, b0 = walk(cfg, pos, start, play[PL_BITS], play[PL_NPAT], dcol, take, wk.path, room)
    end = wk.path[k - 1]
    _log_moves(wk, p, play[PL_BITS], wk.path, k, b0)
    pos.space[p] = end
    # Greedy's count of own plays in a row that left the sled where it was (score.py).
    pos.still[p] = pos.still[p] + 1 if end == start and play[PL_ENTER] < 0 else 0
    used = take > 0 and b0 >= 0
    if bonus > 0:
        log(wk, EV_BONUS, p, bonus, take if used else ZERO, ZERO, ZERO, ZERO, ZERO, ZERO)
        if used:
            pos.bonus_used[p] += 1
            if dice:
                set_die(pos, wk, p, ZERO, DIE_USED)  # spent in full
    total = speed + (take if used else 0)  # the bonus counts toward R-15
    if coll != C_NONE and coll != C_FIFTH:
        attempt = MV_BONUS if used else ((play[PL_BITS] >> (k - 1)) & 1)
        log(wk, EV_COLLIDE, p, coll, end, attempt, ZERO, ZERO, ZERO, ZERO)
    if _trees(cfg, pos, wk, p, k) < 0:
        return fifth(cfg, pos, wk, p)
    if _overspeed_dents(cfg, pos, wk, p, start, end, k, total) < 0:
        return fifth(cfg, pos, wk, p)
    if _collide(cfg, pos, wk, p, coll, end, dice) < 0:
        return fifth(cfg, pos, wk, p)
    # R-27 / ST2 F: building effects at the end of the turn, in this order: chapel,
    # bothy, the hand's return to size, kennels, tavern.
    trig = cfg.tab[end, S_TRIG]
    pos.t_trig = trig
    pos.t_end = end
    # 5. Return the hand to its size; after hitting a sled ST1 only discards.
    pos.t_refill = 1 if coll != C_SLED or cfg.sled_collision_refill != 0 else 0
    pos.flow = FL_STAGE
    pos.stage = TS_CHAPEL
    return -1


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def stage_step(cfg, pos, wk):
    """One stage of the end of the turn of ``pos.to_move``. Returns the ``T_*`` code once
    the turn is over, -1 when it stops at a decision (``pos.phase``), -2 to go on."""
    p = pos.to_move
    st = pos.stage
    if st == TS_CHAPEL:
        pos.stage = TS_BOTHY
        if pos.t_trig & T_CHAPEL and pos.dents[p] > 0:
            pos.phase = PH_CHAPEL  # "may discard all dent cards"
            return -1
    elif st == TS_BOTHY:
        pos.stage = TS_REFILL
        if pos.t_trig & T_BOTHY:
            pos.phase = PH_BOTHY  # "may discard any number of canine cards"
            return -1
    elif st == TS_REFILL:
        if pos.t_refill != 0:
            draw_up(cfg, pos, wk, p)
        pos.stage = TS_DISCARD
    elif st == TS_DISCARD:
        if over_size(cfg, pos, p):
            pos.phase = PH_DISCARD  # the player chooses which card goes
            return -1
        pos.stage = TS_KENNELS
    elif st == TS_KENNELS:
        pos.stage = TS_TAVERN
        if pos.t_trig & T_KENNELS and pos.fives[p] > 0:
            pos.phase = PH_KENNELS  # "may ... shuffle one of their 5s into the deck"
            return -1
    else:
        if pos.t_trig & T_TAVERN and cfg.bonus_rule == BONUS_DICE:
            d = pos.die[p]
            set_die(pos, wk, p, 2 if d == 0 else min(d + 2, cfg.bonus_dice_max), DIE_TAVERN)
            pos.tavern[p] += 1
        heat(wk, H_TURN_END, pos.t_end, ONE)
        return T_DONE
    return -2


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def apply_choice(cfg, pos, wk, p, phase, play):
    """Carry out a decision taken inside a turn or a set-up (``PH_DISCARD``,
    ``PH_CHAPEL``, ``PH_BOTHY``, ``PH_KENNELS``); the flow then goes on where it paused."""
    if phase == PH_DISCARD:
        discard(pos, wk, p, play[PL_VALUE])
    elif phase == PH_BOTHY:
        n_drop = ZERO
        for v in range(N_VALUES):
            c = play[PL_COUNTS + v]
            pos.hand[p, v] -= c
            pos.disc[p, v] += c
            n_drop += c
        if n_drop > 0:
            pos.bothy[p] += 1
            log(wk, EV_BUILDING, p, T_BOTHY, n_drop, ZERO, ZERO, ZERO, ZERO, ZERO)
    elif phase == PH_CHAPEL and play[PL_VALUE] != 0:
        log(wk, EV_BUILDING, p, T_CHAPEL, pos.dents[p], ZERO, ZERO, ZERO, ZERO, ZERO)
        pos.dents[p] = 0
        pos.chapel[p] += 1
    elif phase == PH_KENNELS and play[PL_VALUE] != 0:
        # A set-aside 5 is shuffled into the draw deck (never a third: ST2 F "Kennels").
        n = pos.deckn[p]
        pos.deck[p, n] = N_VALUES - 1
        shuffle(pos.rng, deck_stream(p), pos.deck[p], ZERO, n + 1)
        pos.deckn[p] = n + 1
        pos.fives[p] -= 1
        pos.kennels[p] += 1
        log(wk, EV_BUILDING, p, T_KENNELS, pos.fives[p], ZERO, ZERO, ZERO, ZERO, ZERO)
