"""The position API (docs/positions.md): every bot play is a legal play, ``new`` defines
every field, ``observe`` hides what a seat cannot see, ``determinize`` samples only that,
and no bot's choice depends on it."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from simkit.games.snowtails.batch import cell_inputs
from simkit.games.snowtails.kernels import (
    apply,
    choose,
    determinize,
    legal_plays,
    new,
    observe,
)
from simkit.games.snowtails.params import PRESETS
from simkit.games.snowtails.records import (
    FL_DONE,
    MAX_SEATS,
    N_VALUES,
    PH_CHAPEL,
    PH_PLAY,
    PL_VALUE,
    PLAY_W,
    POSITION,
    SEAT_FIELDS,
    WORK,
)
from simkit.rng import race_keys
from simkit.tracks import load

CASES = {
    "snowtails": (load("nutcracker"), PRESETS["snowtails"]),
    "mushmush": (load("mm5-what-goes-up"), PRESETS["mushmush"]),  # trees, all buildings
}
BOTS = ("greedy", "random", "greedy:bold", "random")
# Seat fields every seat sees of every sled (the board, dogs, dents, dice, counters).
PUBLIC = [f for f in SEAT_FIELDS if f not in ("unseen",)]


def setup(game, bots=BOTS):
    track, variant = CASES[game]
    cfga, reach = cell_inputs(track, variant, bots, tuple(range(1, len(bots) + 1)))
    return cfga, reach, np.zeros(2, dtype=POSITION), np.zeros(1, dtype=WORK)


def decisions(game, key, bots=BOTS):
    """Every decision of one race: yields (cell, reach, position array, work array) paused
    at it (the same arrays each time: copy what you keep)."""
    cfga, reach, positions, works = setup(game, bots)
    new(positions[:1], cfga, works, np.uint64(key))
    while positions[0]["flow"] != FL_DONE:
        yield cfga, reach, positions, works
        choose(positions[:1], cfga, reach, works)
        apply(positions[:1], cfga, works)


def paused_at(game, key, i):
    """A copy of the position at decision ``i`` of race ``key`` (or its last decision),
    as a one-element array."""
    last = None
    for j, (_, _, positions, _) in enumerate(decisions(game, key)):
        last = positions[:1].copy()
        if j == i:
            break
    return last


def after(cfga, positions, play):
    """The position after ``play`` to the end of its turn (a copy)."""
    out = positions[:1].copy()
    works = np.zeros(1, dtype=WORK)
    works["halt"] = 1
    works["play"][0] = play
    apply(out, cfga, works)
    return out[0]


def same(a, b) -> bool:
    return all(np.array_equal(a[f], b[f]) for f in POSITION.names)


@pytest.mark.parametrize("game", sorted(CASES))
def test_every_bot_play_is_one_of_the_legal_plays(game):
    rows = np.zeros((8192, PLAY_W), dtype=np.int64)
    checked = 0
    for cfga, reach, positions, works in decisions(game, int(race_keys(3, 0, [0])[0])):
        probe = np.zeros(1, dtype=WORK)
        n = legal_plays(positions[:1], cfga, probe, rows)
        assert 0 < n < rows.shape[0]
        if positions[0]["phase"] != PH_PLAY or checked > 40:
            continue
        bot = positions[:1].copy()
        choose(bot, cfga, reach, works)
        mine = after(cfga, positions, works["play"][0])
        assert any(same(mine, after(cfga, positions, rows[i])) for i in range(n))
        checked += 1
    assert checked > 20


@pytest.mark.parametrize("game", sorted(CASES))
def test_new_defines_every_field(game):
    cfga, _, positions, works = setup(game)
    key = race_keys(4, 0, [1])[0]
    positions.view(np.uint8)[:] = 0x5A  # garbage everywhere
    new(positions[:1], cfga, works, key)
    new(positions[1:], cfga, works, key)  # from zeros
    assert same(positions[0], positions[1])


@given(st.sampled_from(sorted(CASES)), st.integers(0, 2**32), st.integers(0, 60))
def test_determinize_changes_only_what_the_seat_cannot_see(game, seed, skip):
    paused = paused_at(game, seed, skip)
    pos = paused[0]
    seat = int(pos["to_move"])
    if seat < 0:
        return
    samples = np.zeros(2, dtype=POSITION)
    determinize(paused, seat, np.uint64(seed + 1), samples, 0)
    d = samples[0]
    for f in PUBLIC:
        assert np.array_equal(d[f], pos[f]), f
    for f in ("disc", "trees", "race_fin", "race_pts", "turn_order"):
        assert np.array_equal(d[f], pos[f]), f
    own = 1 + MAX_SEATS + seat
    assert d["rng"][own] == pos["rng"][own]  # its own bot stream is not hidden from it
    assert np.array_equal(d["hand"][seat], pos["hand"][seat])
    for q in range(int(pos["n_seats"])):
        n = int(pos["deckn"][q])
        # Each sled's hand and deck together hold the same cards; hands keep their size.
        pool = np.bincount(pos["deck"][q, :n], minlength=N_VALUES) + pos["hand"][q]
        got = np.bincount(d["deck"][q, :n], minlength=N_VALUES) + d["hand"][q]
        assert np.array_equal(pool, got)
        assert d["hand"][q].sum() == pos["hand"][q].sum()


def test_determinize_samples_hidden_cards():
    # Mid-race, other hands and deck orders differ between two keys.
    paused = paused_at("snowtails", 17, 30)
    pos = paused[0]
    seat = int(pos["to_move"])
    a, b = np.zeros(1, dtype=POSITION), np.zeros(1, dtype=POSITION)
    determinize(paused, seat, np.uint64(1), a, 0)
    determinize(paused, seat, np.uint64(2), b, 0)
    others = [q for q in range(int(pos["n_seats"])) if q != seat]
    assert any(not np.array_equal(a[0]["hand"][q], b[0]["hand"][q]) for q in others)
    assert not np.array_equal(a[0]["rng"], pos["rng"])


def test_determinize_depends_only_on_what_the_seat_sees():
    # Two positions the seat cannot tell apart give the same sample for the same key.
    paused = paused_at("mushmush", 11, 40)
    seat = int(paused[0]["to_move"])
    other = np.zeros(1, dtype=POSITION)
    determinize(paused, seat, np.uint64(3), other, 0)  # another deal of the unseen
    a, b = np.zeros(1, dtype=POSITION), np.zeros(1, dtype=POSITION)
    determinize(paused, seat, np.uint64(9), a, 0)
    determinize(other, seat, np.uint64(9), b, 0)
    assert same(a[0], b[0])


@pytest.mark.parametrize("game", sorted(CASES))
def test_search_choices_do_not_depend_on_hidden_cards(game):
    # The search samples what it cannot see itself: the real deal never shows through.
    bots = ("search:6", "greedy", "search:6", "greedy")
    checked = 0
    for cfga, reach, positions, works in decisions(game, 5, bots):
        seat = int(positions[0]["to_move"])
        if positions[0]["phase"] != PH_PLAY or bots[seat] == "greedy" or checked >= 6:
            continue
        ref = positions[:1].copy()
        choose(ref, cfga, reach, works)
        want = works["play"][0].copy()
        other = np.zeros(1, dtype=POSITION)
        determinize(positions[:1], seat, np.uint64(checked + 1), other, 0)
        choose(other, cfga, reach, works)
        assert np.array_equal(works["play"][0], want)
        checked += 1
    assert checked == 6


@pytest.mark.parametrize("game", sorted(CASES))
def test_greedy_choices_do_not_depend_on_hidden_cards(game):
    # Bots see only what a player sees: the same choice from every sample of the unseen.
    bots = ("greedy", "greedy:bold", "greedy:cautious", "greedy")
    checked = 0
    for cfga, reach, positions, works in decisions(game, 99, bots):
        seat = int(positions[0]["to_move"])
        ref = positions[:1].copy()
        choose(ref, cfga, reach, works)
        want = works["play"][0].copy()
        for k in range(2):
            other = np.zeros(1, dtype=POSITION)
            determinize(positions[:1], seat, np.uint64(k + 5), other, 0)
            choose(other, cfga, reach, works)
            assert np.array_equal(works["play"][0], want)
        checked += 1
    assert checked > 30


def test_observe_hides_other_hands_and_every_deck_order():
    paused = paused_at("mushmush", 7, 25)
    pos = paused[0]
    seat = int(pos["to_move"])
    obs = np.zeros(1, dtype=POSITION)
    observe(paused, seat, obs, 0)
    o = obs[0]
    for q in range(int(pos["n_seats"])):
        n = int(pos["deckn"][q])
        if q == seat:
            assert np.array_equal(o["hand"][q], pos["hand"][q])
            assert np.array_equal(o["deck"][q, :n], np.sort(pos["deck"][q, :n]))
        else:
            assert o["hand"][q].sum() == 0 and o["unseen"][q] == pos["hand"][q].sum()
            assert not o["deck"][q].any()
        for f in PUBLIC:
            if f != "unseen":
                assert np.array_equal(o[f][q], pos[f][q]), f
    own = 1 + MAX_SEATS + seat  # the seat's own bot stream stays: it is its own mind
    assert o["rng"][own] == pos["rng"][own]
    assert not np.delete(o["rng"], own).any()


def test_search_races_are_pure_functions_of_their_keys():
    # Any thread count, and the trace of a race, give the batch's results.
    from simkit.games.snowtails.batch import run_batch
    from simkit.games.snowtails.trace import trace_race

    track, variant = CASES["mushmush"]
    bots = ("search:4", "greedy", "random", "search:4")
    keys = race_keys(6, 0, np.arange(6))
    one = run_batch(track, variant, bots, (1, 2, 3, 4), keys, threads=1)
    two = run_batch(track, variant, bots, (1, 2, 3, 4), keys, threads=2)
    for name, col in one.seats.items():
        assert np.array_equal(col, two.seats[name]), name
    tr = trace_race(track, variant, bots, (1, 2, 3, 4), int(keys[2]))
    for name in one.seats:
        assert np.array_equal(tr.result.seats[name][0], one.seats[name][2]), name


def test_the_chapel_is_a_choice():
    # R-27 / ST2 F "Chapel": a player "may discard all dent cards": a play, yes or no.
    rows = np.zeros((64, PLAY_W), dtype=np.int64)
    bots = ("random",) * 4
    for key in range(40):
        for cfga, _, positions, _ in decisions("mushmush", key, bots):
            if positions[0]["phase"] != PH_CHAPEL:
                continue
            seat = int(positions[0]["to_move"])
            probe = np.zeros(1, dtype=WORK)
            n = legal_plays(positions[:1], cfga, probe, rows)
            assert sorted(rows[:n, PL_VALUE]) == [0, 1]
            dents = int(positions[0]["dents"][seat])
            assert dents > 0
            no = after(cfga, positions, rows[list(rows[:n, PL_VALUE]).index(0)])
            yes = after(cfga, positions, rows[list(rows[:n, PL_VALUE]).index(1)])
            assert no["dents"][seat] >= dents and yes["dents"][seat] == 0
            return
    raise AssertionError("no sled stopped at the chapel with dents in 40 races")


def test_kept_positions_of_an_older_layout_read_with_the_new_field_zero():
    """distil_fit and value_fit keep positions as raw bytes; a file written before the seat
    field ``still`` (5 December) reads as today's positions with it 0 and every other field
    as written, and bytes of no layout are refused."""
    from simkit.games.snowtails.records import SEAT_FIELDS, _position_layout, kept_positions

    old = _position_layout(tuple(f for f in SEAT_FIELDS if f != "still"))
    rows = np.zeros(3, dtype=old)
    rng = np.random.default_rng(5)
    for name in old.names:
        rows[name] = rng.integers(0, 100, size=rows[name].shape)
    raw = rows.view(np.uint8).reshape(3, -1)
    kept = kept_positions(raw)
    assert kept.dtype == POSITION and len(kept) == 3
    assert (kept["still"] == 0).all()
    for name in old.names:
        assert np.array_equal(kept[name], rows[name]), name
    today = np.zeros(2, dtype=POSITION)
    today["still"] = 4
    assert np.array_equal(kept_positions(today.view(np.uint8).reshape(2, -1)), today)
    with pytest.raises(ValueError, match="not a Snow Tails position"):
        kept_positions(raw[:, :-8])
