"""One race replayed with the event log on: the readable log of ``simkit race``.

The trace comes from the same ``play_race`` kernel call as a batch row (tracing only adds
log writes), so its results are the table's results for that key.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from simkit.games.base import Batch
from simkit.games.snowtails.batch import kernel_inputs, to_batch
from simkit.games.snowtails.engine import new_scratch, play_race
from simkit.games.snowtails.layout import (
    C_SLED,
    DENT_NO_CANINE,
    DENT_OVERSPEED,
    EV_BONUS,
    EV_COLLIDE,
    EV_DENT,
    EV_DISCARD,
    EV_DRAW,
    EV_END,
    EV_FINISH,
    EV_HAND,
    EV_KEEP,
    EV_MOVE,
    EV_NO_CANINE,
    EV_OUT,
    EV_PLAY,
    EV_RESHUFFLE,
    EV_ROUND,
    EV_STALL,
    EV_START,
    EV_TURN,
    EV_WIDTH,
    HEAT_KINDS,
    M_BRAKE,
    M_LEFT,
    M_RIGHT,
    MV_BONUS,
    MV_DRIFT,
    R_COLS,
    ST_COLS,
)
from simkit.games.snowtails.params import SnowTailsParams
from simkit.tracks.compiled import CompiledTrack

COLOURS = ("yellow", "blue", "red", "green", "black")
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


def run_logged(
    track: CompiledTrack,
    variant: SnowTailsParams,
    bots: tuple[str, ...],
    slots: tuple[int, ...],
    key: int,
) -> tuple[np.ndarray, Batch]:
    """Play race ``key`` with the event log on: (events, one-race Batch)."""
    inputs = kernel_inputs(track, variant, bots, slots)
    size = 4096
    while True:
        scratch = new_scratch(track.n_spaces)
        seat_out = np.zeros((1, len(slots), ST_COLS), dtype=np.int64)
        race_out = np.zeros((1, R_COLS), dtype=np.int64)
        heat = np.zeros((len(HEAT_KINDS), track.n_spaces), dtype=np.int64)
        log = np.zeros((size, EV_WIDTH), dtype=np.int64)
        nlog = np.zeros(1, dtype=np.int64)
        play_race(*inputs, np.uint64(key), *scratch, seat_out[0], race_out[0], heat, log,
                  nlog, True)  # fmt: skip
        if nlog[0] <= size:
            return log[: nlog[0]].copy(), to_batch(seat_out, race_out, heat)
        size = int(nlog[0]) + 16


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

    def seat_name(self, p: int) -> str:
        return f"{COLOURS[p]} (seat {p}, {self.bots[p]})"

    def text(self) -> str:
        """The turn-by-turn log a player can check against the book."""
        lines = [
            f"Snow Tails on '{self.track.name}', {len(self.bots)} sleds, race key {self.key}",
        ]
        for s in self.starts:
            lines.append(
                f"  {self.seat_name(s['seat'])}: start slot {s['slot']} (space {s['space']}), "
                f"dealt {s['dealt']} cards"
            )
        current = 0
        for t in self.turns:
            if t.round != current:
                current = t.round
                lines.append(f"Round {current}")
            lines.append(
                f"  {COLOURS[t.seat]} (pos {t.position}) at {t.space}, dogs {t.dogs[0]}-"
                f"{t.dogs[1]} brake {t.brake}, dents {t.dents}, hand {t.hand}"
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
        order = np.argsort(seats["finish"][0])
        for p in order:
            status = (
                "finished"
                if seats["finished"][0, p]
                else ("out" if seats["eliminated"][0, p] else "not finished")
            )
            lines.append(
                f"  {int(seats['finish'][0, p])}. {self.seat_name(int(p))}: {status}, "
                f"slot {int(seats['slot'][0, p])}, dents {int(seats['final_dents'][0, p])}, "
                f"{int(seats['points'][0, p])} points"
            )
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        """Machine-readable trace: every turn and the result rows."""
        seats = self.result.seats
        return {
            "game": "snowtails",
            "track": self.track.name,
            "key": int(self.key),
            "bots": list(self.bots),
            "variant": {
                k: (list(v) if isinstance(v, tuple) else v)
                for k, v in self.variant.as_dict().items()
            },
            "starts": self.starts,
            "turns": [
                {k: v for k, v in t.__dict__.items() if v not in (None, [], False)}
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

        paths: dict[int, list[int]] = {s["seat"]: [s["space"]] for s in self.starts}
        final: dict[int, int] = {s["seat"]: s["space"] for s in self.starts}
        for t in self.turns:
            if len(t.path) > 1:
                paths[t.seat].extend(t.path[1:])
            final[t.seat] = t.path[-1] if t.path else final[t.seat]
        out = self.result.seats["eliminated"][0]
        sleds = [(final[p], COLOURS[p], f"{p}{'x' if out[p] else ''}") for p in sorted(final)]
        fig = draw(
            self.track,
            sleds=sleds,
            paths=[(paths[p], COLOURS[p]) for p in sorted(paths)],
            title=f"{self.track.title}: race key {self.key}",
        )
        fig.savefig(path, dpi=110)


def parse_events(events: np.ndarray) -> tuple[list[dict[str, int]], list[Turn]]:
    """Group the kernel's event rows into start records and turns."""
    starts: list[dict[str, int]] = []
    turns: list[Turn] = []
    t: Turn | None = None
    for row in events:
        kind = int(row[0])
        a = [int(x) for x in row[1:]]
        if kind == EV_START:
            starts.append({"seat": a[0], "slot": a[1], "space": a[2], "dealt": a[3]})
        elif kind == EV_TURN:
            t = Turn(a[1], a[0], a[2], a[3], (a[4], a[5]), a[6], a[7])
            turns.append(t)
        elif t is None or kind in (EV_ROUND, EV_FINISH, EV_END):
            continue
        elif kind == EV_HAND:
            t.hand = hand_list(a[1:7])
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
                why = f"corner {a[2]} entered at speed {a[4]} over safety {a[3]} (R-15)"
            elif a[1] == DENT_NO_CANINE:
                why = "no canine cards (R-19)"
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
    track: CompiledTrack,
    variant: SnowTailsParams,
    bots: tuple[str, ...],
    slots: tuple[int, ...],
    key: int,
) -> RaceTrace:
    """Replay race ``key`` and return its trace."""
    events, result = run_logged(track, variant, bots, slots, key)
    starts, turns = parse_events(events)
    return RaceTrace(track, variant, tuple(bots), int(key), events, result, starts, turns)
