"""Mushroom Walk (``001_3be794a22b0ef5b2.txt``), a 2-player card game adapting Morels.

Exposes ``GAME`` for :mod:`simkit.games`. Rules and their sources: docs/rules-mushroomwalk.md.
"""

from simkit.games.mushroomwalk.game import GAME

__all__ = ["GAME"]
