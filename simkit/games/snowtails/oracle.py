"""The state oracle of ``simkit moves``: every legal play from a position, exactly resolved.

The position is the JSON of ``docs/state.md``. Plays come from the engine's own play list
(R-12), outcomes from the same search the greedy bot uses (``movement.outcomes``), and
each outcome is carried out by the engine's ``resolve_play`` on a copy of the position,
so what the oracle says is what a race would do. Cards drawn at the end of the turn are
unknown (the deck is hidden), so the oracle reports how many would be drawn.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from simkit.errors import SimkitError, StateError
from simkit.games.snowtails.bots import BOT_GREEDY
from simkit.games.snowtails.engine import T_OUT, new_scratch, resolve_play
from simkit.games.snowtails.layout import (
    C_SLED,
    C_WALL,
    DENT_OVERSPEED,
    DENT_WALL,
    EV_BONUS,
    EV_COLLIDE,
    EV_DENT,
    EV_DISCARD,
    EV_DRAW,
    EV_MOVE,
    EV_WIDTH,
    FINISHED,
    HEAT_KINDS,
    MAX_DECK,
    MAX_SEATS,
    OUT,
    S_BLOCKED,
    S_PAST,
    S_TREE,
    ST_BRAKE,
    ST_DECKN,
    ST_DENTS,
    ST_LCARD,
    ST_LEFT,
    ST_RCARD,
    ST_RIGHT,
    ST_SPACE,
    ST_STATUS,
    kernel_track,
)
from simkit.games.snowtails.movement import O_BONUS, O_SPEED, outcomes, pattern_of
from simkit.games.snowtails.params import K_SAFETY, MAX_VALUE, PRESETS
from simkit.games.snowtails.rules import list_plays, play_effect, race_position
from simkit.games.snowtails.trace import COLOURS, MOVE_NAMES, hand_list, where_list
from simkit.tracks.compiled import CompiledTrack

STATE_KEYS = {"game", "preset", "set", "track", "round", "turn", "sleds"}
SLED_KEYS = {"colour", "space", "dogs", "brake", "hand", "dents", "finished"}


def _int(value: Any, key: str, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise StateError(f"state: {key} must be an integer (got {value!r})")
    if not lo <= value <= hi:
        raise StateError(f"state: {key} must be between {lo} and {hi} (got {value})")
    return value


@dataclass
class Position:
    """A parsed, validated position and its kernel arrays."""

    variant: Any
    track: Any
    round: int
    turn: int
    colours: list[str]
    st: np.ndarray
    hand: np.ndarray
    occ: np.ndarray


def parse_state(state: Mapping[str, Any], track: CompiledTrack | None = None) -> Position:
    """Validate the JSON position; ``StateError`` names the first bad key.

    ``track`` replaces the state's track name (tests race on hand-built tracks).
    """
    from simkit.games.snowtails import load_track

    unknown = sorted(set(state) - STATE_KEYS)
    if unknown:
        raise StateError(f"state: unknown key '{unknown[0]}' (known: {', '.join(STATE_KEYS)})")
    if state.get("game") != "snowtails":
        raise StateError(f"state: game must be 'snowtails' (got {state.get('game')!r})")
    preset = state.get("preset", "snowtails")
    if preset not in PRESETS:
        raise StateError(f"state: preset '{preset}' unknown (known: {', '.join(PRESETS)})")
    overrides = state.get("set", {})
    if not isinstance(overrides, dict):
        raise StateError("state: set must be an object of parameter overrides")
    try:
        variant = PRESETS[preset].replace(**overrides)
    except SimkitError as exc:
        raise StateError(f"state: set: {exc}") from exc
    if track is None:
        if "track" not in state:
            raise StateError("state: missing key 'track' (a library name or a .toml path)")
        track = load_track(str(state["track"]))
    rnd = _int(state.get("round", 1), "round", 1, 10_000)
    sleds = state.get("sleds")
    if not isinstance(sleds, list) or not 1 <= len(sleds) <= MAX_SEATS:
        raise StateError(f"state: sleds must be a list of 1 to {MAX_SEATS} sleds")
    turn = _int(state.get("turn", 0), "turn", 0, len(sleds) - 1)
    tab = kernel_track(track, variant.trees, variant.buildings)[0]
    scratch = new_scratch(track.n_spaces)
    st, hand, occ = scratch[0], scratch[1], scratch[4]
    colours = []
    for i, sled in enumerate(sleds):
        where = f"sleds[{i}]"
        if not isinstance(sled, dict):
            raise StateError(f"state: {where} must be an object")
        bad = sorted(set(sled) - SLED_KEYS)
        if bad:
            raise StateError(f"state: {where}.{bad[0]} is not a sled key")
        for key in ("space", "dogs", "brake", "hand"):
            if key not in sled:
                raise StateError(f"state: {where} is missing '{key}'")
        space = _int(sled["space"], f"{where}.space", 0, track.n_spaces - 1)
        if tab[space, S_BLOCKED]:
            raise StateError(f"state: {where}.space {space} is closed or under a building")
        if occ[space]:
            raise StateError(f"state: {where}.space {space} already holds sled {occ[space] - 1}")
        dogs = sled["dogs"]
        if not isinstance(dogs, list) or len(dogs) != 2:
            raise StateError(f"state: {where}.dogs must be [left, right]")
        st[i, ST_LEFT] = _int(dogs[0], f"{where}.dogs[0]", 0, MAX_VALUE)
        st[i, ST_RIGHT] = _int(dogs[1], f"{where}.dogs[1]", 0, MAX_VALUE)
        st[i, ST_BRAKE] = _int(sled["brake"], f"{where}.brake", 0, MAX_VALUE)
        st[i, ST_LCARD] = st[i, ST_RCARD] = 1
        st[i, ST_DENTS] = _int(sled.get("dents", 0), f"{where}.dents", 0, variant.dent_limit)
        cards = sled["hand"]
        if not isinstance(cards, list) or len(cards) > 12:
            raise StateError(f"state: {where}.hand must be a list of card values")
        for j, v in enumerate(cards):
            hand[i, _int(v, f"{where}.hand[{j}]", 0, MAX_VALUE)] += 1
        finished = sled.get("finished", False)
        if not isinstance(finished, bool):
            raise StateError(f"state: {where}.finished must be true or false")
        if finished and not tab[space, S_PAST]:
            raise StateError(f"state: {where} is finished but space {space} is before the line")
        st[i, ST_SPACE] = space
        st[i, ST_STATUS] = FINISHED if finished else 0
        if not (finished and variant.lift_finished):
            occ[space] = i + 1
        colours.append(str(sled.get("colour", COLOURS[i])))
    for i in range(len(sleds), MAX_SEATS):
        st[i, ST_STATUS] = OUT
    if st[turn, ST_STATUS] == FINISHED:
        raise StateError(f"state: turn names sleds[{turn}], which has already finished")
    return Position(variant, track, rnd, turn, colours, st, hand, occ)


@dataclass
class Moves:
    """Every legal play from a position with its outcomes (``simkit moves``)."""

    position: Position
    race_position: int
    note: str
    plays: list[dict[str, Any]]

    def to_json(self) -> dict[str, Any]:
        return {
            "turn": self.position.turn,
            "colour": self.position.colours[self.position.turn],
            "round": self.position.round,
            "race_position": self.race_position,
            "note": self.note,
            "plays": self.plays,
        }

    def text(self) -> str:
        pos = self.position
        p = pos.turn
        lines = [
            f"{pos.colours[p]} to play, round {pos.round}, race position {self.race_position}, "
            f"on '{pos.track.name}' at space {int(pos.st[p, ST_SPACE])}"
        ]
        if self.note:
            lines.append(self.note)
        for n, play in enumerate(self.plays, 1):
            side = f" {play['drift_side']}" if play["drift"] else ""
            lines.append(
                f"{n}. {len(play['cards'])}x{play['cards'][0]} on {'+'.join(play['onto'])}: "
                f"dogs {play['dogs'][0]}-{play['dogs'][1]} brake {play['brake']}, "
                f"speed {play['speed']} drift {play['drift']}{side}"
                + (f", bonus +{play['bonus_offered']} offered" if play["bonus_offered"] else "")
            )
            for o in play["outcomes"]:
                bits = [f"end {o['end']}"]
                if o["bonus_taken"]:
                    bits.append(f"bonus taken (speed {o['speed']})")
                if o["collision"]:
                    bits.append(f"hits {o['collision']}")
                if o["dents_overspeed"]:
                    bits.append(f"{o['dents_overspeed']} overspeed dent(s)")
                if o["dents_wall"]:
                    bits.append(f"{o['dents_wall']} wall dent")
                if o["out"]:
                    bits.append("OUT")
                if o["past_finish"]:
                    bits.append("past the finish line")
                if o["draws"]:
                    bits.append(f"draws {o['draws']}")
                if o["discards"]:
                    n = len(o["discards"])
                    bits.append(f"discards {n} (greedy would drop {o['discards']})")
                moves = "".join(m[0].upper() for m in o["moves"])
                if o["collided_move"]:
                    moves += f" {o['collided_move'][0].upper()}!"
                lines.append(f"   - {moves or '-'}: path {o['path']}: " + ", ".join(bits))
        return "\n".join(lines)


def moves(state: Mapping[str, Any], track: CompiledTrack | None = None) -> Moves:
    """Every legal play of the sled whose turn it is, and each distinct outcome."""
    if not isinstance(state, Mapping):
        raise StateError("state: expected a JSON object")
    pos = parse_state(state, track)
    p = pos.turn
    variant = pos.variant
    tab, _, safety, _ = kernel_track(pos.track, variant.trees, variant.buildings)
    prm = variant.to_kernel()
    n_seats = MAX_SEATS
    rank = int(race_position(tab, pos.st, n_seats, p, prm))
    if pos.hand[p].sum() == 0:
        note = (
            "no canine cards in hand: the sled first takes a dent and draws up to the hand "
            "size (R-19); give the hand after drawing to list its plays"
        )
        return Moves(pos, rank, note, [])
    scratch = new_scratch(pos.track.n_spaces)
    nodes, outs, plays, pattern = scratch[8], scratch[9], scratch[11], scratch[12]
    trees = tab[:, S_TREE].copy()
    n_pl = list_plays(pos.hand, p, prm, plays)
    bots = np.full(MAX_SEATS, BOT_GREEDY, dtype=np.int64)
    result = []
    for i in range(n_pl):
        v, mask = int(plays[i, 0]), int(plays[i, 1])
        left, right, brake, speed, drift, dcol, raw, bonus = play_effect(
            pos.st, p, v, mask, prm, pos.round, rank
        )
        room = variant.dent_limit - int(pos.st[p, ST_DENTS])
        _n_nodes, n_outs = outcomes(
            tab, safety, pos.occ, trees, pos.st[p, ST_SPACE], speed, drift, dcol, bonus,
            variant.bonus_rule == "dice", prm[K_SAFETY], room, variant.tree_dents,
            variant.dents_past_finish, nodes, 0, outs, 0,
        )  # fmt: skip
        found = []
        for o in range(n_outs):
            npat = pattern_of(nodes, outs, o, pattern)
            found.append(
                _resolve(
                    pos,
                    tab,
                    safety,
                    prm,
                    bots,
                    trees,
                    v,
                    mask,
                    npat,
                    int(outs[o, O_BONUS]),
                    pattern,
                    rank,
                    int(outs[o, O_SPEED]),
                )
            )
        onto = where_list(mask)
        result.append(
            {
                "cards": [v] * len(onto),
                "onto": onto,
                "dogs": [int(left), int(right)],
                "brake": int(brake),
                "speed": int(speed),
                "drift": int(drift),
                "drift_side": None if raw == 0 else ("right" if raw > 0 else "left"),
                "bonus_offered": int(bonus),
                "outcomes": found,
            }
        )
    return Moves(pos, rank, "", result)


def _resolve(pos, tab, safety, prm, bots, trees, v, mask, npat, take, pattern, rank, speed):
    """Carry out one play and pattern on a copy of the position with the engine's code."""
    p = pos.turn
    st, hand, occ = pos.st.copy(), pos.hand.copy(), pos.occ.copy()
    disc = np.zeros_like(hand)
    deck = np.zeros((MAX_SEATS, MAX_DECK), dtype=np.int64)  # hidden cards: only counted
    st[p, ST_DECKN] = MAX_DECK
    states = np.zeros(1 + 2 * MAX_SEATS, dtype=np.uint64)
    path = np.zeros(64, dtype=np.int64)
    heat = np.zeros((len(HEAT_KINDS), tab.shape[0]), dtype=np.int64)
    log = np.zeros((256, EV_WIDTH), dtype=np.int64)
    nlog = np.zeros(1, dtype=np.int64)
    code = resolve_play(
        tab, safety, prm, bots, st, hand, disc, deck, occ, trees.copy(), states, MAX_SEATS, p,
        pos.round, rank, 0, v, mask, npat, take, pattern.copy(), path, heat, log, nlog, True,
    )  # fmt: skip
    gone = code == T_OUT
    walked, moves_made, coll = [int(pos.st[p, ST_SPACE])], [], None
    over = wall = draws = 0
    taken = False
    attempt = None
    discards = []
    for row in log[: nlog[0]]:
        kind = int(row[0])
        if kind == EV_MOVE:
            walked.append(int(row[3]))
            moves_made.append(MOVE_NAMES[int(row[4])])
        elif kind == EV_COLLIDE:
            coll = "sled" if row[2] == C_SLED else ("wall" if row[2] == C_WALL else None)
            attempt = MOVE_NAMES[int(row[4])]
        elif kind == EV_DENT and row[2] == DENT_OVERSPEED:
            over += int(row[7])
        elif kind == EV_DENT and row[2] == DENT_WALL:
            wall += int(row[7])
        elif kind == EV_DRAW:
            draws += 1
        elif kind == EV_DISCARD:
            discards.append(int(row[2]))
        elif kind == EV_BONUS:
            taken = int(row[3]) > 0
    end = int(st[p, ST_SPACE])
    kept = hand[p].copy()
    kept[0] -= draws  # the dummy deck holds only 0s; drawn cards are unknown
    return {
        "path": walked,
        "moves": moves_made,
        "end": end,
        "collision": coll,
        "collided_move": attempt,
        "bonus_taken": taken,
        "speed": speed,
        "dents_overspeed": over,
        "dents_wall": wall,
        "dents_after": int(st[p, ST_DENTS]),
        "out": bool(gone),
        "past_finish": bool(tab[end, S_PAST]),
        "hand_kept": hand_list(kept),
        "draws": draws,
        "discards": discards,
    }
