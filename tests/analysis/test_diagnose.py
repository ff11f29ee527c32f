"""Where a slot gains or loses (issue 35): every count of the breakdown adds up to the
seat totals of the run's own tables, race by race replayed."""

from __future__ import annotations

import pandas as pd
import pytest

from simkit.analysis import diagnose
from simkit.results import load
from simkit.runner import start
from simkit.runner.scenario_file import parse
from simkit.tracks import load as load_track

CASES = [
    # ST1 rules on a library track (safety speeds, the inside tie-break, extra cards), and
    # ST2 rules on one with trees (start row, bonus dice, the speed tie-break).
    {"game": "snowtails", "track": "nutcracker", "players": 4},
    {"game": "mushmush", "track": "mm1-old-faithful", "players": 5},
]
RACES = 40


@pytest.fixture(scope="module", params=CASES, ids=lambda c: c["track"])
def replayed(request, tmp_path_factory):
    case = request.param
    data = {**case, "bots": "greedy", "races": RACES, "seed": 12, "keep": "races"}
    out = tmp_path_factory.mktemp("run") / "run"
    start(parse({"title": "t", **data}, "test"), out)
    run = load(out)
    spec = run.manifest["cells"][0]
    from simkit.games.cells import build_cell

    cell = build_cell(
        spec["game"] if "game" in spec else run.manifest["game"],
        preset=spec["preset"],
        overrides=spec["params"],
        track=spec["track"],
        players=spec["players"],
        bots=spec["bots"],
    )
    events, seats = diagnose.replay(cell, run.manifest["seed"], 0, range(RACES))
    return run, cell, events, seats


def test_totals_add_up_to_the_replayed_seat_columns(replayed):
    _, _, events, seats = replayed
    t = diagnose.totals(events, seats)
    assert set(t["kind"]) >= {"turns", "places", "dents_taken", "collisions_wall"}
    assert (t["diff"] == 0).all(), t[t["diff"] != 0]


def test_totals_equal_the_runs_own_tables(replayed):
    """Totals against totals: the replayed events, per slot, equal the run's races table
    over the same races (the replay is the run's races, not merely alike)."""
    run, _, events, _ = replayed
    rows = run.races[run.races["cell"] == 0]
    got = events.groupby(["slot", "kind"])["count"].sum().unstack(fill_value=0)
    for kind in ("turns", "dents_taken", "overspeed_dents", "collisions_wall", "collisions_sled"):
        if kind not in rows:
            continue
        want = rows.groupby("slot")[kind].sum()
        have = got[kind] if kind in got else pd.Series(0, index=want.index)
        pd.testing.assert_series_equal(
            have.reindex(want.index, fill_value=0).astype("int64"),
            want.astype("int64"),
            check_names=False,
        )
    ranks = {s: k for k, s in enumerate(sorted(rows["slot"].unique()), start=1)}
    places = (rows["slot"].map(ranks) - rows["finish"]).groupby(rows["slot"]).sum()
    pd.testing.assert_series_equal(
        got["places"].reindex(places.index, fill_value=0).astype("int64"),
        places.astype("int64"),
        check_names=False,
    )


def test_by_place_adds_up_to_each_slots_turns(replayed):
    _, cell, events, seats = replayed
    table = diagnose.by_place(events, seats, load_track(str(cell.track)))
    turns = table[table["kind"] == "turns"].groupby("slot")["slot_mean"].sum()
    want = seats.groupby("slot")["turns"].mean()
    pd.testing.assert_series_equal(turns, want.astype(float), check_names=False)
    # Against the field: the slots' differences from the field's mean per seat balance out.
    diffs = table[table["kind"] == "turns"].groupby("place")["diff"].sum()
    assert diffs.abs().max() < 1e-9
    lines = diagnose.sentences(table, int(seats["slot"].min()))
    assert lines and lines[0].split(":")[0] in set(table["place"])


def test_places_are_named_as_a_player_finds_them():
    t = load_track("nutcracker")
    names = diagnose.place_names(t, [-1, 0, int(t.n_spaces - 1)], [-1, -1, -1])
    assert names == ["start row", "start straight", "past the finish line"]
    assert diagnose.place_names(t, [5], [2]) == ["corner 3"]  # an overspeed dent's corner
