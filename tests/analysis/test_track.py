"""Track tuning tables against direct computation from the synthetic rows."""

from dataclasses import replace

import numpy as np
import pytest

from simkit.analysis.track import (
    heat_by_space,
    hot_spaces,
    overspeed_by_corner,
    race_length,
    race_length_summary,
    track_summary,
)

from .synthetic import synthetic_run


@pytest.fixture(scope="module")
def run():
    return synthetic_run(
        [{"players": 4, "label": "a"}, {"players": 3, "label": "b", "extra_rounds": 2}],
        races=800,
        seed=4,
    )


def test_race_metrics_match_rows(run):
    t = track_summary(run).set_index(["cell", "metric"])
    one = run.races[run.races["seat"] == 0]
    for cell, part in one.groupby("cell"):
        assert t.at[(cell, "rounds"), "mean"] == pytest.approx(part["rounds"].mean())
        lw = part["leader_after_round1_won"].mean()
        assert t.at[(cell, "leader_after_round1_won"), "mean"] == pytest.approx(lw)
        assert t.at[(cell, "leader_after_round1_won"), "interval"] == "Wilson"
        assert t.at[(cell, "decided"), "mean"] == pytest.approx(part["decided"].mean())
        assert "win" not in t.loc[cell].index  # a result, reported by the fairness section
    assert t.at[(1, "rounds"), "mean"] > t.at[(0, "rounds"), "mean"] + 1.5


def test_seat_columns_per_sled(run):
    t = track_summary(run).set_index(["cell", "metric"])
    per_race = run.races.groupby(["cell", "race"])[["dents_taken", "eliminated"]].mean()
    for cell in (0, 1):
        x = per_race.loc[cell, "dents_taken"]
        assert t.at[(cell, "dents_taken"), "mean"] == pytest.approx(x.mean())
        assert t.at[(cell, "dents_taken"), "scope"] == "per sled"
        # a share of sleds, not a sum over seats that grows with the number of players
        assert 0 <= t.at[(cell, "eliminated"), "mean"] <= 1
        half = 1.96 * x.std(ddof=1) / np.sqrt(len(x))
        assert t.at[(cell, "dents_taken"), "high"] - x.mean() == pytest.approx(half, rel=0.01)
        assert t.at[(cell, "eliminated"), "mean"] == pytest.approx(
            per_race.loc[cell, "eliminated"].mean()
        )


def test_without_rows_the_interval_is_conservative(run):
    exact = track_summary(run).set_index(["cell", "metric"])
    lean = track_summary(replace(run, races=None)).set_index(["cell", "metric"])
    assert np.allclose(exact["mean"], lean["mean"])
    seats = lean["scope"] == "per sled"
    assert (lean.loc[seats, "interval"] == "t, conservative").all()
    assert (lean.loc[seats, "low"] <= exact.loc[seats, "low"] + 1e-12).all()
    assert (lean.loc[seats, "high"] >= exact.loc[seats, "high"] - 1e-12).all()


def test_race_length_distribution(run):
    h = race_length(run)
    one = run.races[run.races["seat"] == 0]
    counts = one.groupby(["cell", "rounds"]).size()
    assert (h.set_index(["cell", "rounds"])["count"] == counts).all()
    assert np.allclose(h.groupby("cell")["share"].sum(), 1.0)
    q = race_length_summary(run).set_index("cell")
    for cell, part in one.groupby("cell"):
        assert q.at[cell, "p50"] == np.quantile(part["rounds"], 0.5, method="inverted_cdf")
        assert q.at[cell, "max"] == part["rounds"].max()


def test_heat_per_space(run):
    h = heat_by_space(run)
    assert set(h["kind"]) == {"crash_wall", "crash_sled", "overspeed_dent"}
    walls = h[(h["cell"] == 0) & (h["kind"] == "crash_wall")]
    assert walls["count"].sum() == run.races.query("cell == 0")["collisions_wall"].sum()
    assert np.allclose(walls["per_1000_races"], walls["count"] / 0.8)
    top = hot_spaces(run, top=3)
    assert len(top) == 2 * 3 * 3
    assert top.groupby(["cell", "kind"])["space"].apply(lambda s: s.between(32, 48).all()).all()


def test_trackless_game_has_empty_heat(run):
    assert heat_by_space(replace(run, heat=run.heat.iloc[:0])).empty


def test_overspeed_dents_by_corner(run):
    from simkit import tracks

    t = tracks.load("nutcracker")
    c = overspeed_by_corner(run)
    assert list(c.columns) == ["cell", "label", "corner", "safety", "dents", "per_1000_races"]
    assert c.groupby("cell").size().tolist() == [t.n_corners] * 2
    assert c["safety"].tolist()[: t.n_corners] == t.corner_safety.tolist()
    heat = run.heat[(run.heat["kind"] == "overspeed_dent") & (run.heat["cell"] == 0)]
    behind = t.corners_passed[heat["space"].to_numpy()] >= 1
    assert c.query("cell == 0")["dents"].sum() == heat["count"].to_numpy()[behind].sum()
    # the synthetic hot spot (spaces 32-48) lies past the first corner's entry line (space 30)
    assert c.query("cell == 0").set_index("corner")["dents"].idxmax() == 1


def test_overspeed_by_corner_without_heat_is_empty(run):
    assert overspeed_by_corner(replace(run, heat=run.heat.iloc[:0])).empty


def test_overspeed_by_corner_with_a_lost_track(run):
    from simkit.errors import TrackError

    cells = run.cells.assign(track=["nutcracker", "gone.toml"])
    lost = replace(run, cells=cells)
    with pytest.raises(TrackError):
        overspeed_by_corner(lost)
    assert set(overspeed_by_corner(lost, strict=False)["cell"]) == {0}
