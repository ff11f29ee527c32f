"""simkit bots tune on the aim race, whose best weights are known (tests/bots/aimrace.py)."""

from __future__ import annotations

import tomllib

import numpy as np
import pytest

from simkit.errors import SimkitError
from simkit.games.cells import build_cell
from simkit.outcomes import pair_counts
from simkit.rng import chunk_keys
from simkit.tune.bots import design, presets, run
from simkit.tune.bots import search as tune
from tests.bots.aimrace import BEST, GAME

SMALL = {"races": 600, "budget": 60, "confirm": 2_000, "seed": 3}


def test_rotations_put_the_candidate_in_every_seat_with_the_field_in_order():
    got = design.rotations("c", ["a", "b"], 4)
    assert got == [
        ("c", "a", "b", "a"),
        ("a", "c", "a", "b"),
        ("b", "a", "c", "a"),
        ("a", "b", "a", "c"),
    ]


def test_pair_counts_follow_the_ladders_head_to_head():
    # Seat 0 is mine, seats 1 and 2 theirs. Race 0: 0 wins, 1 second, 2 out. Race 1: 1 wins,
    # 0 and 2 out (0 vs 2 not separated). Race 2: nobody finished (undecided): counts nothing.
    finish = np.array([[1, 2, 3], [2, 1, 3], [1, 2, 3]])
    finished = np.array([[True, True, False], [False, True, False], [False, False, False]])
    ahead, behind = pair_counts(finish, finished, [0], [1, 2])
    assert ahead.tolist() == [2, 0, 0]
    assert behind.tolist() == [0, 1, 0]
    assert design.share(ahead, behind) == 2 / 3


def test_tuning_finds_the_best_weights_confirms_them_and_records_them(tmp_path):
    s = tune.settings("aimrace", "aim", **SMALL)
    done = run.start(s, tmp_path / "t")
    x, y, z = done.weights
    assert abs(x - BEST[0]) < 0.3 and abs(y - BEST[1]) < 0.3
    assert z == 1.0  # fixed: lo == hi
    c = done.confirmation
    assert c.verdict == "better" and c.low > 0.5
    assert c.races == 2 * 2_000  # the ladder's design for 2 bots and 3 seats: 2 lineups
    assert done.presets_file == tmp_path / "t" / "bots.toml"
    assert not GAME.extras.bot_presets_file.exists()  # the game's own file is never written
    entry = tomllib.loads(done.presets_file.read_text())["aim"]["fitted"]
    assert tuple(entry["weights"]) == done.weights
    assert entry["command"] == (
        "simkit bots tune aimrace aim --field aim --players 3 --races 600 --evaluations 60 "
        "--seed 3 --confirm 2000 --name fitted"
    )
    assert entry["budget"] == "60 evaluations x 600 races"
    assert entry["game"] == "aimrace"
    assert entry["field"] == ["aim"] and entry["players"] == 3 and entry["preset"] == "aim"
    assert entry["confirmation"]["verdict"] == "better"
    # The preset is a bot the game plays, once its bots file is named.
    fits = presets.aliases(done.presets_file, "aimrace")
    assert fits == {"aim:fitted": GAME.extras.tunable["aim"].spec(done.weights)}
    cell = build_cell("aimrace", bots=presets.played_as("aim:fitted", fits))
    assert GAME.weights(cell.bots[0]) == done.weights
    html = done.report.read_text()
    assert "aim:fitted (fitted) finished ahead of aim (its default weights)" in html
    for name in ("objective.png", "weights.png", "evaluations.csv", "report.md"):
        assert (done.report.parent / name).is_file()


def test_every_candidate_of_a_generation_plays_the_same_new_keys(tmp_path, monkeypatch):
    seen: list[tuple[int, tuple[int, ...]]] = []
    real = tune.evaluate

    def spy(s, spec, keys, threads, **setting):
        seen.append((len(seen), tuple(int(k) for k in keys)))
        return real(s, spec, keys, threads, **setting)

    monkeypatch.setattr(tune, "evaluate", spy)
    s = tune.settings("aimrace", "aim", races=30, budget=12, confirm=10)
    tune.create(s, tmp_path / "t")
    tune.fit(tmp_path / "t")
    per = tune.popsize(s)
    blocks = [{k for _, k in seen[g * per : (g + 1) * per]} for g in range(2)]
    assert [len(b) for b in blocks] == [1, 1]  # one block of keys per generation
    first, second = (next(iter(b)) for b in blocks)
    assert len(first) == s.keys_per_rotation(3) == 10
    assert not set(first) & set(second)  # keys move on between generations


def test_a_killed_tuning_resumes_to_what_an_uninterrupted_one_finds(tmp_path, monkeypatch):
    s = tune.settings("aimrace", "aim", races=60, budget=30, confirm=50)
    tune.create(s, tmp_path / "whole")
    _, whole = tune.fit(tmp_path / "whole")

    tune.create(s, tmp_path / "cut")
    real, calls = tune.evaluate, []

    def dies(*args, **setting):
        calls.append(1)
        if len(calls) == 2 * tune.popsize(s) + 3:  # mid-way through generation 3
            raise KeyboardInterrupt
        return real(*args, **setting)

    monkeypatch.setattr(tune, "evaluate", dies)
    with pytest.raises(KeyboardInterrupt):
        tune.fit(tmp_path / "cut")
    _, saved = tune.load(tmp_path / "cut")
    assert saved.generation == 2
    monkeypatch.setattr(tune, "evaluate", real)
    _, resumed = tune.fit(tmp_path / "cut")
    assert resumed.evaluations == whole.evaluations
    assert tune.fitted(s, resumed) == tune.fitted(s, whole)


def test_settings_reject_what_cannot_be_tuned():
    with pytest.raises(SimkitError, match=r"^aimrace: bot 'x' cannot be tuned \(tunable: aim\)$"):
        tune.settings("aimrace", "x")
    with pytest.raises(SimkitError, match=r"tunable: none"):
        tune.settings("mushroomwalk", "greedy")
    with pytest.raises(SimkitError, match=r"less than one generation of 6 evaluations"):
        tune.settings("aimrace", "aim", budget=5)
    with pytest.raises(SimkitError, match=r"--field names 3 bots but 3 players leave 2 seats"):
        tune.settings("aimrace", "aim", field=["aim", "aim:x", "aim"])
    with pytest.raises(SimkitError, match=r"--name must be letters"):
        tune.settings("aimrace", "aim", name="a b")


def test_a_name_the_game_already_plays_is_refused():
    """A fit is played beside the presets simkit ships, never in place of one."""
    presets.record(
        GAME.extras.bot_presets_file, "aim", "tuned", (0.0, 0.0, 1.0), {"game": "aimrace"}
    )
    with pytest.raises(SimkitError) as err:
        tune.settings("aimrace", "aim", name="tuned")
    assert str(err.value) == (
        "--name tuned: aimrace already plays a bot 'aim:tuned' (a preset simkit ships); "
        "choose another --name, so that the fit can be played beside it"
    )
    assert tune.settings("aimrace", "aim").name == "fitted"


def test_recording_keeps_other_presets_and_comments(tmp_path):
    path = tmp_path / "bots.toml"
    path.write_text("# my notes\n[aim.old]\nweights = [1.0, 2.0, 1.0] # hand-made\n")
    presets.record(path, "aim", "new", (0.5, 0.5, 1.0), {"seed": 1})
    presets.record(path, "aim", "new", (0.25, 0.5, 1.0), {"seed": 2})
    text = path.read_text()
    assert "# my notes" in text and "# hand-made" in text
    data = tomllib.loads(text)["aim"]
    assert data["old"]["weights"] == [1.0, 2.0, 1.0]
    assert data["new"] == {"weights": [0.25, 0.5, 1.0], "seed": 2}


def test_a_mix_of_player_counts_shares_each_evaluation_and_scores_the_worst_share(tmp_path):
    s = tune.settings("aimrace", "aim", players=[2, 4], races=60, budget=6, confirm=20)
    assert s.players == (2, 4) and s.mix == [(None, 2), (None, 4)]
    # 60 races: 30 per setting, 15 keys per rotation at 2 seats and 8 (rounded up) at 4.
    assert (s.keys_per_rotation(2), s.keys_per_rotation(4)) == (15, 8)
    assert s.races_per_evaluation == 15 * 2 + 8 * 4
    assert "--players 2,4" in s.command()
    shares = {}
    for n in (2, 4):
        keys = chunk_keys(s.seed, design.TUNE_KEY, 0, s.keys_per_rotation(n))
        a, b = tune.evaluate(s, "aim", keys, None, players=n)
        shares[n] = a / (a + b)
    got, _, _ = tune.score(s, "aim", 0, None)
    assert got == pytest.approx(min(shares.values()))
    assert tune.Settings.from_json(s.to_json()) == s
    with pytest.raises(SimkitError, match=r"--field names 2 bots but 2 players leave 1 seats"):
        tune.settings("aimrace", "aim", field=["aim", "aim:x"], players=[2, 4])
    tune.create(s, tmp_path / "mix")
    done = run.resume(tmp_path / "mix")
    assert done.confirmation.races == 20 * (2 + 2)  # 2 lineups at 2 seats, 2 at 4
    entry = tomllib.loads(done.presets_file.read_text())["aim"]["fitted"]
    assert entry["players"] == [2, 4]


def test_the_fitted_weights_are_the_mean_where_the_candidates_are_not_a_clipped_genotype():
    """cma's bound transformation: its internal mean can leave the cube; the fit must not."""
    s = tune.settings("aimrace", "aim", races=30, budget=12, confirm=10)
    state = tune.new_state(s)
    while state.es.mean[0] >= -0.05:  # pretend a low x scores best: press against its bound
        xs = state.es.ask()
        state.es.tell(xs, [x[0] for x in xs])
    got = tune.fitted(s, state)
    assert got[0] > -2.0  # cma's internal -0.05 stands for a point inside, not the bound
    inside = state.es.mean[1]
    if 0.2 < inside < 0.8:  # cma's transformation is the identity away from the bounds
        assert got[1] == tune.weights(s, state.es.mean)[1]
