"""The bots do what their names say: ``search:N`` spends N rollouts a decision with a
first cut on more than one sample each, and greedy (so every rollout) crosses the finish
line rather than stop short of it to save dents that cost nothing there (R-18, R-26)."""

from __future__ import annotations

import numpy as np
import pytest

from simkit.errors import SimkitError
from simkit.games.snowtails.batch import cell_inputs
from simkit.games.snowtails.bots import BOT_SEARCH, parse_bot
from simkit.games.snowtails.kernels import apply, choose, new
from simkit.games.snowtails.moves import moves, parse_state
from simkit.games.snowtails.params import PRESETS
from simkit.games.snowtails.records import (
    FINISHED,
    FL_DONE,
    OUT,
    PH_PLAY,
    POSITION,
    WORK,
    BotSettings,
)
from simkit.tracks import load
from simkit.tracks.compiled import F_PAST_FINISH
from tests.snowtails.st_helpers import sled, state, turns_at_one_and_two_threads
from tests.snowtails.st_trackkit import build, space


def search_decisions(bots, key, game="snowtails", track="hairpins", limit=12):
    """(seat, budget, tries of the candidates) at the first ``limit`` card plays of the
    search seats in race ``key``."""
    variant = PRESETS[game]
    cfga, reach = cell_inputs(load(track), variant, bots, tuple(range(1, len(bots) + 1)))
    positions = np.zeros(1, dtype=POSITION)
    works = np.zeros(1, dtype=WORK)
    new(positions, cfga, works, np.uint64(key))
    seen = []
    while positions[0]["flow"] != FL_DONE and len(seen) < limit:
        seat = int(positions[0]["to_move"])
        choose(positions, cfga, reach, works)
        if positions[0]["phase"] == PH_PLAY and bots[seat].startswith("search"):
            m = int(works["n_top"][0])
            budget = int(cfga["rollouts"][0, seat])
            seen.append((seat, budget, works["tries"][0, :m].copy()))
        apply(positions, cfga, works)
    return seen


def refused_with_a_working_example(bad_names):
    """Each name (a prior search, ``@policy:distilled`` added) is refused, and the example
    its error message gives parses."""
    for bad in bad_names:
        with pytest.raises(SimkitError) as err:
            parse_bot(bad + "@policy:distilled")
        example = str(err.value).rsplit("(", 1)[1].rstrip(")")  # the message's own example
        assert parse_bot(example).kind == BOT_SEARCH


def same_searches(bot, other):
    """``bot`` and ``other``, each against greedy in race 11, spend their rollouts alike,
    decision for decision; returns ``other``'s decisions."""
    a = search_decisions((bot, "greedy"), 11, limit=30)
    b = search_decisions((other, "greedy"), 11, limit=30)
    assert len(a) == len(b)
    for (_, _, x), (_, _, y) in zip(a, b, strict=True):
        assert np.array_equal(x, y)
    return b


@pytest.mark.parametrize(("game", "track"), [("snowtails", "hairpins"), ("mushmush", None)])
def test_search_spends_its_budget_unless_its_choice_is_settled(game, track):
    # search:64 ran 56 rollouts (64 // 24 * 8 + 64 // 12 * 4 + 64 // 6 * 2), search:16 cut
    # 8 plays down to 4 on one rollout each. Now each spends exactly N rollouts but where
    # the rollouts left could not change the choice (search._settle): fewer, never more,
    # and the first cut still rests on two samples each.
    track = track or "mm5-what-goes-up"
    bots = ("search:64", "search:16", "search:7", "search:3h2")
    seen = search_decisions(bots, 11, game, track, limit=24)
    assert {b for _, b, _ in seen} == {64, 16, 7, 3}
    spent = {b: [] for b in (64, 16, 7, 3)}
    for _, budget, tries in seen:
        if tries.size > 1:
            assert tries.sum() <= budget
            spent[budget].append(bool(tries.sum() == budget))
            if budget >= 16 and tries.sum() == budget:
                assert tries.min() >= 2  # the first cut rests on two samples or more
    sizes = {b: max(t.size for _, bb, t in seen if bb == b) for b in (64, 16)}
    assert sizes == {64: 8, 16: 4}
    # Settled choices are common at 64 (here 2 of 6 and 0 of 6 decisions spent it all).
    assert not all(spent[64]) and any(spent[16] + spent[7] + spent[3])


def _greedy_end(st, track, bot):
    """The space greedy's play from ``st`` ends on (carried out by the engine)."""
    return int(_greedy_played(st, track, bot)["space"][0])


def _greedy_played(st, track, bot, still=0):
    """The position after greedy's play from ``st`` (its sled's ``still`` count set first),
    carried out by the engine."""
    pos = parse_state(st, track)
    n = pos.n_seats
    slots = tuple(range(1, n + 1))
    cfga, reach = cell_inputs([track] * pos.variant.races, pos.variant, (bot,) * n, slots)
    positions = pos.positions.copy()
    positions[0]["still"][0] = still
    works = np.zeros(1, dtype=WORK)
    choose(positions, cfga, reach, works)
    play = works["play"][0].copy()
    works = np.zeros(1, dtype=WORK)
    works["halt"] = 1
    works["play"][0] = play
    apply(positions, cfga, works)
    return positions[0]


@pytest.mark.parametrize("rules", [{}, {"dents_past_finish": False}])
@pytest.mark.parametrize("bot", ["greedy", "greedy:tuned", "greedy:cautious"])
@pytest.mark.parametrize("dents", [0, 1, 2])
def test_greedy_crosses_the_finish_line_rather_than_save_dents(rules, bot, dents):
    # The finish line (progress 8) lies just into a corner of safety speed 3. From
    # progress 4 a play of speed 5 crosses it with two overspeed dents; greedy used to
    # charge them and stop short of the line on a slower play (R-18: dents taken past the
    # line cannot cost the finish; R-26: none are taken).
    t = build([("straight", 6), ("corner", "L", 90, 4, 3), ("straight", 8)], width=3, finish=8.0)
    st = state([sled(space(t, 1, 3), (2, 2), 0, [2, 3, 1, 1, 1], dents=dents)], **rules)
    res = moves(st, t)
    assert any(all(o["past_finish"] for o in p["outcomes"]) for p in res.plays)
    end = _greedy_end(st, t, bot)
    assert t.flags[end] & F_PAST_FINISH


@pytest.mark.parametrize("bot", ["greedy", "greedy:tuned"])
def test_greedy_takes_the_dent_it_cannot_avoid_rather_than_wait_for_ever(bot):
    # Drift Away reversed, space 34 (ST2 G: a tight corner raced the wrong way): every
    # straight move and every drift to the left hits the side of the track, every drift to
    # the right the tree on 35, the only way on. Greedy's one-turn score prefers standing
    # still, and did so until the engine guard (a race of 200 rounds; 1.1% of greedy:tuned's
    # 4-sled races there). After STILL_TURNS plays in a row that left it where it was it
    # takes the dent and moves.
    from simkit.games.snowtails.score import STILL_TURNS

    track = load("mm4-drift-away-reversed")
    st = state([sled(34, (1, 2), 5, [3, 4, 4, 5], dents=1)], rnd=100)
    st["track"] = "mm4-drift-away-reversed"
    ends = {}
    for still in (0, STILL_TURNS - 1, STILL_TURNS):
        after = _greedy_played(st, track, bot, still)
        ends[still] = int(after["space"][0])
        assert after["still"][0] == (still + 1 if ends[still] == 34 else 0)
    assert ends[0] == ends[STILL_TURNS - 1] == 34
    assert ends[STILL_TURNS] != 34


def test_search_names_parse_to_budget_and_horizon():
    tuned = parse_bot("greedy:tuned").weights
    assert parse_bot("search:64") == BotSettings(BOT_SEARCH, tuned, rollouts=64)
    assert parse_bot("search") == parse_bot("search:64")
    assert parse_bot("search:16h3") == BotSettings(BOT_SEARCH, tuned, rollouts=16, horizon=3)
    assert parse_bot("search:16h3@greedy:bold").weights == parse_bot("greedy:bold").weights
    for bad in ("search:16h", "search:16h0", "search:h3", "search:0h2", "search:16h100"):
        with pytest.raises(SimkitError, match="rollouts per decision"):
            parse_bot(bad)


def test_a_horizon_cuts_rollouts_short_and_keeps_races_pure():
    # search:8h1 scores each rollout by race position at the next round: cheaper
    # than search:8, and a race is still a pure function of its key.
    out = {
        bots[0]: turns_at_one_and_two_threads(bots, seed=3)
        for bots in (("search:8h1", "greedy"), ("search:8", "greedy"))
    }
    assert not np.array_equal(out["search:8h1"], out["search:8"])  # the horizon plays


def test_a_cell_without_search_plays_the_same_without_the_search_compiled(monkeypatch):
    """A cell with no search or policy seat runs the kernels' specialisation without the
    search (``choose.search_flag`` is None, numba prunes the branch: a cold compile of
    greedy cells skips it); forced into the searching one, its races are the same."""
    from simkit.games.snowtails import batch, choose

    # no earlier run's search:
    monkeypatch.setattr(choose, "_EXPECTED", {"search": False, "guided": False})
    variant = PRESETS["snowtails"]
    keys = np.arange(40, dtype=np.uint64) * np.uint64(7919)
    for bots, flag in ((("greedy", "random", "greedy"), None), (("search:4", "greedy"), True)):
        cfga, _ = cell_inputs(load("hairpins"), variant, bots, tuple(range(1, len(bots) + 1)))
        assert batch.search_flag(cfga) is flag
    bots = ("greedy", "random", "greedy")
    pruned = batch.run_batch(load("hairpins"), variant, bots, (1, 2, 3), keys, threads=1)
    monkeypatch.setattr(batch, "search_flag", lambda cfga: True)
    full = batch.run_batch(load("hairpins"), variant, bots, (1, 2, 3), keys, threads=1)
    if hasattr(batch._block, "signatures"):  # both specialisations ran (none with JIT off)
        assert {str(sig[-2]) for sig in batch._block.signatures} >= {"none", "bool"}
    for name, col in pruned.seats.items():
        assert np.array_equal(col, full.seats[name]), name
    for name, col in pruned.races.items():
        assert np.array_equal(col, full.races[name]), name


@pytest.mark.parametrize("game", ["snowtails", "mushmush"])
def test_a_run_that_will_search_compiles_the_searching_kernels_for_every_cell(monkeypatch, game):
    """``Game.expect`` with a search or policy bot among a run's bots puts every later
    cell, greedy ones too, on the searching specialisation (one compile for the run);
    greedy bots alone leave greedy cells on theirs."""
    from simkit.games import get
    from simkit.games.snowtails import choose

    monkeypatch.setattr(choose, "_EXPECTED", {"search": False, "guided": False})
    cfga, _ = cell_inputs(load("hairpins"), PRESETS[game], ("greedy", "greedy:tuned"), (1, 2))
    get(game).expect(["greedy", "greedy:tuned", "random"])
    assert choose.search_flag(cfga) is None
    get(game).expect(["greedy", "search:64"])
    assert choose.search_flag(cfga) is True and choose.guided_flag(cfga) is None
    get(game).expect(["search:6h2xp3c4@policy:broad"])
    assert choose.search_flag(cfga) is True and choose.guided_flag(cfga) is True
    monkeypatch.setattr(choose, "_EXPECTED", {"search": False, "guided": False})
    get(game).expect(["policy:broad"])
    assert choose.search_flag(cfga) is True and choose.guided_flag(cfga) is True


def test_the_suite_plays_one_specialisation_for_every_cell():
    """tests/conftest.py sets SIMKIT_ONE_KERNEL=1 before simkit is imported: a greedy cell
    plays the specialisation with the search, the policy and the values."""
    import os

    from simkit.games.snowtails import choose

    cfga, _ = cell_inputs(load("hairpins"), PRESETS["snowtails"], ("greedy", "greedy"), (1, 2))
    assert os.environ["SIMKIT_ONE_KERNEL"] == "1"
    assert choose.search_flag(cfga) is True and choose.guided_flag(cfga) is True


def test_only_a_cell_with_a_policy_or_a_value_is_guided(monkeypatch):
    """``choose.guided_flag``: a model-free search (search:N, search:NhH) compiles neither
    the policy nor the values; a policy, a prior or a value in any seat does."""
    from simkit.games.snowtails import choose

    monkeypatch.setattr(choose, "_EXPECTED", {"search": False, "guided": False})
    variant = PRESETS["snowtails"]
    for bots, flag in (
        (("greedy", "search:64"), None),
        (("search:8h2", "greedy", "random"), None),
        (("greedy", "search:8h2v"), True),
        (("search:16h2xp1@policy:broad", "search:64"), True),
        (("greedy", "policy:broad"), True),
        (("search:6h2xp3c4@policy:broad", "greedy"), True),
    ):
        cfga, _ = cell_inputs(load("hairpins"), variant, bots, tuple(range(1, len(bots) + 1)))
        assert choose.guided_flag(cfga) is flag, bots


@pytest.mark.slow
def test_a_model_free_search_plays_the_same_without_the_policy_compiled(monkeypatch):
    """search:N in the kernels' specialisation without the policy and the values
    (``guided`` None) and forced into the guided one: the same races."""
    from simkit.games.snowtails import batch, choose

    monkeypatch.setattr(choose, "_EXPECTED", {"search": False, "guided": False})
    keys = np.arange(6, dtype=np.uint64) * np.uint64(7919)
    bots = ("search:8", "greedy", "search:4h2")
    args = (load("hairpins"), PRESETS["snowtails"], bots, (1, 2, 3), keys)
    pruned = batch.run_batch(*args, threads=1)
    monkeypatch.setattr(batch, "guided_flag", lambda cfga: True)
    full = batch.run_batch(*args, threads=1)
    for name, col in pruned.seats.items():
        assert np.array_equal(col, full.seats[name]), name
    for name, col in pruned.races.items():
        assert np.array_equal(col, full.races[name]), name


def test_a_prior_search_compares_the_candidates_it_names():
    """``search:NhHpLcM`` compares the policy's best M (where greedy finds that many), each
    on one sample first, and spends N rollouts at most (``search._settle``)."""
    assert parse_bot("search:6h2vp3c4@policy:distilled").candidates == 4
    assert parse_bot("search:8h2vp3@policy:distilled").candidates == 0
    for bad in ("search:6h2vp3c", "search:6h2vp3c1", "search:6h2vp3c9", "search:6h2c4"):
        with pytest.raises(SimkitError):
            parse_bot(bad + "@policy:distilled")
    bots = ("search:6h2vp3c4@policy:distilled", "search:4h2vp3c4@policy:distilled")
    seen = search_decisions(bots, 11, limit=30)
    sizes = set()
    for _, budget, tries in seen:
        if tries.size > 1:
            sizes.add(tries.size)
            assert tries.size <= 4 and tries.min() >= 1
            assert tries.sum() <= budget
    assert 4 in sizes


def test_a_prior_search_stops_at_the_lead_it_names():
    """``search:NhHpLsS`` stops after a round in which the leader is S/100 ahead: never more
    than N rollouts, fewer where a lead showed; a lead no result can reach plays as the
    search without ``s`` does, decision for decision."""
    assert parse_bot("search:8h2vp3c4s25@policy:distilled").stop == 25
    refused_with_a_working_example(
        ("search:8h2vp3s", "search:8h2vp3s0", "search:8h2vp3s256", "search:8h2vs5")
    )
    seen = search_decisions(("search:8h2vp3s1@policy:distilled", "greedy"), 11, limit=30)
    spent = [int(tries.sum()) for _, _, tries in seen if tries.size > 1]
    assert max(spent) <= 8 and min(spent) < 8
    same_searches("search:8h2vp3s255@policy:distilled", "search:8h2vp3@policy:distilled")


def test_a_prior_search_skips_where_the_prior_decides():
    """``search:NhHpLgG`` plays the policy's best without a rollout where its prior leads the
    next play's by G/100 or more: a lead no prior reaches plays as the search without ``g``
    does, decision for decision; a small one leaves decisions unsearched that the search
    without ``g`` searched; the searched ones still spend N at most."""
    assert parse_bot("search:8h2vp3s5g20@policy:distilled").gate == 20
    refused_with_a_working_example(
        ("search:8h2vp3g", "search:8h2vp3g0", "search:8h2vp3g256", "search:8h2vg5")
    )
    plain = same_searches("search:8h2vp3g255@policy:distilled", "search:8h2vp3@policy:distilled")
    gated = search_decisions(("search:8h2vp3g3@policy:distilled", "greedy"), 11, limit=30)
    searched = [tries for _, _, tries in gated if tries.size > 1]
    assert all(tries.sum() <= 8 for tries in searched)
    assert len(searched) < sum(tries.size > 1 for _, _, tries in plain)


def test_a_search_whose_place_is_settled_plays_greedys_best():
    """Once every other sled has finished or is out (``search.place_settled``) no play changes the
    seat's place: a search with a horizon and a prior then plays greedy's best, as
    search:N finds it (every rollout the same place, a tie), instead of choosing by the
    value at its cut and by the policy, which held sleds still for rounds on end (a race
    of 47 rounds on Tighter than I thought where search:64's take 7 at most)."""
    variant = PRESETS["snowtails"]
    cheap = ("search:6h2xp3c4@policy:broad",) * 3
    cfga, reach = cell_inputs(load("nutcracker"), variant, cheap, (1, 2, 3))
    ref, _ = cell_inputs(load("nutcracker"), variant, ("search:8",) * 3, (1, 2, 3))
    settled = 0
    for key in range(1, 13):
        positions = np.zeros(1, dtype=POSITION)
        works = np.zeros(1, dtype=WORK)
        new(positions, cfga, works, np.uint64(key * 7919))
        while positions[0]["flow"] != FL_DONE:
            pos = positions[0]
            seat = int(pos["to_move"])
            others = [int(pos["status"][q]) for q in range(3) if q != seat]
            alone = (
                pos["phase"] == PH_PLAY
                and pos["status"][seat] != OUT
                and all(s in (FINISHED, OUT) for s in others)
            )
            if alone:
                greedy_best = positions.copy()
                ref_works = np.zeros(1, dtype=WORK)
                choose(greedy_best, ref, reach, ref_works)
            choose(positions, cfga, reach, works)
            if alone:
                settled += 1
                assert np.array_equal(works["play"][0], ref_works["play"][0]), (key, settled)
            apply(positions, cfga, works)
    assert settled >= 5  # the case arose


def test_the_strong_bot_the_unknown_bot_error_names_is_one():
    """The bot list of an unknown-bot error names search:6h2wp3c4@policy:distilled (issue
    24's cheap strong bot, docs/bots.md) where the game has the policy: it parses, as a
    search on the second value with the distilled policy's prior over its best four plays;
    Mush! Mush!, without a distilled policy, does not list it."""
    with pytest.raises(SimkitError) as err:
        parse_bot("serch")
    assert "search:6h2wp3c4@policy:distilled" in str(err.value)
    with pytest.raises(SimkitError) as err:  # Mush! Mush! has no distilled policy
        parse_bot("serch", "mushmush")
    assert "policy:distilled" not in str(err.value)
    # Both games list the broad one (issue 34), which parses in each with its own value.
    for game in ("snowtails", "mushmush"):
        with pytest.raises(SimkitError) as err:
            parse_bot("serch", game)
        assert "search:6h2xp3c4@policy:broad" in str(err.value)
        assert parse_bot("search:6h2xp3c4@policy:broad", game) == BotSettings(
            BOT_SEARCH,
            parse_bot("policy:broad", game).weights,
            rollouts=6,
            horizon=2,
            value=3,
            prior=3,
            candidates=4,
        )
    assert parse_bot("search:6h2wp3c4@policy:distilled") == BotSettings(
        BOT_SEARCH,
        parse_bot("policy:distilled").weights,
        rollouts=6,
        horizon=2,
        value=2,
        prior=3,
        candidates=4,
    )
