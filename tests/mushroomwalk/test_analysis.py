"""Mushroom Walk analyses: exact hand counts on tiny tables, planted effects at fixed seeds."""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from simkit.errors import RunError
from simkit.games.mushroomwalk import analysis as mw
from simkit.results import Results

SEAT_ZERO = {
    "pans_taken": 2,
    "baskets": 0,
    "night_cards": 1,
    "poison_taken": 0,
    "butter_used": 0,
    "cider_used": 0,
}


def _run(rows: list[dict], cells=("mushroomwalk",), bots=None, crn=True) -> Results:
    """A run from per-seat dicts; races hold what the analysis reads, nothing more."""
    races = pd.DataFrame([{**SEAT_ZERO, **r} for r in rows])
    races["draw"] = races["draw"].astype(bool)
    cells_df = pd.DataFrame(
        {
            "cell": range(len(cells)),
            "game": "mushroomwalk",
            "players": 2,
            "bots": bots or ["greedy,greedy"] * len(cells),
            "label": [f"preset={p}" for p in cells],
        }
    )
    return Results(Path("synthetic"), {"crn": crn}, cells_df, races, pd.DataFrame(), {})


def _game(cell, race, result, scores=(30, 20), turns=50, first_pan=(4, 12)) -> list[dict]:
    """Two seat rows; ``result`` is 'starter', 'second' or 'draw'. Slot 1 starts."""
    fin = {"starter": (1, 2), "second": (2, 1), "draw": (1, 1)}[result]
    margin = abs(scores[0] - scores[1])
    return [
        {
            "cell": cell,
            "race": race,
            "seat": s,
            "slot": s + 1,
            "finish": fin[s],
            "score": scores[s],
            "draw": result == "draw",
            "turns": turns,
            "rounds": (turns + 1) // 2,
            "margin": margin,
            "first_pan_turn": first_pan[s],
        }
        for s in (0, 1)
    ]


def _tiny() -> Results:
    rows = []
    for i, (res, sc, pan) in enumerate(
        [
            ("starter", (30, 20), (4, 12)),
            ("second", (18, 25), (-1, 3)),
            ("draw", (22, 22), (9, 11)),
            ("starter", (40, 10), (2, 30)),
        ]
    ):
        rows += _game(0, i, res, sc, 48 + i, pan)
    return _run(rows)


def test_first_player_counts_draws_apart():
    fp = mw.first_player(_tiny()).iloc[0]
    assert (fp["races"], fp["starter_wins"], fp["second_wins"], fp["draws"]) == (4, 2, 1, 1)
    assert fp["starter_win_rate"] == 0.5 and fp["draw_rate"] == 0.25
    # Wilson 95% for 2 of 4, by hand: centre 0.5, half 0.34996.
    assert fp["starter_win_low"] == pytest.approx(0.15004, abs=1e-4)
    assert fp["starter_win_high"] == pytest.approx(0.84996, abs=1e-4)
    assert fp["decided"] == 3 and fp["decided_starter_rate"] == pytest.approx(2 / 3)
    assert fp["advantage"] == pytest.approx((1 - 1 + 0 + 1) / 4)


def test_scores_length_and_card_value_by_hand():
    run = _tiny()
    sc = mw.scores(run).set_index(["metric", "slot"])
    assert sc.loc[("score", "1"), "mean"] == pytest.approx((30 + 18 + 22 + 40) / 4)
    assert sc.loc[("score", "all"), "n"] == 8
    assert sc.loc[("margin", "all"), "mean"] == pytest.approx((10 + 7 + 0 + 30) / 4)
    ln = mw.game_length(run).set_index("metric")
    assert ln.loc["turns", "mean"] == pytest.approx(49.5)
    assert ln.loc["turns", "p50"] == pytest.approx(49.5)
    cv = mw.card_value(run, early_turn=10)
    pan = cv[cv["factor"] == "pan taken by game turn 10"].set_index("level")
    # early (<= 10): 4 (won), 3 (won), 9 (draw: not a win), 2 (won) -> 3 of 4
    assert (pan.loc["yes", "seats"], pan.loc["yes", "wins"]) == (4, 3)
    # later: 12 (lost), 11 (draw), 30 (lost); never: -1 (lost)
    assert (pan.loc["later", "seats"], pan.loc["later", "wins"]) == (3, 0)
    assert (pan.loc["never", "seats"], pan.loc["never", "wins"]) == (1, 0)
    assert pan["share"].sum() == pytest.approx(1.0)
    dist = mw.score_distribution(run).set_index("score")
    assert dist.loc[22, "count"] == 2 and dist["count"].sum() == 8


def _planted(p_starter: float, games: int, seed: int, cell: int = 0) -> list[dict]:
    g = np.random.default_rng(seed)
    u = g.random(games)
    p_draw = 0.01
    res = np.where(u < p_draw, "draw", np.where(u < p_draw + p_starter, "starter", "second"))
    rows = []
    for i, r in enumerate(res):
        rows += _game(cell, i, r, turns=int(g.integers(46, 56)))
    return rows


def test_planted_first_player_advantage_is_detected():
    fp = mw.first_player(_run(_planted(0.57, 4000, seed=3))).iloc[0]
    assert fp["advantage_low"] > 0.0
    assert fp["starter_win_low"] > 0.5


def test_no_advantage_is_not_detected():
    fp = mw.first_player(_run(_planted(0.495, 4000, seed=3))).iloc[0]
    assert fp["advantage_low"] < 0.0 < fp["advantage_high"]
    assert fp["starter_win_low"] < 0.495 < fp["starter_win_high"]


def test_preset_comparison_pairs_within_bots_only():
    rows = []
    for cell, res in enumerate([["starter", "second"], ["second", "second"], ["draw", "draw"]]):
        for i, r in enumerate(res):
            rows += _game(cell, i, r, turns=50 + cell * 2 + i)
    run = _run(rows, cells=("mushroomwalk", "morels", "other"), bots=["g,g", "g,g", "r,r"])
    table = mw.preset_comparison(run).set_index("metric")
    assert set(table["cell"]) == {1} and set(table["baseline"]) == {0}
    assert table.loc["starter_win", "diff"] == pytest.approx((0 - 1 + 0 - 0) / 2)
    assert table.loc["turns", "diff"] == pytest.approx(2.0)
    with pytest.raises(RunError, match="crn = false"):
        mw.preset_comparison(_run(rows, cells=("a", "b", "c"), crn=False))


def test_aggregates_only_run_says_what_is_missing():
    run = _tiny()
    run.races = None
    with pytest.raises(RunError, match=r'per-race rows.*keep = "races"'):
        mw.first_player(run)


def test_one_decided_count_draws_and_both_stuck():
    """Issue 25: the page gave two decided counts (98,924 from the runner, 98,997 games not
    drawn) because a game both players were stuck in counted as unfinished. It ends as if
    the forest were empty (R-50) and is won like any other: decided = not drawn, and a
    draw is a win for neither, in the runner's columns and in this analysis alike."""
    from simkit.games.mushroomwalk.game import _batch
    from simkit.games.mushroomwalk.records import RACE, SEAT
    from simkit.outcomes import decided

    race_out = np.zeros(4, dtype=RACE)
    race_out["winner"] = [0, 1, -1, 0]  # seat 0 wins, seat 1 wins, a draw, seat 0 wins
    race_out["end_reason"] = [0, 1, 1, 1]  # the forest empty; then both stuck
    seat_out = np.zeros((4, 2), dtype=SEAT)
    seat_out["score"] = [[30, 20], [10, 12], [15, 15], [9, 8]]
    batch = _batch(seat_out, race_out)
    assert batch.seats["finished"].all()
    ok, won = decided(batch.seats["finish"], batch.seats["finished"])
    assert ok.tolist() == (~batch.races["draw"]).tolist() == [True, True, False, True]
    assert won.tolist() == [[True, False], [False, True], [False, False], [True, False]]
