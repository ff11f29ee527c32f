"""The tuner on Snow Tails' greedy: the same evaluations at any thread count."""

from __future__ import annotations

from simkit.bots import tune


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
