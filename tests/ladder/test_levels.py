"""The level check (simkit.runner.levels) on the Luce race, whose bots' strengths are known."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from simkit import load
from simkit.games.cells import build_cell
from simkit.runner import start
from simkit.runner.levels import COLUMNS, check, check_cell, looks
from simkit.runner.scenario_file import parse


def test_the_check_measures_the_order_and_flags_a_level_not_stronger_than_the_one_below():
    # Listed weakest first, but luce:0.5 is weaker than luce:1 below it; luce:2 is stronger.
    found = check("lucerace", ["luce:0", "luce:1", "luce:0.5", "luce:2"], players=4, races=300)
    t = found.table.set_index("skill")
    assert list(found.table["skill"]) == ["luce:0", "luce:1", "luce:0.5", "luce:2"]
    assert t["rung"].to_dict() == {"luce:2": 1, "luce:1": 2, "luce:0.5": 3, "luce:0": 4}
    assert t["verdict"].to_dict() == {
        "luce:0": "",
        "luce:1": "stronger",
        "luce:0.5": "weaker",
        "luce:2": "stronger",
    }
    assert t["flag"].tolist() == [False, False, True, False]
    assert t.loc["luce:0.5", "below"] == "luce:1"
    # The truth (-0.5) lies in the interval of the difference, and head to head agrees.
    assert t.loc["luce:0.5", "diff_low"] < -0.5 < t.loc["luce:0.5", "diff_high"]
    assert t.loc["luce:0.5", "share_high"] < 0.5
    assert t.loc["luce:1", "races"] == 2 * 300  # the ladder's 2 lineups at 4 seats
    assert found.flagged == [
        t.loc["luce:0.5", "sentence"],
    ]
    assert found.flagged[0].startswith("luce:0.5 is weaker than luce:1 on 4 players: -0.")


def test_equal_levels_are_level_and_flagged_however_much_slot_1_is_worth():
    cell = build_cell("lucerace", players=2, overrides={"slot_bonus": 2.0})
    found = check_cell(cell, ["luce:0", "luce:0.0"], races=400, seed=3)
    row = found.table.iloc[1]
    assert row["verdict"] == "level" and row["flag"]
    # Seats rotated on common keys: the two equal bots trade every race's luck exactly.
    assert row["diff_low"] <= 0 <= row["diff_high"]
    assert row["share_low"] <= 0.5 <= row["share_high"]
    assert "is not stronger than luce:0 on 2 players: they are level" in row["sentence"]


def test_same_seed_same_table_at_any_thread_count():
    a = check("lucerace", ["luce:0", "luce:0.4"], players=3, races=200, seed=7, threads=1)
    b = check("lucerace", ["luce:0", "luce:0.4"], players=3, races=200, seed=7, threads=2)
    pd.testing.assert_frame_equal(a.table, b.table)


SCENARIO = {
    "game": "lucerace",
    "players": 2,
    "skill": ["luce:0", "luce:1"],
    "races": 100,
    "grid": {"slot_bonus": [0.0, 1.0]},
    "level_races": 150,
}


def test_a_run_with_a_skill_axis_stores_the_check_and_load_exposes_it(tmp_path):
    start(parse(SCENARIO, "levels.toml"), tmp_path / "run")
    res = load(tmp_path / "run")
    lv = res.levels
    assert list(lv.columns) == list(COLUMNS)
    assert lv["cell"].tolist() == [0, 1, 2, 3] and lv["setting"].tolist() == [0, 0, 1, 1]
    assert lv["skill"].tolist() == ["luce:0", "luce:1"] * 2
    assert lv["verdict"].tolist() == ["", "stronger"] * 2
    assert lv["races"].tolist() == [0, 300, 0, 300]
    assert "levels.parquet" in res.manifest["files"]
    assert res.manifest["scenario"]["level_races"] == 150
    # The same seed gives the same table, with one setting checked on its own.
    own = check_cell(
        build_cell("lucerace", players=2, overrides={"slot_bonus": 1.0}),
        ["luce:0", "luce:1"],
        races=150,
    )
    got = lv[lv["setting"] == 1].drop(columns=["cell", "setting"]).reset_index(drop=True)
    np.testing.assert_allclose(got["diff"], own.table["diff"])
    assert got["sentence"].tolist() == own.table["sentence"].tolist()


def test_check_levels_false_stores_nothing_and_keys_need_a_skill_axis(tmp_path):
    start(parse({**SCENARIO, "check_levels": False}, "off.toml"), tmp_path / "off")
    res = load(tmp_path / "off")
    assert res.levels is None and "levels.parquet" not in res.manifest["files"]
    no_skill = {k: v for k, v in SCENARIO.items() if k != "skill"}
    with pytest.raises(Exception, match=r"key 'level_races': checks the order of skill levels"):
        parse(no_skill, "x.toml")


def test_a_run_tells_its_game_every_bot_it_will_play_before_the_first_race(tmp_path, monkeypatch):
    """``Game.expect`` hears the cells' bots and the level check's reference (so a game can
    compile one kernel for all of them), and no reference where the check is off."""
    from simkit.games import get

    heard = []
    game = get("lucerace")
    monkeypatch.setattr(type(game), "expect", lambda self, bots: heard.append(list(bots)))
    start(parse({**SCENARIO, "reference": "luce:1.5"}, "ref.toml"), tmp_path / "ref")
    start(parse({**SCENARIO, "check_levels": False}, "off.toml"), tmp_path / "off")
    # the run's cells and reference, then its level check's bots (the ladder's path too)
    assert heard == [
        ["luce:0", "luce:1", "luce:1.5"],
        ["luce:0", "luce:1", "luce:1.5"],
        ["luce:0", "luce:1", "luce:1.5"],
        ["luce:0", "luce:1"],
    ]


def test_a_damaged_levels_table_is_checked_again_on_resume(tmp_path):
    from simkit.runner import resume

    start(parse(SCENARIO, "levels.toml"), tmp_path / "run")
    before = load(tmp_path / "run").levels
    (tmp_path / "run" / "levels.parquet").write_bytes(b"broken")
    summary = resume(tmp_path / "run")
    assert any(
        "levels.parquet was damaged or missing: checked again" in s for s in summary.repaired
    )
    pd.testing.assert_frame_equal(load(tmp_path / "run").levels, before)


def test_a_field_and_the_reference_are_measured_and_the_top_level_certified():
    """A field of two equally strong bots over luce:0, certified against a stronger
    reference (luce:1.5): every pair it plays and every pair it only rates, the field's
    bots level with each other, both weaker than the reference, in words."""
    found = check(
        "lucerace",
        ["luce:0", ("strong field", ["luce:1", "luce:1.0"])],
        players=3,
        races=300,
        reference="luce:1.5",
        reference_races=200,
    )
    p = found.pairs.set_index(["lower", "upper"])
    assert p["kind"].to_dict() == {
        ("luce:0", "luce:1"): "adjacent",
        ("luce:0", "luce:1.0"): "adjacent",
        ("luce:0", "luce:1.5"): "rated",
        ("luce:1", "luce:1.0"): "field",
        ("luce:1.5", "luce:1"): "reference",
        ("luce:1.5", "luce:1.0"): "reference",
    }
    # The reference pairs stop at an interim look (half of reference_races): luce:1 is far
    # below luce:1.5 (about 40% head to head), so z = 3 settles it before the end.
    assert p["planned"].to_dict()[("luce:1.5", "luce:1")] == 2 * 200  # reference_races
    assert p["races"].to_dict()[("luce:1.5", "luce:1")] == 2 * 100
    assert p.loc[("luce:1.5", "luce:1"), "sentence"].endswith(
        " An interim look (z = 3) settled it after 200 of its 400 races."
    )
    assert (
        p["races"].to_dict()[("luce:0", "luce:1.0")]
        == p["planned"].to_dict()[("luce:0", "luce:1.0")]
    )  # only the reference's pairs have interim looks
    assert p["races"].to_dict()[("luce:0", "luce:1.0")] == 2 * 300
    assert p.loc[("luce:1", "luce:1.0"), "verdict"] == "level"
    assert not p.loc[("luce:1", "luce:1.0"), "separated"]
    assert p.loc[("luce:0", "luce:1.5"), "separated"] and np.isnan(
        p.loc[("luce:0", "luce:1.5"), "share"]
    )
    t = found.table.set_index("skill")
    assert t["field"].to_dict() == {
        "luce:0": "luce:0",
        "luce:1": "strong field",
        "luce:1.0": "strong field",
    }
    assert t["certified"].to_dict() == {"luce:0": "", "luce:1": "weaker", "luce:1.0": "weaker"}
    assert t.loc["luce:1", "ref_share_high"] < 0.45
    assert (t.loc["luce:1", "ref_races"], t.loc["luce:1", "ref_planned"]) == (200, 400)
    assert found.uncertified[0].startswith("luce:1 is weaker than luce:1.5 on 3 players: head ")
    assert found.uncertified[0].endswith(
        "; these are a weaker player's verdicts. An interim look (z = 3) settled it after 200"
        " of its 400 races."
    )


def test_a_top_level_as_strong_as_the_reference_or_the_reference_itself():
    same = check("lucerace", ["luce:0", "luce:1"], players=2, races=300, reference="luce:1.0")
    top = same.table.iloc[1]
    assert top["certified"] == "as strong" and top["ref_share_low"] >= 0.45
    assert top["ref_sentence"] == (
        "luce:1 is as strong as luce:1.0 on 2 players: head to head 50.0% [50.0, 50.0]."
        " An interim look (z = 3) settled it after 150 of its 600 races."
    )
    own = check("lucerace", ["luce:0", "luce:1"], players=2, races=100, reference="luce:1")
    assert own.table["certified"].tolist() == ["", "reference"]
    assert list(own.pairs["kind"]) == ["adjacent"]  # no match with itself
    assert own.uncertified == []


@pytest.mark.parametrize(("truth", "want"), [(0.0, "as strong"), (-0.45, "weaker")])
def test_the_certificate_errs_at_most_5_percent_where_the_truth_is_known(truth, want):
    """100 simulated certificates of 2-seat races, 1,000 races a lineup: a top bot exactly
    as strong as the reference is called weaker at most 5% of the time (in fact never: that
    needs its share's interval below 50% and past 45%), and one clearly weaker (rating
    -0.45: about 39% head to head) is never certified as strong."""
    from simkit.ratings import pair_share
    from simkit.runner.levels import certificate
    from tests.ladder.synthetic import draw

    got = [
        certificate(pair_share(draw([truth, 0.0], [(0, 1), (1, 0)], 1000, seed), 0, 1))
        for seed in range(100)
    ]
    wrong = "weaker" if want == "as strong" else "as strong"
    assert got.count(wrong) <= 5 and got.count(want) >= 90, got


def test_the_interim_looks_settle_only_clear_certificates_and_change_nothing_else(
    monkeypatch,
):
    """A top bot a little below the reference (luce:0.8 against luce:1, about 45% head to
    head) is not settled at z = 3 after a quarter or a half of its races: it plays them all,
    and its tables are exactly those of the check without interim looks."""
    import simkit.runner.levels as levels

    args = dict(players=2, races=200, reference="luce:1", reference_races=400)
    looked = check("lucerace", ["luce:0", "luce:0.8"], **args)
    monkeypatch.setattr(levels, "INTERIM", ())
    plain = check("lucerace", ["luce:0", "luce:0.8"], **args)
    assert looked.table["ref_races"].tolist() == [0, 800]
    assert looked.table["ref_planned"].tolist() == [0, 800]
    pd.testing.assert_frame_equal(looked.table, plain.table)
    pd.testing.assert_frame_equal(looked.pairs, plain.pairs)


def test_looks_are_a_quarter_and_a_half_of_the_races_when_both_are_big_enough():
    assert looks(1000) == (250, 500, 1000)
    assert looks(100) == (25, 50, 100)
    assert looks(60) == (30, 60)  # a quarter is below MIN_LOOK (20 races a lineup)
    assert looks(39) == (39,)
    assert looks(1) == (1,)


def _sequential(o, races):
    """The certificate of simulated matches ``o`` as the check reaches it: interim looks
    (:func:`looks`), then the last; and the races a lineup it played."""
    from simkit.ratings import pair_share
    from simkit.runner.levels import certificate, settled_early

    for n in looks(races)[:-1]:
        part = o.key < n
        sub = type(o)(o.bots, o.bot[part], o.place[part], o.key[part], o.decided[part])
        if settled_early(sub, "bot0", "bot1"):
            return certificate(pair_share(sub, 0, 1)), n
    return certificate(pair_share(o, 0, 1)), races


@pytest.mark.parametrize(("truth", "want"), [(0.0, "as strong"), (-0.45, "weaker")])
def test_the_sequential_certificate_errs_at_most_5_percent_where_the_truth_is_known(truth, want):
    """The certificate as the check reaches it, interim looks included: 100 simulated
    checks of 2-seat races, 1,000 races a lineup, looked at after 250 and 500. The looks'
    z = 3 keeps both errors within the 5% of one look at the end."""
    from tests.ladder.synthetic import draw

    got = [
        _sequential(draw([truth, 0.0], [(0, 1), (1, 0)], 1000, seed), 1000) for seed in range(100)
    ]
    certs = [c for c, _ in got]
    wrong = "weaker" if want == "as strong" else "as strong"
    assert certs.count(wrong) <= 5 and certs.count(want) >= 85, got
    if want == "weaker":  # about 39% head to head: settled at an interim look nearly always
        assert sum(n < 1000 for _, n in got) >= 75, got


@pytest.mark.parametrize("truth", [0.0, -0.45])
def test_early_looks_on_few_races_agree_with_the_last_look(truth, monkeypatch):
    """The smallest looks (100 races a lineup: looked at after 25 and 50, the demo's size)
    rest on a normal approximation of few races. In 200 simulated matches each they change
    no certificate the single look at the end would give (at most 2 of 200 may differ): an
    equal player is still called weaker at most 5 times, one at 39% never certified."""
    import simkit.runner.levels as levels
    from tests.ladder.synthetic import draw

    matches = [draw([truth, 0.0], [(0, 1), (1, 0)], 100, seed) for seed in range(200)]
    looked = [_sequential(o, 100)[0] for o in matches]
    monkeypatch.setattr(levels, "INTERIM", ())
    single = [_sequential(o, 100)[0] for o in matches]
    assert sum(a != b for a, b in zip(looked, single, strict=True)) <= 2
    wrong = "weaker" if truth == 0.0 else "as strong"
    assert looked.count(wrong) <= 5, looked


FIELD = {
    "game": "lucerace",
    "players": 2,
    "skill": ["luce:0", {"field": ["luce:1", "luce:1.0"], "races": 80}],
    "races": 100,
    "level_races": 120,
    "reference": "luce:1.5",
    "reference_races": 90,
}


def test_a_run_with_a_field_stores_both_tables_and_the_report_says_so_first(tmp_path):
    from simkit.report import build

    start(parse(FIELD, "field.toml"), tmp_path / "run")
    res = load(tmp_path / "run")
    assert res.levels["skill"].tolist() == ["luce:0", "luce:1", "luce:1.0"]
    assert res.levels["certified"].tolist() == ["", "weaker", "weaker"]
    assert set(res.level_pairs["kind"]) == {"adjacent", "field", "reference", "rated"}
    assert res.level_pairs["lower_cell"].min() == -1  # the reference plays no cell
    assert {"levels.parquet", "level_pairs.parquet"} <= set(res.manifest["files"])
    assert res.manifest["scenario"]["skill"][1] == {
        "field": ["luce:1", "luce:1.0"],
        "name": "strong field",
        "races": 80,
    }
    build(res, tmp_path / "report")
    md = (tmp_path / "report" / "report.md").read_text()
    answer = md.split("## Answer", 1)[1].split("\n## ", 1)[0]
    assert "luce:1 is weaker than luce:1.5 on 2 players: head to head " in answer
    assert "top level as strong as luce:1.5 in 0 of 1 settings" in md.split("## Answer")[0]
    assert "top level weaker than luce:1.5 here" in answer


def test_scenario_fields_and_references_are_checked_up_front():
    from simkit.errors import ScenarioError

    snow = {"game": "snowtails", "races": 10}

    def error(data) -> str:
        with pytest.raises(ScenarioError) as info:
            parse(data, "s.toml")
        return str(info.value)

    one_policy = ["search:8h2vp3@policy:distilled", "search:6h2wp3c4@policy:distilled"]
    assert error({**snow, "skill": ["greedy", {"field": one_policy}]}) == (
        "scenario 's.toml', key 'skill.field': 'search:8h2vp3@policy:distilled' and "
        "'search:6h2wp3c4@policy:distilled' are both built on policy:distilled: a field needs "
        "players of independent construction (GLOSSARY: strong field), e.g. a model-free "
        "search beside a distilled one"
    )
    assert "a field is two or more distinct bot names" in error(
        {**snow, "skill": [{"field": ["search:64"]}]}
    )
    assert error({**snow, "skill": [{"field": ["greedy", "search:64"]}, "search:16"]}) == (
        "scenario 's.toml', key 'skill.field': a field below the top level needs a name "
        '(name = "..."); field 1 has none'
    )
    assert error({**snow, "skill": ["greedy"], "check_levels": False, "reference": "search"}) == (
        "scenario 's.toml', key 'reference': the top level is checked against the reference "
        "by the level check; drop check_levels = false, or give reference = false"
    )
    assert "unknown key (did you mean 'skill.field'?)" in error(
        {**snow, "skill": [{"fields": ["greedy", "search:64"], "field": ["random", "greedy"]}]}
    )
    sc = parse({**snow, "skill": ["greedy", {"field": ["search:64", one_policy[1]]}]}, "s.toml")
    assert sc.reference == "search:64" and sc.levels[1] == ("strong field", sc.skill[1:])
    assert parse({**snow, "skill": ["greedy"], "reference": False}, "s.toml").reference is None


def test_a_strong_level_of_one_player_is_said_to_be_one_style(tmp_path):
    """A top level as strong as the reference, but alone: its verdicts are one player's."""
    from simkit.report import build

    one = {**FIELD, "skill": ["luce:0", "luce:1.5"], "reference": "luce:1.5"}
    start(parse(one, "one.toml"), tmp_path / "run")
    build(load(tmp_path / "run"), tmp_path / "report")
    answer = (tmp_path / "report" / "report.md").read_text().split("## Answer", 1)[1]
    assert (
        "The strong level is one player (luce:1.5): its verdicts are one style of strong "
        in (answer.split("\n## ", 1)[0])
    )
    assert "top level is luce:1.5" in answer
