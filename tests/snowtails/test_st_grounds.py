"""Held-out, validation and fit grounds (``grounds.py``, ``heldout.toml``,
``validation.toml``): the sets are what they claim, kept apart, and every fitting entry
point refuses a held-out ground with a one-line error."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from click.testing import CliRunner

import simkit.games  # noqa: F401  (the games shelve their tracks)
from simkit.cli import main
from simkit.errors import SimkitError
from simkit.games import get
from simkit.games.cells import build_cell
from simkit.games.snowtails import distil_fit, value_fit
from simkit.games.snowtails.grounds import (
    FIT_SEEDS,
    MAX_PLAYERS,
    by_name,
    derive,
    family,
    fit_grounds,
    fit_tracks,
    held_out,
    kept_out,
    validation,
)
from simkit.tracks.override import split


def test_the_held_out_set_mixes_tracks_rules_and_sleds():
    grounds = held_out()
    assert len(grounds) >= 12
    assert len({g.name for g in grounds}) == len(grounds)
    presets = Counter(g.preset for g in grounds)
    assert presets["snowtails"] >= 4 and presets["mushmush"] >= 4
    derived = [g for g in grounds if g.base]
    assert len(derived) >= 4 and len(derived) <= len(grounds) - 4
    counts = {g.players for g in grounds}
    assert min(counts) == 2 and max(counts) == 8
    for g in grounds:
        assert 2 <= g.players <= MAX_PLAYERS[g.preset]
    # Issue 34's two grounds: ST1 rules on Mush! Mush! tracks, 3 sleds.
    assert by_name("mm5-st-3").track == "mm5-what-goes-up"
    assert by_name("mm2-st-3").track == "mm2-tighter-than-i-thought"
    for name in ("mm5-st-3", "mm2-st-3"):
        g = by_name(name)
        assert (g.preset, g.players, g.game) == ("snowtails", 3, "snowtails")


def test_no_earlier_fit_played_a_held_out_ground():
    # greedy:tuned: Snow Tails on nutcracker, hairpins, s-bends at 2 and 4 sleds; Mush!
    # Mush! on mm1, mm5, mm7 at 2 and 6 under its rules; policy:distilled and the values on
    # nutcracker, s-bends, long-haul at 2-4 sleds under Snow Tails rules.
    earlier = {("snowtails", t, n) for t in ("nutcracker", "hairpins", "s-bends") for n in (2, 4)}
    earlier |= {
        ("mushmush", t, n)
        for t in ("mm1-old-faithful", "mm5-what-goes-up", "mm7-slightly-unbalanced")
        for n in (2, 6)
    }
    earlier |= {
        ("snowtails", t, n) for t in ("nutcracker", "s-bends", "long-haul") for n in (2, 3, 4)
    }
    assert not {(g.preset, g.track, g.players) for g in held_out()} & earlier


def test_derived_tracks_are_made_again_from_their_seeds():
    for g in (*held_out(), *validation()):
        if g.base:
            assert g.seed >= FIT_SEEDS
            assert derive(g.base, g.seed) == g.track
            assert split(g.track)[0] == g.base
    assert derive("nutcracker", 5) == derive("nutcracker", 5)
    assert derive("nutcracker", 5) != derive("nutcracker", 6)


def test_validation_and_held_out_are_apart_and_fits_draw_neither():
    h = {(g.preset, g.track, g.players) for g in held_out()}
    v = {(g.preset, g.track, g.players) for g in validation()}
    assert len(validation()) >= 4 and not h & v
    assert not {g.name for g in held_out()} & {g.name for g in validation()}
    out = kept_out()
    tracks = fit_tracks()
    assert tracks and not {family(t) for t in tracks} & out
    for preset in ("snowtails", "mushmush"):
        drawn = fit_grounds(preset, 12, seed=3)
        assert drawn == fit_grounds(preset, 12, seed=3)  # seeded
        assert any(g.base for g in drawn) and any(not g.base for g in drawn)
        for g in drawn:
            assert g.preset == preset and 2 <= g.players <= MAX_PLAYERS[preset]
            assert family(g.track) not in out and g.track not in out
            assert not g.base or g.seed < FIT_SEEDS


def test_every_ground_plays_in_its_game():
    for g in (*held_out(), *validation()):
        cell = g.cell("greedy:tuned")
        assert cell.game == g.preset and cell.players == g.players
        batch = get(g.game).simulate(cell, np.arange(1, 3, dtype=np.uint64), 1)
        assert batch.seats["finish"].shape == (2, g.players)


def test_fits_refuse_a_held_out_ground_in_one_line():
    g = by_name("mm5-st-3")
    for collect in (
        lambda: distil_fit.collect(g.track, g.players, 1, "search:4"),
        lambda: value_fit.collect(g.track, g.players, 1),
    ):
        with pytest.raises(SimkitError) as err:
            collect()
        msg = str(err.value)
        assert "\n" not in msg and "mm5-st-3" in msg and "held-out ground" in msg
        assert "heldout.toml" in msg
    # The same rules from the other game of the family: the same ground.
    cell = build_cell("mushmush", preset="snowtails", track=g.track, players=3)
    with pytest.raises(SimkitError, match="held-out ground"):
        get("mushmush").check_fit(cell)
    # The track at another sled count, or under other rules, is another ground.
    get("snowtails").check_fit(build_cell("snowtails", track=g.track, players=4))
    get("mushmush").check_fit(build_cell("mushmush", track=g.track, players=3))


def test_bots_tune_refuses_a_held_out_ground(tmp_path):
    args = [
        "bots",
        "tune",
        "snowtails",
        "greedy",
        "--track",
        "nutcracker,mm2-tighter-than-i-thought",
    ]
    res = CliRunner().invoke(main, [*args, "--players", "3", "--out", str(tmp_path / "t")])
    assert res.exit_code == 1
    assert res.output == (
        "Error: simkit bots tune snowtails greedy may not play mm2-st-3 "
        "(mm2-tighter-than-i-thought, snowtails rules, 3 sleds): it is a held-out ground "
        "(simkit/games/snowtails/heldout.toml); fit on other grounds\n"
    )


def test_live_tells_a_settled_place_from_one_still_played_for():
    """``distil_fit.live``: a decision after every other sled finished (or is out) is no
    lesson for a policy, since all its plays end in the same place; ``load`` drops those."""
    from simkit.games.snowtails.records import FINISHED, OUT, POSITION, RACING

    one = np.zeros(1, dtype=POSITION)
    one["n_seats"] = 3
    one["to_move"] = 1
    for others, mine, want in (
        ((FINISHED, FINISHED), RACING, False),
        ((OUT, FINISHED), RACING, False),
        ((RACING, FINISHED), RACING, True),
        ((FINISHED, RACING), RACING, True),
        ((FINISHED, FINISHED), OUT, True),  # out itself: no place left to settle
    ):
        one["status"][0, [0, 2]] = others
        one["status"][0, 1] = mine
        one["status"][0, 3:] = RACING  # seats beyond n_seats are not sleds
        assert distil_fit.live(one)[0] == want, (others, mine)


@pytest.mark.slow  # compiles the collecting kernel and a decision door: about 50 s of CPU
def test_collections_keep_no_decision_on_a_settled_place_and_the_screen_finds_the_teacher(
    tmp_path,
):
    """The teacher's 6 races on The Nutcracker with 2 sleds held 10 decisions on a settled
    place of 134 before collections left them out. ``distil_fit agree``: the teacher,
    deciding again from each saved position, plays what it played (the position carries its
    random state); greedy does not always."""
    import functools

    from simkit.games.snowtails.grounds import collect_into
    from simkit.games.snowtails.records import kept_positions

    got = distil_fit.collect("nutcracker", 2, 6, "search:4")
    saved = kept_positions(got["pos"])
    assert len(saved) > 100 and distil_fit.live(saved).all()

    g = fit_grounds("snowtails", 1, 5)
    work = functools.partial(distil_fit._ground_work, "search:4", 2, distil_fit.SEED)
    collect_into(str(tmp_path), g, work, 1)
    k, n, _ = distil_fit.agreement([str(tmp_path)], 30, "search:4")
    assert n == 30 and k == n
    k, n, _ = distil_fit.agreement([str(tmp_path)], 30, "greedy")
    assert n == 30 and 0 < k < n


def test_the_mlp_policy_learns_what_a_linear_score_cannot():
    """``distil_fit.fit_mlp``: a teacher that plays the candidate with the largest product
    of two features (no linear score can say it) is followed far better by the tanh layer
    than by the conditional logit, on decisions neither fit saw."""
    rng = np.random.default_rng(1)
    n, k, f = 3000, 6, 4
    x = rng.normal(size=(n, k, f))
    m = rng.integers(2, k + 1, size=n)
    valid = np.arange(k)[None, :] < m[:, None]
    chosen = np.argmax(np.where(valid, x[..., 0] * x[..., 1], -np.inf), axis=1)
    train = np.arange(n) < 2000
    beta = distil_fit.fit(x[train], m[train], chosen[train])
    linear, _ = distil_fit.scores(x[~train], m[~train], chosen[~train], beta)
    mlp = distil_fit.fit_mlp(x[train], m[train], chosen[train], hidden=8, iters=300)
    acc, loss = distil_fit.mlp_scores(x[~train], m[~train], chosen[~train], mlp)
    assert acc > linear + 0.3 and acc > 0.75, (acc, linear)
    assert loss < np.mean(np.log(m[~train]))  # better than a uniform pick
