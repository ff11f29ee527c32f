"""Drama, lead change, stability and uncertainty on races whose answer is known by hand
(docs/statistics.md, "Drama, lead changes, uncertainty and stability")."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from simkit.analysis.drama import (
    drama_measures,
    running_by_round,
    uncertainty_by_rounds_left,
    win_by_rounds_left,
)
from simkit.games.base import Batch
from simkit.games.round_counts import M_DRAMA, M_LEAD, M_STABILITY, MEASURES, add_race
from simkit.runner.tables import measure_table, round_table

ADD = add_race.py_func  # the kernel's Python source: the same code, no compile


def _add(ranks, finish, decided, slot=None, cap=8, n_rounds=None):
    ranks = np.asarray(ranks, dtype=np.int64)
    n = ranks.shape[1]
    slot = np.arange(1, n + 1) if slot is None else np.asarray(slot)
    counts = np.zeros((cap, n, n, n + 1), np.int64)
    ends = np.zeros_like(counts)
    by_seat = np.zeros_like(counts)
    m = np.zeros(len(MEASURES))
    rows = ranks[:cap] if n_rounds is None else ranks
    r = len(ranks) if n_rounds is None else n_rounds
    ADD(rows, r, n, slot, np.asarray(finish), decided, counts, ends, by_seat, m)
    # by seat, the same counts: seat p is slot[p]'s
    np.testing.assert_array_equal(by_seat[:, np.argsort(slot)], counts[:, : len(slot)])
    return counts, ends, m


def test_measures_of_a_race_worked_by_hand():
    # Seat 0 leads, falls to 2nd for two rounds, wins; seats 0 and 1 swap twice.
    ranks = [[1, 2, 3], [2, 1, 3], [2, 1, 3], [1, 2, 3]]
    counts, ends, m = _add(ranks, [1, 2, 3], True, slot=[2, 3, 1])
    assert m[M_DRAMA] == pytest.approx((0 + 0.5 + 0.5 + 0) / 4)  # winner's place behind
    assert m[M_LEAD] == pytest.approx(2 / 3)  # leader differs after 2 of 3 rounds
    # |moves| / (n - 1) summed: 1 + 0 + 1 over 3 transitions x 3 seats
    assert m[M_STABILITY] == pytest.approx(1 - 2 / 9)
    assert counts.sum() == 12 and ends.sum() == 12
    assert counts[1, 1, 1, 1] == 1  # round 2: slot 2 (seat 0) in position 2, won
    assert ends[0, 1, 0, 1] == 1  # the last round: slot 2 in position 1
    assert ends[3, 0, 2, 3] == 1  # three rounds before the end = round 1: slot 1 third


def test_a_race_the_leader_never_loses_has_no_drama_and_full_stability():
    _, _, m = _add([[1, 2], [1, 2], [1, 2]], [1, 2], True)
    assert (m[M_DRAMA], m[M_LEAD], m[M_STABILITY]) == (0.0, 0.0, 1.0)


def test_two_seats_swapping_every_round_are_as_unstable_as_can_be():
    _, _, m = _add([[1, 2], [2, 1], [1, 2], [2, 1]], [2, 1], True)
    assert m[M_LEAD] == 1.0 and m[M_STABILITY] == 0.0
    assert m[M_DRAMA] == pytest.approx(0.5)


def test_undecided_race_counts_as_finish_0_and_has_no_drama():
    counts, _, m = _add([[1, 2], [2, 1]], [1, 2], False)
    assert np.isnan(m[M_DRAMA]) and m[M_LEAD] == 1.0
    assert counts[..., 1:].sum() == 0 and counts[..., 0].sum() == 4


def test_one_round_race_has_no_lead_change_or_stability():
    _, _, m = _add([[1, 2]], [1, 2], True)
    assert m[M_DRAMA] == 0.0 and np.isnan(m[M_LEAD]) and np.isnan(m[M_STABILITY])


def test_ties_share_a_position_and_a_change_of_the_leading_set_is_a_lead_change():
    # Mushroom Walk: level seats share position 1; (1, 1) -> (1, 2) changes who leads.
    _, _, m = _add([[1, 1], [1, 2], [1, 2]], [1, 2], True)
    assert m[M_LEAD] == pytest.approx(1 / 2)


def test_race_longer_than_the_cap_is_left_out_of_the_end_counts():
    ranks = [[1, 2], [2, 1], [1, 2]]
    counts, ends, m = _add(ranks, [1, 2], True, cap=2, n_rounds=3)
    assert counts.sum() == 4 and ends.sum() == 0
    assert m[M_LEAD] == 1.0  # over the two rounds kept


def _results(rounds, measures=None, players=2):
    cells = pd.DataFrame({"cell": [0], "label": ["c0"], "players": [players]})
    return SimpleNamespace(rounds=rounds, round_measures=measures, cells=cells)


def _rows(entries):
    return pd.DataFrame(entries, columns=["cell", "round", "slot", "position", "finish", "count"])


def test_uncertainty_and_curves_from_counts_known_by_hand():
    # Two decided 2-seat races. Race A: 2 rounds, winner (slot 1) 2nd then 1st. Race B:
    # 1 round, winner (slot 2) 1st. Counted back from the end: round -1 = last round.
    rounds = _rows(
        [
            (0, -1, 1, 1, 1, 1),  # A, last round
            (0, -1, 2, 2, 2, 1),
            (0, -2, 1, 2, 1, 1),  # A, one round before the end
            (0, -2, 2, 1, 2, 1),
            (0, -1, 2, 1, 1, 1),  # B, its only round
            (0, -1, 1, 2, 2, 1),
            (0, 1, 1, 2, 1, 1),  # from the start: round 1 of A and B, round 2 of A
            (0, 1, 2, 1, 2, 1),
            (0, 1, 2, 1, 1, 1),
            (0, 1, 1, 2, 2, 1),
            (0, 2, 1, 1, 1, 1),
            (0, 2, 2, 2, 2, 1),
        ]
    )
    res = _results(rounds)
    unc = uncertainty_by_rounds_left(res).set_index("rounds_left")
    assert unc.loc[0, "uncertainty"] == 0.0 and unc.loc[0, "races"] == 2
    assert unc.loc[1, "uncertainty"] == 0.0  # one race: the winner was 2nd, surely
    wins = win_by_rounds_left(res).set_index(["rounds_left", "position"])
    assert wins.loc[(0, 1), "win_rate"] == 1.0
    assert wins.loc[(1, 2), "win_rate"] == 1.0 and wins.loc[(1, 1), "win_rate"] == 0.0
    assert wins.loc[(1, 1), "running"] == 0.5  # one of two races had that round
    run = running_by_round(res).set_index("round")
    assert run.loc[1, "running"] == 1.0 and run.loc[2, "running"] == 0.5
    m = drama_measures(res).iloc[0]
    assert m["uncertainty"] == 0.0 and np.isnan(m["drama"])


def test_uncertainty_is_one_when_the_winner_is_first_or_second_equally():
    rounds = _rows(
        [
            (0, -2, 1, 1, 1, 3),  # 3 races: the winner leads one round before the end
            (0, -2, 1, 2, 1, 3),  # 3 races: the winner is 2nd then
            (0, -2, 2, 2, 2, 3),
            (0, -2, 2, 1, 2, 3),
            (0, -1, 1, 1, 1, 6),
            (0, -1, 2, 2, 2, 6),
        ]
    )
    unc = uncertainty_by_rounds_left(_results(rounds)).set_index("rounds_left")
    assert unc.loc[1, "uncertainty"] == pytest.approx(1.0)
    assert unc.loc[0, "uncertainty"] == 0.0
    # every one of the 12 (race, round) pairs weighs the same: (6 * 1 + 6 * 0) / 12
    assert drama_measures(_results(rounds)).iloc[0]["uncertainty"] == pytest.approx(0.5)


def test_measure_means_and_intervals_from_the_round_measure_table():
    values = {"drama": [0.0, 0.5, 0.25, np.nan], "lead_change": [0.0, 1.0, 0.5, 0.5]}
    values["stability"] = [1.0, 0.0, 0.5, np.nan]
    batch = Batch({}, {}, round_measures={k: np.array(v) for k, v in values.items()})
    table = measure_table(0, batch)
    assert list(table["metric"]) == ["drama", "lead_change", "stability"]
    assert list(table["n"]) == [3, 4, 3]
    m = drama_measures(_results(_rows([]), table)).iloc[0]
    assert m["drama"] == pytest.approx(0.25) and m["drama_races"] == 3
    assert m["lead_change"] == pytest.approx(0.5)
    # Student-t: sd 0.25 over 3 races -> half-width t(0.975, 2) * 0.25 / sqrt(3)
    assert m["drama_high"] - m["drama"] == pytest.approx(4.302653 * 0.25 / np.sqrt(3), 1e-5)


def test_round_table_writes_rounds_back_from_the_end_as_negative_rounds():
    counts = np.zeros((3, 2, 2, 3), np.int64)
    ends = np.zeros_like(counts)
    counts[0, 0, 0, 1] = 5
    ends[0, 1, 1, 2] = 7  # the last round
    ends[2, 0, 1, 0] = 2  # two rounds before it
    t = round_table(4, Batch({}, {}, round_position=counts, end_position=ends))
    got = set(map(tuple, t[["round", "slot", "position", "finish", "count"]].to_numpy()))
    assert got == {(1, 1, 1, 1, 5), (-1, 2, 2, 2, 7), (-3, 1, 2, 0, 2)}
    assert (t["cell"] == 4).all()


def test_position_by_bot_maps_seats_to_the_cells_bots():
    from simkit.analysis.rounds import position_by_bot

    seats = pd.DataFrame(
        [  # cell 0: seat 0 greedy, seat 1 random; 4 races at round 1, 2 still at round 2
            (0, 1, 0, 1, 1, 3),
            (0, 1, 0, 2, 2, 1),
            (0, 1, 1, 2, 2, 3),
            (0, 1, 1, 1, 1, 1),
            (0, 2, 0, 1, 0, 2),  # an undecided race: finish 0
            (0, 2, 1, 2, 0, 2),
            (1, 1, 0, 1, 1, 5),  # cell 1: one bot only, left out
            (1, 1, 1, 2, 2, 5),
        ],
        columns=["cell", "round", "seat", "position", "finish", "count"],
    )
    cells = pd.DataFrame({"cell": [0, 1], "bots": ["greedy,random", "greedy,greedy"]})
    out = position_by_bot(SimpleNamespace(seat_rounds=seats, cells=cells))
    assert set(out["cell"]) == {0}
    g = out.set_index(["round", "bot"])
    assert g.loc[(1, "greedy"), "lead_rate"] == 0.75 and g.loc[(1, "random"), "lead_rate"] == 0.25
    assert g.loc[(1, "greedy"), "mean_position"] == 1.25
    assert g.loc[(1, "greedy"), "win_rate"] == 0.75
    assert g.loc[(2, "greedy"), "seats"] == 2 and np.isnan(g.loc[(2, "greedy"), "win_rate"])
