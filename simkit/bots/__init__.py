"""Bots as part of the product (DESIGN §3): fitting a heuristic bot's weights.

:mod:`simkit.bots.tune` fits the weights a game declares tunable (``Game.tunable``) with
CMA-ES on common random numbers, resumably; :mod:`simkit.bots.confirm` plays the fitted
weights against the defaults head to head on fresh keys; :mod:`simkit.bots.presets` records
the fitted preset, with its provenance, in the game's presets file. docs/bots.md explains
the method.
"""
