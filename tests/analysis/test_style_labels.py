"""Style as its own label (issue 34 item 4): skill-dependent only between levels the level
check separates, style-dependent between players it finds of equal strength, undetermined
where it measured nothing; each label's error rate where the truth is known.

The synthetic runs (tests/analysis/synthetic.py) draw finish orders from a Plackett-Luce
model with a planted strength per start slot; the level check's word on each pair of levels
is given as it would have found it (``strength_for``).
"""

from __future__ import annotations

import pytest
from scipy.stats import binomtest

from simkit.analysis.fairness import fairness, fairness_by_slot
from simkit.analysis.skill import fairness_across
from simkit.analysis.skill_labels import DEPENDENT, ROBUST, STYLE, UNDETERMINED
from simkit.analysis.skill_levels import (
    EQUAL,
    SEPARATED,
    pooled_strength,
    strength_between,
    with_combinations,
)
from simkit.report.summary import SHORT
from tests.analysis.synthetic import strength_for, synthetic_run
from tests.analysis.test_skill_labels import TOLERANCE, _cells, _strength


def _labels(res, strength, manifest_skill=None):
    if manifest_skill is not None:
        res.manifest["scenario"]["skill"] = manifest_skill
    summary = with_combinations(fairness(res, tolerance=TOLERANCE), res.cells)
    slots = with_combinations(fairness_by_slot(res), res.cells)
    return fairness_across(res, summary, slots, SHORT, TOLERANCE, strength=strength)


def _two_styles(seed: int = 3):
    """Two players whose slot 1 wins 55% and 61% of 2-sled races (a 6 pp style gap)."""
    levels = {"a": {"strength": _strength(0.55)}, "b": {"strength": _strength(0.61)}}
    return synthetic_run(_cells({"v": levels}, players=2, seed=seed), races=8000, seed=seed)


def test_one_difference_is_skill_style_or_undetermined_by_what_the_check_found():
    res = _two_styles()
    skill, tests = _labels(res, strength_for(res, SEPARATED))
    style, _ = _labels(res, strength_for(res, EQUAL))
    unknown, _ = _labels(res, {})
    assert tests["beyond"].all()  # the same tested difference in all three
    assert skill["across"].iloc[0] == DEPENDENT
    assert style["across"].iloc[0] == STYLE
    assert unknown["across"].iloc[0] == UNDETERMINED
    said = style["across_skill"].iloc[0]
    rates = sorted(tests[["rate_a", "rate_b"]].iloc[0])
    assert said.startswith(
        f"style-dependent: slot 1 wins {100 * rates[0]:.1f}-{100 * rates[1]:.1f}% among "
        "players of equal strength here (a and b); b - a +"
    )
    assert said.endswith("], beyond ±2 pp")
    assert "skill-dependent" not in said
    assert unknown["across_skill"].iloc[0].startswith("undetermined: slot 1's edge grows from +")
    assert (
        unknown["across_skill"]
        .iloc[0]
        .endswith(
            "beyond ±2 pp, but the level check did not measure whether a and b differ in strength "
            "here (check_levels = false, or a run from before it), so skill cannot be told from "
            "style"
        )
    )


def test_a_field_is_named_and_a_skill_step_below_it_still_counts():
    """greedy < a strong field of two styles: the step to the field is skill, the gap inside
    it style; the sentence says both, the field by its name."""
    levels = {
        "g": {"strength": _strength(0.50)},
        "s64": {"strength": _strength(0.58)},
        "cheap": {"strength": _strength(0.64)},
    }
    res = synthetic_run(_cells({"v": levels}, players=2, seed=5), races=8000, seed=5)
    strength = {
        0: {
            frozenset(("g", "s64")): SEPARATED,
            frozenset(("g", "cheap")): SEPARATED,
            frozenset(("s64", "cheap")): EQUAL,
        }
    }
    skill = ["g", {"field": ["s64", "cheap"], "name": "strong field"}]
    across, _ = _labels(res, strength, skill)
    said = across["across_skill"].iloc[0]
    assert across["across"].iloc[0] == DEPENDENT
    assert said.startswith("skill-dependent: slot 1 moves from +0.0 pp with g to +")
    assert "; also style-dependent: slot 1 wins " in said
    assert "% among the strong field (s64 and cheap); cheap - s64 +" in said


def test_players_the_check_found_level_are_never_called_skill_dependent():
    """Issue 34's mm2 case: greedy:tuned and the cheap bot 'not two skill levels here', yet
    the report said skill-dependent +6.0 pp. However large the gap, equal players give
    style-dependent."""
    for seed in range(4):
        res = _two_styles(seed)
        across, _ = _labels(res, strength_for(res, EQUAL))
        assert across["across"].iloc[0] in (STYLE, ROBUST, UNDETERMINED)
        assert across["across"].iloc[0] != DEPENDENT


@pytest.mark.parametrize(
    "studies", [50, pytest.param(200, marks=pytest.mark.slow)], ids=["50", "200"]
)
def test_equal_players_that_play_alike_are_called_style_dependent_at_most_5_percent(studies):
    """Studies of a strong field of three equally strong players who play alike (4 players,
    1,000 races each): the share labelled style-dependent stays at most 5% within sampling
    error (a one-sided binomial test at 1% does not reject it). A planted 6 pp style gap is
    found in most studies, so the label is not simply never given and this test can fail."""
    same = {"strength": [0.3, 0.1, 0.0, -0.2]}
    cells, gap = [], []
    for study in range(studies):
        for cell in _cells({"v": {"a": same, "b": same, "c": same}}, players=4, seed=study + 1):
            cell["params"]["variant"] = study
            cells.append({**cell, "seed": study})
    res = synthetic_run(cells, races=1000)
    across, _ = _labels(res, strength_for(res, EQUAL))
    style = int((across["across"] == STYLE).sum())
    assert not (across["across"] == DEPENDENT).any()
    assert binomtest(style, studies, 0.05, alternative="greater").pvalue >= 0.01, style
    for study in range(20):
        levels = {"a": {"strength": _strength(0.55)}, "b": {"strength": _strength(0.61)}}
        for cell in _cells({"v": levels}, players=2, seed=study + 1):
            cell["params"]["variant"] = study
            gap.append({**cell, "seed": 900 + study})
    planted = synthetic_run(gap, races=6000)
    found, _ = _labels(planted, strength_for(planted, EQUAL))
    assert (found["across"] == STYLE).sum() >= 15, found["across"].value_counts()


def test_strength_is_read_from_the_level_check_and_pooled_only_where_it_agrees():
    levels = {"a": {}, "b": {}}
    res = synthetic_run(
        _cells({"x": levels, "y": levels}, players=2, seed=1), races=200, seed=1
    )  # cells 0-1 combination 0, cells 2-3 combination 1
    import pandas as pd

    pairs = pd.DataFrame(
        {
            "lower": ["a", "a"],
            "upper": ["b", "b"],
            "lower_cell": [0, 2],
            "upper_cell": [1, 3],
            "separated": [True, False],
        }
    )
    got = strength_between(None, pairs, res.cells)
    assert got == {0: {frozenset("ab"): SEPARATED}, 1: {frozenset("ab"): EQUAL}}
    # pooled over both combinations (same player count): they disagree, so unmeasured
    assert pooled_strength(got, res.cells) == {2: {frozenset("ab"): "unmeasured"}}
    # a run checked before pairs were kept: its per-cell rows' comparison with the level below
    old = pd.DataFrame(
        {"cell": [0, 1], "skill": ["a", "b"], "below": ["", "a"], "verdict": ["", "level"]}
    )
    assert strength_between(old, None, res.cells) == {0: {frozenset("ab"): EQUAL}}


def test_the_level_warning_joins_the_checks_sentences_without_doubled_stops():
    """The fairness study's report read "... [50.6, 54.3].; players=5: ... [51.3, 54.2].."."""
    from simkit.report.skill import not_stronger_text

    text = not_stronger_text(
        "Measured here",
        [
            ("players=3", "b is not clearly stronger than a: 52.2% [50.6, 54.3]."),
            ("p=5", "c is level with b."),
        ],
    )
    assert ".;" not in text and ".." not in text
    assert text == (
        "Measured here: 2 bots are not stronger than the level listed before it: players=3: b "
        "is not clearly stronger than a: 52.2% [50.6, 54.3]; p=5: c is level with b. "
        "A difference between such players is style, not skill (style-dependent)."
    )
