"""simkit tune on the slot race, whose fair compensation is known (tests/tune/slotrace.py)."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from simkit import tune
from simkit.tune import study
from tests.tune import killable
from tests.tune.slotrace import FAIR

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = """
title = "Slot race compensation"
game = "slotrace"
players = 3
bots = "any"
seed = 5
"""
SPACE = """
[comp]
elements = [2, 3]
low = 0
high = 10
order = "non-decreasing"
"""
SMALL = {"budget": 60_000, "min_races": 500, "max_races": 4_500, "confirm": 20_000}
# The uninterrupted tuning the kill and full-disk tests end up at: played once a module.
WHOLE = {"budget": 30_000, "min_races": 500, "max_races": 4_500, "confirm": 3_000, "top": 1}


def _files(tmp_path: Path, scenario: str = SCENARIO, space: str = SPACE) -> tuple[Path, Path]:
    (tmp_path / "s.toml").write_text(scenario)
    (tmp_path / "space.toml").write_text(space)
    return tmp_path / "s.toml", tmp_path / "space.toml"


def _trials(out: Path) -> list[tuple]:
    """What the study decided, trial by trial, leaving out trials lost to a kill."""
    s = study.load_settings(out)
    st = study.open_study(out, s)
    return [
        (t.user_attrs["key"], t.state.name, t.value, dict(t.intermediate_values))
        for t in st.get_trials()
        if t.state.name != "FAIL"
    ]


@pytest.fixture(scope="module")
def whole(tmp_path_factory):
    """One uninterrupted tuning with ``WHOLE``'s settings, its best and its trials: what an
    interrupted one (a kill, a full disk) must end up deciding. Its folder is its own, so
    the tests that compare against it share one tuning (the search is a pure function of its
    settings: same candidates, rungs and values in any folder)."""
    import simkit.games
    from tests.tune.slotrace import GAME

    simkit.games.names()
    with pytest.MonkeyPatch.context() as mp:
        mp.setitem(simkit.games._REGISTRY, "slotrace", GAME)
        tmp = tmp_path_factory.mktemp("whole")
        (tmp / "in").mkdir()
        s = tune.settings(*_files(tmp / "in"), **WHOLE)
        done = tune.start(s, tmp / "whole")
        yield done, _trials(tmp / "whole")


def test_tune_finds_the_fair_table_within_its_budget(tmp_path):
    s = tune.settings(*_files(tmp_path), **SMALL)
    done = tune.start(s, tmp_path / "out")
    assert done.best == {"comp": [*FAIR, 0]}
    v = done.confirmation
    assert v["label"].iloc[0] == "the book's values"  # cell 0 of the confirmation
    best = v[v["label"] == "comp [0,3,6,0] (book [0,0,0,0])"].iloc[0]
    assert best["paired"] == "better" and best["high"] < 2.0  # within 2 pp of fair, surely
    assert study.spent(study.open_study(tmp_path / "out", s)) <= SMALL["budget"]
    html = done.report.read_text()
    assert "Best found: comp [0,3,6,0] (book [0,0,0,0])" in html
    # Issue 35: the search table names candidates in words beside the book's, not as JSON.
    top = pd.read_csv(done.report.parent / "top_trials.csv")
    assert not top["candidate"].str.contains("{", regex=False).any()
    assert "comp [0,3,6,0] (book [0,0,0,0])" in set(top["candidate"])
    for name in ("history.png", "history.csv", "confirmation.csv", "summary.json"):
        assert (done.report.parent / name).is_file()
    assert (done.report.parent / "confirmation" / "index.html").is_file()
    # Issue 35: the confirmation's report printed `simkit run SCENARIO`, which plays the
    # scenario without the candidates; it names the tuning that made it.
    confirmed = (done.report.parent / "confirmation" / "report.md").read_text()
    assert f"```\n{s.command()}\n```" in confirmed and "simkit run " not in confirmed
    line = json.loads((done.report.parent / "summary.json").read_text())["cells"][0]
    assert line["verdict"] == "fair"


def test_the_book_is_played_first_and_poor_candidates_stop_early(tmp_path):
    s = tune.settings(*_files(tmp_path), budget=20_000, min_races=500, max_races=4_500)
    study.create(s, tmp_path / "out")
    study.search(tmp_path / "out")
    trials = _trials(tmp_path / "out")
    assert json.loads(trials[0][0]) == {"comp": [0, 0, 0, 0]}  # the book's table
    assert trials[0][1] == "COMPLETE" and sorted(trials[0][3]) == [500, 1_500, 4_500]
    rungs = {len(t[3]) for t in trials if t[1] == "PRUNED"}
    assert 1 in rungs  # some candidates played only the first rung


def test_a_kill_9_in_the_middle_resumes_to_the_same_study(tmp_path, whole):
    """One worker killed mid-candidate and resumed (`simkit tune --resume`) decides exactly
    what one uninterrupted worker decides: same candidates, same rungs, same objective
    values, and it ends with the same best candidate."""
    s = tune.settings(*_files(tmp_path), **WHOLE)
    whole, whole_trials = whole
    study.create(s, tmp_path / "killed")
    marker = tmp_path / "killed" / killable.MARKER
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    cmd = [sys.executable, "-m", "tests.tune.killable", str(tmp_path / "killed")]
    child = subprocess.Popen(cmd, cwd=ROOT, env=env)
    try:
        deadline = time.monotonic() + 120
        while not marker.exists() and child.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        assert marker.exists(), "the worker never reached the middle of a candidate"
        child.send_signal(signal.SIGKILL)
    finally:
        child.wait(30)
    assert child.returncode == -signal.SIGKILL
    st = study.open_study(tmp_path / "killed", s)
    lost = [t for t in st.get_trials() if t.state.name == "RUNNING"]
    assert len(lost) == 1 and lost[0].user_attrs["races"] > 0  # played a rung, not all
    before = len([t for t in st.get_trials() if t.state.name != "RUNNING"])
    assert killable.AFTER - 1 <= before < len(whole_trials)
    resumed = tune.resume(tmp_path / "killed")
    got = study.open_study(tmp_path / "killed", s).get_trials()
    assert [t.number for t in got if t.state.name == "FAIL"] == [lost[0].number]
    assert _trials(tmp_path / "killed") == whole_trials
    assert resumed.best == whole.best
    pd.testing.assert_frame_equal(resumed.confirmation, whole.confirmation)


def test_the_same_candidate_is_played_once(tmp_path):
    space = "[course]\nvalues = [5, 6]\n"
    s = tune.settings(*_files(tmp_path, space=space), budget=50_000, min_races=100, max_races=900)
    study.create(s, tmp_path / "out")
    study.search(tmp_path / "out")
    st = study.open_study(tmp_path / "out", s)
    played = [t for t in st.get_trials() if "same_as" not in t.user_attrs]
    assert len({t.user_attrs["key"] for t in played}) == len(played) <= 3  # book, 5, 6
    assert study.spent(st) == 900 * len(played)  # repeats cost nothing; the search stops
    assert study.repeats(st) == study.MAX_REPEATS
    assert study.search(tmp_path / "out") == 0  # resumed, it asks nothing more


@pytest.mark.parametrize(
    ("space", "opts", "says"),
    [
        ("[comp]\nlow = 0\nhigh = 11\n", {}, "comp must be between 0 and 10"),
        ("[compp]\nlow = 0\nhigh = 1\n", {}, "space '"),
        ("[course]\nlow = 1\nhigh = 3\n", {"objective": "dents=3"}, "neither fairness"),
        ("[course]\nlow = 1\nhigh = 3\n", {"budget": 100}, "cannot pay for one full"),
        ("[course]\nlow = 1\nhigh = 3\norder = 'non-decreasing'\n", {}, "applies to lists"),
        (
            "[course]\nlow = 1\nhigh = 3\n[[reference]]\ncomp = [0, 1, 2, 0]\n",
            {},
            "key 'reference': 'comp' is no key of the space (course)",
        ),
        (
            "[course]\nlow = 1\nhigh = 3\n[[reference]]\ncourse = 99\n",
            {},
            "key 'reference': the scenario rejects reference 1: slotrace.course must be",
        ),
        ("reference = 4\n[course]\nlow = 1\nhigh = 3\n", {}, "must be a list of tables"),
        ("[course]\nlow = 1\nhigh = 3\n[search]\nbudgett = 9\n", {}, "key 'search.budgett'"),
        ("[course]\nlow = 1\nhigh = 3\n[search]\ntop = 0\n", {}, "whole number from 1"),
        ("[course]\nlow = 1\nhigh = 3\n[search]\nbudget = 100\n", {}, "cannot pay for one"),
    ],
)
def test_mistakes_are_one_line_naming_the_key(tmp_path, space, opts, says):
    from simkit.errors import SimkitError

    with pytest.raises(SimkitError) as err:
        tune.settings(*_files(tmp_path, space=space), **opts)
    assert says in str(err.value) and "\n" not in str(err.value)


def test_the_space_file_sets_the_search_and_the_command_line_wins(tmp_path):
    space = "[course]\nlow = 1\nhigh = 3\n[search]\nbudget = 12345\ntop = 2\n"
    s = tune.settings(*_files(tmp_path, space=space), top=4)
    assert (s.budget, s.top, s.confirm) == (12_345, 4, study.DEFAULTS["confirm"])
    assert "--budget 12345" in s.command() and "--top 4" in s.command()


def test_references_are_played_first_and_confirmed_beside_the_book(tmp_path):
    space = "[course]\nlow = 2\nhigh = 25\n\n[[reference]]\ncourse = 9\n"
    s = tune.settings(
        *_files(tmp_path, space=space),
        objective="rounds=12",
        budget=20_000,
        min_races=300,
        max_races=2_700,
        confirm=3_000,
        top=1,
    )
    done = tune.start(s, tmp_path / "out")
    trials = _trials(tmp_path / "out")
    assert [json.loads(t[0])["course"] for t in trials[:2]] == [8, 9]  # the book, the reference
    v = done.confirmation
    assert list(v["role"]) == ["book", "reference", "found"]
    found = v.iloc[2]
    assert found["label"] == "course 11 (book 8)" and found["against"] == "better"
    assert abs(found["vs_reference"] - (-2.0)) < 0.1  # |10 - 12| = 2 for course 9, 0 for 11
    assert "Against the best reference, course 9 (book 8)" in done.report.read_text()
    # Issue 35: the answer names what the change does to the races (course 8 to 11: three
    # rounds longer), beyond the tolerance of half a round.
    md = (done.report.parent / "report.md").read_text()
    assert (
        "Side effects of course 11 (book 8) against the book's: median race length +3 rounds"
        in md.split("## Confirmation")[0]
    )
    assert (done.report.parent / "side_effects.csv").is_file()


def test_a_skill_axis_is_tuned_at_every_level_on_the_same_races(tmp_path):
    """Bots from the skill ladder: every candidate plays each level (a level's own race
    count is for `simkit run`; tuning and confirmation play every level alike), and the
    worst level is the candidate's value."""
    from simkit.runner import expand
    from simkit.tune import confirm, objective

    scenario = (
        'game = "snowtails"\ntrack = "nutcracker"\nplayers = 4\nseed = 3\n'
        'skill = ["greedy:tuned", {bot = "search:8", races = 50}]\n'
    )
    space = "[extra_cards]\nelements = [4, 5]\nlow = 0\nhigh = 2\n"
    s = tune.settings(*_files(tmp_path, scenario, space), budget=10_000, max_races=3_000)
    cells = study.cells(s, {"extra_cards": [0, 0, 0, 2, 2]})
    assert [pc.cell.bots for pc in cells] == [("greedy:tuned",) * 4, ("search:8",) * 4]
    assert {pc.cell.variant.extra_cards for pc in cells} == {(0, 0, 0, 2, 2)}
    sc = confirm.scenario(s, [{"extra_cards": [0, 0, 0, 2, 2]}])
    assert {pc.races for pc in expand(sc)} == {None} and sc.races == s.confirm
    fair, unfair = (
        objective.Counts(4, 100, 100, {1: 25, 2: 25, 3: 25, 4: 25}),
        objective.Counts(4, 100, 100, {1: 40, 2: 20, 3: 20, 4: 20}),
    )
    assert objective.value(s.terms(), [fair, unfair]) == pytest.approx(15.0)


def test_a_full_disk_is_one_line_and_the_tuning_resumes_to_the_same_study(
    tmp_path, monkeypatch, whole
):
    """SQLite's "database or disk is full" in the middle of a candidate (a fake writer: the
    storage fails on the 4th candidate's first rung): one line naming the study and the
    remedy; the remedy, followed, ends with the study of an uninterrupted tuning."""
    import sqlalchemy.exc

    from simkit.errors import RunError

    s = tune.settings(*_files(tmp_path), **WHOLE)
    whole, whole_trials = whole
    real, calls = study.play, {"n": 0}

    def full(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 4:
            orig = sqlite3.OperationalError("database or disk is full")
            raise sqlalchemy.exc.OperationalError("INSERT", {}, orig)
        return real(*args, **kwargs)

    monkeypatch.setattr(study, "play", full)
    out = tmp_path / "full"
    with pytest.raises(RunError) as info:
        tune.start(s, out)
    assert str(info.value) == (
        f"cannot write '{out / study.STUDY}' (no space left on the device); free some space, "
        f"then continue with `simkit tune --resume {out}`"
    )
    monkeypatch.setattr(study, "play", real)  # space freed (not undo: slotrace stays known)
    resumed = tune.resume(out)
    assert _trials(out) == whole_trials
    assert resumed.best == whole.best


def test_a_full_disk_while_the_study_is_made_says_run_again_and_that_works(
    tmp_path, monkeypatch, whole
):
    """The attack table: a disk full at the study's creation was a SQLAlchemy traceback."""
    import sqlalchemy.exc

    from simkit.errors import RunError

    s = tune.settings(*_files(tmp_path), **WHOLE)
    real = study._create_study

    def full(*args, **kwargs):
        orig = sqlite3.OperationalError("database or disk is full")
        raise sqlalchemy.exc.OperationalError("CREATE TABLE", {}, orig)

    monkeypatch.setattr(study, "_create_study", full)
    out = tmp_path / "t"
    with pytest.raises(RunError) as info:
        tune.start(s, out)
    assert str(info.value) == (
        f"cannot write '{out / study.STUDY}' (no space left on the device); free some space, "
        "then run the command again"
    )
    monkeypatch.setattr(study, "_create_study", real)  # space freed
    again = tune.start(s, out)  # the same command: no --force
    assert again.best == whole[0].best


def test_a_full_disk_in_the_confirmation_says_tune_resume_and_that_works(
    tmp_path, monkeypatch, whole
):
    """The confirmation is a run, but resuming the run alone writes no tuning report: the
    line names the tuning's own resume."""
    from simkit.errors import RunError
    from simkit.runner import storage

    s = tune.settings(*_files(tmp_path), **WHOLE)
    real, calls = storage._write_file, {"n": 0}

    def full(path, data):
        if "confirm" in str(path):
            calls["n"] += 1
            if calls["n"] == 5:
                raise OSError(28, "No space left on device", str(path))
        real(path, data)

    monkeypatch.setattr(storage, "_write_file", full)
    out = tmp_path / "t"
    with pytest.raises(RunError) as info:
        tune.start(s, out)
    assert str(info.value).endswith(
        f"(No space left on device); free some space, then resume with `simkit tune --resume {out}`"
    )
    monkeypatch.setattr(storage, "_write_file", real)
    done = tune.resume(out)
    assert done.report.is_file()
    assert done.best == whole[0].best


def test_a_tuning_never_writes_into_a_folder_that_is_not_a_tuning(tmp_path, monkeypatch):
    from simkit.errors import SimkitError

    monkeypatch.chdir(tmp_path)
    s = tune.settings(*_files(tmp_path), **SMALL)
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("mine")
    for out in ("mine", "nosuch/../mine"):
        with pytest.raises(SimkitError, match="holds files simkit did not write as a tuning"):
            tune.start(s, out)
    assert [p.name for p in (tmp_path / "mine").iterdir()] == ["notes.txt"]
    assert not (tmp_path / "nosuch").exists()


def test_a_reference_that_beats_the_search_on_confirmation_leads_the_answer():
    """The tune-extra-cards case of issue 25: the search's best (6.80) lost its confirmation
    to the hand-picked reference (6.30); the answer leads with the reference."""
    from types import SimpleNamespace

    import pandas as pd

    from simkit.tune.report import _answer

    row = dict.fromkeys(("vs_reference", "vs_reference_low", "vs_reference_high"), float("nan"))
    v = pd.DataFrame(
        [
            {"candidate": 0, "role": "book", "label": "the book's values", "objective": 7.14,
             "low": 6.84, "high": 7.42, **row},
            {"candidate": 1, "role": "reference", "label": "extra_cards=[0,1,1,2,2]",
             "objective": 6.30, "low": 6.0, "high": 6.6, **row},
            {"candidate": 2, "role": "found", "label": "extra_cards=[0,2,2,2,2]",
             "objective": 6.80, "low": 6.5, "high": 7.1, "vs_book": -0.34, "vs_book_low": -0.6,
             "vs_book_high": -0.1, "paired": "better", "vs_reference": 0.5,
             "vs_reference_low": 0.2, "vs_reference_high": 0.8, "against": "worse"},
        ]
    )  # fmt: skip
    fair = pd.DataFrame({"candidate": [0, 1, 2], "verdict": ["unfair"] * 3})
    from simkit.tune.objective import Goal

    unbounded = SimpleNamespace(objective="fairness", confirm=50000, goal=lambda: Goal(()))
    verdict, sentence, _ = _answer(v, fair, unbounded)
    assert sentence.startswith(
        "Best confirmed: the reference extra_cards=[0,1,1,2,2]: objective 6.30 [6.00, 6.60] pp "
        "on the fresh races, against 7.14 [6.84, 7.42] for the book's values. The search's "
        "best did not beat it: extra_cards=[0,2,2,2,2]: objective 6.80"
    )
    assert "+0.50 [+0.20, +0.80], worse." in sentence and verdict == "unfair"


def test_candidates_read_in_words_beside_the_book():
    """Issue 35: the tuning report printed ``track.corner.1.safety=8`` without the book's
    value, and its search table JSON dicts."""
    from simkit.tune.space import describe, key_text

    assert key_text("track.corner.1.safety") == "corner 1 safety"
    assert key_text("track.slot_order") == "slot order"
    assert key_text("extra_cards") == "extra_cards"
    book = {"track.corner.1.safety": 4, "track.corner.2.safety": 4, "extra_cards": [0, 0, 1]}
    values = {"track.corner.1.safety": 8, "track.corner.2.safety": 4, "extra_cards": [0, 2, 2]}
    assert describe(values, book) == (
        "corner 1 safety 8 (book 4), corner 2 safety 4 (as the book), "
        "extra_cards [0,2,2] (book [0,0,1])"
    )


BOUNDED = """
[comp]
elements = [2, 3]
low = 0
high = 10
order = "non-decreasing"

[course]
low = 4
high = 24
"""


def test_a_bound_keeps_the_race_length_of_the_book(tmp_path):
    """Issue 35: tuned for fairness alone, a longer course is as good as a compensation (it
    dilutes the start's edge) and makes races longer; bounded to the book's race length
    within half a round, only the compensation is left."""
    s = tune.settings(
        *_files(tmp_path, space=BOUNDED),
        objective="fairness; rounds_median<=0.5",
        budget=60_000,
        min_races=500,
        max_races=4_500,
        confirm=6_000,
        top=2,
    )
    assert s.goal().bounds == (("rounds_median", 0.5),)
    done = tune.start(s, tmp_path / "out")
    assert done.best["course"] == 8 and done.best["comp"][1] > 0
    v = done.confirmation
    best = v[v["role"] == "found"].sort_values("objective").iloc[0]
    assert bool(best["within_bounds"]) and best["rounds_median_change"] == 0
    md = (done.report.parent / "report.md").read_text().split("## Confirmation")[0]
    assert "Within its bounds against the book's: median race length +0 [" in md


def test_a_front_names_the_trade_of_fairness_for_race_length(tmp_path):
    """Issue 35: the front of fairness against the race length's distance from the book's,
    over the course alone: a longer course is fairer and longer, and the report says what
    each pp costs."""
    s = tune.settings(
        *_files(tmp_path, space="[course]\nlow = 8\nhigh = 24\n"),
        objective="fairness vs rounds_median",
        budget=40_000,
        max_races=2_000,
        confirm=4_000,
        top=3,
    )
    done = tune.start(s, tmp_path / "out")
    v = done.confirmation
    found = v[v["role"] == "found"]
    assert 2 <= len(found) <= 3
    # Along the front, the fairer the point the longer its races.
    order = found.sort_values("objective")["rounds_median_change"].tolist()
    assert order == sorted(order, reverse=True)
    md = (done.report.parent / "report.md").read_text()
    assert "The front trades the objective against the median race length" in md
    assert "costs about" in md and (done.report.parent / "front.png").is_file()
    from simkit.errors import SimkitError

    with pytest.raises(SimkitError, match=r"bounds .* or a front"):
        tune.settings(*_files(tmp_path), objective="fairness vs rounds_median; dents<=1")
