"""The MUSH engine: one race per root key, in numba, over flat arrays (DESIGN §1).

Sections of the text are cited by their French headings ("text, Entraînement"), rulings
by id (R-41). ``race`` is the only code path: ``simulate`` runs it over many keys in a
``prange`` over blocks of races, ``trace`` runs it on one key with the event log on.

A round (R-43, R-47): the initiative player rolls the weather on the table of the leading
sled's board; sleds bid tokens for the order of play; each sled in that order either
rests (in a town) or races: opponents may first place avalanche markers ahead of it and
remove some of its dice, it rolls one die per uncovered dog (colour by training against
weather), rerolls may be bought, the bonus d6 is rolled when weather matches training,
then it moves along its path and covers a dog. The polar bear passes clockwise. The first
sled into the goal wins at once; the others rank by how far they still have to go.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from simkit.games.mush import bots as B
from simkit.games.mush.arrays import (
    L_TO,
    S_BOARD,
    S_CAP_DOGS,
    S_CAP_TOKENS,
    S_DIST,
    S_GOAL,
    S_JUMP,
    S_KIND,
    S_REST,
    S_START,
    S_TOWN_DIST,
)
from simkit.games.mush.layout import (
    EV_AVAL,
    EV_BACK,
    EV_BID,
    EV_BONUS,
    EV_COVER,
    EV_END,
    EV_FINISH,
    EV_JUMP,
    EV_MARKER,
    EV_ORDER,
    EV_PASS,
    EV_REDUCE,
    EV_REROLL,
    EV_REST,
    EV_ROLL,
    EV_ROUGH,
    EV_SLOT,
    EV_STATE,
    EV_STEP,
    EV_TRAIN,
    EV_WEATHER,
    H_AVAL_FAIL,
    H_REST,
    H_ROUGH_FAIL,
    I_SLOTS,
    I_WEATHER,
    K_AVAL,
    K_AVAL_FAIL,
    K_AVAL_REMOVED,
    K_BID_TOKENS,
    K_BIDS_WON,
    K_COVEND,
    K_COVMAX,
    K_DICE_LOST,
    K_DICE_REMOVED,
    K_FINISH,
    K_FINISHED,
    K_GAINED,
    K_INI,
    K_PASSES,
    K_POINTS,
    K_REROLLS,
    K_RESTS,
    K_ROUGH,
    K_ROUGH_FAIL,
    K_SLOT,
    K_SPACES,
    K_TOGO,
    K_TOKENS,
    K_TRAINING,
    MAX_SEATS,
    N_STREAMS,
    R_LEAD_CHANGES,
    R_ROUNDS,
    R_TIMED_OUT,
    R_WARM,
    WEATHER_SUB,
)
from simkit.games.mush.params import (
    P_AVAL_COST,
    P_AVAL_MARKERS,
    P_AVAL_MAX,
    P_AVAL_TARGET,
    P_BID_EXTRA,
    P_BIDDING,
    P_BONUS,
    P_BONUS_ON,
    P_COLOUR,
    P_DOGS,
    P_FACES,
    P_FULL_MOVE,
    P_LIMITS,
    P_MAX_REROLLS,
    P_MAX_ROUNDS,
    P_N_REST_CP,
    P_N_REST_TOWN,
    P_PASS_COST,
    P_REDUCE_COST,
    P_REDUCE_MAX,
    P_REROLL_COST,
    P_REST_CP,
    P_REST_START,
    P_REST_TOWN,
    P_ROUGH_MAX,
    P_ROUGH_TARGET,
    P_SIDES,
    P_START_TOKENS,
)
from simkit.games.mush.planner import PLAN_CAP, plan
from simkit.games.mush.route import ROUGH, TOWN
from simkit.games.mush.rules import (
    _checked_roll,
    _die_value,
    _ev,
    _leader,
    _place_marker,
    _spend,
    apply_rest,
    d6,
    roll_dogs,
    training_allowed,
)
from simkit.rng import STREAM_BOT, STREAM_DICE, STREAM_SLOTS, below, shuffle, stream_key


@njit(cache=True)
def race(key, n, pv, bots, sp, ln, out_ptr, bw, st, rs, heat, log, logn, do_log):
    """Play one race from root ``key``; write seat stats ``st`` (n, K) and race stats ``rs``."""
    states = np.empty(N_STREAMS, dtype=np.uint64)
    for s in range(n):
        states[s] = stream_key(key, STREAM_DICE, s)
        states[MAX_SEATS + s] = stream_key(key, STREAM_BOT, s)
    states[I_WEATHER] = stream_key(key, STREAM_DICE, WEATHER_SUB)
    states[I_SLOTS] = stream_key(key, STREAM_SLOTS, 0)
    n_sp = sp.shape[0]
    dogs = pv[P_DOGS]
    sides = pv[P_SIDES]
    full_move = pv[P_FULL_MOVE] != 0
    pass_cost = pv[P_PASS_COST]
    reroll_cost = pv[P_REROLL_COST]
    max_rerolls = pv[P_MAX_REROLLS]
    pv_rough = np.array([pv[P_ROUGH_TARGET], pv[P_ROUGH_MAX], 0], dtype=np.int64)
    pv_aval = np.array([pv[P_AVAL_TARGET], pv[P_AVAL_MAX], pv[P_AVAL_COST]], dtype=np.int64)
    st[:, :] = 0
    rs[:] = 0

    # Seats around the table (R-06 analogue): a random order; slot k is the k-th to choose
    # training, counting clockwise from the winner of the text's die roll.
    seat_at = np.arange(n)
    shuffle(states, I_SLOTS, seat_at, 0, n)
    slot = np.empty(n, dtype=np.int64)
    place = np.empty(n, dtype=np.int64)
    for p in range(n):
        slot[seat_at[p]] = p + 1
        place[seat_at[p]] = p
    for s in range(n):
        st[s, K_SLOT] = slot[s]
        _ev(log, logn, do_log, 0, EV_SLOT, s, slot[s], 0, 0, 0, 0)

    # Training in clockwise order within the limits (text, Entraînement; R-44).
    value = np.zeros(3)
    for v in range(n_sp):
        if sp[v, S_DIST] > 0 and sp[v, S_JUMP] < 0:
            for t in range(3):
                value[t] += _die_value(pv, bw[sp[v, S_BOARD]], t, 1)
    training = np.empty(n, dtype=np.int64)
    taken = np.zeros(3, dtype=np.int64)
    allowed = np.zeros(3, dtype=np.int64)
    for p in range(n):
        s = seat_at[p]
        training_allowed(pv[P_LIMITS:], n, taken, allowed)
        t = B.choose_training(bots[s], states, MAX_SEATS + s, allowed, value)
        training[s] = t
        taken[t] += 1
        st[s, K_TRAINING] = t
        _ev(log, logn, do_log, 0, EV_TRAIN, s, t, 0, 0, 0, 0)

    # The polar bear: a die roll picks the first initiative player (text).
    ini = below(states, I_SLOTS, n)
    st[seat_at[ini], K_INI] = 1

    start = 0
    for v in range(n_sp):
        if sp[v, S_START] != 0:
            start = v
            break
    pos = np.full(n, start, dtype=np.int64)
    occ = np.zeros(n_sp, dtype=np.int64)
    occ[start] = n
    covered = np.zeros(n, dtype=np.int64)
    tokens = np.full(n, pv[P_START_TOKENS], dtype=np.int64)
    resting = np.zeros(n, dtype=np.int64)
    start_rests = np.zeros(n, dtype=np.int64)
    aval = np.zeros(ln.shape[0], dtype=np.int64)
    box = pv[P_AVAL_MARKERS]
    bid = np.zeros(n, dtype=np.int64)
    order = np.empty(n, dtype=np.int64)
    okey = np.empty(n, dtype=np.int64)
    harass = np.zeros(n, dtype=np.bool_)
    path_ln = np.empty(dogs + 16, dtype=np.int64)
    hist = np.empty(dogs + 17, dtype=np.int64)
    work_i = np.empty((6, PLAN_CAP), dtype=np.int64)
    work_f = np.empty(PLAN_CAP, dtype=np.float64)
    winner = -1
    rounds = 0
    lead = _leader(pos, n, sp, slot)

    for r in range(1, pv[P_MAX_ROUNDS] + 1):
        rounds = r
        holder = seat_at[ini]
        # Weather: the table of the leading sled's board (text, Temps; R-43).
        ldr = _leader(pos, n, sp, slot)
        b = sp[pos[ldr], S_BOARD]
        face = d6(states, I_WEATHER)
        weather = bw[b, face - 1]
        _ev(log, logn, do_log, r, EV_WEATHER, holder, weather, b, face, 0, -1)
        rr = 0
        while rr < max_rerolls:  # text, Relancer un dé: any roll, the weather's too
            by = -1
            for j in range(n):
                o = seat_at[(ini + j) % n]
                now = pv[P_FACES + pv[P_COLOUR + training[o] * 3 + weather]] / sides
                gain = (dogs - covered[o]) * (_die_value(pv, bw[b], training[o], 1) - now)
                if B.reroll_for_gain(bots[o], states, MAX_SEATS + o, tokens[o], reroll_cost, gain):
                    by = o
                    break
            if by < 0:
                break
            _spend(st, tokens, by, reroll_cost)
            st[by, K_REROLLS] += 1
            rr += 1
            face = d6(states, I_WEATHER)
            weather = bw[b, face - 1]
            _ev(log, logn, do_log, r, EV_WEATHER, holder, weather, b, face, rr, by)
        rs[R_WARM + weather] += 1

        # Order of play: bidders first (highest first, ties clockwise from the
        # initiative player), then the initiative player, then the rest clockwise.
        for j in range(n):
            s = seat_at[(ini + j) % n]
            bid[s] = 0
            if pv[P_BIDDING] != 0:
                gap = 1 << 30  # how far ahead the nearest rival in front is
                for o in range(n):
                    ahead = sp[pos[s], S_DIST] - sp[pos[o], S_DIST]
                    if o != s and ahead >= 0:
                        gap = min(gap, ahead)
                town = sp[pos[s], S_KIND] == TOWN
                spent = covered[s] >= dogs and not town  # no dice: the bid is its only way on
                bid[s] = B.choose_bid(bots[s], states, MAX_SEATS + s, tokens[s], gap, town, spent)
                if bid[s] > 0:
                    _spend(st, tokens, s, bid[s])
                    st[s, K_BID_TOKENS] += bid[s]
                    _ev(log, logn, do_log, r, EV_BID, s, bid[s], 0, 0, 0, 0)
            okey[j] = j if bid[s] == 0 else -bid[s] * 8 + j - (1 << 40)
            order[j] = s
        for j in range(1, n):  # insertion sort by key (n <= 6)
            k, s = okey[j], order[j]
            i = j - 1
            while i >= 0 and okey[i] > k:
                okey[i + 1] = okey[i]
                order[i + 1] = order[i]
                i -= 1
            okey[i + 1] = k
            order[i + 1] = s
        bid_winner = order[0] if bid[order[0]] > 0 else -1
        if bid_winner >= 0:
            st[bid_winner, K_BIDS_WON] += 1
        packed = 0
        for j in range(n):
            packed = packed * 8 + order[j]
        _ev(log, logn, do_log, r, EV_ORDER, holder, packed, n, bid_winner, 0, 0)

        for j in range(n):
            s = order[j]
            bp = bots[s]
            bi = MAX_SEATS + s
            v = pos[s]
            # Rest instead of racing, in a town (text, Repos; R-45).
            rk = sp[v, S_REST]
            if sp[v, S_KIND] == TOWN and rk > 0:
                pf = _die_value(pv, bw[sp[v, S_BOARD]], training[s], 1)
                reach = 0.0
                for c in range(covered[s], dogs):
                    reach += (dogs - c) * pf
                if B.wants_rest(
                    bp,
                    states,
                    bi,
                    rk,
                    covered[s],
                    resting[s] != 0,
                    start_rests[s],
                    reach,
                    sp[v, S_TOWN_DIST],
                ):
                    if rk == 1:  # Anchorage: one token a turn (text)
                        opt, d, t = 0, 0, min(pv[P_REST_START], sp[v, S_CAP_TOKENS])
                        start_rests[s] += 1
                    else:  # Nikolai and Unalakleet / any other town (text)
                        base = P_REST_CP if rk == 2 else P_REST_TOWN
                        nopt = pv[P_N_REST_CP] if rk == 2 else pv[P_N_REST_TOWN]
                        opt = B.choose_rest(
                            bp,
                            states,
                            bi,
                            pv[base:],
                            nopt,
                            covered[s],
                            sp[v, S_CAP_DOGS],
                            sp[v, S_CAP_TOKENS],
                        )
                        d, t = apply_rest(
                            pv[base + 2 * opt],
                            pv[base + 2 * opt + 1],
                            covered[s],
                            sp[v, S_CAP_DOGS],
                            sp[v, S_CAP_TOKENS],
                        )
                    covered[s] -= d
                    tokens[s] += t
                    st[s, K_GAINED] += t
                    st[s, K_RESTS] += 1
                    resting[s] = 1
                    heat[H_REST, v] += 1
                    _ev(log, logn, do_log, r, EV_REST, s, opt, d, t, v, 0)
                    _ev(log, logn, do_log, r, EV_STATE, s, pos[s], covered[s], tokens[s], 0, 0)
                    continue
            resting[s] = 0

            # Opponents act just before the roll (text, Réduire les dés; Déplacer un bâton).
            is_lead = _leader(pos, n, sp, slot) == s
            own_dice = max(0, dogs - covered[s])  # a sled without dice is no threat
            reduced = 0
            for q in range(1, n):
                o = seat_at[(place[s] + q) % n]
                harass[o] = B.harasses(
                    bots[o],
                    states,
                    MAX_SEATS + o,
                    is_lead and own_dice > 0 and sp[v, S_DIST] < sp[pos[o], S_DIST],
                    sp[v, S_DIST],
                )
                if B.places_avalanche(
                    bots[o], states, MAX_SEATS + o, tokens[o], pv[P_AVAL_COST], harass[o]
                ):
                    box = _place_marker(
                        o,
                        s,
                        n,
                        pos,
                        sp,
                        ln,
                        aval,
                        box,
                        tokens,
                        st,
                        pv[P_AVAL_COST],
                        r,
                        log,
                        logn,
                        do_log,
                    )
                k = B.dice_to_remove(
                    bots[o],
                    states,
                    MAX_SEATS + o,
                    tokens[o],
                    pv[P_REDUCE_COST],
                    min(pv[P_REDUCE_MAX], own_dice) - reduced,
                    harass[o],
                )
                if k > 0:
                    reduced += k
                    _spend(st, tokens, o, k * pv[P_REDUCE_COST])
                    st[o, K_DICE_REMOVED] += k
                    st[s, K_DICE_LOST] += k
                    _ev(log, logn, do_log, r, EV_REDUCE, o, s, k, k * pv[P_REDUCE_COST], 0, 0)

            # Dog dice: colour from training against weather.
            ndice = max(0, dogs - covered[s] - reduced)
            colour = pv[P_COLOUR + training[s] * 3 + weather]
            fc = pv[P_FACES + colour]
            faces = roll_dogs(states, s, ndice, fc, sides)
            _ev(log, logn, do_log, r, EV_ROLL, s, ndice, colour, faces, 0, -1)
            expected = ndice * fc / sides
            rr = 0
            while rr < max_rerolls:  # text, Relancer un dé: all dog dice are rolled again
                by = -1
                if B.reroll_own_dice(bp, states, bi, tokens[s], reroll_cost, faces, expected):
                    by = s
                else:
                    for q in range(1, n):
                        o = seat_at[(place[s] + q) % n]
                        if B.force_reroll(
                            bots[o],
                            states,
                            MAX_SEATS + o,
                            tokens[o],
                            reroll_cost,
                            faces,
                            expected,
                            harass[o],
                        ):
                            by = o
                            break
                if by < 0:
                    break
                _spend(st, tokens, by, reroll_cost)
                st[by, K_REROLLS] += 1
                rr += 1
                faces = roll_dogs(states, s, ndice, fc, sides)
                _ev(log, logn, do_log, r, EV_ROLL, s, ndice, colour, faces, rr, by)

            # Bonus table when weather matches training.
            extra = 0
            crossed = 0
            if pv[P_BONUS_ON] != 0 and training[s] == weather:
                bf = d6(states, s)
                _ev(log, logn, do_log, r, EV_BONUS, s, bf, pv[P_BONUS + bf - 1], 0, 0, 0)
                mean = 0.0  # the bonus die's mean worth in spaces, a crossed dog as a dog
                for f in range(6):
                    x = pv[P_BONUS + f]
                    mean += (x if x >= 0 else -bp[B.B_DOG_VALUE]) / 6.0
                for n_rr in range(1, max_rerolls + 1):
                    x = pv[P_BONUS + bf - 1]
                    now = x if x >= 0 else -bp[B.B_DOG_VALUE]
                    by = -1
                    if B.reroll_for_gain(bp, states, bi, tokens[s], reroll_cost, mean - now):
                        by = s
                    else:
                        for q in range(1, n):
                            o = seat_at[(place[s] + q) % n]
                            if harass[o] and B.reroll_for_gain(
                                bots[o], states, MAX_SEATS + o, tokens[o], reroll_cost, now - mean
                            ):
                                by = o
                                break
                    if by < 0:
                        break
                    _spend(st, tokens, by, reroll_cost)
                    st[by, K_REROLLS] += 1
                    _ev(log, logn, do_log, r, EV_REROLL, by, s, reroll_cost, 0, 0, 0)
                    bf = d6(states, s)
                    _ev(log, logn, do_log, r, EV_BONUS, s, bf, pv[P_BONUS + bf - 1], n_rr, 0, 0)
                res = pv[P_BONUS + bf - 1]
                if res < 0:
                    crossed = 1
                else:
                    extra = res
            if s == bid_winner:
                extra += pv[P_BID_EXTRA]
            m = min(faces + extra, path_ln.shape[0])

            # Move along the chosen path (text, Mouvement; ).
            tired = covered[s] + 1 >= bp[B.B_REST_AT]
            pf = _die_value(pv, bw[sp[v, S_BOARD]], training[s], 1)
            reach = 0.0  # spaces its dogs still have in them after this move's cover
            fresh = 0.0  # the same for dogs rested to a single cover
            for c in range(1, dogs):
                fresh += (dogs - c) * pf
                if c >= covered[s] + 1 + crossed:
                    reach += (dogs - c) * pf
            plen = plan(
                bp,
                states,
                bi,
                sp,
                ln,
                out_ptr,
                occ,
                aval,
                v,
                m,
                tokens[s],
                pv_rough,
                pv_aval,
                full_move,
                tired,
                reach,
                fresh,
                pass_cost,
                path_ln,
                work_i,
                work_f,
            )
            cur = v
            hist[0] = cur
            paid = False
            done = 0
            for k in range(plen):
                e = path_ln[k]
                nxt = ln[e, L_TO]
                left = plen - k
                if aval[e] != 0:  # text, Passer au travers d'une avalanche
                    if B.remove_avalanche(bp, states, bi, tokens[s], pv[P_AVAL_COST], left):
                        _spend(st, tokens, s, pv[P_AVAL_COST])
                        aval[e] = 0
                        box += 1
                        st[s, K_AVAL_REMOVED] += 1
                        _ev(log, logn, do_log, r, EV_MARKER, s, -1, e, s, 0, 0)
                    else:
                        bought = B.buy_for_check(bp, states, bi, tokens[s], False, pv[P_AVAL_MAX])
                        _spend(st, tokens, s, bought)
                        ok = _checked_roll(
                            s,
                            EV_AVAL,
                            e,
                            pv[P_AVAL_TARGET],
                            bought,
                            left,
                            states,
                            bots,
                            seat_at,
                            place,
                            n,
                            harass,
                            tokens,
                            st,
                            K_AVAL,
                            reroll_cost,
                            max_rerolls,
                            r,
                            log,
                            logn,
                            do_log,
                        )
                        if not ok:  # 1-5: stop before the marker, the rest of the move is lost
                            st[s, K_AVAL_FAIL] += 1
                            heat[H_AVAL_FAIL, cur] += 1
                            break
                if occ[nxt] > 0 and sp[nxt, S_KIND] != TOWN and not paid:
                    # text, Mouvement / Passer un adversaire: 4 tokens pass for the whole turn
                    pay = tokens[s] >= pass_cost
                    if pay and bp[B.B_KIND] == B.RANDOM:
                        pay = B.pay_to_pass(bp, states, bi, tokens[s], pass_cost)
                    if not pay:
                        break
                    _spend(st, tokens, s, pass_cost)
                    st[s, K_PASSES] += 1
                    paid = True
                    _ev(log, logn, do_log, r, EV_PASS, s, pass_cost, 0, 0, 0, 0)
                if sp[nxt, S_KIND] == ROUGH:  # text, Passer au travers de terrain accidenté
                    bought = B.buy_for_check(bp, states, bi, tokens[s], True, pv[P_ROUGH_MAX])
                    _spend(st, tokens, s, bought)
                    ok = _checked_roll(
                        s,
                        EV_ROUGH,
                        nxt,
                        pv[P_ROUGH_TARGET],
                        bought,
                        left,
                        states,
                        bots,
                        seat_at,
                        place,
                        n,
                        harass,
                        tokens,
                        st,
                        K_ROUGH,
                        reroll_cost,
                        max_rerolls,
                        r,
                        log,
                        logn,
                        do_log,
                    )
                    if not ok:  # failure ends the movement (text example)
                        st[s, K_ROUGH_FAIL] += 1
                        heat[H_ROUGH_FAIL, nxt] += 1
                        break
                occ[cur] -= 1
                occ[nxt] += 1
                _ev(log, logn, do_log, r, EV_STEP, s, cur, nxt, e, 0, 0)
                cur = nxt
                done += 1
                hist[done] = cur
                if sp[cur, S_GOAL] != 0:
                    break
                if sp[cur, S_JUMP] >= 0:  # text, shortened game 2: straight to Unalakleet
                    occ[cur] -= 1
                    _ev(log, logn, do_log, r, EV_JUMP, s, cur, sp[cur, S_JUMP], 0, 0, 0)
                    cur = sp[cur, S_JUMP]
                    occ[cur] += 1
                    break
            # A move that stops early on occupied wilderness it was passing through ends
            # on the last free space behind (assumption: one sled per wilderness space).
            while done > 0 and sp[cur, S_KIND] != TOWN and occ[cur] > 1 and sp[cur, S_JUMP] < 0:
                occ[cur] -= 1
                done -= 1
                _ev(log, logn, do_log, r, EV_BACK, s, cur, hist[done], 0, 0, 0)
                cur = hist[done]
                occ[cur] += 1
            st[s, K_SPACES] += done
            pos[s] = cur
            # Cover a dog after moving, even 0 spaces (text, Fatigue); R-42 crossed dog.
            covered[s] = min(dogs, covered[s] + 1 + crossed)
            st[s, K_COVMAX] = max(st[s, K_COVMAX], covered[s])
            _ev(log, logn, do_log, r, EV_COVER, s, covered[s], crossed, 0, 0, 0)
            _ev(log, logn, do_log, r, EV_STATE, s, pos[s], covered[s], tokens[s], 0, 0)
            if sp[cur, S_GOAL] != 0:
                winner = s
                _ev(log, logn, do_log, r, EV_FINISH, s, cur, 0, 0, 0, 0)
                break
        now = _leader(pos, n, sp, slot)
        if now != lead:
            rs[R_LEAD_CHANGES] += 1
            lead = now
        if winner >= 0:
            break
        ini = (ini + 1) % n  # the polar bear passes clockwise

    # Ranking: the winner first, the rest by moves still to go, ties by slot.
    rank = np.empty(n, dtype=np.int64)
    for s in range(n):
        better = 0
        for o in range(n):
            if o == s:
                continue
            if o == winner:
                better += 1
            elif s != winner:
                do, ds = sp[pos[o], S_DIST], sp[pos[s], S_DIST]
                if do < ds or (do == ds and slot[o] < slot[s]):
                    better += 1
        rank[s] = better + 1
    for s in range(n):
        st[s, K_FINISH] = rank[s]
        st[s, K_POINTS] = 1 if s == winner else 0
        st[s, K_FINISHED] = 1 if s == winner else 0
        st[s, K_TOKENS] = tokens[s]
        st[s, K_COVEND] = covered[s]
        st[s, K_TOGO] = sp[pos[s], S_DIST]
    rs[R_ROUNDS] = rounds
    rs[R_TIMED_OUT] = 1 if winner < 0 else 0
    _ev(log, logn, do_log, rounds, EV_END, winner, rounds, rs[R_TIMED_OUT], 0, 0, 0)


@njit(cache=True, parallel=True)
def batch(keys, n, pv, bots, sp, ln, out_ptr, bw, st, rs, heat, log, logn, do_log):
    """``race`` for every key; block ``b`` of races adds its heat into ``heat[b]`` only.

    ``simulate`` passes ``do_log=False``; ``trace`` passes one key, one block and
    ``do_log=True``, so a trace runs exactly this code (and its one compiled copy).
    """
    n_races = keys.shape[0]
    nb = heat.shape[0]
    for b in prange(nb):
        lo = b * n_races // nb
        hi = (b + 1) * n_races // nb
        for i in range(lo, hi):
            race(
                keys[i], n, pv, bots, sp, ln, out_ptr, bw, st[i], rs[i], heat[b], log, logn, do_log
            )
