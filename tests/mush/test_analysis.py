"""MUSH analyses: exact hand counts on tiny tables, planted effects at fixed seeds."""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from simkit.games.mush import analysis as mush
from simkit.results import Results

HABITS = {m: 0 for m in mush.STRATEGY_METRICS}


def _run(rows: list[dict], players=(3,), presets=None) -> Results:
    races = pd.DataFrame([{**HABITS, **r} for r in rows])
    races["bot"] = races["bot"].astype("category")
    cells = pd.DataFrame(
        {
            "cell": range(len(players)),
            "game": "mush",
            "players": list(players),
            "preset": presets or ["mush"] * len(players),
            "label": [f"players={p}" for p in players],
        }
    )
    return Results(Path("synthetic"), {"crn": True}, cells, races, pd.DataFrame(), {})


def _race(cell, race, trainings, winner, *, slots=None, initiative=0, bots=None, rounds=40):
    """Seat rows of one race; ``winner`` None is a timed-out race."""
    n = len(trainings)
    slots = slots or list(range(1, n + 1))
    return [
        {
            "cell": cell,
            "race": race,
            "seat": s,
            "bot": (bots or ["greedy"] * n)[s],
            "slot": slots[s],
            "points": int(s == winner),
            "finish": 1 if s == winner else 2 + s,
            "training": trainings[s],
            "initiative_first": s == initiative,
            "rounds": rounds,
            "lead_changes": race % 3,
            "timed_out": winner is None,
            "tokens_left": 5 * s,
        }
        for s in range(n)
    ]


def _tiny() -> Results:
    rows = []
    rows += _race(0, 0, [0, 1, 2], 1, slots=[2, 1, 3], initiative=2, rounds=40)
    rows += _race(0, 1, [0, 1, 2], 1, slots=[1, 3, 2], initiative=0, rounds=44)
    rows += _race(0, 2, [1, 0, 2], 2, slots=[3, 2, 1], initiative=2, rounds=38)
    rows += _race(0, 3, [0, 1, 2], None, slots=[1, 2, 3], initiative=1, rounds=90)
    return _run(rows)


def test_training_by_hand():
    tr = mush.training(_tiny()).set_index("training_name")
    # mild: races 0, 1 (seat 1) and 2 (seat 0) and 3 -> won 0 and 1 -> 2 of 4
    assert (tr.loc["mild", "seats"], tr.loc["mild", "wins"]) == (4, 2)
    assert (tr.loc["cold", "seats"], tr.loc["cold", "wins"]) == (4, 1)
    assert (tr.loc["warm", "seats"], tr.loc["warm", "wins"]) == (4, 0)  # race 3 timed out
    assert tr["fair_rate"].eq(1 / 3).all() and tr["seats_per_race"].eq(1.0).all()
    assert tr.loc["mild", "deviation"] == pytest.approx(0.5 - 1 / 3)
    test = mush.training_test(_tiny()).iloc[0]
    # 3 wins over three equally held trainings: expected 1 each; (2-1)^2 + (1-1)^2 + (0-1)^2
    assert test["chi2"] == pytest.approx(2.0) and test["dof"] == 2


def test_initiative_strategies_and_length_by_hand():
    run = _tiny()
    ini = mush.initiative(run).set_index(["factor", "level"])
    # initiative holders: seat 2 (lost), seat 0 (lost), seat 2 (won), seat 1 (timed out)
    assert ini.loc[("initiative in round 1", "yes"), ["seats", "wins"]].tolist() == [4, 1]
    # slot 1: seat 1 (won), seat 0 (lost), seat 2 (won), seat 0 (timed out)
    assert ini.loc[("start slot (chooses training)", "1"), "wins"] == 2
    st = mush.strategies(run).iloc[0]
    assert (st["seats"], st["wins"]) == (12, 3)
    assert st["tokens_left_mean"] == pytest.approx(5.0)
    ln = mush.game_length(run).set_index("metric")
    assert ln.loc["rounds", "mean"] == pytest.approx((40 + 44 + 38 + 90) / 4)
    assert ln.loc["rounds", "timed_outs"] == 1 and ln.loc["rounds", "timed_out_rate"] == 0.25


def _planted(weights, races: int, seed: int, players: int = 3) -> Results:
    """Each race: trainings dealt to random seats, the winner drawn with ``weights``."""
    g = np.random.default_rng(seed)
    w = np.asarray(weights, dtype=float)
    rows = []
    for r in range(races):
        trainings = list(g.permutation(players) % 3)
        p = w[trainings] / w[trainings].sum()
        winner = int(g.choice(players, p=p))
        bots = ["greedy:start_rest=3" if t == 0 else "greedy" for t in trainings]
        rows += _race(0, r, trainings, winner, bots=bots)
    return _run(rows, players=(players,))


def test_planted_training_advantage_is_detected():
    run = _planted([1.0, 1.5, 1.0], 3000, seed=11)
    tr = mush.training(run).set_index("training_name")
    assert tr.loc["mild", "win_low"] > 1 / 3
    assert mush.training_test(run).iloc[0]["p"] < 0.001
    st = mush.strategies(run).set_index("bot")
    assert st.loc["greedy:start_rest=3", "win_high"] < 1 / 3


def test_fair_trainings_are_not_flagged():
    run = _planted([1.0, 1.0, 1.0], 3000, seed=11)
    tr = mush.training(run)
    assert ((tr["win_low"] < 1 / 3) & (tr["win_high"] > 1 / 3)).all()
    assert mush.training_test(run).iloc[0]["p"] > 0.05


def test_training_pooled_by_players():
    rows = _race(0, 0, [0, 1, 2], 0) + _race(1, 0, [0, 1, 2], 1)
    run = _run(rows, players=(3, 3), presets=["mush", "mush-skip-central"])
    pooled = mush.training(run, by="players").set_index("training_name")
    assert pooled.loc["warm", ["seats", "wins"]].tolist() == [2, 1]
    assert pooled.loc["cold", "seats_per_race"] == 1.0
