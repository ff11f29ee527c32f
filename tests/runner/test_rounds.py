"""Decided races and per-round counts: derived the same way for every game (dicerace here)."""

from __future__ import annotations

import numpy as np

from simkit.outcomes import decided

from .helpers import run

SCENARIO = """
game = "dicerace"
seed = 5
races = 300
chunk_size = 128
[grid]
players = [2, 4]
max_rounds = [3, 200]
"""


def test_decided_needs_one_winner_who_finished():
    finish = np.array([[1, 2], [1, 2], [1, 1], [2, 1]])
    finished = np.array([[True, True], [False, False], [True, True], [False, True]])
    ok, won = decided(finish, finished)
    assert ok.tolist() == [True, False, False, True]  # nobody across; a draw; winner across
    assert won.tolist() == [[True, False], [False, False], [False, False], [False, True]]


def test_races_nobody_finishes_have_no_winner(tmp_path):
    res = run(tmp_path, SCENARIO, "r")
    races, cells = res.races, res.cells.set_index("cell")
    short = races["cell"].map(cells["max_rounds"]) == 3
    # 30 spaces cannot be covered in 3 rounds of a d6: no race is decided, nobody wins
    assert not races.loc[short, "decided"].any() and not races.loc[short, "win"].any()
    full = races[~short]
    assert full["decided"].mean() > 0.9
    expect = (full["finish"] == 1) & full["finished"] & full["decided"]
    assert (full["win"] == expect).all()
    sm = res.agg["seat_metric"]
    wins = sm[sm["metric"] == "win"].groupby("cell")["sum"].sum()
    decided_races = res.agg["race_metric"].query("metric == 'decided'").set_index("cell")["sum"]
    assert (wins == decided_races).all()  # one win per decided race


def test_round_position_counts_every_seat_of_every_round(tmp_path):
    res = run(tmp_path, SCENARIO, "r")
    rp, races = res.rounds, res.races
    assert list(rp.columns) == ["cell", "round", "slot", "position", "finish", "count"]
    one = races[races["seat"] == 0]
    for cell, part in rp.groupby("cell"):
        rows = one[one["cell"] == cell]
        players = int(res.cells.set_index("cell").at[cell, "players"])
        # each race adds one count per seat and round played (races are far below the cap)
        assert part["count"].sum() == int(rows["rounds"].astype(int).sum()) * players
        r1 = part[part["round"] == 1]
        assert r1.groupby("position")["count"].sum().eq(len(rows)).all()
        # finish 1 is counted once per decided race and round; undecided races use 0
        assert r1[r1["finish"] == 1]["count"].sum() == rows["decided"].sum()
        assert r1[r1["finish"] == 0]["count"].sum() == (~rows["decided"]).sum() * players
        last = part[part["round"] == part["round"].max()]
        assert (last["finish"] <= players).all()


def test_round_position_by_slot(tmp_path):
    """Issue 25 item 4: the counts carry the start slot, so a slot's edge can be followed
    round by round; summed over slots they are the counts without it."""
    from simkit.analysis import position_by_slot

    res = run(tmp_path, SCENARIO, "r")
    rp, races = res.rounds, res.races
    for cell, part in rp.groupby("cell"):
        rows = races[races["cell"] == cell]
        players = int(res.cells.set_index("cell").at[cell, "players"])
        assert sorted(part["slot"].unique()) == list(range(1, players + 1))
        # every slot is in every race: round 1 counts one seat per race and slot
        r1 = part[part["round"] == 1].groupby("slot")["count"].sum()
        assert (r1 == rows["race"].nunique()).all()
        # a seat's rounds, counted by its own slot
        per_slot = part.groupby("slot")["count"].sum()
        expect = rows.groupby("slot")["rounds"].apply(lambda x: int(x.astype(int).sum()))
        assert per_slot.to_dict() == expect.to_dict()
    by = position_by_slot(res)
    assert list(by.columns) == [
        "cell",
        "round",
        "slot",
        "seats",
        "leading",
        "lead_rate",
        "lead_low",
        "lead_high",
        "mean_position",
    ]
    one = by[(by["cell"] == 0) & (by["round"] == 1)].set_index("slot")
    n0 = races[races["cell"] == 0]["race"].nunique()
    assert one["seats"].tolist() == [n0] * len(one)
    # the leaders of round 1 over all slots: one per race
    assert one["leading"].sum() == n0
    assert (one["mean_position"].between(1, 2)).all()
