"""Start-slot fairness: planted biases are found, fair games are not accused."""

from dataclasses import replace

import numpy as np
import pytest

from simkit.analysis.fairness import (
    FAIR,
    INCONCLUSIVE,
    UNFAIR,
    fairness,
    fairness_by_slot,
    slot_finish_counts,
    verdict,
)
from simkit.analysis.stats import chi_square_independence
from simkit.errors import RunError

from .synthetic import synthetic_run

BIASED = {"players": 4, "label": "biased", "strength": [0.25, 0.0, 0.0, 0.0]}
EVEN = {"players": 4, "label": "even"}
THREE = {"players": 3, "label": "three"}


@pytest.fixture(scope="module")
def run():
    return synthetic_run([BIASED, EVEN, THREE], races=20000, seed=11)


def test_planted_bias_is_unfair_and_even_game_is_fair(run):
    f = fairness(run).set_index("label")
    assert f.at["biased", "verdict"] == UNFAIR
    assert f.at["biased", "worst_slot"] == 1
    assert f.at["biased", "max_deviation"] > 0.03
    assert f.at["biased", "p_wins"] < 1e-6
    assert f.at["even", "verdict"] == FAIR
    assert f.at["even", "p_wins"] > 0.01
    assert f.at["three", "verdict"] != UNFAIR
    assert f.at["even", "races"] == 20000


def test_few_races_are_inconclusive_with_an_estimate():
    f = fairness(synthetic_run([EVEN], races=300, seed=2)).iloc[0]
    assert f["verdict"] == INCONCLUSIVE
    assert f["races_needed"] > 300


def test_by_slot_counts_match_the_rows(run):
    s = fairness_by_slot(run)
    rows = run.races
    wins = rows[rows["finish"] == 1].groupby(["cell", "slot"]).size()
    got = s.set_index(["cell", "slot"])["wins"]
    assert (got == wins.reindex(got.index)).all()
    finish = rows.groupby(["cell", "slot"])["finish"].mean()
    assert np.allclose(s.set_index(["cell", "slot"])["finish_mean"], finish)
    points = rows.groupby(["cell", "slot"])["points"].mean()
    assert np.allclose(s.set_index(["cell", "slot"])["points_mean"], points)
    assert (s["win_low"] <= s["win_rate"]).all() and (s["win_rate"] <= s["win_high"]).all()
    assert np.allclose(s["fair_rate"], 1.0 / s["players"])


def test_aggregates_alone_give_the_same_answer(run):
    lean = replace(run, races=None)
    assert fairness(lean).equals(fairness(run))


def test_pooling_by_players(run):
    f = fairness(run, by="players").set_index("players")
    assert list(f.index) == [3, 4]
    assert f.at[4, "races"] == 40000
    s = fairness_by_slot(run, by="players")
    assert s[s["players"] == 4]["races"].tolist() == [40000] * 4


def test_unknown_group_column_is_a_user_error(run):
    with pytest.raises(RunError, match="not a cells column"):
        fairness(run, by="colour")


@pytest.mark.parametrize(("cell", "n"), [(0, 4), (2, 3)])
def test_finish_table_test_is_corrected_for_permutations(run, cell, n):
    counts = slot_finish_counts(run).query(f"cell == {cell}").filter(like="finish_").to_numpy()
    assert counts.shape == (n, 4)  # the 3-sled cell's finish_4 column is all zeros
    raw = chi_square_independence(counts).statistic
    f = fairness(run).set_index("cell")
    assert f.at[cell, "chi2_finish"] == pytest.approx(raw * (n - 1) / n)
    assert f.at[cell, "dof_finish"] == (n - 1) ** 2


def test_permutation_correction_keeps_the_false_alarm_rate():
    """Each race is a random permutation of finishes over slots; under "all equal" the
    corrected test must reject about 5% of tables, the uncorrected one more often."""
    g = np.random.default_rng(5)
    n, races, reps = 3, 150, 600
    corrected = uncorrected = 0
    for _ in range(reps):
        finish = np.argsort(g.random((races, n)), axis=1)  # finish of slot s in each race
        table = np.zeros((n, n))
        np.add.at(table, (np.tile(np.arange(n), races), finish.ravel()), 1)
        corrected += chi_square_independence(table, scale=(n - 1) / n).pvalue < 0.05
        uncorrected += chi_square_independence(table).pvalue < 0.05
    assert 0.025 < corrected / reps < 0.08
    assert uncorrected > corrected + 10


@pytest.mark.parametrize(
    ("low", "high", "expected"),
    [
        ([0.24, 0.23, 0.24, 0.245], [0.26, 0.265, 0.26, 0.255], FAIR),
        ([0.28, 0.22, 0.22, 0.22], [0.30, 0.26, 0.26, 0.26], UNFAIR),  # slot 1 above band
        ([0.20, 0.24, 0.24, 0.24], [0.26, 0.26, 0.26, 0.26], INCONCLUSIVE),  # 0.20 < 0.23
        ([0.225, 0.24, 0.24, 0.24], [0.229, 0.26, 0.26, 0.26], UNFAIR),  # wholly below
    ],
)
def test_verdict_bands(low, high, expected):
    assert verdict(low, high, [0.25] * 4, 0.02) == expected


def test_run_without_races_says_so(run):
    empty = replace(run, agg={k: v.iloc[:0] for k, v in run.agg.items()})
    with pytest.raises(RunError, match=r"no races recorded yet \(run status: complete\)"):
        fairness(empty)
