"""Draws are draws: a shared finish position is counted once, as a draw, in every table.

Mushroom Walk's races table gives both players finish 1 on a draw (its race column
``draw``); the aggregates, the fairness tables, the heat map and comparisons must not make
that a first place for two (docs/statistics.md "Draws", issue 25).
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from simkit.analysis import fairness, fairness_by_slot, slot_finish_counts
from simkit.analysis.compare import by_slot
from simkit.games.base import Column
from simkit.outcomes import DRAW_FINISH, decided
from simkit.report.plots import finish_shares, slots
from simkit.runner import aggregate
from tests.analysis.synthetic import synthetic_run, write_run_dir

SEATS = {"slot": Column("int8", ""), "finish": Column("int8", ""), "finished": Column("bool", "")}


def _rows(finish: np.ndarray, slots_: np.ndarray, cell: int = 0) -> pd.DataFrame:
    """Long rows of races ``finish`` (races, seats) with the runner's derived columns."""
    races, n = finish.shape
    finished = np.ones_like(finish, dtype=bool)
    ok, won = decided(finish, finished)
    return pd.DataFrame(
        {
            "cell": np.full(races * n, cell, np.int32),
            "race": np.repeat(np.arange(races, dtype=np.int64), n),
            "seat": np.tile(np.arange(n, dtype=np.int8), races),
            "slot": slots_.reshape(-1).astype(np.int8),
            "finish": finish.reshape(-1).astype(np.int8),
            "finished": finished.reshape(-1),
            "win": won.reshape(-1),
            "decided": np.repeat(ok, n),
        }
    )


def _run(rows: pd.DataFrame, n: int) -> SimpleNamespace:
    cells = pd.DataFrame({"cell": [0], "label": ["c"], "players": [n]}).astype({"players": "int8"})
    return SimpleNamespace(cells=cells, agg=aggregate(rows, SEATS, {}), dir="t")


def test_a_draw_counts_once_by_hand():
    # Race 0 drawn (both 1, as Mushroom Walk records it), race 1 won by slot 1.
    rows = _rows(np.array([[1, 1], [1, 2]]), np.array([[1, 2], [1, 2]]))
    sf = aggregate(rows, SEATS, {})["slot_finish"]
    assert sf[["slot", "finish", "count"]].values.tolist() == [
        [1, DRAW_FINISH, 1],
        [1, 1, 1],
        [2, DRAW_FINISH, 1],
        [2, 2, 1],
    ]
    s = fairness_by_slot(_run(rows, 2)).set_index("slot")
    assert s["races"].tolist() == [2, 2] and s["draws"].tolist() == [1, 1]
    assert s["decided"].tolist() == [1, 1] and s["wins"].tolist() == [1, 0]
    # finish over the race not drawn: slot 1 first, slot 2 second (not 1.0 and 1.5)
    assert s["finish_mean"].tolist() == [1.0, 2.0]


@st.composite
def races_with_ties(draw):
    """Races of n seats ranked by integer scores, ties ranked as Mushroom Walk's draw is:
    every tied seat gets the best of the positions it shares (competition ranking)."""
    n = draw(st.integers(2, 5))
    races = draw(st.integers(1, 40))
    seed = draw(st.integers(0, 2**32 - 1))
    top = draw(st.integers(1, 4))  # few distinct scores: many ties
    g = np.random.default_rng(seed)
    score = g.integers(0, top, size=(races, n))
    finish = 1 + (score[:, None, :] > score[:, :, None]).sum(axis=2)
    slots_ = np.argsort(g.random((races, n)), axis=1) + 1
    return finish, slots_, n


@given(races_with_ties())
def test_finish_shares_per_slot_add_up_with_draws_counted_once(case):
    finish, slots_, n = case
    rows = _rows(finish, slots_)
    run = _run(rows, n)
    counts = slot_finish_counts(run)
    races = len(finish)
    cols = [f"finish_{k}" for k in range(1, n + 1) if f"finish_{k}" in counts]
    assert (counts[cols].sum(axis=1) + counts["draws"] == races).all()
    # draws per slot: the races in which the slot shared its position, from the rows
    size = rows.groupby(["race", "finish"])["seat"].transform("size")
    shared = rows.assign(shared=size > 1).groupby("slot")["shared"].sum()
    assert counts.set_index("slot")["draws"].equals(shared.rename("draws").astype("int64"))
    # each position not shared belongs to exactly one slot per race
    for k in range(1, n + 1):
        alone = int(((finish == k).sum(axis=1) == 1).sum())
        assert int(counts.get(f"finish_{k}", pd.Series([0])).sum()) == alone
    share, names, fair = finish_shares(counts, n)
    assert np.allclose(share.sum(axis=1), 100.0)
    assert ("draw" in names) == bool(shared.any())
    placed = 1 - shared.sum() / (races * n)
    assert fair == pytest.approx(100 * placed / n)
    s = fairness_by_slot(run).set_index("slot")
    assert (s["wins"] <= counts.set_index("slot").get("finish_1", 0)).all()
    mean = rows[size <= 1].groupby("slot")["finish"].mean()
    assert np.allclose(s["finish_mean"].reindex(mean.index), mean)
    # a comparison's per-race finish leaves the drawn seats out the same way
    wide = by_slot(rows, "finish")
    assert int(wide.notna().sum().sum()) == int((size <= 1).sum())


def _drawn_run(draw_every: int = 4):
    """A synthetic 2-player run in which every ``draw_every``-th race is drawn, its
    aggregates counted the old way (a draw under finish 1 for both)."""
    run = synthetic_run([{"players": 2, "label": "two", "strength": [0.2, 0.0]}], races=400)
    races = run.races.copy()
    drawn = races["race"] % draw_every == 0
    races.loc[drawn, "finish"] = 1
    races.loc[drawn, ["win", "decided"]] = False
    races.loc[drawn, "points"] = 5
    from tests.analysis.synthetic import aggregate as old_aggregate

    return SimpleNamespace(**{**run.__dict__, "races": races, "agg": old_aggregate(races)})


def test_a_run_counted_the_old_way_is_recounted_on_load(tmp_path):
    import simkit

    old = _drawn_run()
    assert (old.agg["slot_finish"]["finish"] != DRAW_FINISH).all()
    loaded = simkit.load(write_run_dir(old, tmp_path / "run"))
    counts = slot_finish_counts(loaded).set_index("slot")
    assert counts["draws"].tolist() == [100, 100]
    assert (counts[["finish_1", "finish_2", "draws"]].sum(axis=1) == 400).all()
    f = fairness(loaded).iloc[0]
    assert f["decided"] == 300 and f["races"] == 400
    # permutations again once the draws are out: the corrected test equals the win test
    assert f["chi2_finish"] == pytest.approx(f["chi2_wins"])


def test_heat_map_draws_a_draw_column(tmp_path):
    import matplotlib.image

    old = _drawn_run()
    run = SimpleNamespace(cells=old.cells, agg=aggregate(old.races, SEATS, {}), dir="t")
    counts = slot_finish_counts(run)
    share, names, fair = finish_shares(counts, 2)
    assert names == ["1", "2", "draw"]
    assert share[:, 2].tolist() == [25.0, 25.0] and fair == pytest.approx(37.5)
    png = slots(tmp_path / "s.png", fairness_by_slot(run), counts, 0.02, "two")
    assert matplotlib.image.imread(png).shape[1] > 500


def test_mushroom_walk_draw_is_a_draw_and_decided_is_not_drawn():
    """The game's own result rows (a draw gives both players 1, docs/rules-mushroomwalk.md
    "Results"; `001_…` "End of the game") tabulate as one draw per slot, and the runner's
    decided count is the games not drawn: one count of "decided" for the game."""
    from simkit.games.mushroomwalk.game import _batch
    from simkit.games.mushroomwalk.records import RACE, SEAT

    race_out = np.zeros(4, dtype=RACE)
    race_out["winner"] = [0, 1, -1, 0]  # seat 0 wins, seat 1 wins, a draw, seat 0 wins
    race_out["starter"] = [0, 1, 0, 1]
    seat_out = np.zeros((4, 2), dtype=SEAT)
    seat_out["score"] = [[30, 20], [10, 12], [15, 15], [9, 8]]
    batch = _batch(seat_out, race_out)
    assert batch.seats["finish"][2].tolist() == [1, 1]  # the race rows stay the game's
    rows = _rows(np.asarray(batch.seats["finish"]), np.asarray(batch.seats["slot"]))
    run = _run(rows, 2)
    counts = slot_finish_counts(run).set_index("slot")
    assert counts[["finish_1", "finish_2", "draws"]].values.tolist() == [[2, 1, 1], [1, 2, 1]]
    s = fairness_by_slot(run).set_index("slot")
    assert s["decided"].tolist() == [3, 3] == (4 - counts["draws"]).tolist()
    assert s["wins"].tolist() == [2, 1]


def test_precision_target_counts_no_draw():
    """A precision target (docs/scenarios.md) narrows win-rate intervals: a draw is neither
    a win nor a decided race there either."""
    from simkit.runner.driver import _WinCounts

    counts = _WinCounts((1, 2))
    rows = _rows(np.array([[1, 1], [1, 2], [2, 1]]), np.array([[1, 2], [1, 2], [1, 2]]))
    counts.add(aggregate(rows, SEATS, {})["slot_finish"])
    assert counts.n == {1: 2, 2: 2} and counts.k == {1: 1, 2: 1}
