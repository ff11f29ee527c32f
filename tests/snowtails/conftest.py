"""Shared fixtures for the Snow Tails engine tests: hand-built tracks and positions."""

from __future__ import annotations

import os
import sys

import pytest
from hypothesis import settings

sys.path.insert(0, os.path.dirname(__file__))

from st_trackkit import build, oval

settings.register_profile("fast", max_examples=25, deadline=None)
settings.register_profile("thorough", max_examples=300, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "fast"))


@pytest.fixture(scope="session")
def example_track():
    """Four lanes: a straight, then a right-hand corner with safety speed 4 (the book's
    worked example has a corner of safety 4: red at 5 takes one dent), then a straight."""
    return build([("straight", 5), ("corner", "R", 90, 3, 4), ("straight", 8)], width=4)


@pytest.fixture(scope="session")
def oval_track():
    return oval()


def sled(space, dogs, brake, hand, dents=0, colour=None, finished=False):
    d = {"space": space, "dogs": list(dogs), "brake": brake, "hand": list(hand), "dents": dents}
    if colour:
        d["colour"] = colour
    if finished:
        d["finished"] = True
    return d


def state(sleds, turn=0, rnd=2, **overrides):
    s = {"game": "snowtails", "track": "hand-built", "round": rnd, "turn": turn, "sleds": sleds}
    if overrides:
        s["set"] = overrides
    return s
