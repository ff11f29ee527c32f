"""Per-round counts by start slot (Batch.round_position, docs/tables.md)."""

from __future__ import annotations

import numpy as np

from simkit import tracks
from simkit.games.snowtails.batch import run_batch
from simkit.games.snowtails.params import SnowTailsParams
from simkit.outcomes import decided
from simkit.rng import race_keys


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
    # by seat (Batch.seat_position): the same counts, seats 0-3 for slots
    np.testing.assert_array_equal(batch.seat_position.sum(axis=1), rp.sum(axis=1))
    assert (batch.seat_position.sum(axis=(0, 2, 3)) == batch.races["rounds"].sum()).all()
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


def test_tournament_standings_after_each_race_worked_by_hand():
    """Points carried over the races; a tie on points goes to the better place in the race
    just run (R-28 / ST2 E applied after every race)."""
    from simkit.games.snowtails.batch import standings

    seats = {
        "race1_points": np.array([[3, 2, 1]]),
        "race1_finish": np.array([[1, 2, 3]]),
        "race2_points": np.array([[1, 2, 3]]),
        "race2_finish": np.array([[3, 2, 1]]),
    }
    got = standings(seats, 2)
    assert got[0].tolist() == [[1, 2, 3], [3, 2, 1]]  # after race 2 all have 4 points


def test_tournament_counts_its_races_as_rounds():
    from simkit.games.round_counts import MEASURES

    variant = SnowTailsParams(races=3)
    batch = run_batch(
        tracks.load("nutcracker"),
        variant,
        ("greedy",) * 3,
        (1, 2, 3),
        race_keys(5, 0, np.arange(12)),
        threads=1,
    )
    rp = batch.round_position
    assert rp.shape == (3, 3, 3, 4) and rp.sum() == 12 * 3 * 3
    # after the last race the standing is the unit's finish
    last = batch.end_position[0]
    for f in range(1, 4):
        assert last[:, :, f].sum() == last[:, f - 1, f].sum()
    assert sorted(batch.round_measures) == sorted(MEASURES)
    assert len(batch.round_measures["stability"]) == 12
