"""Per-round counts by start slot (Batch.round_position, docs/tables.md)."""

from __future__ import annotations

import numpy as np

from simkit import tracks
from simkit.games.snowtails.batch import run_batch
from simkit.games.snowtails.params import SnowTailsParams
from simkit.rng import race_keys
from simkit.runner.tables import decided


def test_round_position_counts_each_seat_under_its_start_slot():
    """Slots 1, 2, 3 and 5 (4 left empty, R-06): each seat adds one count per round played
    to its own slot, and nothing lands on the empty slot."""
    slots = (1, 2, 3, 5)
    batch = run_batch(
        tracks.load("nutcracker"),
        SnowTailsParams(),
        ("greedy",) * 4,
        slots,
        race_keys(3, 0, np.arange(40)),
        threads=1,
    )
    rp = batch.round_position
    assert rp.shape[1:] == (5, 4, 5)  # slots up to 5, positions 1-4, finish 0-4
    assert rp[:, 3].sum() == 0
    rounds = batch.races["rounds"].astype(np.int64)
    for s in slots:
        assert rp[:, s - 1].sum() == rounds.sum()  # every race has a seat in slot s
    # at the end of round 1 each position holds one seat per race, whatever the slot
    assert (rp[0].sum(axis=(0, 2)) == 40).all()
    # the slot's wins in decided races, as the seat rows say
    _, won = decided(batch.seats["finish"], batch.seats["finished"])
    for s in slots:
        assert rp[0, s - 1, :, 1].sum() == int((won & (batch.seats["slot"] == s)).sum())
