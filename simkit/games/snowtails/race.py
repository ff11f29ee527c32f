"""The flow of a unit (a race, or a season / tournament) between decisions.

``advance`` runs set-ups, rounds, turns and the ends of races until a seat has a decision
to take (``pos.phase``) or the unit is over. Each step reads ``pos.flow`` (``FL_*``), so a
position paused at any decision carries on exactly where it stopped: the batch loop, a
traced race, the oracle and a search bot all step the same code. Sources as in
``turn.py``.
"""

from __future__ import annotations

from numba import njit

from simkit.games.round_counts import add_race
from simkit.games.snowtails.records import (
    DENT_NO_CANINE,
    EV_END,
    EV_FINISH,
    EV_HAND,
    EV_NO_CANINE,
    EV_RACE,
    EV_REJOIN,
    EV_ROUND,
    EV_STALL,
    EV_START,
    EV_TURN,
    FINISHED,
    FL_DONE,
    FL_ROUND,
    FL_SETUP,
    FL_STAGE,
    FL_TURN,
    IN_RACE,
    MAX_SEATS,
    N_VALUES,
    NONE,
    ONE,
    OUT,
    PH_DISCARD,
    PH_NONE,
    PH_PAIR,
    PH_PLAY,
    RACING,
    RACING_ONLY,
    REPAIR,
    ROUND_CAP,
    S_PAST,
    T_DONE,
    T_OUT,
    T_SECOND,
    ZERO,
)
from simkit.games.snowtails.rules import (
    BONUS_DICE,
    canine_count,
    has_pair,
    race_order,
    race_position,
)
from simkit.games.snowtails.turn import (
    bot_stream,
    deck_stream,
    draw_one,
    draw_up,
    fifth,
    log,
    over_size,
    stage_step,
    take_dents,
)
from simkit.rng import STREAM_BOT, STREAM_DECK, STREAM_SLOTS, shuffle, stream_key

# Set-up stages of one seat (``pos.stage`` while ``pos.flow == FL_SETUP``).
SS_BEGIN = 0
SS_DISCARD = 1  # a carried-over hand above its size
SS_END = 2


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def seed_streams(pos, key):
    """Every random stream of the unit from its root key (DESIGN §4)."""
    pos.rng[0] = stream_key(key, STREAM_SLOTS, ZERO)
    for p in range(MAX_SEATS):
        pos.rng[deck_stream(p)] = stream_key(key, STREAM_DECK, p)
        pos.rng[bot_stream(p)] = stream_key(key, STREAM_BOT, p)


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _deck_counts(cfg, pos, p, counts):
    """The cards of a fresh deck by value, less the 5s the kennels keep (ST2 A.5)."""
    for v in range(N_VALUES):
        counts[v] = cfg.deck[v]
        pos.hand[p, v] = 0
        pos.disc[p, v] = 0
    counts[N_VALUES - 1] -= cfg.set_aside
    pos.fives[p] = cfg.set_aside


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def new_deck(cfg, pos, wk, p, pair):
    """A fresh set-up of seat ``p``'s cards (ST1 Setup, ST2 A.5): deck, dogs, and the deal
    (R-11: extra cards by start slot). ``pair`` is an experienced sled's chosen pair (ST2
    A.5), or -1. Returns the cards dealt."""
    counts = wk.counts
    _deck_counts(cfg, pos, p, counts)
    dogs = cfg.dogs_start
    if cfg.dogs_from_deck != 0:
        if pair > 0:
            dogs = pair
        if counts[dogs] >= 2:
            counts[dogs] -= 2  # ST2 A.5: the pair leaves the deck for the dogs
            pos.lcard[p] = 1
            pos.rcard[p] = 1
    pos.left[p] = dogs  # ST1 Setup: dogs printed at 3, brake marker at 3
    pos.right[p] = dogs
    pos.brake[p] = cfg.brake_start
    n = ZERO  # not a literal 0: numba would compile ``shuffle`` for it too
    for v in range(N_VALUES):
        for _ in range(counts[v]):
            pos.deck[p, n] = v
            n += 1
    shuffle(pos.rng, deck_stream(p), pos.deck[p], ZERO, n)  # ST1 Setup: shuffle the dog deck
    pos.deckn[p] = n
    deal = cfg.hand_size + cfg.extra_cards[pos.slot[p] - 1]
    tracing = wk.tracing  # the deal is not part of any turn's log
    wk.tracing = 0
    for _ in range(deal):
        draw_one(pos, wk, p)
    wk.tracing = tracing
    return deal


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _carry_deck(cfg, pos, wk, p):
    """Between tournament races (R-28, ST2 E): dents back, the cards under the dogs
    shuffled onto the bottom of the draw deck, the hand back up to size."""
    pos.dents[p] = 0
    k = ZERO  # not a literal 0: numba would compile ``shuffle`` for it too
    for v in range(N_VALUES):
        k += pos.disc[p, v]
    n = pos.deckn[p]
    for i in range(n - 1, -1, -1):
        pos.deck[p, i + k] = pos.deck[p, i]  # index 0 is the bottom, n - 1 the top
    i = 0
    for v in range(N_VALUES):
        for _ in range(pos.disc[p, v]):
            pos.deck[p, i] = v
            i += 1
        pos.disc[p, v] = 0
    shuffle(pos.rng, deck_stream(p), pos.deck[p], ZERO, k)
    pos.deckn[p] = n + k
    tracing = wk.tracing  # between races: not part of any turn's log
    wk.tracing = 0
    draw_up(cfg, pos, wk, p)
    wk.tracing = tracing


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _start_order(cfg, pos, wk):
    """Start slots of race ``pos.race``: a random permutation (R-06), or after the first
    race of a tournament the reverse finishing order (R-28 / ST2 E.5: the last sled of the
    last race takes the first slot)."""
    n = pos.n_seats
    if pos.race == 0 or cfg.next_start == 1:
        for p in range(n):
            pos.slot[p] = cfg.slots[p]
        shuffle(pos.rng, ZERO, pos.slot, ZERO, n)
        return
    ranked = wk.order
    for i in range(n):  # the slots in order: an insertion sort of at most 8 distinct ints
        v = cfg.slots[i]  # (numba's own sort compiled its quicksort, 3% of a cold run)
        j = i
        while j > 0 and ranked[j - 1] > v:
            ranked[j] = ranked[j - 1]
            j -= 1
        ranked[j] = v
    for p in range(n):
        wk.order[MAX_SEATS + p] = ranked[n - pos.finish[p]]
    for p in range(n):
        pos.slot[p] = wk.order[MAX_SEATS + p]


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _begin_race(cfg, pos, wk):
    """Set up race ``pos.race`` (0-based) of the unit: trees, start order, race counters."""
    r = pos.race
    for t in range(cfg.tree_lo[r], cfg.tree_hi[r]):
        pos.trees[t] = 1  # trees are per race
    _start_order(cfg, pos, wk)
    for p in range(pos.n_seats):
        pos.space[p] = -1
    log(wk, EV_RACE, r + 1, cfg.track_base[r], ZERO, ZERO, ZERO, ZERO, ZERO, ZERO)
    pos.rnd = 0
    pos.n_out = 0
    pos.next_rank = 1
    pos.leader = -1
    pos.leader1 = -1
    pos.over = 0
    pos.second = -1
    pos.setup_seat = 0
    pos.stage = SS_BEGIN


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _seat_begin(cfg, pos, wk, p):
    """Seat ``p``'s part of the set-up, up to its first decision; False if it pauses."""
    slot = pos.slot[p]
    pos.order[p] = slot
    if pos.race == 0:
        pos.first_slot[p] = slot
    pos.status[p] = RACING
    pos.still[p] = 0
    pos.finish[p] = 0
    pos.fin_round[p] = 0
    pos.out_round[p] = 0
    pos.out_seq[p] = 0
    if pos.race == 0 or cfg.carry_decks == 0:
        pos.dents[p] = 0
        pos.lcard[p] = 0
        pos.rcard[p] = 0
        _deck_counts(cfg, pos, p, wk.counts)
        if cfg.dogs_from_deck != 0 and cfg.experienced != 0 and has_pair(cfg):
            pos.to_move = p
            pos.phase = PH_PAIR  # ST2 A.5: an experienced sledder picks the pair
            return False
        pos.deal = new_deck(cfg, pos, wk, p, NONE)
        pos.stage = SS_END
        return True
    _carry_deck(cfg, pos, wk, p)
    pos.deal = 0
    pos.stage = SS_DISCARD
    return True


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _seat_end(cfg, pos, wk, p, deal):
    """Bonus dice and start space of seat ``p`` (R-23, ST1 Setup, ST2 B)."""
    if cfg.bonus_rule == BONUS_DICE:
        pos.die[p] = cfg.bonus_dice_start[pos.slot[p] - 1]  # R-23, ST2 A.7 and E.6
    else:
        pos.die[p] = 0
    space = -1
    if cfg.start_rule == 0:
        space = cfg.grid[pos.race, pos.slot[p] - 1]
    pos.space[p] = space  # ST2 B: -1 until it enters the board in round 1
    log(wk, EV_START, p, pos.slot[p], space, deal, pos.left[p], pos.die[p], ZERO, ZERO)


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def setup_step(cfg, pos, wk):
    """Set up the seats of race ``pos.race`` from ``pos.setup_seat``; False if a seat has
    a decision to take first."""
    while pos.setup_seat < pos.n_seats:
        p = pos.setup_seat
        if pos.stage == SS_BEGIN and not _seat_begin(cfg, pos, wk, p):
            return False
        if pos.stage == SS_DISCARD:
            if over_size(cfg, pos, p):
                pos.to_move = p
                pos.phase = PH_DISCARD
                return False
            pos.stage = SS_END
        _seat_end(cfg, pos, wk, p, pos.deal)
        pos.setup_seat += 1
        pos.stage = SS_BEGIN
    pos.flow = FL_ROUND
    return True


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _rank(cfg, pos, wk, p):
    """Seat ``p`` has finished in the next place, in round ``pos.rnd`` (R-05)."""
    pos.status[p] = FINISHED
    pos.finish[p] = pos.next_rank
    pos.fin_round[p] = pos.rnd
    log(wk, EV_FINISH, p, pos.next_rank, pos.rnd, ZERO, ZERO, ZERO, ZERO, ZERO)
    pos.next_rank += 1


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _start_round(cfg, pos, wk):
    """R-25 rejoins, then the round's turn order (R-03): the race order at its start."""
    # a repairing sled rejoins when it is last in race order at the start of a round,
    # and plays that round (the order is looked up only while a sled is repairing).
    if _repairing(pos):
        n = race_order(cfg, pos, IN_RACE, wk.order)
        for i in range(n - 1, -1, -1):
            q = wk.order[i]
            if pos.status[q] == FINISHED:
                continue
            if pos.status[q] == REPAIR:
                pos.status[q] = RACING
                log(wk, EV_REJOIN, q, pos.rnd + 1, ZERO, ZERO, ZERO, ZERO, ZERO, ZERO)
            break
    n = race_order(cfg, pos, RACING_ONLY, wk.order)
    if n == 0:
        _end_race(cfg, pos, wk)
        return
    if pos.rnd >= cfg.max_rounds:
        pos.timed_out = 1
        _end_race(cfg, pos, wk)
        return
    pos.rnd += 1
    log(wk, EV_ROUND, pos.rnd, ZERO, ZERO, ZERO, ZERO, ZERO, ZERO, ZERO)
    # sleds that have not moved cannot change places among themselves, so the order
    # at the start of the round is the turn order.
    for i in range(n):
        pos.turn_order[i] = wk.order[i]
    pos.round_n = n
    pos.turn_i = 0
    pos.flow = FL_TURN


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _begin_turn(cfg, pos, wk):
    """Start the next turn of the round (ST1 "Game Play", ST2 B); False when its seat
    has to play (``PH_PLAY``)."""
    if pos.turn_i >= pos.round_n:
        _end_round(cfg, pos, wk)
        return True
    p = pos.turn_order[pos.turn_i]
    pos.to_move = p
    pos.turns[p] += 1
    pos.t_pos = race_position(cfg, pos, p)  # R-04, at the start of its own turn
    log(
        wk,
        EV_TURN,
        p,
        pos.rnd,
        pos.t_pos,
        pos.space[p],
        pos.left[p],
        pos.right[p],
        pos.brake[p],
        pos.dents[p],
    )
    h = pos.hand[p]
    log(wk, EV_HAND, p, h[0], h[1], h[2], h[3], h[4], h[5], pos.die[p])
    if canine_count(pos, p) == 0:
        # R-19 / ST1 "Special Rule": take a dent (it can be the fatal one), draw up to the
        # hand size, then play normally.
        pos.no_canine[p] += 1
        log(wk, EV_NO_CANINE, p, ZERO, ZERO, ZERO, ZERO, ZERO, ZERO, ZERO)
        if pos.space[p] >= 0 and cfg.no_canine_dent != 0:
            got = take_dents(cfg, pos, wk, p, ONE, DENT_NO_CANINE, NONE, ZERO, ZERO, pos.space[p])
            if got < 0:
                end_turn(cfg, pos, wk, fifth(cfg, pos, wk, p))
                return True
        draw_up(cfg, pos, wk, p)  # an empty hand never needs a discard
        if canine_count(pos, p) == 0:
            if pos.space[p] < 0:
                pos.space[p] = cfg.row[pos.race, 0]  # it must still enter the board
            log(wk, EV_STALL, p, ZERO, ZERO, ZERO, ZERO, ZERO, ZERO, ZERO)
            end_turn(cfg, pos, wk, T_DONE)
            return True
    pos.phase = PH_PLAY
    return False


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def end_turn(cfg, pos, wk, code):
    """The turn of ``pos.to_move`` is over with ``code`` (``T_*``); on to the next."""
    p = pos.to_move
    pos.flow = FL_TURN
    pos.turn_i += 1
    pos.t_code = code
    pos.turns_done += 1
    if code == T_OUT:
        pos.n_out += 1
    elif code == T_SECOND:
        # a fifth dent in a 2-sled race: the other sled 1st, this one 2nd.
        pos.second = p
        pos.next_rank = 1
        for q in range(pos.n_seats):
            if q != p:
                _rank(cfg, pos, wk, q)
        _rank(cfg, pos, wk, p)
        if wk.heat_on != 0 and pos.race == 0 and pos.rnd <= ROUND_CAP:
            for q in range(pos.n_seats):
                wk.ranks[pos.rnd - 1, q] = pos.finish[q]  # the round ends with the race
        _end_race(cfg, pos, wk)


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _end_round(cfg, pos, wk):
    """Places at the end of a round (R-05), leader statistics, and whether the race ends."""
    order = wk.order
    if cfg.race_end == 0:
        # R-05 (ST1): at the end of a round every sled past the line has finished, ranked
        # by race order after those that finished in earlier rounds (ordered only when one
        # has crossed).
        if _crossed(cfg, pos):
            n = race_order(cfg, pos, RACING_ONLY, order)
            for i in range(n):
                p = order[i]
                if cfg.tab[pos.space[p], S_PAST] != 0:
                    _rank(cfg, pos, wk, p)
    else:
        # R-05 / ST2 D: the race ends with the round in which a sled crosses the line;
        # every sled still in it is placed by race order, finished or not.
        if _crossed(cfg, pos):
            n = race_order(cfg, pos, IN_RACE, order)
            for i in range(n):
                _rank(cfg, pos, wk, order[i])
            pos.over = 1
    n = race_order(cfg, pos, IN_RACE, order)
    if wk.heat_on != 0 and pos.race == 0 and pos.rnd <= ROUND_CAP:
        _record_ranks(pos, wk, order, n)
    if n > 0:
        if pos.rnd == 1:
            pos.leader1 = order[0]
        elif order[0] != pos.leader:
            pos.lead_changes += 1
        pos.leader = order[0]
    if pos.over != 0:
        _end_race(cfg, pos, wk)
    else:
        pos.flow = FL_ROUND


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _crossed(cfg, pos):
    """A sled still racing is past the finish line (R-05)."""
    for p in range(pos.n_seats):
        s = pos.space[p]
        if pos.status[p] == RACING and s >= 0 and cfg.tab[s, S_PAST] != 0:
            return True
    return False


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _repairing(pos):
    """A sled sits out a fifth dent (R-25)."""
    for p in range(pos.n_seats):  # noqa: SIM110 - numba compiles no generator expressions
        if pos.status[p] == REPAIR:
            return True
    return False


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _record_ranks(pos, wk, order, n):
    """Race positions at the end of round ``pos.rnd`` (R-03, ``order`` holds the ``n``
    sleds still in the race); sleds out follow, the last one out first (R-05)."""
    row = wk.ranks[pos.rnd - 1]
    for i in range(n):
        row[order[i]] = i + 1
    rank = n
    for seq in range(pos.n_out, 0, -1):
        for p in range(pos.n_seats):
            if pos.status[p] == OUT and pos.out_seq[p] == seq:
                rank += 1
                row[p] = rank


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def count_ranks(pos, wk, measures):
    """Add a finished single race's positions after each round to ``wk.round_counts``
    (``Batch.round_position``), ``wk.end_counts`` (``Batch.end_position``) and
    ``wk.seat_counts`` (``Batch.seat_position``, by seat instead), by each
    seat's start slot: by its finish when the race was decided (a single winner who
    finished), else as finish 0; its round measures into ``measures``
    (``simkit.games.round_counts``)."""
    n = pos.n_seats
    winners = 0
    decided = False
    for p in range(n):
        if pos.finish[p] == 1:
            winners += 1
            decided = pos.status[p] == FINISHED
    decided = decided and winners == 1
    add_race(
        wk.ranks,
        pos.rnd,
        n,
        pos.slot,
        pos.finish,
        decided,
        wk.round_counts,
        wk.end_counts,
        wk.seat_counts,
        measures,
    )


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _race_points(cfg, pos, wk):
    """Finish positions of the sleds not yet placed, and each sled's points (R-05, R-20,
    R-28)."""
    order = wk.order
    n = race_order(cfg, pos, IN_RACE, order)
    # Sleds still running at the round limit rank after the finishers, by race order.
    for i in range(n):
        p = order[i]
        if pos.status[p] != FINISHED:
            pos.finish[p] = pos.next_rank
            pos.next_rank += 1
    # eliminated sleds rank last, the last one out best among them.
    for seq in range(pos.n_out, 0, -1):
        for p in range(pos.n_seats):
            if pos.status[p] == OUT and pos.out_seq[p] == seq:
                pos.finish[p] = pos.next_rank
                pos.next_rank += 1
    for p in range(pos.n_seats):
        f = pos.finish[p]
        stt = pos.status[p]
        # ST2 D: with race_end = round every sled still in the race is placed.
        scores = stt == FINISHED if cfg.race_end == 0 else stt != OUT
        scores = scores or (stt == OUT and cfg.points_eliminated != 0)
        pts = cfg.points[f - 1] if scores else 0
        pos.race_fin[p, pos.race] = f
        pos.race_pts[p, pos.race] = pts
        pos.points[p] += pts


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _end_race(cfg, pos, wk):
    """Race ``pos.race`` is over: its places and points; then the next race or the end."""
    _race_points(cfg, pos, wk)
    pos.total_rounds += pos.rnd
    pos.eliminations += pos.n_out
    if pos.race == 0:
        for p in range(pos.n_seats):
            if p == pos.leader1 and pos.finish[p] == 1 and pos.status[p] == FINISHED:
                pos.won = 1
    if pos.race + 1 < cfg.races:
        pos.race += 1
        pos.flow = FL_SETUP
        _begin_race(cfg, pos, wk)
        return
    if cfg.races > 1:
        # R-28 / ST2 E: most points over the races wins; ties go to the better place in
        # the final race (the ST1 season is ranked the same way).
        n = pos.n_seats
        for p in range(n):
            rank = 1
            for q in range(n):
                if q != p and (
                    pos.points[q] > pos.points[p]
                    or (pos.points[q] == pos.points[p] and pos.finish[q] < pos.finish[p])
                ):
                    rank += 1
            wk.order[MAX_SEATS + p] = rank
        for p in range(n):
            pos.finish[p] = wk.order[MAX_SEATS + p]
            pos.slot[p] = pos.first_slot[p]
    log(wk, EV_END, pos.total_rounds, pos.timed_out, ZERO, ZERO, ZERO, ZERO, ZERO, ZERO)
    pos.flow = FL_DONE


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def advance(cfg, pos, wk):
    """Run the unit on until a seat has a decision to take, or the unit is over."""
    pos.phase = PH_NONE
    done = pos.turns_done
    while True:
        if wk.halt != 0 and pos.turns_done != done:
            return
        f = pos.flow
        if f == FL_SETUP:
            if not setup_step(cfg, pos, wk):
                return
        elif f == FL_ROUND:
            _start_round(cfg, pos, wk)
        elif f == FL_TURN:
            if not _begin_turn(cfg, pos, wk):
                return
        elif f == FL_STAGE:
            code = stage_step(cfg, pos, wk)
            if code == -1:
                return
            if code >= 0:
                end_turn(cfg, pos, wk, code)
        else:
            pos.to_move = -1
            return


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def begin_unit(cfg, pos, wk, key):
    """A fresh unit from its root key, set up to its first decision."""
    n = cfg.n_seats
    pos.n_seats = n
    for p in range(MAX_SEATS):
        for v in range(N_VALUES):
            pos.hand[p, v] = 0
            pos.disc[p, v] = 0
        pos.status[p] = OUT if p >= n else RACING
    seed_streams(pos, key)
    pos.race = 0
    pos.flow = FL_SETUP
    _begin_race(cfg, pos, wk)
    advance(cfg, pos, wk)
