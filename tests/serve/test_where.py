"""Where the slots lose, on the page: simkit why's breakdown and the report's track picture.

Marked slow (`make test-all` runs it): a round and 200 replays, with the seat-event
kernel's compile on a cold cache, for what the browser test (tests/serve/test_browser.py,
in `make test`) already sees on the page; here the two ends and the losing slot are checked
against the run's own win rates. The queue's side is tested without replays
(tests/serve/test_pages.py).
"""

from pathlib import Path

import pytest

from simkit.analysis.fairness import fairness_by_slot
from simkit.results import load
from simkit.serve.answer import where
from simkit.serve.study import Setting, play_round, with_inputs

BASE = {"game": "snowtails", "track": "nutcracker", "players": 4, "bots": "greedy", "seed": 1}


@pytest.mark.slow
def test_where_names_each_cells_two_ends_their_places_and_draws_its_track(tmp_path):
    s = with_inputs(Setting(BASE, races_per_round=400), change="track.corner.1.safety = 2")
    play_round(s, tmp_path / "run", 400, 1)
    results = load(tmp_path / "run")
    found = where(results, tmp_path / "pictures", replays=100)
    assert [(w["cell"], w["name"]) for w in found] == [(0, "A"), (1, "B")]
    by = fairness_by_slot(results)
    for w in found:
        mine = by[by["cell"] == w["cell"]].set_index("slot")["deviation"]
        furthest, other = w["slots"]
        # the slot furthest from fair first, as simkit why; then the other end of the field
        assert abs(furthest["deviation"]) == pytest.approx(mine.abs().max())
        assert other["deviation"] == pytest.approx(
            mine.min() if furthest["deviation"] > 0 else mine.max()
        )
        # so the slot that loses most is always shown, with where it spends its turns
        loser = min(w["slots"], key=lambda x: x["deviation"])
        assert loser["slot"] == int(mine.idxmin())
        assert loser["lines"] and all(" per race" in line for line in loser["lines"])
        assert w["replays"] == 100
    b = found[1]
    assert [x["slot"] for x in b["slots"]] == [1, 4]  # corner 1 slower: front gains, back loses
    assert b["picture"] == "track-1.png"
    assert (tmp_path / "pictures" / b["picture"]).stat().st_size > 10_000
    assert b["picture_note"].startswith("crashes")
    assert len(b["marks"]) == 5 and b["marks"][0].startswith("A: ")
    assert all(Path(w["picture"]).parent == Path(".") for w in found)
