"""R-51 "alternate" through the shared runner: the starter alternates with the race index."""

import numpy as np

import simkit
from simkit.runner import load_scenario, start


def test_alternate_starts_follow_race_parity(tmp_path):
    path = tmp_path / "alt.toml"
    path.write_text(
        'game = "mushroomwalk"\nbots = "greedy"\nraces = 40\nseed = 3\nchunk_size = 16\n'
        '[set]\nwho_starts = "alternate"\n'
    )
    start(load_scenario(path), tmp_path / "run")
    races = simkit.load(tmp_path / "run").races
    starter = races[races["slot"] == 1].set_index("race")["seat"].sort_index()
    assert len(starter) == 40
    # one seat starts the even races and the other the odd ones, across chunk boundaries
    even, odd = starter[starter.index % 2 == 0], starter[starter.index % 2 == 1]
    assert even.nunique() == 1 and odd.nunique() == 1
    assert int(even.iloc[0]) != int(odd.iloc[0])
    assert np.array_equal(starter.index.to_numpy(), np.arange(40))
