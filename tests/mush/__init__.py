"""Tests of the MUSH engine (issue 8)."""
