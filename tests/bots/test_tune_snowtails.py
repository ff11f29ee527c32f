"""The tuner on Snow Tails' greedy: the same evaluations at any thread count; fits per game."""

from __future__ import annotations

import pytest

from simkit.errors import SimkitError
from simkit.games.snowtails import bots
from simkit.tune.bots import search as tune


def test_snowtails_evaluations_do_not_depend_on_threads(tmp_path):
    s = tune.settings(
        "snowtails", "greedy", field=["greedy", "greedy:bold"], races=40, budget=10, seed=5
    )
    assert s.free == list(range(1, 10))  # every weight but progress, which sets the scale
    runs = []
    for threads in (1, 2):
        out = tmp_path / f"t{threads}"
        tune.create(s, out)
        runs.append(tune.fit(out, threads=threads)[1])
    assert runs[0].evaluations == runs[1].evaluations
    scores = [e["objective"] for e in runs[0].evaluations]
    assert len(scores) == 10 and len(set(scores)) > 1  # candidates differ, and it shows
    assert all(e["ahead"] + e["behind"] > 0 for e in runs[0].evaluations)


def test_fitted_presets_are_per_game(tmp_path, monkeypatch):
    """A fit belongs to the game it was fitted on: Snow Tails' greedy:tuned is not
    Mush! Mush!'s (each reads simkit/games/<game>/bots.toml), and a game without a fit of
    that name refuses it, naming the command that fits one."""
    root = tmp_path / "games"
    for game, w in (("snowtails", 2.0), ("mushmush", None)):
        (root / game).mkdir(parents=True)
        if w is not None:
            weights = ", ".join(str(x) for x in (1.0, w, *(0.0,) * 8))
            (root / game / "bots.toml").write_text(f"[greedy.tuned]\nweights = [{weights}]\n")
    monkeypatch.setattr(bots, "PRESETS_FILE", root / "snowtails" / "bots.toml")
    caches = (bots.greedy_presets, bots.policy_presets)  # both read the patched file
    for cache in caches:
        cache.cache_clear()
    try:
        assert bots.parse_bot("greedy:tuned", "snowtails").weights[:2] == (1.0, 2.0)
        with pytest.raises(SimkitError, match="simkit bots tune mushmush greedy --name tuned"):
            bots.parse_bot("greedy:tuned", "mushmush")
        # search plays out with the game's own fit, or with greedy where there is none
        assert bots.parse_bot("search:8", "snowtails").weights[:2] == (1.0, 2.0)
        assert bots.parse_bot("search:8", "mushmush").weights == bots.GREEDY_PRESETS["greedy"]
    finally:  # else a later test sees the patched file's (no) policies: order-dependent
        for cache in caches:
            cache.cache_clear()
