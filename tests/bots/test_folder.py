"""``simkit bots tune`` keeps its folder as a run keeps its own (issue 37): one writer, no
user's folder without --force, a state of its own tuning only, settings checked, the code it
started with, bounds before work, and the fit in its own bots file."""

from __future__ import annotations

import json
import shutil

import pytest

from simkit.errors import RunError, SimkitError
from simkit.runner import inputs
from simkit.tune.bots import folder, presets, run
from simkit.tune.bots import search as tune

TINY = {"races": 30, "budget": 12, "confirm": 20, "seed": 1}
AGAIN = "the search starts again from its first generation and ends where it would have"


@pytest.fixture
def tuned(tmp_path):
    """A finished tiny tuning in tmp_path/t."""
    out = tmp_path / "t"
    done = run.start(tune.settings("aimrace", "aim", **TINY), out)
    return out, done


def test_a_second_writer_is_refused(tuned):
    out, _ = tuned
    with folder.lock(out), pytest.raises(RunError) as err:
        run.resume(out)
    assert str(err.value).startswith(f"'{out}' is being written by another process (simkit bots")
    with folder.lock(out), pytest.raises(RunError, match="is being written by another process"):
        run.start(tune.settings("aimrace", "aim", **TINY), out, force=True)


def test_a_users_folder_or_a_run_needs_force(tmp_path):
    s = tune.settings("aimrace", "aim", **TINY)
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("mine")
    with pytest.raises(SimkitError) as err:
        run.start(s, mine)
    assert str(err.value) == (
        f"'{mine}' holds files simkit did not write as a bot tuning; choose another --out, "
        "or add --force to write the bot tuning there (files of the same names are replaced)"
    )
    assert sorted(p.name for p in mine.iterdir()) == ["notes.txt"]
    run.start(s, mine, force=True)
    assert (mine / "notes.txt").read_text() == "mine" and (mine / "bots.toml").is_file()


def test_a_finished_tuning_is_started_again_only_with_force(tuned):
    out, done = tuned
    s = tune.settings("aimrace", "aim", **{**TINY, "seed": 2})
    with pytest.raises(RunError, match="already holds a tuning; continue it with --resume"):
        run.start(s, out)
    again = run.start(s, out, force=True)  # nothing of the first tuning is kept
    assert again.confirmation != done.confirmation
    assert json.loads((out / "confirmation.json").read_text())["races"] == again.confirmation.races


@pytest.mark.parametrize(
    ("damage", "why"),
    [
        (lambda b: b[: len(b) // 2], "is damaged (its content does not match the sha256"),
        (lambda b: b"x" + b, "is not a state simkit bots tune saved (damaged, or saved by an"),
        (lambda b: b"", "is not a state simkit bots tune saved"),
    ],
)
def test_a_damaged_state_is_refused_and_the_remedy_works(tmp_path, tuned, damage, why):
    out, done = tuned
    state = out / folder.STATE
    state.write_bytes(damage(state.read_bytes()))
    with pytest.raises(RunError) as err:
        run.resume(out)
    assert str(err.value).startswith(f"'{state}' {why}")
    assert str(err.value).endswith(
        f"remove it and resume (`simkit bots tune --resume {out}`): {AGAIN}"
    )
    state.unlink()
    assert run.resume(out).weights == done.weights


def test_a_state_of_another_tuning_is_refused(tmp_path, tuned):
    out, _ = tuned
    other = tmp_path / "other"
    run.start(tune.settings("aimrace", "aim", **{**TINY, "seed": 9}), other)
    shutil.copy(other / folder.STATE, out / folder.STATE)
    with pytest.raises(RunError, match=r"was saved by another tuning \(not the one tune.json"):
        run.resume(out)


@pytest.mark.parametrize(
    ("change", "why"),
    [
        ({"races": "x"}, "key 'races' must be a whole number (got 'x')"),
        ({"races": 10**15}, "--races must be 1 to 200,000 (got 1,000,000,000,000,000)"),
        ({"field": []}, "key 'field' must be a list of bot names (got [])"),
        ({"mine": 1}, "key 'mine' is no setting of simkit bots tune"),
    ],
)
def test_settings_edited_by_hand_are_one_line(tuned, change, why):
    out, _ = tuned
    path = out / "tune.json"
    path.write_text(json.dumps({**json.loads(path.read_text()), **change}))
    with pytest.raises(RunError) as err:
        run.resume(out)
    assert str(err.value) == (
        f"'{path}': {why}; the tuning cannot be continued: start it again with --force"
    )


def test_a_tuning_resumed_by_other_code_is_refused(tuned, monkeypatch):
    out, _ = tuned
    real = inputs.code_record
    monkeypatch.setattr(inputs, "code_record", lambda g: {**real(g), "simkit/rng.py": "0" * 16})
    with pytest.raises(RunError, match=r"'simkit/rng.py' has changed since the tuning started"):
        run.resume(out)


@pytest.mark.parametrize(
    ("key", "option"), [("races", "races"), ("confirm", "confirm"), ("budget", "evaluations")]
)
def test_counts_are_bounded_before_any_work(key, option):
    with pytest.raises(SimkitError, match=rf"^--{option} must be 1 to [\d,]+ \(got "):
        tune.settings("aimrace", "aim", **{**TINY, key: 10**15})


def test_a_bots_file_plays_its_fits_by_name_and_renames_none_that_ship(tmp_path, tuned):
    out, done = tuned
    spec = "aim[" + "/".join(f"{w:g}" for w in done.weights) + "]"
    fits = presets.aliases(out / "bots.toml", "aimrace")
    assert presets.played_as(["aim", "aim:fitted"], fits) == ["aim", spec]
    assert presets.played_as("search@aim:fitted", fits) == f"search@{spec}"
    shipped = tmp_path / "bots.toml"  # the game's own file (tests/bots/conftest.py)
    shipped.write_text("[aim.fitted]\nweights = [0.0, 0.0, 1.0]\n")
    with pytest.raises(SimkitError) as err:
        presets.aliases(out / "bots.toml", "aimrace")
    assert str(err.value) == (
        f"bots file '{out / 'bots.toml'}': [aim.fitted] has the name of a bot simkit ships "
        "('aim:fitted'); rename the table"
    )
    bad = tmp_path / "bad.toml"
    bad.write_text("[aim.x]\nweights = [1.0, nan, 1.0]\n")
    with pytest.raises(SimkitError, match=r"\[aim.x\] needs weights = \[...\] of 3 finite"):
        presets.aliases(bad, "aimrace")
    bad.write_text("[nope.x]\nweights = [1.0]\n")
    with pytest.raises(
        SimkitError, match=r"\[nope\] is not a bot aimrace can fit \(it fits: aim\)"
    ):
        presets.aliases(bad, "aimrace")
