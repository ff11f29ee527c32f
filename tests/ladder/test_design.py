"""The ladder's design is balanced, and a ladder's scenario is checked like any cell."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from simkit.errors import SimkitError
from simkit.ladder import bots_of, design_of, lineups, scenario


@pytest.mark.parametrize(("k", "n"), [(2, 2), (4, 2), (4, 4), (5, 3), (3, 4), (2, 5), (4, 6)])
def test_every_bot_sits_in_every_seat_equally_often(k, n):
    bots = [f"b{i}" for i in range(k)]
    design = lineups(bots, n)
    assert len(set(design)) == len(design)
    assert all(len(lineup) == n for lineup in design)
    seats = [Counter(lineup[s] for lineup in design) for s in range(n)]
    assert len({tuple(sorted(c.items())) for c in seats}) == 1, seats
    assert set(seats[0]) == set(bots) and len(set(seats[0].values())) == 1
    if k < n:
        return  # bots repeat within a lineup; pairs meet nearly, not exactly, equally often
    # every pair of bots shares equally many lineups
    pairs = Counter(
        frozenset((a, b))
        for lineup in design
        for a, b in itertools.combinations(lineup, 2)
        if a != b
    )
    assert len(pairs) == k * (k - 1) // 2 and len(set(pairs.values())) == 1
    assert bots_of(design) == tuple(bots)


def test_design_sizes():
    assert len(lineups("ABCD", 4)) == 4  # one Latin square, not 4! permutations
    assert len(lineups("ABCD", 2)) == 12  # every ordered pair
    assert len(lineups("ABCDE", 3)) == 30  # 10 sets x 3 rotations
    assert lineups("ABC", 4) == [tuple("ABCA"), tuple("BCAB"), tuple("CABC")]


def test_every_bot_starts_from_every_slot_equally_often_at_every_race(tmp_path):
    from simkit.results import load
    from simkit.runner import start

    sc = scenario("lucerace", ["luce:0", "luce:1", "luce:2", "luce:3"], players=3, races=40)
    start(sc, tmp_path / "run")
    races = load(tmp_path / "run").races
    per_race = races.groupby(["race", "bot", "slot"], observed=True).size()
    assert len(per_race) == 40 * 4 * 3  # every (race index, bot, slot) occurs ...
    assert set(per_race) == {3}  # ... in 3 of the 12 lineups: C(3, 2) sets hold the bot


@pytest.mark.parametrize(
    ("bots", "message"),
    [
        (
            ["luce:1"],
            "ladder: --bots needs at least two bots to rate against each other "
            "(got luce:1; known: luce)",
        ),
        (["luce:1", "luce:1"], "ladder: bot 'luce:1' is named twice in --bots"),
        (["luce:1", "dice"], "lucerace: unknown bot 'dice' (known: luce)"),
    ],
)
def test_scenario_rejects_bad_bots_in_one_line(bots, message):
    with pytest.raises(SimkitError) as exc:
        scenario("lucerace", bots)
    assert str(exc.value) == message


def test_scenario_rejects_players_out_of_range():
    with pytest.raises(SimkitError, match=r"lucerace: players must be between 2 and 6 \(got 7\)"):
        scenario("lucerace", ["luce:1", "luce:2"], players=7)


def test_design_of_reads_a_ladder_and_rejects_other_runs():
    sc = scenario("lucerace", ["luce:1", "luce:2", "luce:3"], players=2, races=10)
    manifest = {"scenario": sc.to_json()}
    assert design_of(manifest) == lineups(["luce:1", "luce:2", "luce:3"], 2)
    manifest["scenario"]["grid"]["bots"].pop()
    with pytest.raises(SimkitError, match="not a ladder run"):
        design_of(manifest)
