"""Mush! Mush! (Snow Tails 2): the Snow Tails engine with the ``mushmush`` preset.

Not a second engine: the same kernels, parameters and bots as ``snowtails`` (DESIGN §1),
with Mush! Mush!'s defaults (preset ``mushmush``, track 1 "Old Faithful", up to 8 sleds).
Both games offer every preset of the family, so ``simkit race mushmush --preset snowtails``
plays ST1 rules on an ST2 track. Rule differences: ``docs/rules-mushmush.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

from simkit.games import register
from simkit.games.base import BenchSpec
from simkit.games.snowtails.bots import presets_file
from simkit.games.snowtails.game import SnowTailsGame
from simkit.games.snowtails.params import MushMushParams, presets


class MushMushGame(SnowTailsGame):
    """The ``GAME`` object of Mush! Mush!: Snow Tails with ST2 defaults."""

    name = "mushmush"
    title = "Mush! Mush! (Snow Tails 2)"
    params = MushMushParams
    presets: Mapping[str, MushMushParams] = presets(MushMushParams)
    default_preset = "mushmush"
    default_players = 6
    default_track = "mm1-old-faithful"
    extras = replace(
        SnowTailsGame.extras,
        track_dir=Path(__file__).parent / "tracks",
        bot_presets_file=presets_file("mushmush"),  # its own fits (greedy:tuned)
        examples=(
            "simkit race mushmush --players 6 --seed 7",
            "simkit race mushmush --preset snowtails --players 5",
            "simkit variants mushmush --preset mushmush-tournament",
            "simkit moves docs/examples/state-mushmush.json",
            "simkit tracks list --family mushmush",
            "simkit ladder mushmush --bots greedy,greedy:bold --players 6",
        ),
        bench=BenchSpec(
            "6 greedy bots, mm1-old-faithful",
            {"players": 6, "bots": "greedy", "track": "mm1-old-faithful"},
            races=10_000,
            nojit_races=3,
            extra={
                "6 greedy:tuned bots (Mush! Mush!'s own fit)": {
                    "players": 6,
                    "bots": "greedy:tuned",
                    "track": "mm1-old-faithful",
                },
                "6 search bots (search:64, the default budget)": {
                    "players": 6,
                    "bots": "search",
                    "track": "mm1-old-faithful",
                },
            },
        ),
    )


GAME = register(MushMushGame())

__all__ = ["GAME", "MushMushGame", "MushMushParams"]
