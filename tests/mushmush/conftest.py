"""Mush! Mush! tests reuse the Snow Tails test kit (hand-built tracks, one-race runner)."""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(__file__)), "snowtails"))
