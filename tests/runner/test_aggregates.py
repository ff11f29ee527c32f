"""Aggregates: exact on a hand-made table, and a keep="aggregates" run equals its rows."""

from __future__ import annotations

import pandas as pd
import pandas.testing as pdt

from simkit.games.base import Column
from simkit.runner import aggregate

from .helpers import run

SEATS = {
    "slot": Column("int8", ""),
    "finish": Column("int8", ""),
    "finished": Column("bool", ""),
    "dents": Column("int16", ""),
}
RACES = {"rounds": Column("int16", ""), "speed": Column("float32", "")}


def test_aggregate_by_hand():
    # two races of cell 0 (2 seats), one race of cell 1 (2 seats)
    races = pd.DataFrame(
        {
            "cell": [0, 0, 0, 0, 1, 1],
            "race": [0, 0, 1, 1, 0, 0],
            "seat": [0, 1, 0, 1, 0, 1],
            "slot": [1, 2, 2, 1, 1, 2],
            "finish": [1, 2, 1, 2, 2, 1],
            "finished": [True, True, True, False, True, True],
            "dents": [0, 3, 1, 4, 2, 2],
            "rounds": [7, 7, 9, 9, 7, 7],
            "speed": [1.5, 1.5, 2.0, 2.0, 0.5, 0.5],
        }
    )
    agg = aggregate(races, SEATS, RACES)
    assert agg["slot_finish"].values.tolist() == [
        [0, 1, 1, 1],
        [0, 1, 2, 1],
        [0, 2, 1, 1],
        [0, 2, 2, 1],
        [1, 1, 2, 1],
        [1, 2, 1, 1],
    ]
    sm = agg["seat_metric"]
    assert list(sm.columns) == ["cell", "slot", "metric", "n", "sum", "sumsq"]
    # cell 0, slot 1: dents 0 and 4; finish 1 and 2; finished True, False
    c0s1 = sm[(sm.cell == 0) & (sm.slot == 1)].set_index("metric")
    assert c0s1.loc["dents", ["n", "sum", "sumsq"]].tolist() == [2, 4.0, 16.0]
    assert c0s1.loc["finish", ["n", "sum", "sumsq"]].tolist() == [2, 3.0, 5.0]
    assert c0s1.loc["finished", ["n", "sum", "sumsq"]].tolist() == [2, 1.0, 1.0]
    assert sm.metric.tolist()[:3] == ["dents", "finish", "finished"]  # alphabetical
    rm = agg["race_metric"]
    assert rm.values.tolist() == [
        [0, "rounds", 2, 16.0, 130.0],
        [0, "speed", 2, 3.5, 6.25],
        [1, "rounds", 1, 7.0, 49.0],
        [1, "speed", 1, 0.5, 0.25],
    ]
    # only integer race columns get a histogram
    assert agg["race_hist"].values.tolist() == [
        [0, "rounds", 7, 1],
        [0, "rounds", 9, 1],
        [1, "rounds", 7, 1],
    ]
    assert agg["slot_finish"].dtypes.tolist() == ["int32", "int8", "int8", "int64"]


SCENARIO = """
game = "dicerace"
seed = 4
races = 500
chunk_size = 200
[grid]
players = [2, 5]
head_start = [[0,0,0,0,0,0], [0,0,1,2,3,4]]
"""


def test_aggregates_only_run_equals_aggregates_of_rows(tmp_path):
    from simkit.games import get

    full = run(tmp_path, SCENARIO, "full")
    small = run(tmp_path, 'keep = "aggregates"\n' + SCENARIO, "small")
    assert small.races is None and not list((tmp_path / "small" / "races").iterdir())
    g = get("dicerace")
    from_rows = aggregate(full.races, g.seat_columns, g.race_columns)
    assert from_rows.keys() == small.agg.keys()
    for name, frame in from_rows.items():
        pdt.assert_frame_equal(frame, small.agg[name], check_exact=True)
        pdt.assert_frame_equal(frame, full.agg[name], check_exact=True)
    pdt.assert_frame_equal(full.heat, small.heat)
    sf = small.agg["slot_finish"]
    assert sf.groupby("cell")["count"].sum().tolist() == [500 * 2, 500 * 2, 500 * 5, 500 * 5]


def test_heat_off_writes_no_heat(tmp_path):
    res = run(tmp_path, "heat = false\n" + SCENARIO, "r")
    assert res.heat.empty and list(res.heat.columns) == ["cell", "kind", "space", "count"]
    assert not list((tmp_path / "r" / "heat").iterdir())


def test_heat_counts_every_landing(tmp_path):
    res = run(tmp_path, SCENARIO, "r")
    landings = res.heat.groupby("cell")["count"].sum()
    # every move lands somewhere; a race's seats make at most one move per round each
    rounds = res.races[res.races.seat == 0].groupby("cell")["rounds"].sum().astype("int64")
    assert (landings > 0).all() and (landings <= rounds * res.cells.players.astype("int64")).all()
    assert res.heat.kind.cat.categories.tolist() == ["landing"]
