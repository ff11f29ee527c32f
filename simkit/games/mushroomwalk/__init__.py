"""Mushroom Walk (``001_3be794a22b0ef5b2.txt``), a 2-player card game adapting Morels.

Exposes ``GAME`` for :mod:`simkit.games`. Rules and their sources: docs/rules-mushroomwalk.md.
"""

from simkit.games import register
from simkit.games.mushroomwalk.game import GAME

register(GAME)

__all__ = ["GAME"]
