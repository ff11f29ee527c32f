"""The state oracle of ``simkit moves``: every legal play from a position, exactly resolved.

The position is the JSON of ``docs/state.md`` (game ``snowtails`` or ``mushmush``). Plays
come from the engine's own play list (R-12, ST2 B.1), outcomes from the same search the
greedy bot uses (``movement.outcomes``: every drift pattern, and with the bonus dice every
distance up to its value, R-23), and each outcome is carried out by the engine's
``resolve_play`` on a copy of the position (trees, dice, repair, buildings included), so
what the oracle says is what a race would do. Cards drawn at the end of the turn are
unknown (the deck is hidden), so the oracle reports how many would be drawn.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from simkit.errors import SimkitError, StateError
from simkit.games.snowtails.bots import BOT_GREEDY
from simkit.games.snowtails.engine import T_OUT, T_REPAIR, T_SECOND, new_scratch, resolve_play
from simkit.games.snowtails.layout import (
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
    EV_WIDTH,
    FINISHED,
    HEAT_KINDS,
    MAX_DECK,
    MAX_SEATS,
    OUT,
    REPAIR,
    S_BLOCKED,
    S_PAST,
    S_TREE,
    ST_BRAKE,
    ST_DECKN,
    ST_DENTS,
    ST_DIE,
    ST_FIVES,
    ST_LCARD,
    ST_LEFT,
    ST_ORDER,
    ST_RCARD,
    ST_RIGHT,
    ST_SLOT,
    ST_SPACE,
    ST_STATUS,
    T_BOTHY,
    T_CHAPEL,
    T_KENNELS,
    kernel_track,
)
from simkit.games.snowtails.movement import O_BONUS, O_SPEED, outcomes, pattern_of
from simkit.games.snowtails.params import (
    K_SAFETY,
    MAX_VALUE,
    MushMushParams,
    SnowTailsParams,
    presets,
)
from simkit.games.snowtails.rules import list_plays, play_effect, race_position
from simkit.games.snowtails.trace import COLOURS, MOVE_NAMES, hand_list, where_list
from simkit.tracks.compiled import CompiledTrack

STATE_KEYS = {"game", "preset", "set", "track", "round", "turn", "sleds", "trees"}
SLED_KEYS = {
    "colour", "space", "dogs", "brake", "hand", "dents", "finished", "die", "repairing", "fives",
}  # fmt: skip
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
    """A parsed, validated position and its kernel arrays."""

    variant: Any
    track: Any
    round: int
    turn: int
    colours: list[str]
    st: np.ndarray
    hand: np.ndarray
    occ: np.ndarray
    trees: np.ndarray  # 1 where a tree still stands
    n_seats: int  # sleds in the race (R-25's two-sled rule)


def _variant(state: Mapping[str, Any]) -> Any:
    """The variant the state names: its game's preset plus its ``set`` overrides."""
    game = state.get("game")
    if game not in GAMES:
        raise StateError(f"state: game must be 'snowtails' or 'mushmush' (got {game!r})")
    cls, default = GAMES[str(game)]
    known = presets(cls)
    preset = state.get("preset", default)
    if preset not in known:
        raise StateError(f"state: preset '{preset}' unknown (known: {', '.join(known)})")
    overrides = state.get("set", {})
    if not isinstance(overrides, dict):
        raise StateError("state: set must be an object of parameter overrides")
    try:
        return known[preset].replace(**overrides)
    except SimkitError as exc:
        raise StateError(f"state: set: {exc}") from exc


def _trees(state: Mapping[str, Any], tab: np.ndarray, track: CompiledTrack) -> np.ndarray:
    """Trees standing: the state's list, or every tree of the track (R-21); a tree can
    only stand where the track has one (and the variant plays trees)."""
    trees = tab[:, S_TREE].copy()
    if "trees" not in state:
        return trees
    spaces = state["trees"]
    if not isinstance(spaces, list):
        raise StateError("state: trees must be a list of the spaces where trees still stand")
    trees[:] = 0
    for j, s in enumerate(spaces):
        s = _int(s, f"trees[{j}]", 0, track.n_spaces - 1)
        if not tab[s, S_TREE]:
            have = np.flatnonzero(tab[:, S_TREE]).tolist() or "none (or trees = false)"
            raise StateError(
                f"state: trees[{j}]: space {s} has no tree on '{track.name}' (trees: {have})"
            )
        trees[s] = 1
    return trees


def _sled_values(sled, where, variant, dice, st, hand, i) -> None:
    """Dogs, brake, dents, dice, set-aside 5s and hand of sled ``i`` into the arrays."""
    dogs = sled["dogs"]
    if not isinstance(dogs, list) or len(dogs) != 2:
        raise StateError(f"state: {where}.dogs must be [left, right]")
    st[i, ST_LEFT] = _int(dogs[0], f"{where}.dogs[0]", 0, MAX_VALUE)
    st[i, ST_RIGHT] = _int(dogs[1], f"{where}.dogs[1]", 0, MAX_VALUE)
    brake = sled.get("brake", variant.brake_start)
    st[i, ST_BRAKE] = _int(brake, f"{where}.brake", 0, MAX_VALUE)
    st[i, ST_LCARD] = st[i, ST_RCARD] = 1
    st[i, ST_DENTS] = _int(sled.get("dents", 0), f"{where}.dents", 0, variant.dent_limit)
    die = _int(sled.get("die", 0), f"{where}.die", 0, DIE_MAX if dice else 0)
    st[i, ST_DIE] = die  # 0 = no bonus available
    fives = sled.get("fives", variant.set_aside)
    st[i, ST_FIVES] = _int(fives, f"{where}.fives", 0, variant.set_aside)
    cards = sled["hand"]
    if not isinstance(cards, list) or len(cards) > 12:
        raise StateError(f"state: {where}.hand must be a list of card values")
    for j, v in enumerate(cards):
        hand[i, _int(v, f"{where}.hand[{j}]", 0, MAX_VALUE)] += 1


def parse_state(state: Mapping[str, Any], track: CompiledTrack | None = None) -> Position:
    """Validate the JSON position; ``StateError`` names the first bad key.

    ``track`` replaces the state's track name (tests race on hand-built tracks).
    """
    from simkit.games.snowtails import load_track

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
    tab = kernel_track(track, variant.trees, variant.buildings)[0]
    trees = _trees(state, tab, track)
    scratch = new_scratch(track.n_spaces)
    st, hand, occ = scratch[0], scratch[1], scratch[4]
    colours = []
    holder: dict[int, int] = {}
    start_row = {int(x) for x in track.start_row} if variant.start_rule == "row" else set()
    for i, sled in enumerate(sleds):
        where = f"sleds[{i}]"
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
        if sled["space"] is None and rnd == 1 and variant.start_rule == "row":
            # ST2 B: not on the board yet; it enters on a start-row space in its turn.
            if sled.get("finished") or sled.get("repairing"):
                raise StateError(f"state: {where} is not on the board yet (space null)")
            st[i, ST_SPACE] = -1
            _sled_values(sled, where, variant, dice, st, hand, i)
            st[i, ST_ORDER] = st[i, ST_SLOT] = i + 1  # start order: list order
            colours.append(str(sled.get("colour", COLOURS[i])))
            continue
        space = _int(sled["space"], f"{where}.space", 0, track.n_spaces - 1)
        if tab[space, S_BLOCKED]:
            raise StateError(f"state: {where}.space {space} is closed or under a building")
        if space in holder and not (rnd == 1 and space in start_row):
            # ST2 B: only in the first round may sleds share a start-row space.
            raise StateError(f"state: {where}.space {space} already holds sled {holder[space]}")
        if trees[space]:
            raise StateError(f"state: {where}.space {space} holds a standing tree (R-21)")
        _sled_values(sled, where, variant, dice, st, hand, i)
        finished = _bool(sled.get("finished", False), f"{where}.finished")
        if finished and not tab[space, S_PAST]:
            raise StateError(f"state: {where} is finished but space {space} is before the line")
        repairing = _bool(sled.get("repairing", False), f"{where}.repairing")
        if repairing and variant.fifth_dent != "repair":
            raise StateError(f"state: {where}.repairing needs fifth_dent = repair (R-25)")
        if repairing and finished:
            raise StateError(f"state: {where} cannot be both finished and repairing")
        st[i, ST_SPACE] = space
        st[i, ST_ORDER] = st[i, ST_SLOT] = i + 1
        st[i, ST_STATUS] = FINISHED if finished else (REPAIR if repairing else 0)
        if not (finished and variant.lift_finished):
            occ[space] += 1  # a repairing sled stays on its space
            holder[space] = i
        colours.append(str(sled.get("colour", COLOURS[i])))
    for i in range(len(sleds), MAX_SEATS):
        st[i, ST_STATUS] = OUT
    if st[turn, ST_STATUS] == FINISHED:
        raise StateError(f"state: turn names sleds[{turn}], which has already finished")
    if st[turn, ST_STATUS] == REPAIR:
        raise StateError(
            f"state: turn names sleds[{turn}], which is repairing: it sits out until it is "
            "last in race order at the start of a round (R-25)"
        )
    return Position(variant, track, rnd, turn, colours, st, hand, occ, trees, len(sleds))


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
            "die": int(pos.st[pos.turn, ST_DIE]),
            "trees": np.flatnonzero(pos.trees).tolist(),
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
                f"at space {int(pos.st[p, ST_SPACE])}"
                if pos.st[p, ST_SPACE] >= 0
                else "off the board: it enters on a start-row space (ST2 B)"
            )
            + (f", bonus dice {int(pos.st[p, ST_DIE])}" if dice else "")
        ]
        standing = np.flatnonzero(pos.trees).tolist()
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
    pos = parse_state(state, track)
    p = pos.turn
    variant = pos.variant
    tab, _, safety, _ = kernel_track(pos.track, variant.trees, variant.buildings)
    prm = variant.to_kernel()
    rank = int(race_position(tab, pos.st, pos.n_seats, p, prm))
    if pos.hand[p].sum() == 0:
        note = (
            "no canine cards in hand: the sled first takes a dent and draws up to the hand "
            "size (R-19); give the hand after drawing to list its plays"
        )
        if not variant.no_canine_dent:
            note = (
                "no canine cards in hand: the sled draws up to the hand size first; give the "
                "hand after drawing to list its plays"
            )
        return Moves(pos, rank, note, [])
    here = int(pos.st[p, ST_SPACE])
    result = []
    if here >= 0:
        result = _plays(pos, tab, safety, prm, rank, None)
    else:
        # ST2 B: it enters on a start-row space, a free one if there is one.
        row = [int(x) for x in pos.track.start_row]
        free = [x for x in row if pos.occ[x] == 0]
        for x in free or row:
            st, occ = pos.st.copy(), pos.occ.copy()
            st[p, ST_SPACE] = x
            occ[x] += 1
            result += _plays(replace(pos, st=st, occ=occ), tab, safety, prm, rank, x)
    return Moves(pos, rank, "", result)


def _plays(pos, tab, safety, prm, rank, enter):
    """Every play from the turn sled's space, each with its outcomes resolved."""
    p = pos.turn
    variant = pos.variant
    scratch = new_scratch(pos.track.n_spaces)
    nodes, outs, plays, pattern = scratch[8], scratch[9], scratch[11], scratch[12]
    n_pl = list_plays(pos.hand, p, prm, plays)
    bots = np.full(MAX_SEATS, BOT_GREEDY, dtype=np.int64)
    room = variant.dent_limit - int(pos.st[p, ST_DENTS])
    result = []
    for i in range(n_pl):
        v, mask = int(plays[i, 0]), int(plays[i, 1])
        left, right, brake, speed, drift, dcol, raw, bonus = play_effect(
            pos.st, p, v, mask, prm, pos.round, rank
        )
        _n_nodes, n_outs = outcomes(
            tab, safety, pos.occ, pos.trees, pos.st[p, ST_SPACE], speed, drift, dcol, bonus,
            int(variant.bonus_rule == "dice"), prm[K_SAFETY], room, variant.tree_dents,
            variant.dents_past_finish, nodes, 0, outs, 0,
        )  # fmt: skip
        found = []
        for o in range(n_outs):
            npat = pattern_of(nodes, outs, o, pattern)
            take, total = int(outs[o, O_BONUS]), int(outs[o, O_SPEED])
            found.append(
                _resolve(pos, tab, safety, prm, bots, v, mask, npat, take, pattern, rank, total)
            )
        onto = where_list(mask)
        result.append(
            {
                "enter": enter,
                "cards": [v] * len(onto),
                "onto": onto,
                "dogs": [int(left), int(right)],
                "brake": int(brake),
                "speed": int(speed),
                "drift": int(drift),
                "drift_side": None if raw == 0 else ("right" if raw > 0 else "left"),
                "bonus_offered": int(bonus),
                "die_before": int(pos.st[p, ST_DIE]),
                "outcomes": found,
            }
        )
    return result


def _resolve(pos, tab, safety, prm, bots, v, mask, npat, take, pattern, rank, speed):
    """Carry out one play and pattern on a copy of the position with the engine's code."""
    p = pos.turn
    st, hand, occ = pos.st.copy(), pos.hand.copy(), pos.occ.copy()
    disc = np.zeros_like(hand)
    deck = np.zeros((MAX_SEATS, MAX_DECK), dtype=np.int64)  # hidden cards: only counted
    st[p, ST_DECKN] = MAX_DECK - DECK_ROOM
    states = np.zeros(1 + 2 * MAX_SEATS, dtype=np.uint64)
    path = np.zeros(64, dtype=np.int64)
    heat = np.zeros((len(HEAT_KINDS), tab.shape[0]), dtype=np.int64)
    log = np.zeros((256, EV_WIDTH), dtype=np.int64)
    nlog = np.zeros(1, dtype=np.int64)
    trees = pos.trees.copy()
    code = resolve_play(
        tab, safety, prm, bots, st, hand, disc, deck, occ, trees, states, pos.n_seats,
        p, pos.round, rank, 0, v, mask, npat, take, pattern.copy(), path, heat, log, nlog, True,
    )  # fmt: skip
    walked, moves_made, coll = [int(pos.st[p, ST_SPACE])], [], None
    over = wall = tree_dents = draws = tried = 0
    taken = False
    attempt = None
    discards, trees_hit, die_changes, buildings = [], [], [], []
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
        elif kind == EV_DENT and row[2] == DENT_TREE:
            tree_dents += int(row[7])
        elif kind == EV_TREE:
            trees_hit.append(int(row[2]))
        elif kind == EV_DRAW:
            draws += 1
        elif kind == EV_DISCARD:
            discards.append(int(row[2]))
        elif kind == EV_BONUS:
            taken = int(row[3]) > 0
            tried = int(row[3])
        elif kind == EV_DIE and int(row[4]) in DIE_REASONS:
            why = DIE_REASONS[int(row[4])]
            die_changes.append({"from": int(row[2]), "to": int(row[3]), "why": why})
        elif kind == EV_BUILDING:
            buildings.append({"building": BUILDINGS[int(row[2])], "detail": int(row[3])})
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
        "bonus_distance": moves_made.count("bonus"),  # spaces moved on the bonus
        "bonus_tried": tried,  # the distance chosen (a collision can cut it short)
        "speed": speed,
        "trees_hit": trees_hit,
        "dents_tree": tree_dents,
        "trees_after": np.flatnonzero(trees).tolist(),
        "dents_overspeed": over,
        "dents_wall": wall,
        "dents_after": int(st[p, ST_DENTS]),
        "die_after": int(st[p, ST_DIE]),
        "die_changes": die_changes,
        "repair": code == T_REPAIR,
        "second": code == T_SECOND,
        "out": code == T_OUT,
        "buildings": buildings,
        "past_finish": bool(tab[end, S_PAST]),
        "hand_kept": hand_list(kept),
        "draws": draws,
        "discards": discards,
    }
