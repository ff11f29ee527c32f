"""The state oracle of ``simkit moves``: every legal play from a position, exactly resolved.

The position is the JSON of ``docs/state.md`` (game ``snowtails`` or ``mushmush``). Plays
come from the engine's own play list (R-12, ST2 B.1), outcomes from the same search the
greedy bot uses (``position.legal_plays``: every drift pattern, and with the bonus dice
every distance up to its value, R-23), and each is carried out by ``position.apply`` on a
copy of the position to the end of the turn (trees, dice, repair, buildings included; the
turn's own later choices, discards, bothy and kennels, as the greedy bot takes them), so
what the oracle says is what a race would do. Cards drawn at the end of the turn are
unknown (the deck is hidden), so the oracle reports how many would be drawn.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from simkit.errors import SimkitError, StateError
from simkit.games.snowtails import kernels
from simkit.games.snowtails.batch import cell_inputs
from simkit.games.snowtails.params import MAX_VALUE, MushMushParams, SnowTailsParams, presets
from simkit.games.snowtails.records import (
    C_SLED,
    C_WALL,
    DENT_OVERSPEED,
    DENT_TREE,
    DENT_WALL,
    DIE_SLED,
    DIE_TAVERN,
    DIE_USED,
    EV_BONUS,
    EV_BUILDING,
    EV_COLLIDE,
    EV_DENT,
    EV_DIE,
    EV_DISCARD,
    EV_DRAW,
    EV_MOVE,
    EV_TREE,
    FINISHED,
    FL_TURN,
    MAX_DECK,
    MAX_SEATS,
    OUT,
    PH_PLAY,
    PL_ENTER,
    PL_MASK,
    PL_TAKE,
    PL_VALUE,
    PLAY_W,
    POSITION,
    REPAIR,
    S_BLOCKED,
    S_PAST,
    S_TREE,
    T_BOTHY,
    T_CHAPEL,
    T_KENNELS,
    T_OUT,
    T_REPAIR,
    T_SECOND,
    WORK,
)
from simkit.games.snowtails.trace import COLOURS, MOVE_NAMES, hand_list, where_list
from simkit.tracks.compiled import CompiledTrack

STATE_KEYS = {"game", "preset", "set", "track", "round", "turn", "sleds", "trees"}
SLED_KEYS = {
    "colour",
    "space",
    "dogs",
    "brake",
    "hand",
    "dents",
    "finished",
    "die",
    "repairing",
    "fives",
}
# Each game's parameter class and default preset (its errors name the game).
GAMES = {"snowtails": (SnowTailsParams, "snowtails"), "mushmush": (MushMushParams, "mushmush")}
DIE_MAX = 6  # the bonus dice's highest face (ST2 B.2)
BUILDINGS = {T_CHAPEL: "chapel", T_BOTHY: "bothy", T_KENNELS: "kennels"}
DIE_REASONS = {DIE_USED: "spent", DIE_SLED: "hit a sled", DIE_TAVERN: "tavern +2"}
DECK_ROOM = 10  # free rows left in the dummy deck, for a kennels 5 shuffled in


def _int(value: Any, key: str, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise StateError(f"state: {key} must be an integer (got {value!r})")
    if not lo <= value <= hi:
        raise StateError(f"state: {key} must be between {lo} and {hi} (got {value})")
    return value


def _bool(value: Any, key: str) -> bool:
    if not isinstance(value, bool):
        raise StateError(f"state: {key} must be true or false")
    return value


@dataclass
class Position:
    """A parsed, validated position: its cell record and its ``records.POSITION`` record."""

    variant: Any
    track: CompiledTrack
    round: int
    turn: int
    colours: list[str]
    cfga: np.ndarray  # the cell record (one-element array)
    positions: np.ndarray  # the position (one-element array)

    @property
    def pos(self) -> np.void:
        return self.positions[0]

    @property
    def n_seats(self) -> int:
        return int(self.pos["n_seats"])

    def trees_standing(self, positions: np.ndarray | None = None) -> list[int]:
        """Spaces where a tree stands (R-21), in ``positions`` (default: this position)."""
        pos = (self.positions if positions is None else positions)[0]
        tab = self.cfga["tab"][0, : self.track.n_spaces]
        return [int(s) for s in np.flatnonzero(tab[:, S_TREE] >= 0) if pos["trees"][tab[s, S_TREE]]]


def _variant(state: Mapping[str, Any]) -> Any:
    """The variant the state names: its game's preset plus its ``set`` overrides."""
    game = state.get("game")
    if game not in GAMES:
        raise StateError(f"state: game must be 'snowtails' or 'mushmush' (got {game!r})")
    cls, default = GAMES[str(game)]
    try:
        return cls.resolve(presets(cls), state.get("preset", default), state.get("set"))
    except SimkitError as exc:
        where = "preset" if exc.key == "preset" else "set"
        raise StateError(f"state: {where}: {exc}") from exc


def _trees(state: Mapping[str, Any], tab: np.ndarray, track: CompiledTrack, pos) -> None:
    """Trees standing: the state's list, or every tree of the track (R-21); a tree can
    only stand where the track has one (and the variant plays trees)."""
    ids = tab[:, S_TREE]
    if "trees" not in state:
        pos["trees"][ids[ids >= 0]] = 1
        return
    spaces = state["trees"]
    if not isinstance(spaces, list):
        raise StateError("state: trees must be a list of the spaces where trees still stand")
    for j, s in enumerate(spaces):
        s = _int(s, f"trees[{j}]", 0, track.n_spaces - 1)
        if ids[s] < 0:
            have = np.flatnonzero(ids >= 0).tolist() or "none (or trees = false)"
            raise StateError(
                f"state: trees[{j}]: space {s} has no tree on '{track.name}' (trees: {have})"
            )
        pos["trees"][ids[s]] = 1


def _sled_values(sled, where, variant, dice, pos, i) -> None:
    """Dogs, brake, dents, dice, set-aside 5s and hand of sled ``i`` into the position."""
    dogs = sled["dogs"]
    if not isinstance(dogs, list) or len(dogs) != 2:
        raise StateError(f"state: {where}.dogs must be [left, right]")
    pos["left"][i] = _int(dogs[0], f"{where}.dogs[0]", 0, MAX_VALUE)
    pos["right"][i] = _int(dogs[1], f"{where}.dogs[1]", 0, MAX_VALUE)
    brake = sled.get("brake", variant.brake_start)
    pos["brake"][i] = _int(brake, f"{where}.brake", 0, MAX_VALUE)
    pos["lcard"][i] = pos["rcard"][i] = 1
    pos["dents"][i] = _int(sled.get("dents", 0), f"{where}.dents", 0, variant.dent_limit)
    die = _int(sled.get("die", 0), f"{where}.die", 0, DIE_MAX if dice else 0)
    pos["die"][i] = die  # 0 = no bonus available
    fives = sled.get("fives", variant.set_aside)
    pos["fives"][i] = _int(fives, f"{where}.fives", 0, variant.set_aside)
    cards = sled["hand"]
    if not isinstance(cards, list) or len(cards) > 12:
        raise StateError(f"state: {where}.hand must be a list of card values")
    for j, v in enumerate(cards):
        pos["hand"][i, _int(v, f"{where}.hand[{j}]", 0, MAX_VALUE)] += 1
    # The draw deck is hidden: a deck of unknown cards (counted as 0s), with room for a
    # kennels 5.
    pos["deckn"][i] = MAX_DECK - DECK_ROOM


def _sled(state, sled, i, variant, dice, tab, track, pos, holder, start_row) -> str:
    """Sled ``i`` of the state into the position; returns its colour."""
    where = f"sleds[{i}]"
    rnd = pos["rnd"]
    if not isinstance(sled, dict):
        raise StateError(f"state: {where} must be an object")
    bad = sorted(set(sled) - SLED_KEYS)
    if bad:
        raise StateError(f"state: {where}.{bad[0]} is not a sled key")
    # ST2 B.1 has no brake: there the key may be left out (it stays at brake_start).
    needed = ("space", "dogs", "brake", "hand") if variant.brake else ("space", "dogs", "hand")
    for key in needed:
        if key not in sled:
            raise StateError(f"state: {where} is missing '{key}'")
    pos["order"][i] = pos["slot"][i] = i + 1  # start order: list order
    if sled["space"] is None and rnd == 1 and variant.start_rule == "row":
        # ST2 B: not on the board yet; it enters on a start-row space in its turn.
        if sled.get("finished") or sled.get("repairing"):
            raise StateError(f"state: {where} is not on the board yet (space null)")
        pos["space"][i] = -1
        _sled_values(sled, where, variant, dice, pos, i)
        return str(sled.get("colour", COLOURS[i]))
    space = _int(sled["space"], f"{where}.space", 0, track.n_spaces - 1)
    if tab[space, S_BLOCKED]:
        raise StateError(f"state: {where}.space {space} is closed or under a building")
    if space in holder and not (rnd == 1 and space in start_row):
        # ST2 B: only in the first round may sleds share a start-row space.
        raise StateError(f"state: {where}.space {space} already holds sled {holder[space]}")
    if tab[space, S_TREE] >= 0 and pos["trees"][tab[space, S_TREE]]:
        raise StateError(f"state: {where}.space {space} holds a standing tree (R-21)")
    _sled_values(sled, where, variant, dice, pos, i)
    finished = _bool(sled.get("finished", False), f"{where}.finished")
    if finished and not tab[space, S_PAST]:
        raise StateError(f"state: {where} is finished but space {space} is before the line")
    repairing = _bool(sled.get("repairing", False), f"{where}.repairing")
    if repairing and variant.fifth_dent != "repair":
        raise StateError(f"state: {where}.repairing needs fifth_dent = repair (R-25)")
    if repairing and finished:
        raise StateError(f"state: {where} cannot be both finished and repairing")
    pos["space"][i] = space
    pos["status"][i] = FINISHED if finished else (REPAIR if repairing else 0)
    if not (finished and variant.lift_finished):
        holder[space] = i  # a repairing sled stays on its space
    return str(sled.get("colour", COLOURS[i]))


def parse_state(state: Mapping[str, Any], track: CompiledTrack | None = None) -> Position:
    """Validate the JSON position; ``StateError`` names the first bad key.

    ``track`` replaces the state's track name (tests race on hand-built tracks).
    """
    from simkit.games.snowtails.batch import load_track

    unknown = sorted(set(state) - STATE_KEYS)
    if unknown:
        raise StateError(f"state: unknown key '{unknown[0]}' (known: {', '.join(STATE_KEYS)})")
    variant = _variant(state)
    dice = variant.bonus_rule == "dice"
    if track is None:
        if "track" not in state:
            raise StateError("state: missing key 'track' (a library name or a .toml path)")
        track = load_track(str(state["track"]))
    rnd = _int(state.get("round", 1), "round", 1, 10_000)
    sleds = state.get("sleds")
    if not isinstance(sleds, list) or not 1 <= len(sleds) <= MAX_SEATS:
        raise StateError(f"state: sleds must be a list of 1 to {MAX_SEATS} sleds")
    turn = _int(state.get("turn", 0), "turn", 0, len(sleds) - 1)
    n = len(sleds)
    # Every sled greedy: the turn's later choices (discards, bothy, kennels) are greedy's.
    cfga, _ = cell_inputs([track] * variant.races, variant, ("greedy",) * n, tuple(range(1, n + 1)))
    tab = cfga["tab"][0, : track.n_spaces]
    positions = np.zeros(1, dtype=POSITION)
    pos = positions[0]
    pos["n_seats"] = n
    pos["rnd"] = rnd
    _trees(state, tab, track, pos)
    colours = []
    holder: dict[int, int] = {}
    start_row = {int(x) for x in track.start_row} if variant.start_rule == "row" else set()
    for i, sled in enumerate(sleds):
        colour = _sled(state, sled, i, variant, dice, tab, track, pos, holder, start_row)
        if colour in colours:  # a seat is named by its colour in every line printed
            raise StateError(
                f"state: sleds[{i}].colour '{colour}' is also sleds[{colours.index(colour)}]'s; "
                "give every sled its own colour"
            )
        colours.append(colour)
    pos["status"][n:] = OUT
    if pos["status"][turn] == FINISHED:
        raise StateError(f"state: turn names sleds[{turn}], which has already finished")
    if pos["status"][turn] == REPAIR:
        raise StateError(
            f"state: turn names sleds[{turn}], which is repairing: it sits out until it is "
            "last in race order at the start of a round (R-25)"
        )
    pos["to_move"] = turn
    pos["phase"] = PH_PLAY
    pos["flow"] = FL_TURN
    pos["t_pos"] = kernels.race_position(cfga, positions, turn)
    return Position(variant, track, rnd, turn, colours, cfga, positions)


@dataclass
class Moves:
    """Every legal play from a position with its outcomes (``simkit moves``)."""

    position: Position
    race_position: int
    note: str
    plays: list[dict[str, Any]]

    def to_json(self) -> dict[str, Any]:
        pos = self.position
        return {
            "turn": pos.turn,
            "colour": pos.colours[pos.turn],
            "round": pos.round,
            "race_position": self.race_position,
            "die": int(pos.pos["die"][pos.turn]),
            "trees": pos.trees_standing(),
            "note": self.note,
            "plays": self.plays,
        }

    def text(self) -> str:
        pos = self.position
        p = pos.turn
        dice = pos.variant.bonus_rule == "dice"
        lines = [
            f"{pos.colours[p]} to play, round {pos.round}, race position {self.race_position}, "
            f"on '{pos.track.name}' "
            + (
                f"at space {int(pos.pos['space'][p])}"
                if pos.pos["space"][p] >= 0
                else "off the board: it enters on a start-row space (ST2 B)"
            )
            + (f", bonus dice {int(pos.pos['die'][p])}" if dice else "")
        ]
        standing = pos.trees_standing()
        if standing:
            lines.append(f"trees standing: {standing}")
        if self.note:
            lines.append(self.note)
        for n, play in enumerate(self.plays, 1):
            side = f" {play['drift_side']}" if play["drift"] else ""
            enter = f"enter at {play['enter']}, " if play["enter"] is not None else ""
            lines.append(
                f"{n}. {enter}{len(play['cards'])}x{play['cards'][0]} on "
                f"{'+'.join(play['onto'])}: "
                f"dogs {play['dogs'][0]}-{play['dogs'][1]} brake {play['brake']}, "
                f"speed {play['speed']} drift {play['drift']}{side}" + _offer_text(play, dice)
            )
            for o in play["outcomes"]:
                moves = "".join(m[0].upper() for m in o["moves"])
                if o["collided_move"]:
                    moves += f" {o['collided_move'][0].upper()}!"
                lines.append(
                    f"   - {moves or '-'}: path {o['path']}: " + ", ".join(_outcome_bits(o, dice))
                )
        return "\n".join(lines)


def _offer_text(play: dict[str, Any], dice: bool) -> str:
    """The bonus part of a play's line: ST1's bonus on offer, or ST2's dice after step 2."""
    if not dice:
        return f", bonus +{play['bonus_offered']} offered" if play["bonus_offered"] else ""
    before, after = play["die_before"], play["bonus_offered"]
    if after != before:
        return f", bonus dice {before} -> {after} (balanced, R-23)"
    return f", bonus dice {after}" if after else ""


def _outcome_bits(o: dict[str, Any], dice: bool) -> list[str]:
    """What one outcome does, in the order the turn does it."""
    bits = [f"end {o['end']}"]
    if o["bonus_taken"]:
        if dice:
            moved, tried = o["bonus_distance"], o["bonus_tried"]
            short = f" of {tried} tried" if moved < tried else ""
            bits.append(f"bonus dice: {moved} moved{short} (speed {o['speed']})")
        else:
            bits.append(f"bonus taken (speed {o['speed']})")
    if o["trees_hit"]:
        bits.append(f"trees {o['trees_hit']} removed, {o['dents_tree']} tree dent(s)")
    if o["collision"]:
        bits.append(f"hits {o['collision']}")
    if o["dents_overspeed"]:
        bits.append(f"{o['dents_overspeed']} overspeed dent(s)")
    if o["dents_wall"]:
        bits.append(f"{o['dents_wall']} wall dent")
    if o["repair"]:
        bits.append("fifth dent: REPAIR, dents back, new hand (R-25)")
    if o["second"]:
        bits.append("fifth dent: 2nd, the race is over (R-25)")
    if o["out"]:
        bits.append("OUT")
    for b in o["buildings"]:
        bits.append(_building_text(b))
    for d in o["die_changes"]:
        bits.append(f"dice {d['from']} -> {d['to']} ({d['why']})")
    if o["past_finish"]:
        bits.append("past the finish line")
    if o["draws"]:
        bits.append(f"draws {o['draws']}")
    if o["discards"]:
        bits.append(f"discards {len(o['discards'])} (greedy would drop {o['discards']})")
    return bits


def _building_text(b: dict[str, Any]) -> str:
    name, n = b["building"], b["detail"]
    if name == "chapel":
        return f"chapel drops {n} dent(s)"
    if name == "bothy":
        return f"bothy: greedy discards {n} card(s)"
    return f"kennels: a 5 into the deck ({n} left aside)"


def moves(state: Mapping[str, Any], track: CompiledTrack | None = None) -> Moves:
    """Every legal play of the sled whose turn it is, and each distinct outcome."""
    if not isinstance(state, Mapping):
        raise StateError("state: expected a JSON object")
    position = parse_state(state, track)
    pos = position.pos
    p = position.turn
    rank = int(pos["t_pos"])
    if pos["hand"][p].sum() == 0:
        note = (
            "no canine cards in hand: the sled first takes a dent and draws up to the hand "
            "size (R-19); give the hand after drawing to list its plays"
        )
        if not position.variant.no_canine_dent:
            note = (
                "no canine cards in hand: the sled draws up to the hand size first; give the "
                "hand after drawing to list its plays"
            )
        return Moves(position, rank, note, [])
    works = np.zeros(1, dtype=WORK)
    rows = np.zeros((MAX_LEGAL, PLAY_W), dtype=np.int64)
    n = kernels.legal_plays(position.positions, position.cfga, works, rows)
    # One entry per (start space, cards, where they go): its outcomes are its rows.
    result: list[dict[str, Any]] = []
    groups: dict[tuple[int, int, int], list[np.ndarray]] = {}
    for row in rows[:n]:
        groups.setdefault((int(row[PL_ENTER]), int(row[PL_VALUE]), int(row[PL_MASK])), []).append(
            row
        )
    for (enter, v, mask), plays in groups.items():
        result.append(_play(position, enter, v, mask, plays))
    return Moves(position, rank, "", result)


MAX_LEGAL = 8192  # plays of one position: far above a hand's ~40 card plays x their outcomes


def _play(position: Position, enter: int, v: int, mask: int, rows: list[np.ndarray]):
    """One card play (and start space): what it does to the sled, and every outcome."""
    pos = position.pos
    p = position.turn
    entered = position.positions.copy()
    if enter >= 0:
        entered["space"][0, p] = enter
    left, right, brake, speed, drift, _, raw, bonus = kernels.play_effect(
        position.cfga, entered, p, v, mask, position.round, int(pos["t_pos"])
    )
    onto = where_list(mask)
    return {
        "enter": None if enter < 0 else enter,
        "cards": [v] * len(onto),
        "onto": onto,
        "dogs": [int(left), int(right)],
        "brake": int(brake),
        "speed": int(speed),
        "drift": int(drift),
        "drift_side": None if raw == 0 else ("right" if raw > 0 else "left"),
        "bonus_offered": int(bonus),
        "die_before": int(pos["die"][p]),
        "outcomes": [_resolve(position, row, int(speed)) for row in rows],
    }


def _resolve(position: Position, row: np.ndarray, speed: int) -> dict[str, Any]:
    """Carry out one play on a copy of the position to the end of the turn, with the
    engine's own ``apply`` (the turn's later choices as the greedy bot takes them)."""
    from simkit.games.snowtails.batch import reach_table

    cfg = position.cfga[0]
    p = position.turn
    after = position.positions.copy()
    works = np.zeros(1, dtype=WORK)
    works["tracing"] = 1
    works["halt"] = 1
    works["play"][0] = row
    start = int(row[PL_ENTER]) if row[PL_ENTER] >= 0 else int(after["space"][0, p])
    done = int(after["turns_done"][0])
    kernels.apply(after, position.cfga, works)
    reach = None
    while int(after["turns_done"][0]) == done:  # the turn's own choices, greedy's
        if reach is None:
            n = position.track.n_spaces
            reach = reach_table(cfg["tab"][:n].astype(np.int64), cfg["prog"][:n])
        kernels.step(after, position.cfga, reach, works)
    log = works["log"][0, : int(works["nlog"][0])]
    out = _read_log(log, start)
    code = int(after["t_code"][0])
    end = int(after["space"][0, p])
    kept = after["hand"][0, p].copy()
    kept[0] -= out["draws"]  # the dummy deck holds only 0s; drawn cards are unknown
    return {
        "path": out["path"],
        "moves": out["moves"],
        "end": end,
        "collision": out["collision"],
        "collided_move": out["collided_move"],
        "bonus_taken": out["bonus_taken"],
        "bonus_distance": out["moves"].count("bonus"),  # spaces moved on the bonus
        "bonus_tried": out["bonus_tried"],  # the distance chosen (a collision can cut it short)
        "speed": speed + int(row[PL_TAKE]),  # the bonus distance counts
        "trees_hit": out["trees_hit"],
        "dents_tree": out["dents_tree"],
        "trees_after": position.trees_standing(after),
        "dents_overspeed": out["dents_overspeed"],
        "dents_wall": out["dents_wall"],
        "dents_after": int(after["dents"][0, p]),
        "die_after": int(after["die"][0, p]),
        "die_changes": out["die_changes"],
        "repair": bool(code == T_REPAIR),
        "second": bool(code == T_SECOND),
        "out": bool(code == T_OUT),
        "buildings": out["buildings"],
        "past_finish": bool(cfg["tab"][end, S_PAST]),
        "hand_kept": hand_list(kept),
        "draws": out["draws"],
        "discards": out["discards"],
    }


def _read_log(log: np.ndarray, start: int) -> dict[str, Any]:
    """What one turn's event rows say, in the oracle's words."""
    out: dict[str, Any] = {
        "path": [start],
        "moves": [],
        "collision": None,
        "collided_move": None,
        "dents_overspeed": 0,
        "dents_wall": 0,
        "dents_tree": 0,
        "draws": 0,
        "bonus_taken": False,
        "bonus_tried": 0,
        "discards": [],
        "trees_hit": [],
        "die_changes": [],
        "buildings": [],
    }
    for row in log:
        kind = int(row[0])
        if kind == EV_MOVE:
            out["path"].append(int(row[3]))
            out["moves"].append(MOVE_NAMES[int(row[4])])
        elif kind == EV_COLLIDE:
            coll = "sled" if row[2] == C_SLED else ("wall" if row[2] == C_WALL else None)
            out["collision"] = coll
            out["collided_move"] = MOVE_NAMES[int(row[4])]
        elif kind == EV_DENT and row[2] == DENT_OVERSPEED:
            out["dents_overspeed"] += int(row[7])
        elif kind == EV_DENT and row[2] == DENT_WALL:
            out["dents_wall"] += int(row[7])
        elif kind == EV_DENT and row[2] == DENT_TREE:
            out["dents_tree"] += int(row[7])
        elif kind == EV_TREE:
            out["trees_hit"].append(int(row[2]))
        elif kind == EV_DRAW:
            out["draws"] += 1
        elif kind == EV_DISCARD:
            out["discards"].append(int(row[2]))
        elif kind == EV_BONUS:
            out["bonus_taken"] = int(row[3]) > 0
            out["bonus_tried"] = int(row[3])
        elif kind == EV_DIE and int(row[4]) in DIE_REASONS:
            why = DIE_REASONS[int(row[4])]
            out["die_changes"].append({"from": int(row[2]), "to": int(row[3]), "why": why})
        elif kind == EV_BUILDING:
            out["buildings"].append({"building": BUILDINGS[int(row[2])], "detail": int(row[3])})
    return out
