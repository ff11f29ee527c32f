"""The search bot, ``search:N``: determinized Monte Carlo over the seat's best plays.

At each card play (the decision that moves the sled) the bot takes greedy's best plays
(``greedy.top_plays``: greedy's one-turn score as the prior; up to ``CANDIDATES``, as many as
let the first cut rest on two samples each, ``candidates``), then spends ``N`` rollouts
on them by sequential halving (or plays only those that can still change its choice,
``_settle``: the same choice): in each round every play still in contention
is tried on the same fresh samples of what the seat cannot see (``position.determinize``:
the other hands and every deck order, consistent with what it has seen, so plays are
compared on common random numbers), each sample played on to the end of the race with
greedy for every sled; the better half goes on to the next round. It plays the one with the
best mean result: its rank utility in the race, (n - place) / (n - 1), which is less noisy
than the win alone and rewards every place gained.

``search:NhHw`` scores it by the second value instead (``value.value2``: the seat's
next-turn risk too), and ``search:NhHx`` by the value its policy carries (``value.value3``,
coefficients a game's ``bots.toml`` holds beside the policy's, fitted on many grounds).

With ``pL`` after the horizon and a distilled policy after ``@``
(``search:NhHpL@policy:NAME``, ``distil.py``) the policy is a prior and greedy still plays
the rollouts: the candidates are the policy's best of greedy's best ``distil.K``, cut first
on one sample each (``candidates_cut``), and each one's mean result gets L/100 times its
policy score less the best one's, so a play the policy prefers wins what the samples cannot
tell apart (docs/bots.md, "Distilling search's choices"). ``cM`` after L
(``search:NhHpLcM``) compares the policy's best M instead, first on one sample each, then
halving as above on the rest of the budget. ``sS`` after that (``search:NhHpLcMsS``) stops
after a round in which the leading play's mean plus prior is S/100 or more ahead of the
next one's, and plays it: at most N rollouts. ``gG`` last (``search:NhHpLgG``) plays the
policy's best without a rollout when its prior already leads the next play's by G/100 or
more (the prior is in the same units as a rollout's result).

Its other decisions (discards, bothy, kennels, an experienced pair) are greedy's: each has
one sensible answer greedy already gives.

The bot never reads what its seat cannot see: it samples from ``determinize`` and its
candidates come from its own hand and the board. Every random number it uses comes from
its seat's bot stream (one draw per decision seeds that decision's samples), so a race
stays a pure function of its key.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simkit.games.snowtails.distil import K, policy_scores
from simkit.games.snowtails.greedy import top_plays
from simkit.games.snowtails.policy import decide
from simkit.games.snowtails.position import apply, determinize
from simkit.games.snowtails.records import (
    BOT_GREEDY,
    FINISHED,
    FL_DONE,
    N_VALUES,
    ONE,
    OUT,
    PH_PLAY,
    PLAY_W,
    RACING,
    RECALL,
    S_TREE,
    ZERO,
)
from simkit.games.snowtails.rules import race_position
from simkit.games.snowtails.score import STILL_TURNS
from simkit.games.snowtails.turn import bot_stream
from simkit.games.snowtails.value import (
    N_FEATURES,
    N_FEATURES2,
    N_FEATURES3,
    value,
    value2,
    value3,
)
from simkit.rng import next_u64, stream_key

CANDIDATES = 8  # root plays the search spends its rollouts on: greedy's best eight at most
FIRST_CUT = 2  # samples each play gets before the first cut, at least (``candidates``)
NO_STOP = np.int64(1 << 50)  # the round a rollout without a horizon is cut at: never
STREAM_SEARCH = np.int64(8)  # rng stream kind of the samples (simkit.rng: 0..3, 7)
SETTLE_MARGIN = 1e-9  # how far a play's bound must clear another's to settle it (_settle)
RECALL_MIN = 64  # recall slots a search uses, at least (_recall_size)
RECALL_ROUNDS = 16  # rounds a rollout without a horizon is taken to play (_recall_size)


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _recall_key(pos, p, wr):
    """Everything of the position a greedy card play of seat ``p`` (weights row ``wr``)
    reads besides the sleds and trees on the spaces it searches: its space, race, round
    (only whether it is the first, R-14, R-23), race position (its bonus, R-14), dents,
    dice, 5s set aside, whether it has stood still (``policy.STILL_TURNS``), hand and dogs;
    as two words."""
    hand = 0
    for v in range(N_VALUES):
        hand |= pos.hand[p, v] << (8 * v)  # at most 60 cards of a value (MAX_DECK)
    k0 = (pos.space[p] + 1) | (pos.race << 13) | (p << 17) | (wr << 21)
    k0 |= (min(pos.rnd, 2) << 25) | (pos.t_pos << 27) | (pos.dents[p] << 32)
    k0 |= (pos.die[p] << 40) | (pos.fives[p] << 48)
    k0 |= (1 if pos.still[p] >= STILL_TURNS else 0) << 56  # greedy's STILL_PENALTY on or off
    k1 = hand | (pos.left[p] << 48) | (pos.right[p] << 52) | (pos.brake[p] << 56)
    return k0, k1


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _mark(cfg, pos, wk):
    """Mark the spaces sleds block (``rules.sled_at``) in ``wk.occ`` with a fresh
    ``wk.occ_stamp``: a space's read then looks at one entry, not at every sled."""
    wk.occ_stamp += 1
    for q in range(pos.n_seats):
        st = pos.status[q]
        if pos.space[q] >= 0 and st != OUT and (st != FINISHED or cfg.lift_finished == 0):
            wk.occ[pos.space[q]] = wk.occ_stamp


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _read(cfg, pos, wk, t):
    """What a greedy search reads at space ``t`` (``movement.enter``): a sled there (1,
    marked by ``_mark``), a standing tree (2)."""
    r = 1 if wk.occ[t] == wk.occ_stamp else 0
    tree = cfg.tab[t, S_TREE]
    if tree >= 0 and pos.trees[tree] != 0:
        r |= 2
    return r


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _recall(cfg, reach, pos, wk, wr):
    """Greedy's decision (``policy.decide``, weights row ``wr``) for the seat to move, into
    ``wk.play``: a card play recalled when this seat's own state (``_recall_key``) and
    every space the play's search read (``movement.note``: a sled or a tree there, or
    none) are as they were when it was searched, else searched and remembered.

    A card play is a pure function of those: so the recalled play is the one the search
    would find, and the rollouts play the same races. Plays repeat often within a search
    (one sample's rollouts share the other sleds' hands and decks: 38% of greedy's card
    plays in search:64's rollouts were recalled, 4 sleds, measured); a search from the
    start row (ST2 B), whose own space moves while it searches, is not remembered. A row
    of ``wk.recall``: the reads' count, the play, then the reads two to a word (``t << 2
    | what``, ``_read``); its key's two words apart, in ``wk.recall_key``, so that
    forgetting costs little (``_forget``, once a search, only the slots the search uses:
    ``_recall_size``)."""
    p = pos.to_move
    if pos.phase != PH_PLAY or pos.space[p] < 0:
        decide(cfg, reach, pos, wk, BOT_GREEDY, wr)
        return
    k0, k1 = _recall_key(pos, p, wr)
    slot = ((k0 * -7046029254386353131) ^ (k1 * -4658895280553007687)) >> 40 & wk.recall_mask
    row = wk.recall[slot]
    _mark(cfg, pos, wk)  # the sleds stand still until the play is applied
    if wk.recall_key[slot, 0] == k0 and wk.recall_key[slot, 1] == k1:
        same = True
        for j in range(row[0]):
            r = (row[8 + j // 2] >> (32 * (j % 2))) & 0xFFFFFFFF
            if _read(cfg, pos, wk, r >> 2) != r & 3:
                same = False
                break
        if same:
            for col in range(PLAY_W):
                wk.play[col] = row[1 + col]
            return
    wk.reading = 1
    wk.n_reads = 0
    wk.stamp += 1
    decide(cfg, reach, pos, wk, BOT_GREEDY, wr)
    wk.reading = 0
    n = wk.n_reads
    if n > wk.reads.shape[0] or wk.n_top == 0:
        return  # read too much to remember (or found no play)
    wk.recall_key[slot, 0] = k0
    wk.recall_key[slot, 1] = k1
    row[0] = n
    for col in range(PLAY_W):
        row[1 + col] = wk.play[col]
    for j in range(0, n, 2):
        t = wk.reads[j]
        w = (t << 2) | _read(cfg, pos, wk, t)
        if j + 1 < n:
            t = wk.reads[j + 1]
            w |= ((t << 2) | _read(cfg, pos, wk, t)) << 32
        row[8 + j // 2] = w


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _recall_size(budget, horizon, n_seats):
    """The recall slots a search of ``budget`` rollouts uses: a power of two, about four
    for each card play its rollouts may make (``RECALL_ROUNDS`` rounds without a
    horizon), at least ``RECALL_MIN`` and at most ``RECALL``. Which plays are recalled
    never changes a choice (a recalled play is the one the search would find), only how
    often the search runs; a search of a few short rollouts (``search:6h2...``) then
    clears a few hundred slots, not all of them, each decision."""
    rounds = horizon if horizon > 0 else RECALL_ROUNDS
    want = 4 * budget * rounds * n_seats
    size = RECALL_MIN
    while size < want and size < RECALL:
        size *= 2
    return size


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _forget(wk, n_spaces, size):
    """No card play remembered (``_recall``) in the first ``size`` slots, which the
    search uses, no space noted (``movement.note``) or marked (``_mark``)."""
    wk.reading = 0
    wk.stamp = 1
    wk.recall_mask = size - 1
    for slot in range(size):
        wk.recall_key[slot, 0] = -1
    wk.occ_stamp = 1
    for s in range(n_spaces):  # the only spaces noted, or marked
        wk.seen[s] = 0
        wk.occ[s] = 0


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def place_settled(pos, seat):
    """Whether seat ``seat``, still in the race, is the only sled in it: every other one
    has finished or is out. Its place is then settled, the next one (``pos.next_rank``),
    however it ends: finishing (R-05), out (R-05: the last one out ranks first among
    them, after every finisher), or still running at the round limit (ranked after the
    finishers). R-25's fifth dent in a 2-sled race places the other sled 1st and this one
    2nd, the same place; it sends no sled out, so the other has finished."""
    if pos.status[seat] == OUT:
        return False
    for q in range(pos.n_seats):
        if q != seat and pos.status[q] != FINISHED and pos.status[q] != OUT:
            return False
    return True


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _rollout(cfg, reach, pool, swk, seat, race, wr, stop, valued, f, guided):
    """Play ``pool[1]`` on with greedy (the weights in row ``wr`` of ``cfg.weights``) for
    every sled until the seat's place in race ``race`` is settled, or round ``stop``
    begins; the seat's rank utility in it.

    A sled's place is settled when it finishes (R-05: at the end of the round it crossed
    in, ranked after the earlier rounds' finishers), so the rollout stops there: the
    other sleds' play after it cannot change the result; and as soon as it is the last
    sled in the race (``place_settled``: the next place is its own), which 8% of search:64's
    rollout decisions at 2 sleds came after (1.6% at 4; measured). A rollout cut short at
    round ``stop`` (``search:NhH``) scores the seat's race position there instead (R-04;
    out of the race: last), or with ``valued`` 1 (``search:NhHv``) the fitted value of the
    position for the seat (``value.value``: the board and hand sizes, ``f`` its scratch),
    with ``valued`` 2 (``search:NhHw``) the second value (``value.value2``), with 3
    (``search:NhHx``) the value the seat's policy carries (``value.value3``, row ``wr``).
    Only a rollout without a horizon stops at ``place_settled``: one with a horizon may still
    reach it running. ``guided`` is ``None`` where no seat of the cell has a value or a
    prior (``choose.guided_flag``): numba then compiles none of the values."""
    pos = pool[1]
    n = pos.n_seats
    while pos.flow != FL_DONE and pos.race == race and pos.status[seat] != FINISHED:
        if pos.rnd >= stop and pos.status[seat] == RACING:
            if guided is not None:  # pruned where no seat has a value
                if valued == 3:
                    return value3(cfg, pos, seat, f, wr)
                if valued == 2:
                    return value2(cfg, pos, seat, f)
                if valued == 1:
                    return value(cfg, pos, seat, f)
            return (n - race_position(cfg, pos, seat)) / (n - 1)
        if stop == NO_STOP and place_settled(pos, seat):
            return (n - pos.next_rank) / (n - 1)
        _recall(cfg, reach, pos, swk, wr)
        apply(pos, cfg, swk)
    if pos.flow != FL_DONE and pos.race == race:
        return (n - pos.finish[seat]) / (n - 1)
    return (n - pos.race_fin[seat, race]) / (n - 1)


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _halve(wk, alive, n_alive, tries, prior):
    """Keep the better half of the plays ``alive[:n_alive]`` by mean result plus ``prior``
    (zeros but for ``search:NhHpL``; ties: the greedier play, listed first); returns how
    many are left."""
    for i in range(1, n_alive):  # insertion sort, best mean first
        c = alive[i]
        j = i
        while j > 0 and (
            wk.sums[c] / tries[c] + prior[c]
            > wk.sums[alive[j - 1]] / tries[alive[j - 1]] + prior[alive[j - 1]]
            or (
                wk.sums[c] / tries[c] + prior[c]
                == wk.sums[alive[j - 1]] / tries[alive[j - 1]] + prior[alive[j - 1]]
                and c < alive[j - 1]
            )
        ):
            alive[j] = alive[j - 1]
            j -= 1
        alive[j] = c
    return max(1, (n_alive + 1) // 2)


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _ahead(wk, alive, prior):
    """How far the first of ``alive`` (sorted by ``_halve``) leads the second: mean result
    plus prior."""
    a, b = alive[0], alive[1]
    return wk.sums[a] / wk.tries[a] + prior[a] - (wk.sums[b] / wk.tries[b] + prior[b])


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _by_score(wk, scores):
    """Greedy's candidates ``wk.top[:wk.n_top]`` reordered by ``scores``, best first (ties:
    the greedier), the scores with them."""
    n = wk.n_top
    for i in range(1, n):  # insertion sort of rows
        j = i
        while j > 0 and scores[j] > scores[j - 1]:
            for col in range(PLAY_W):
                t = wk.top[j, col]
                wk.top[j, col] = wk.top[j - 1, col]
                wk.top[j - 1, col] = t
            t2 = scores[j]
            scores[j] = scores[j - 1]
            scores[j - 1] = t2
            j -= 1


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _rounds(m):
    """Rounds of sequential halving from ``m`` plays down to one: ceil(log2 m)."""
    rounds = 0
    k = m - 1
    while k > 0:
        rounds += 1
        k //= 2
    return rounds


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def candidates(budget):
    """How many of greedy's best plays ``search:N`` (N = ``budget``) compares:
    ``candidates_cut`` with a first cut on ``FIRST_CUT`` samples."""
    return candidates_cut(budget, FIRST_CUT)


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def candidates_cut(budget, first):
    """How many plays a search of ``budget`` rollouts compares: the most, up to
    ``CANDIDATES``, whose first cut still rests on ``first`` samples each (its share of the
    budget, ``budget // rounds``, over the plays); with fewer rollouts than that allows for
    two plays, as many plays as rollouts (one or two). A search with the policy as a prior
    (``search:NhHpL``) cuts first on one sample, the prior standing in for the rest: four
    plays for N = 8 (two samples each in ``search:8h2v``)."""
    for m in range(CANDIDATES, 1, -1):
        if budget // _rounds(m) // m >= first:
            return m
    return min(budget, 2)


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _sample(
    cfg, reach, pos, wk, pool, swk, p, alive, n, sample, base, stop, valued, f, rnd, guided
):
    """One fresh sample of what seat ``p`` cannot see, played on for the first ``n`` plays
    of ``alive`` (common random numbers) that have a rollout left in this round (``rnd``,
    ``_settle``'s record of it); their results added to their sums. Returns False once
    the rollouts left cannot change the round's outcome."""
    determinize(pos, p, stream_key(base, STREAM_SEARCH, sample), pool, 0)
    rest = rnd[0]
    for i in range(n):
        c = alive[i]
        if rest[c] == 0:
            continue  # no rollout left this round, or dropped from it
        pool[1] = pool[0]
        for col in range(PLAY_W):
            swk.play[col] = wk.top[c, col]
        apply(pool[1], cfg, swk)
        wk.sums[c] += _rollout(cfg, reach, pool, swk, p, pos.race, p, stop, valued, f, guided)
        wk.tries[c] += 1
        rest[c] -= 1
        if not _settle(wk, alive, n, rnd):
            return False
    return True


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def _settle(wk, alive, n, rnd):
    """Drop from the round each play of ``alive[:n]`` whose rollouts left can no longer
    bring it into the plays the round keeps; returns False once the round keeps one play
    (the search's choice) and every other one is dropped: no rollout left can change it.
    ``rnd``: per play, its rollouts left in the round, 1 once dropped, its prior (the
    rows); the plays the round keeps (``rnd[3, 0]``, ``_halve``).

    Every rollout's result lies in [0, 1] (a rank utility, a race position's, or a
    logistic value), so play ``d`` ends the round with a mean of at least ``sums /
    (tries + rest)``, and ``c`` with at most ``(sums + rest) / (tries + rest)``: ``c`` is
    dropped once as many others as the round keeps are surely above it (priors added; by
    more than ``SETTLE_MARGIN``, far above rounding: never a tie). Its mean so far is at
    most its bound and theirs at least theirs, so ``_halve`` still ranks it below them:
    the plays kept, their order and their sums (every rollout of theirs played) are the
    full round's, and so is the choice. The samples come from keys, not from a stream,
    so a rollout not played changes no other one."""
    rest = rnd[0]
    out = rnd[1]
    prior = rnd[2]
    keep = rnd[3, 0]
    for i in range(n):
        c = alive[i]
        if out[c] != 0 or wk.tries[c] == 0:
            continue  # dropped, or no mean yet (``_halve`` divides by its tries)
        hi = (wk.sums[c] + rest[c]) / (wk.tries[c] + rest[c]) + prior[c]
        above = 0
        for j in range(n):
            d = alive[j]
            if d != c and wk.sums[d] / (wk.tries[d] + rest[d]) + prior[d] > hi + SETTLE_MARGIN:
                above += 1
        if above >= keep:
            out[c] = 1
            rest[c] = 0
    if keep > 1:
        return True
    left = 0
    for i in range(n):
        if out[alive[i]] == 0:
            left += 1
    return left > 1


@njit(no_cpython_wrapper=True, no_cfunc_wrapper=True)
def search_play(cfg, reach, pos, wk, pool, swk, guided):
    """The card play of seat ``pos.to_move`` by ``search:N`` (N = ``cfg.rollouts``, its other
    options the seat's other ``records.BotSettings`` fields): writes ``wk.play``. ``pool``
    holds two positions and ``swk`` a work record for the rollouts.

    Exactly N rollouts whenever it has two plays or more to compare (``candidates``):
    each round of sequential halving spends the budget left over the rounds left, in
    whole samples of every play still in contention, and hands what does not divide on to
    the next round; the last round spends the rest, its last sample on the plays ranked
    first only. So ``search:64`` spends 16, 24 and 24 rollouts on 8, 4 and 2 plays (2, 6
    and 12 samples each), and ``search:16`` 8 and 8 on 4 and 2 (2 and 4 each).

    A rollout whose result cannot change which plays a round keeps is not played
    (``_settle``): a play surely out of the round's half plays no more of its samples,
    and the last round stops once its winner is sure. Same choices, same races, fewer
    rollouts (search:64, 4 sleds on The Nutcracker: 5% fewer, 1.04x the races per
    CPU-second; measured).

    ``guided`` is ``True``, or ``None`` where no seat of the cell has a prior or a value
    (``choose.guided_flag``): numba then compiles neither the policy nor the values, which a
    model-free search:N never plays."""
    p = pos.to_move
    budget = cfg.rollouts[p]
    horizon = cfg.horizon[p]
    valued = cfg.value[p]  # 1: search:NhHv, 2: search:NhHw, 3: search:NhHx (its policy's)
    f = np.zeros(max(N_FEATURES, N_FEATURES2, N_FEATURES3))
    stop = pos.rnd + horizon if horizon > 0 else NO_STOP
    lam = cfg.prior[p] / 100.0
    lead = cfg.stop[p] / 100.0  # search:NhHpLsS, else 0
    scores = np.zeros(K)
    # Its place settled (every other sled finished or out, ``place_settled``): no play can change
    # its result, so it plays greedy's best, as search:N finds there (every rollout the
    # same place: a tie, the greedier kept). A search with a horizon scores its cut
    # rollouts by the value and the policy instead, and on a place already settled they
    # could hold its sled still to the round limit (issue 34: 127 and 200 rounds, where
    # the race had taken 20; the head to head is the same, the race's length is not).
    settled = place_settled(pos, p)
    # search:NhHpL: the distilled policy's best of greedy's best K (pruned unless guided)
    if guided is not None and lam > 0.0 and not settled:
        top_plays(cfg, reach, pos, wk, p, p, np.int64(K))
        swk.tracing = 0
        swk.heat_on = 0
        policy_scores(cfg, pos, wk, p, pool, 1, swk, p, scores)
        _by_score(wk, scores)
        want = cfg.candidates[p]  # search:NhHpLcM, else the rule
        wk.n_top = min(wk.n_top, candidates_cut(budget, ONE) if want == 0 else min(want, budget))
        gate = cfg.gate[p] / 100.0  # search:NhHpLgG, else 0
        if gate > 0.0 and wk.n_top > 1 and lam * (scores[0] - scores[1]) >= gate:
            wk.n_top = 1  # the policy's best leads the next by G/100 or more: played unsearched
    else:
        top_plays(cfg, reach, pos, wk, p, p, np.int64(candidates(budget)))
    m = wk.n_top
    base = next_u64(pos.rng, bot_stream(p))  # drawn even with one candidate: same stream use
    best = 0
    if m > 1 and not settled:
        swk.tracing = 0
        swk.heat_on = 0
        swk.halt = 0
        _forget(swk, cfg.n_spaces, _recall_size(budget, horizon, pos.n_seats))
        rnd = np.zeros((4, m))  # _settle's record of a round; its third row the priors
        prior = rnd[2]
        if lam > 0.0:  # each play's policy score below the best's, L/100 a logit
            for c in range(m):
                prior[c] = lam * (scores[c] - scores[0])
        alive = wk.alive
        for c in range(m):
            alive[c] = c
            wk.tries[c] = 0
            wk.sums[c] = 0.0
        n_alive = m
        rounds = _rounds(m)
        left = budget
        sample = ZERO  # not a literal 0, which compiled _sample a second time
        while n_alive > 1:
            share = left // rounds if rounds > 1 else left
            each = share // n_alive
            if each == 0 and n_alive == m:  # a first cut on one sample (search:NhHpLcM)
                each = 1
            left -= each * n_alive
            extra = left if rounds == 1 and left > 0 else 0  # the last round's remainder
            for i in range(n_alive):  # ... one more sample for the leaders only
                rnd[0, alive[i]] = each + (1 if i < extra else 0)
                rnd[1, alive[i]] = 0
            rnd[3, 0] = max(1, (n_alive + 1) // 2)
            for _ in range(each + (1 if extra > 0 else 0)):
                going = _sample(
                    cfg,
                    reach,
                    pos,
                    wk,
                    pool,
                    swk,
                    p,
                    alive,
                    n_alive,
                    sample,
                    base,
                    stop,
                    valued,
                    f,
                    rnd,
                    guided,
                )
                sample += 1
                if not going:
                    break
            if extra > 0:
                left = 0
            n_alive = _halve(wk, alive, n_alive, wk.tries, prior)
            rounds -= 1
            if lead > 0.0 and n_alive > 1 and _ahead(wk, alive, prior) >= lead:
                break  # the leader is S/100 ahead of the next: the rest of the budget is saved
        best = alive[0]
    for col in range(PLAY_W):
        wk.play[col] = wk.top[best, col]
