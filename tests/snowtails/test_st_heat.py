"""Heat counts what the rules charged: per-space and per-corner sums equal the seat totals.

Issue 25: the corner table listed dents that R-26 waives past the finish line and dents
beyond the limit (R-18, R-25), because the heat was counted before ``take_dents``. Here
random cells of every preset of the family run through the runner, and every heat kind
is summed against the seat or race column that counts the same events.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from simkit.analysis.track import heat_by_space, hot_spaces, overspeed_by_corner
from tests.runner.helpers import run

PRESETS = ("snowtails", "snowtails-season", "mushmush", "mushmush-tournament")
TRACKS = {
    "snowtails": ("nutcracker", "hairpins", "s-bends", "long-haul"),
    "mushmush": ("mm1-old-faithful", "mm4-drift-away", "mm-fragor-branch", "mm5-what-goes-up"),
}
BOTS = ("greedy", "greedy:tuned", "greedy:bold", "random")

# Heat kind -> the seat column counting the same events (summed over seats and races).
SEAT_TOTALS = {
    "overspeed_dent": "overspeed_dents",
    "crash_wall": "collisions_wall",
    "crash_sled": "collisions_sled",
    "tree_hit": "trees_hit",
    "repair": "repairs",
}


@st.composite
def cells(draw):
    preset = draw(st.sampled_from(PRESETS))
    family = "mushmush" if preset.startswith("mushmush") else "snowtails"
    players = draw(st.integers(2, 5))
    return {
        "preset": preset,
        "track": draw(st.sampled_from(TRACKS[family])),
        "players": players,
        "bots": [draw(st.sampled_from(BOTS)) for _ in range(players)],
        "races": draw(st.integers(4, 16)),
        "seed": draw(st.integers(0, 2**31)),
    }


def _scenario(c: dict) -> str:
    bots = ", ".join(f'"{b}"' for b in c["bots"])
    return (
        f'game = "snowtails"\npreset = "{c["preset"]}"\ntrack = "{c["track"]}"\n'
        f"players = {c['players']}\nbots = [{bots}]\nraces = {c['races']}\n"
        f"seed = {c['seed']}\nheat = true\n"
    )


@given(cells())
def test_heat_sums_to_the_seat_totals(c):
    with tempfile.TemporaryDirectory() as tmp:
        res = run(Path(tmp), _scenario(c), "r", threads=1)
    rows = res.races
    heat = heat_by_space(res)
    for kind, col in SEAT_TOTALS.items():
        got = int(heat.loc[heat["kind"] == kind, "count"].sum())
        assert got == int(rows[col].sum()), (kind, c)
    # A sled out of the race: every elimination of every race of the unit.
    out = int(heat.loc[heat["kind"] == "elimination", "count"].sum())
    assert out == int(rows[rows["seat"] == 0]["eliminations"].sum()), c
    corners = overspeed_by_corner(res)
    if rows["overspeed_dents"].sum() > 0:
        assert int(corners["dents"].sum()) == int(rows["overspeed_dents"].sum()), c


def test_no_corner_dents_past_the_finish_line(tmp_path):
    """The demo's cell, small: greedy:tuned takes The Nutcracker's last corner (safety 2)
    flat out on its way over the line; a sled past the line keeps its place instead of a
    5th dent (R-18), and one before it is out after the 5th, so most of the excess is never
    charged. The corner table and the hot spaces count what was."""
    text = _scenario(
        {
            "preset": "snowtails",
            "track": "nutcracker",
            "players": 4,
            "bots": ["greedy:tuned"] * 4,
            "races": 60,
            "seed": 1,
        }
    )
    res = run(tmp_path, text, "demo", threads=1)
    corners = overspeed_by_corner(res)
    assert int(corners["dents"].sum()) == int(res.races["overspeed_dents"].sum())
    hot = hot_spaces(res)
    assert not hot["where"].str.startswith("past the finish line").any()
    assert np.isin(hot["kind"], [*SEAT_TOTALS, "elimination", "turn_end"]).all()
