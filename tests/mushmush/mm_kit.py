"""Positions for the Mush! Mush! tests: ST2 states, trees on hand-built tracks."""

from __future__ import annotations

import dataclasses

import numpy as np

from simkit.tracks.compiled import F_TREE, CompiledTrack


def with_trees(track: CompiledTrack, spaces) -> CompiledTrack:
    """A copy of ``track`` with a tree printed on each of ``spaces`` (R-21)."""
    flags = track.flags.copy()
    for s in spaces:
        flags[s] |= F_TREE
    return dataclasses.replace(track, flags=flags)


def sled(space, dogs, hand, die=0, dents=0, colour=None, **more):
    d = {"space": space, "dogs": list(dogs), "hand": list(hand), "die": die, "dents": dents}
    if colour:
        d["colour"] = colour
    d.update(more)
    return d


def state(sleds, turn=0, rnd=2, trees=None, **overrides):
    """An ST2 position (game mushmush, preset mushmush) on the track the test passes."""
    s = {"game": "mushmush", "track": "hand-built", "round": rnd, "turn": turn, "sleds": sleds}
    if trees is not None:
        s["trees"] = list(trees)
    if overrides:
        s["set"] = overrides
    return s


def find_play(result, value, onto):
    for play in result.plays:
        if play["cards"][0] == value and play["onto"] == onto:
            return play
    raise AssertionError(f"no play of {value} onto {onto}")


def lane_index(track: CompiledTrack, s: int) -> tuple[int, int]:
    """(lane, index within the lane) of space ``s`` on an ``st_trackkit`` track."""
    lane = int(track.lane[s])
    return lane, int(np.flatnonzero(track.lane == lane).tolist().index(s))


def engine_play(position, v, mask, pattern, take=0):
    """Seat ``position.turn`` plays ``v`` onto ``mask`` and moves by ``pattern`` (move
    kinds, the colliding attempt last) through the engine's ``resolve_play``; returns
    (turn code, st, occ, trees) after the turn."""
    from simkit.games.snowtails.bots import BOT_GREEDY
    from simkit.games.snowtails.engine import resolve_play
    from simkit.games.snowtails.layout import (
        EV_WIDTH,
        HEAT_KINDS,
        MAX_DECK,
        MAX_SEATS,
        ST_DECKN,
        kernel_track,
    )
    from simkit.games.snowtails.rules import race_position

    pos = position
    var = pos.variant
    tab, _, safety, _ = kernel_track(pos.track, var.trees, var.buildings)
    prm = var.to_kernel()
    st, hand, occ, trees = pos.st.copy(), pos.hand.copy(), pos.occ.copy(), pos.trees.copy()
    p = pos.turn
    st[p, ST_DECKN] = 40
    pat = np.zeros(64, dtype=np.int64)
    pat[: len(pattern)] = pattern
    code = resolve_play(
        tab, safety, prm, np.full(MAX_SEATS, BOT_GREEDY, dtype=np.int64), st, hand,
        np.zeros_like(hand), np.zeros((MAX_SEATS, MAX_DECK), dtype=np.int64), occ, trees,
        np.zeros(1 + 2 * MAX_SEATS, dtype=np.uint64), pos.n_seats, p, pos.round,
        race_position(tab, pos.st, pos.n_seats, p, prm), 0, v, mask, len(pattern), take, pat,
        np.zeros(64, dtype=np.int64), np.zeros((len(HEAT_KINDS), tab.shape[0]), np.int64),
        np.zeros((256, EV_WIDTH), dtype=np.int64), np.zeros(1, dtype=np.int64), True,
    )  # fmt: skip
    return int(code), st, occ, trees


@dataclasses.dataclass
class Unit:
    """A unit (race or tournament) played with the log on, and its final arrays."""

    tab: np.ndarray  # the joined space table of the unit's tracks
    st: np.ndarray
    hand: np.ndarray
    disc: np.ndarray
    deck: np.ndarray
    trees: np.ndarray
    seat_out: np.ndarray
    race_out: np.ndarray
    events: np.ndarray


def run_unit(tracks, variant, bots, slots=None, key=1) -> Unit:
    """Play one unit through ``play_race`` (tracing on), keeping deck and trees too."""
    from simkit.games.snowtails.batch import kernel_inputs
    from simkit.games.snowtails.engine import new_scratch, play_race
    from simkit.games.snowtails.layout import EV_WIDTH, HEAT_KINDS, R_COLS, ST_COLS

    slots = slots or tuple(range(1, len(bots) + 1))
    inputs = kernel_inputs(tracks, variant, tuple(bots), tuple(slots))
    n = inputs[0].shape[0]
    scratch = new_scratch(n)
    seat_out = np.zeros((len(slots), ST_COLS), dtype=np.int64)
    race_out = np.zeros(R_COLS, dtype=np.int64)
    heat = np.zeros((len(HEAT_KINDS), n), dtype=np.int64)
    log = np.zeros((200_000, EV_WIDTH), dtype=np.int64)
    nlog = np.zeros(1, dtype=np.int64)
    play_race(*inputs, np.uint64(key), *scratch, seat_out, race_out, heat, log, nlog, True)
    assert nlog[0] <= log.shape[0]
    st, hand, disc, deck, _occ, trees = scratch[:6]
    return Unit(inputs[0], st, hand, disc, deck, trees, seat_out, race_out, log[: nlog[0]].copy())
