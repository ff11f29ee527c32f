"""The distilled policy (``distil.py``) and searches that take it as a prior: the names
parse, races are a pure function of their keys, and a candidate's features read only what
the seat sees (two samples of the hidden cards give the same features)."""

from __future__ import annotations

import numpy as np
import pytest

from simkit.errors import SimkitError
from simkit.games.snowtails.batch import cell_inputs
from simkit.games.snowtails.bots import BOT_POLICY, BOT_SEARCH, N_WEIGHTS, parse_bot
from simkit.games.snowtails.distil import N_FEATURES, K, seat_candidates
from simkit.games.snowtails.kernels import apply, choose, determinize, new
from simkit.games.snowtails.params import PRESETS
from simkit.games.snowtails.records import FL_DONE, PH_PLAY, POSITION, WORK, BotSettings
from simkit.tracks import load
from tests.snowtails.st_helpers import turns_at_one_and_two_threads


def test_policy_names_parse():
    policy = parse_bot("policy:distilled")
    assert policy == BotSettings(BOT_POLICY, policy.weights)  # no search settings
    assert len(policy.weights) == N_WEIGHTS + N_FEATURES
    assert policy.weights[:N_WEIGHTS] == parse_bot("greedy:tuned").weights
    # The policy as a prior: greedy plays the rollouts, the weight in hundredths.
    assert parse_bot("search:8h2p10@policy:distilled") == BotSettings(
        BOT_SEARCH, policy.weights, rollouts=8, horizon=2, prior=10
    )
    assert parse_bot("search:8h2").prior == 0
    # The policy is a prior, not a rollout player.
    with pytest.raises(SimkitError, match="as a prior only"):
        parse_bot("search:8h2@policy:distilled")
    for bad in ("search:8h2p10", "search:8h2p0@policy:distilled", "search:8h2px@policy:distilled"):
        with pytest.raises(SimkitError):
            parse_bot(bad)
    with pytest.raises(SimkitError, match="unknown bot"):
        parse_bot("policy:nope")
    with pytest.raises(SimkitError, match="unknown bot"):
        parse_bot("policy:distilled", "mushmush")


def test_policy_races_are_pure_and_the_policy_plays():
    out = {
        bots[0]: turns_at_one_and_two_threads(bots, seed=5)
        for bots in (
            ("policy:distilled", "greedy"),
            ("greedy:tuned", "greedy"),
            ("search:4h1p10@policy:distilled", "greedy"),
        )
    }
    assert not np.array_equal(out["policy:distilled"], out["greedy:tuned"])  # it decides


def _race(bot: str, key: int):
    """A new race of ``bot`` in three seats on The Nutcracker: the cell, greedy's reach,
    three positions, two work records and a scratch position."""
    bots = (bot,) * 3
    cfga, reach = cell_inputs(load("nutcracker"), PRESETS["snowtails"], bots, (1, 2, 3))
    positions = np.zeros(3, dtype=POSITION)
    works = np.zeros(2, dtype=WORK)
    new(positions, cfga, works, np.uint64(key))
    return cfga, reach, positions, works, np.zeros(1, dtype=POSITION)


def test_features_read_only_what_the_seat_sees():
    # Mid-race, three sleds: at a card play, two samples of what the seat cannot see
    # (other hands, deck orders) give each candidate the same features.
    cfga, reach, positions, works, scratch = _race("greedy:tuned", 12)
    checked = 0
    while positions[0]["flow"] != FL_DONE and checked < 12:
        if positions[0]["phase"] == PH_PLAY:
            seat = positions[0]["to_move"]
            feats = []
            for j, key in ((0, 0), (1, 1), (2, 2)):
                if j > 0:
                    determinize(positions, seat, np.uint64(key), positions, j)
                out = np.zeros((K, N_FEATURES))
                n = seat_candidates(cfga, reach, positions, j, works, scratch, out)
                feats.append(out[:n].copy())
            assert len(feats[0]) > 0
            assert np.array_equal(feats[0], feats[1]) and np.array_equal(feats[0], feats[2])
            checked += 1
        choose(positions, cfga, reach, works)
        apply(positions, cfga, works)
    assert checked == 12


def test_a_policy_with_a_tanh_layer_plays_its_best_scored_candidate():
    """``policy:mlp`` (``[policy.mlp.mlp]``: a tanh layer, ``distil.policy_score``) plays,
    at every card play of a race, the candidate its layer scores highest, as numpy scores
    the same layer on the candidates' features; and it is not the linear policy's pick
    everywhere (the layer decides)."""
    import tomllib

    from simkit.games.snowtails.bots import presets_file

    with presets_file("snowtails").open("rb") as fh:
        layer = tomllib.load(fh)["policy"]["mlp"]["mlp"]
    w1, b1, w2 = (np.asarray(layer[k], float) for k in ("w1", "b1", "w2"))
    coef = np.asarray(parse_bot("policy:mlp").weights[N_WEIGHTS : N_WEIGHTS + N_FEATURES])
    cfga, reach, positions, works, scratch = _race("policy:mlp", 7)
    checked = differ = 0
    while positions[0]["flow"] != FL_DONE:
        if positions[0]["phase"] == PH_PLAY:
            out = np.zeros((K, N_FEATURES))
            n = seat_candidates(cfga, reach, positions, 0, works, scratch, out)
            tops = works[0]["top"][:n].copy()
            if n > 1:
                scores = np.tanh(out[:n] @ w1.T + b1) @ w2
                choose(positions, cfga, reach, works)
                assert np.array_equal(works[0]["play"], tops[np.argmax(scores)])
                differ += np.argmax(scores) != np.argmax(out[:n] @ coef)
                checked += 1
        choose(positions, cfga, reach, works)
        apply(positions, cfga, works)
    assert checked > 20 and differ > 0, (checked, differ)


def test_a_tanh_layer_of_the_wrong_shape_is_refused_naming_where():
    from simkit.games.snowtails.bots import _mlp_row

    good = {"units": 1, "w1": [[0.0] * N_FEATURES], "b1": [0.0], "w2": [1.0]}
    assert len(_mlp_row(good, "f [policy.x.mlp]")) == 1 + N_FEATURES + 2
    with pytest.raises(ValueError, match=r"^f \[policy.x.mlp\]: a layer of 1 to 16 units"):
        _mlp_row({**good, "w1": [[0.0] * 3]}, "f [policy.x.mlp]")
