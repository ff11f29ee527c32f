"""Decided races and per-round counts: derived the same way for every game (dicerace here)."""

from __future__ import annotations

import numpy as np

from simkit.runner.tables import decided

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
    assert list(rp.columns) == ["cell", "round", "position", "finish", "count"]
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
