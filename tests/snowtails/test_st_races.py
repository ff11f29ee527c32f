"""Whole races: invariants that must hold in every position (hypothesis), and rules that
only show over a race (start hands R-11, slots R-06, reshuffle R-07, ranks R-05, R-20)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from simkit.games.snowtails.params import SnowTailsParams
from simkit.games.snowtails.records import (
    C_NONE,
    EV_BONUS,
    EV_COLLIDE,
    EV_FINISH,
    EV_MOVE,
    EV_PLAY,
    EV_START,
    EV_TURN,
    FINISHED,
    MV_BONUS,
    MV_DRIFT,
    OUT,
    RACING,
    S_BLOCKED,
    S_LEFT,
    S_NEXT,
    S_RIGHT,
    kernel_track,
)
from simkit.tracks import load
from tests.snowtails.st_helpers import run_one
from tests.snowtails.st_trackkit import build, oval

TRACKS = {
    "oval": oval(),
    "nutcracker": load("nutcracker"),
    "closed": build(
        [
            ("straight", 8),
            ("corner", "L", 90, 1, 4),
            ("straight", 10),
            ("corner", "R", 90, 1, 3),
            ("straight", 12),
        ],
        closed=[(1, 10), (1, 11), (0, 22), (2, 30)],  # no trap: always a way past
        name="closed",
    ),
}
BOTS = ["random", "greedy", "greedy:bold", "greedy:cautious"]


@st.composite
def race_case(draw):
    name = draw(st.sampled_from(sorted(TRACKS)))
    n = draw(st.integers(2, 5))
    bots = tuple(draw(st.sampled_from(BOTS)) for _ in range(n))
    key = draw(st.integers(0, 2**64 - 1))
    rounds = draw(st.sampled_from([10, 13, 17, 200]))
    lift = draw(st.booleans())
    return name, bots, key, rounds, lift


@given(race_case())
def test_invariants_hold_at_any_round(case):
    name, bots, key, rounds, lift = case
    track = TRACKS[name]
    tab = kernel_track(track)[0]
    v = SnowTailsParams(max_rounds=rounds, lift_finished=lift)
    r = run_one(track, v, bots, key=key)
    n = len(bots)
    # Finish positions are a permutation.
    assert sorted(r.res["finish"][:n]) == list(range(1, n + 1))
    if rounds == 200 and lift:
        # Every race ends on its own (finished sleds left on a short run-off may block it
        # for good, which is why lift_finished is the default).
        assert r.res["timed_out"] == 0
    spaces = []
    for p in range(n):
        status = r.pos["status"][p]
        if status == OUT:
            continue
        # Cards are conserved: deck + hand + the cards on the dogs + used cards = 20.
        total = r.pos["deckn"][p] + r.pos["hand"][p].sum() + r.pos["lcard"][p] + r.pos["rcard"][p]
        assert total + r.pos["disc"][p].sum() == sum(v.deck)
        assert 0 <= r.pos["dents"][p] <= v.dent_limit
        s = r.pos["space"][p]
        assert s >= 0 and not tab[s, S_BLOCKED]
        if status == RACING or not lift:
            spaces.append(s)
            assert r.occ[s] == 1  # sleds on the space (one each once on the board)
    assert len(spaces) == len(set(spaces))  # never two sleds on one space
    assert (r.occ > 0).sum() == len(spaces)
    check_moves(tab, r.events)


def check_moves(tab, events):
    """Every turn moves exactly its speed (plus a taken bonus) unless it collided, straight
    moves follow the lane, drifts go toward the stronger dog (R-01, ST1 "Moves")."""
    play = moves = bonus = coll = None

    def close():
        if play is None:
            return
        expected = play[7] + (bonus if bonus else 0)
        if coll:
            assert moves < expected
        else:
            assert moves == expected

    for row in events:
        kind = row[0]
        if kind == EV_TURN:
            close()
            play, moves, bonus, coll = None, 0, 0, False
        elif kind == EV_PLAY:
            play = row
        elif kind == EV_MOVE:
            moves += 1
            frm, to, how = row[2], row[3], row[4]
            if how == MV_DRIFT:
                col = S_RIGHT if play[8] > 0 else S_LEFT
                assert play[8] != 0 and tab[frm, col] == to
            else:
                assert tab[frm, S_NEXT] == to
                assert how != MV_BONUS or play[4] == play[5]  # bonus only when balanced
        elif kind == EV_BONUS:
            bonus = row[2] if row[3] else 0
        elif kind == EV_COLLIDE:
            coll = row[2] != C_NONE
    close()


def test_start_hands_by_slot():
    # 5 cards, slot 4 one extra, slot 5 two extra, whatever the number of players.
    r = run_one(TRACKS["oval"], bots=("greedy",) * 5, key=3)
    dealt = {int(e[2]): int(e[4]) for e in r.events if e[0] == EV_START}
    assert dealt == {1: 5, 2: 5, 3: 5, 4: 6, 5: 7}
    r = run_one(TRACKS["oval"], bots=("greedy",) * 2, slots=(4, 5), key=3)
    dealt = {int(e[2]): int(e[4]) for e in r.events if e[0] == EV_START}
    assert dealt == {4: 6, 5: 7}
    v = SnowTailsParams(extra_cards=(2, 0, 0, 0, 0))
    r = run_one(TRACKS["oval"], v, bots=("greedy",) * 2, key=3)
    dealt = {int(e[2]): int(e[4]) for e in r.events if e[0] == EV_START}
    assert dealt == {1: 7, 2: 5}


def test_slots_are_a_random_permutation_per_race():
    # each seat meets every slot; a scenario's slot set is respected.
    seen = {
        (p, s)
        for key in range(40)
        for p, s in enumerate(run_one(TRACKS["oval"], key=key).res["slot"][:4])
    }
    assert seen == {(p, s) for p in range(4) for s in range(1, 5)}
    r = run_one(TRACKS["oval"], bots=("random",) * 3, slots=(1, 3, 5), key=9)
    assert sorted(r.res["slot"][:3]) == [1, 3, 5]


def test_ranks_and_points():
    # earlier rounds first, then race order; eliminated last, last out best. R-20.
    for key in range(30):
        r = run_one(
            TRACKS["nutcracker"], bots=("greedy:bold", "random", "greedy", "random"), key=key
        )
        fin = [(int(e[3]), int(e[2])) for e in r.events if e[0] == EV_FINISH]
        assert [pos for _, pos in sorted(fin)] == sorted(pos for _, pos in fin)
        for p in range(4):
            status, finish = r.res["status"][p], r.res["finish"][p]
            expected = (5, 3, 2, 1)[finish - 1] if status == FINISHED else 0
            assert r.res["points"][p] == expected
        outs = [p for p in range(4) if r.res["status"][p] == OUT]
        n_fin = 4 - len(outs)
        order = sorted(outs, key=lambda p: -r.pos["out_seq"][p])  # last out first
        assert [r.res["finish"][p] for p in order] == list(range(n_fin + 1, 5))


@pytest.mark.parametrize("key", range(5))
def test_reshuffle_keeps_dog_cards(key):
    # a long race (no bonus, low speeds) empties decks; the reshuffled deck holds the
    # used cards only, never the two on the dogs (conservation checked at the end).
    v = SnowTailsParams(deck=(0, 4, 4, 4, 0, 0), max_rounds=60)
    r = run_one(TRACKS["nutcracker"], v, bots=("greedy",) * 3, key=key)
    assert any(e[0] == 16 for e in r.events)  # EV_RESHUFFLE happened
    for p in range(3):
        if r.pos["status"][p] != OUT:
            total = r.pos["deckn"][p] + r.pos["hand"][p].sum() + r.pos["disc"][p].sum()
            assert total + r.pos["lcard"][p] + r.pos["rcard"][p] == 12


def _turn_with_no_canine(dents):
    """Seat 0 starts its turn holding only dents (R-19), on the oval, alone; its turn is
    played through the position API. Returns (turn code, position, events)."""
    from simkit.games.snowtails.kernels import advance, step
    from tests.snowtails.st_helpers import hand_position

    track = TRACKS["oval"]
    cfga, reach, positions, works = hand_position(track, SnowTailsParams(), 1)
    pos = positions[0]
    pos["space"][0] = cfga["grid"][0, 0, 0]
    pos["left"][0] = pos["right"][0] = pos["brake"][0] = 3
    pos["dents"][0] = dents
    pos["deck"][0, :20] = np.repeat(np.arange(1, 6), 4)
    pos["deckn"][0] = 20
    pos["round_n"] = 1
    works["halt"] = 1
    advance(cfga, positions, works)
    while positions["turns_done"][0] == 0:
        step(positions, cfga, reach, works)
    return int(pos["t_code"]), pos, works["log"][0, : int(works["nlog"][0])]


def test_no_canine_card_takes_a_dent_draws_and_plays():
    # ST1 "Special Rule" / R-19: take a dent, draw up to 5 (dents count), play normally.
    out, pos, events = _turn_with_no_canine(dents=2)
    assert out == 0 and pos["dents"][0] == 3
    kinds = [int(e[0]) for e in events]
    assert 5 in kinds and EV_PLAY in kinds  # EV_NO_CANINE, then a play
    assert kinds.index(5) < kinds.index(EV_PLAY)
    assert pos["hand"][0].sum() + pos["dents"][0] == 5  # refilled after the turn


def test_no_canine_card_fifth_dent_is_out():
    # "this can be a 5th" dent: the sled is out before playing.
    out, pos, events = _turn_with_no_canine(dents=4)
    assert out == 1 and pos["status"][0] == OUT
    assert EV_PLAY not in [int(e[0]) for e in events]
