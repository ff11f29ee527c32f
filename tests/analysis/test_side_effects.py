"""Side effects (issue 35): race length, crashes, dents, eliminations, drama, lead change."""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps

from simkit.analysis import side_effects as se
from tests.analysis.synthetic import synthetic_run

LONGER = [{"players": 4, "label": "book"}, {"players": 4, "label": "longer", "extra_rounds": 2}]


@pytest.mark.parametrize("q", [0.1, 0.5, 0.9])
def test_a_quantiles_interval_is_scipys_order_statistic_interval(q):
    rng = np.random.default_rng(3)
    x = rng.poisson(12, size=3001).astype(np.float64)
    values, counts = np.unique(x, return_counts=True)
    ci = sps.quantile_test(x, q=np.quantile(x, q), p=q).confidence_interval(0.95)
    assert se._order_interval(values, counts.astype(float), q) == (ci.low, ci.high)
    assert se._quantile(values, counts.astype(float), q) == np.quantile(x, q, method="inverted_cdf")


def test_a_shift_of_every_race_is_measured_exactly_and_paired():
    a = np.random.default_rng(1).integers(9, 16, size=4000).astype(np.float64)
    ((d, lo, hi),) = se._paired_quantiles(a, a + 2, [0.5], seed=0)
    assert (d, lo, hi) == (2.0, 2.0, 2.0)  # paired: the luck of the draw cancels


def test_longer_races_are_beyond_the_tolerance_and_said_first():
    run = synthetic_run(LONGER, races=3000, seed=4)
    d = se.differences(run, [(0, 1)], seed=1).set_index("measure")
    assert d.loc["rounds_median", "diff"] == 2 and d.loc["rounds_median", "beyond"]
    assert d.loc["rounds_median", "pairing"] == "paired"
    assert not d.loc["dents", "beyond"]  # the same dents, race for race
    (line,) = se.beyond_sentences(d.reset_index())
    assert line.startswith(
        "longer vs book: median race length +2 rounds [+2, +2] (from 14 to 16; beyond ±0.5)"
    )


def test_aggregates_only_give_the_same_estimates_unpaired():
    run = synthetic_run(LONGER, races=3000, seed=4)
    lean = synthetic_run(LONGER, races=3000, seed=4, keep="aggregates")
    full = se.differences(run, [(0, 1)], seed=1).set_index("measure")
    agg = se.differences(lean, [(0, 1)], seed=1).set_index("measure")
    assert set(agg["pairing"]) == {"unpaired"}
    pd.testing.assert_series_equal(full["diff"], agg["diff"], check_exact=False, rtol=1e-9)
    # Unpaired intervals are wider (the luck of the draw no longer cancels).
    width = (agg["high"] - agg["low"]) - (full["high"] - full["low"])
    assert (width.loc[["rounds_median", "crashes", "dents"]] >= 0).all()


def test_two_runs_compare_cell_by_cell():
    a = synthetic_run(LONGER[:1], races=2000, seed=4)
    b = synthetic_run(LONGER[1:], races=2000, seed=4, directory="b")
    d = se.differences(a, [(0, 0)], b, seed=1).set_index("measure")
    assert d.loc["rounds_median", "diff"] == 2 and d.loc["rounds_median", "pairing"] == "paired"


def test_cell_measures_and_their_words():
    run = synthetic_run(LONGER, races=2000, seed=4)
    m = se.cell_measures(run)
    assert set(m["measure"]) >= {"rounds_median", "rounds_p90", "crashes", "dents"}
    races = run.races[run.races["cell"] == 0]
    per_race = races.groupby("race")[["collisions_wall", "collisions_sled"]].sum().sum(axis=1)
    crashes = m[(m["cell"] == 0) & (m["measure"] == "crashes")].iloc[0]
    assert crashes["value"] == pytest.approx(per_race.mean())
    assert crashes["low"] < crashes["value"] < crashes["high"]
    text = se.cell_text(m, 0)
    assert text.startswith("races 14 rounds [14, 14] (90%: ") and "crashes" in text


def test_tolerances_are_declared_once_and_documented():
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "statistics.md").read_text()
    section = doc.split("## Side effects", 1)[1].split("\n## ", 1)[0]
    for m in se.MEASURES:
        assert f"| {m.words} | ±{m.tolerance:g} {m.unit}" in section, m.name


def test_runs_without_a_measure_leave_it_out():
    run = synthetic_run(LONGER, races=500, seed=4)
    sm = run.agg["seat_metric"]
    lean = dataclasses.replace(
        run, agg={**run.agg, "seat_metric": sm[sm["metric"] != "dents_taken"]}
    )
    assert "dents" not in set(se.cell_measures(lean)["measure"])
