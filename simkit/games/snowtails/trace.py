"""One race replayed with the event log on: the readable log of ``simkit race``.

The trace steps the same position with the same ``choose``/``apply`` as a batch row
(tracing only adds log writes), so its results are the table's results for that key.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from simkit.games.base import Batch, race_rows
from simkit.games.snowtails.batch import cell_inputs, to_batch
from simkit.games.snowtails.kernels import new, result, step
from simkit.games.snowtails.params import SnowTailsParams
from simkit.games.snowtails.records import (
    C_SLED,
    DENT_NO_CANINE,
    DENT_OVERSPEED,
    DENT_TREE,
    DIE_ADJUST,
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
    EV_END,
    EV_FINISH,
    EV_HAND,
    EV_KEEP,
    EV_MOVE,
    EV_NO_CANINE,
    EV_OUT,
    EV_PLACE,
    EV_PLAY,
    EV_RACE,
    EV_REJOIN,
    EV_REPAIR,
    EV_RESHUFFLE,
    EV_ROUND,
    EV_STALL,
    EV_START,
    EV_TREE,
    EV_TURN,
    FL_DONE,
    LOG_CAP,
    M_BRAKE,
    M_LEFT,
    M_RIGHT,
    MV_BONUS,
    MV_DRIFT,
    POSITION,
    RESULT,
    T_BOTHY,
    T_CHAPEL,
    T_KENNELS,
    WORK,
)
from simkit.tracks.compiled import CompiledTrack

COLOURS = ("yellow", "blue", "red", "green", "black", "orange", "purple", "white")
DIE_WHY = {
    DIE_ADJUST: "balanced: set to race position (R-23)",
    DIE_USED: "spent (R-23)",
    DIE_SLED: "hit a sled (R-24)",
    DIE_TAVERN: "tavern +2 (R-27)",
}
MOVE_NAMES = {0: "straight", MV_DRIFT: "drift", MV_BONUS: "bonus"}


def hand_list(counts) -> list[int]:
    """Hand counts by value as a sorted list of card values."""
    return [v for v in range(len(counts)) for _ in range(int(counts[v]))]


def where_list(mask: int) -> list[str]:
    out = []
    if mask & M_LEFT:
        out.append("left")
    if mask & M_RIGHT:
        out.append("right")
    if mask & M_BRAKE:
        out.append("brake")
    return out


def play_logged(
    tracks: list[CompiledTrack],
    variant: SnowTailsParams,
    bots: tuple[str, ...],
    slots: tuple[int, ...],
    key: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Play unit ``key`` one decision at a time with the event log on, draining the log
    after each step: (events, final position, result record, heat on the first track),
    the position and result as one-element arrays. The same position and the same
    ``choose``/``apply`` as the batch, so a trace and a table row cannot disagree."""
    cfga, reach = cell_inputs(tracks, variant, bots, slots)
    positions = np.zeros(1, dtype=POSITION)
    works = np.zeros(1, dtype=WORK)
    works["tracing"] = 1
    works["heat_on"] = 1
    chunks = []

    def drain() -> None:
        n = int(works["nlog"][0])
        if n > LOG_CAP:  # one decision's events never come near this
            raise RuntimeError(f"trace: {n} events from one decision, more than {LOG_CAP}")
        chunks.append(works["log"][0, :n].copy())
        works["nlog"] = 0

    new(positions, cfga, works, np.uint64(key))
    drain()
    while positions["flow"][0] != FL_DONE:
        step(positions, cfga, reach, works)
        drain()
    out = np.zeros(1, dtype=RESULT)
    result(positions, cfga, out)
    heat = works["heat"][0, :, : tracks[0].n_spaces].copy()
    return np.concatenate(chunks), positions, out, heat


def run_logged(
    tracks: CompiledTrack | list[CompiledTrack],
    variant: SnowTailsParams,
    bots: tuple[str, ...],
    slots: tuple[int, ...],
    key: int,
) -> tuple[np.ndarray, Batch]:
    """Play unit ``key`` (one track per race) with the event log on: (events, Batch)."""
    if isinstance(tracks, CompiledTrack):
        tracks = [tracks] * variant.races
    events, _, out, heat = play_logged(tracks, variant, bots, slots, key)
    return events, to_batch(out, len(slots), heat)


@dataclass
class Turn:
    """One sled's turn as the log tells it."""

    round: int
    seat: int
    position: int
    space: int
    dogs: tuple[int, int]
    brake: int
    dents: int
    hand: list[int] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    play: dict[str, Any] | None = None
    path: list[int] = field(default_factory=list)
    moves: list[str] = field(default_factory=list)
    collision: str | None = None
    bonus: dict[str, int] | None = None
    dents_taken: list[dict[str, int]] = field(default_factory=list)
    drawn: list[int] = field(default_factory=list)
    discarded: list[int] = field(default_factory=list)
    out: bool = False
    race: int = 1
    die: int = 0


@dataclass
class RaceTrace:
    """A replayed race: its turns, its result rows, and how to print or draw it."""

    track: CompiledTrack
    variant: SnowTailsParams
    bots: tuple[str, ...]
    key: int
    events: np.ndarray
    result: Batch
    starts: list[dict[str, int]]
    turns: list[Turn]
    title: str = "Snow Tails"
    tracks: list[CompiledTrack] = field(default_factory=list)  # one per race of the unit

    def rows(self) -> tuple[dict[str, list[Any]], dict[str, Any]]:
        """The race's table rows, as ``simulate`` writes them: seats and race columns."""
        return race_rows(self.result)

    def seat_name(self, p: int) -> str:
        return f"{COLOURS[p]} (seat {p}, {self.bots[p]})"

    def text(self) -> str:
        """The turn-by-turn log a player can check against the book."""
        races = self.variant.races
        unit = f"{races}-race {'tournament' if self.variant.carry_decks else 'season'}"
        lines = [
            f"{self.title} on '{self.track.name}', {len(self.bots)} sleds, "
            + (f"{unit}, " if races > 1 else "")
            + f"race key {self.key}",
        ]
        for s in self.starts:
            if races > 1 and s["race"] > 1:
                continue  # later races' starts are shown with their race
            where = f"space {s['space']}" if s["space"] >= 0 else "enters from the start row"
            dice = f", bonus dice {s['die']}" if self.variant.bonus_rule == "dice" else ""
            lines.append(
                f"  {self.seat_name(s['seat'])}: start slot {s['slot']} ({where}), "
                f"dealt {s['dealt']} cards{dice}"
            )
        current = (0, 0)
        for t in self.turns:
            if (t.race, t.round) != current:
                if races > 1 and t.race != current[0]:
                    order = sorted(
                        (s["slot"], COLOURS[s["seat"]]) for s in self.starts if s["race"] == t.race
                    )
                    lines.append(f"Race {t.race}: start order " + ", ".join(c for _, c in order))
                current = (t.race, t.round)
                lines.append(f"Round {t.round}")
            where = "off the board" if t.space < 0 else f"at {t.space}"
            die = f", dice {t.die}" if self.variant.bonus_rule == "dice" else ""
            lines.append(
                f"  {COLOURS[t.seat]} (pos {t.position}) {where}, dogs {t.dogs[0]}-"
                f"{t.dogs[1]} brake {t.brake}, dents {t.dents}{die}, hand {t.hand}"
            )
            for note in t.notes:
                lines.append(f"    {note}")
            if t.play is not None:
                pl = t.play
                drift = pl["drift"]
                side = "right" if drift > 0 else "left"
                dtxt = f"drift {abs(drift)} {side}" if drift else "balanced"
                lines.append(
                    f"    plays {pl['count']}x{pl['value']} on {'+'.join(pl['onto'])}: "
                    f"{pl['left']}+{pl['right']}-{pl['brake']} = speed {pl['speed']}, {dtxt}"
                )
            if t.bonus is not None:
                if self.variant.bonus_rule == "dice":
                    moved = t.bonus["taken"]
                    verb = f"uses {moved} of" if moved else "keeps"
                    lines.append(f"    {verb} bonus dice {t.bonus['size']}")
                else:
                    verb = "takes" if t.bonus["taken"] else "declines"
                    lines.append(f"    {verb} bonus +{t.bonus['size']}")
            if len(t.path) > 1:
                steps = " ".join(m[0].upper() for m in t.moves)
                lines.append(f"    path {' > '.join(map(str, t.path))}  [{steps}]")
            if t.collision:
                lines.append(f"    {t.collision}")
            for d in t.dents_taken:
                lines.append(f"    {d['text']}")
            if t.out:
                lines.append("    OUT of the race (R-18)")
            if t.drawn:
                lines.append(f"    draws {t.drawn}")
            if t.discarded:
                lines.append(f"    discards {t.discarded}")
        seats = self.result.seats
        lines.append(f"Result after {int(self.result.races['rounds'][0])} rounds")
        per_race = ""
        order = np.argsort(seats["finish"][0])
        for p in order:
            status = (
                "finished"
                if seats["finished"][0, p]
                else ("out" if seats["eliminated"][0, p] else "not finished")
            )
            if races > 1:
                per_race = (
                    " ("
                    + ", ".join(
                        f"race {r}: {int(seats[f'race{r}_finish'][0, p])}."
                        for r in range(1, races + 1)
                    )
                    + ")"
                )
            lines.append(
                f"  {int(seats['finish'][0, p])}. {self.seat_name(int(p))}: {status}, "
                f"slot {int(seats['slot'][0, p])}, dents {int(seats['final_dents'][0, p])}, "
                f"{int(seats['points'][0, p])} points{per_race}"
            )
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        """Machine-readable trace: every turn and the result rows."""
        seats = self.result.seats
        # Keys of rules the variant does not play are left out.
        drop = set()
        if self.variant.races == 1:
            drop.add("race")
        if self.variant.bonus_rule != "dice":
            drop.add("die")
        if not self.variant.dogs_from_deck:
            drop.add("pair")
        return {
            "game": "mushmush" if self.title.startswith("Mush") else "snowtails",
            "track": self.track.name,
            "key": int(self.key),
            "bots": list(self.bots),
            "variant": {
                k: (list(v) if isinstance(v, tuple) else v)
                for k, v in self.variant.as_dict().items()
            },
            "starts": [{k: v for k, v in s.items() if k not in drop} for s in self.starts],
            "turns": [
                {
                    k: v
                    for k, v in t.__dict__.items()
                    if v not in (None, [], False) and k not in drop
                }
                | {"round": t.round, "seat": t.seat}
                for t in self.turns
            ],
            "result": {
                "seats": {k: v[0].tolist() for k, v in seats.items()},
                "race": {k: v[0].item() for k, v in self.result.races.items()},
            },
        }

    def draw(self, path: str | Path) -> None:
        """Final positions and every sled's path, drawn on the track, to a PNG."""
        from simkit.tracks import draw

        last = max((t.race for t in self.turns), default=1)
        paths: dict[int, list[int]] = {}
        final: dict[int, int] = {}
        for s in self.starts:
            if s.get("race", 1) == last and s["space"] >= 0:
                paths[s["seat"]] = [s["space"]]
                final[s["seat"]] = s["space"]
        for t in self.turns:
            if t.race != last:
                continue
            paths.setdefault(t.seat, [])
            if not paths[t.seat] and t.path:
                paths[t.seat].append(t.path[0])
            if len(t.path) > 1:
                paths[t.seat].extend(t.path[1:])
            if t.path:
                final[t.seat] = t.path[-1]
        # The last race's track, and where its spaces start in the joined table.
        track, base = race_track(self.tracks or [self.track], last)
        for p in paths:
            paths[p] = [s - base for s in paths[p]]
        out = self.result.seats["eliminated"][0]
        sleds = [
            (final[p] - base, COLOURS[p], f"{p}{'x' if out[p] else ''}") for p in sorted(final)
        ]
        fig = draw(
            track,
            sleds=sleds,
            paths=[(paths[p], COLOURS[p]) for p in sorted(paths)],
            title=f"{track.title}: race key {self.key}",
            sled_names=[self.seat_name(p) for p in sorted(final)],
        )
        fig.savefig(path, dpi=110)


def race_track(tracks: list[CompiledTrack], race: int) -> tuple[CompiledTrack, int]:
    """Race ``race``'s track (1-based; the last one for races beyond the list) and its
    first space in the joined table (``batch.joined_tables`` lists each track once)."""
    bases: dict[str, int] = {}
    base = 0
    for t in tracks:
        if t.name not in bases:
            bases[t.name] = base
            base += t.n_spaces
    t = tracks[min(race, len(tracks)) - 1]
    return t, bases[t.name]


def parse_events(events: np.ndarray) -> tuple[list[dict[str, int]], list[Turn]]:
    """Group the kernel's event rows into start records and turns."""
    starts: list[dict[str, int]] = []
    turns: list[Turn] = []
    t: Turn | None = None
    race = 1
    for row in events:
        kind = int(row[0])
        a = [int(x) for x in row[1:]]
        if kind == EV_RACE:
            race = a[0]
            t = None
        elif kind == EV_START:
            starts.append(
                {"seat": a[0], "slot": a[1], "space": a[2], "dealt": a[3], "race": race}
                | {"pair": a[4], "die": a[5]}
            )
        elif kind == EV_TURN:
            t = Turn(a[1], a[0], a[2], a[3], (a[4], a[5]), a[6], a[7], race=race)
            turns.append(t)
        elif kind == EV_REJOIN or t is None or kind in (EV_ROUND, EV_FINISH, EV_END):
            continue
        elif kind == EV_HAND:
            t.hand = hand_list(a[1:7])
            t.die = a[7]
        elif kind == EV_PLACE:
            t.notes.append(f"enters the board at start-row space {a[1]} (ST2 B)")
            t.space = a[1]
        elif kind == EV_TREE:
            t.notes.append(f"crashes through the tree at {a[1]}: tree removed (R-21)")
        elif kind == EV_DIE:
            t.notes.append(f"bonus dice {a[1]} -> {a[2]}: {DIE_WHY.get(a[3], '')}")
        elif kind == EV_REPAIR:
            t.notes.append("fifth dent: dents back, new hand, sits out until last (R-25)")
        elif kind == EV_BUILDING:
            if a[1] == T_CHAPEL:
                t.notes.append(f"chapel: drops {a[2]} dent(s) (R-27)")
            elif a[1] == T_BOTHY:
                t.notes.append(f"bothy: discards {a[2]} card(s) (R-27)")
            elif a[1] == T_KENNELS:
                t.notes.append(f"kennels: a 5 joins the deck, {a[2]} left aside (R-27)")
        elif kind == EV_NO_CANINE:
            t.notes.append("no canine card in hand (R-19)")
        elif kind == EV_STALL:
            t.notes.append("still no canine card: cannot play")
        elif kind == EV_PLAY:
            onto = where_list(a[2])
            t.play = {
                "value": a[1],
                "count": len(onto),
                "onto": onto,
                "left": a[3],
                "right": a[4],
                "brake": a[5],
                "speed": a[6],
                "drift": a[7],
            }
        elif kind == EV_MOVE:
            if not t.path:
                t.path.append(a[1])
            t.path.append(a[2])
            t.moves.append(MOVE_NAMES[a[3]])
        elif kind == EV_COLLIDE:
            what = "a sled" if a[1] == C_SLED else "the side of the track"
            t.collision = f"{MOVE_NAMES[a[3]]} move hits {what}; stays at {a[2]}"
        elif kind == EV_BONUS:
            t.bonus = {"size": a[1], "taken": a[2]}
        elif kind == EV_DENT:
            if a[1] == DENT_OVERSPEED:
                why = f"corner {a[2] + 1} entered at speed {a[4]} over safety {a[3]} (R-15)"
            elif a[1] == DENT_NO_CANINE:
                why = "no canine cards (R-19)"
            elif a[1] == DENT_TREE:
                why = "hit a tree (R-21)"
            else:
                why = "hit the side (R-17)"
            t.dents_taken.append(
                {
                    "reason": a[1],
                    "count": a[6],
                    "dents": a[5],
                    "text": f"{a[6]} dent(s): {why}; now {a[5]}",
                }
            )
        elif kind == EV_OUT:
            t.out = True
        elif kind == EV_KEEP:
            t.notes.append("5th dent after the finish line: stays (R-18)")
        elif kind == EV_DRAW:
            t.drawn.append(a[1])
        elif kind == EV_DISCARD:
            t.discarded.append(a[1])
        elif kind == EV_RESHUFFLE:
            t.notes.append(f"deck empty: {a[1]} used cards reshuffled (R-07)")
    return starts, turns


def trace_race(
    tracks: CompiledTrack | list[CompiledTrack],
    variant: SnowTailsParams,
    bots: tuple[str, ...],
    slots: tuple[int, ...],
    key: int,
    title: str = "Snow Tails",
) -> RaceTrace:
    """Replay unit ``key`` (one track per race) and return its trace.

    Spaces in the trace of races after the first on another track are numbered in the
    joined table (that track's spaces follow the first track's).
    """
    if isinstance(tracks, CompiledTrack):
        tracks = [tracks] * variant.races
    events, result = run_logged(tracks, variant, bots, slots, key)
    starts, turns = parse_events(events)
    return RaceTrace(
        tracks[0],
        variant,
        tuple(bots),
        int(key),
        events,
        result,
        starts,
        turns,
        title,
        list(tracks),
    )
