"""One MUSH race, round by round: the kernel's own event log turned into text and JSON.

``run_trace`` calls the very ``batch.blocks`` kernel that ``simulate`` runs, on one key
with its event log switched on, so what a reader checks against the rules is what the tables
counted.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from simkit.errors import SimkitError
from simkit.games.base import Cell, Column
from simkit.games.blocks import BlockCounts
from simkit.games.mush import records as E
from simkit.games.mush.batch import blocks
from simkit.games.mush.choose import search_flag
from simkit.games.mush.route import load_route

TRAINING = ("warm", "mild", "cold")
COLOURS = ("green", "red", "blue")


@dataclass
class MushTrace:
    """A replayed race: its events, final seat and race results, and how to print them."""

    cell: Cell
    key: int
    events: np.ndarray  # (k, 8) int32 rows of the engine's log
    seats: dict[str, list[Any]]
    races: dict[str, Any]
    names: tuple[str, ...]  # space names
    bots: tuple[str, ...]

    def rows(self) -> tuple[dict[str, list[Any]], dict[str, Any]]:
        """The race's table rows, as ``simulate`` writes them: seats and race columns."""
        return self.seats, self.races

    def _sp(self, v: int) -> str:
        return self.names[v]

    def _seat(self, s: int) -> str:
        return f"seat {s} ({self.bots[s]})"

    def lines(self) -> list[str]:
        v = self.cell.variant
        out = [
            f"MUSH race: route '{v.route}', finish {v.finish}, "
            f"{self.cell.players} players, key {self.key}",
        ]
        rnd = -1
        for row in self.events.tolist():
            r, ev, s, a, b, c, d, e = row
            if r != rnd and ev not in (E.EV_END,):
                rnd = r
                out.append("" if r else "Setup")
                if r:
                    out.append(f"Round {r}")
            who = self._seat(s)
            if ev == E.EV_SLOT:
                out.append(f"  {who}: slot {a}")
            elif ev == E.EV_TRAIN:
                out.append(f"  {who} trains for {TRAINING[a]} weather")
            elif ev == E.EV_WEATHER:
                board = load_route(v.route).boards[b].name
                head = f"{who} rolls" if d == 0 else f"reroll #{d} paid by seat {e}:"
                out.append(f"  weather: {head} {c} on the '{board}' table: {TRAINING[a]}")
            elif ev == E.EV_BID:
                out.append(f"  {who} bids {a} tokens")
            elif ev == E.EV_ORDER:
                order = [(a >> (3 * (b - 1 - i))) & 7 for i in range(b)]
                tail = f"; seat {c} moves 1st and gains a space" if c >= 0 else ""
                out.append(f"  order of play: {', '.join(map(str, order))}{tail}")
            elif ev == E.EV_REST:
                out.append(
                    f"  {who} rests at {self._sp(d)} (option {a + 1}): "
                    f"uncovers {b} dogs, gains {c} tokens"
                )
            elif ev == E.EV_REDUCE:
                out.append(f"  {who} pays {c} tokens: seat {a} rolls {b} dice fewer")
            elif ev == E.EV_ROLL:
                head = "rolls" if d == 0 else f"rerolls (#{d}, paid by seat {e})"
                out.append(f"  {who} {head} {a} {COLOURS[b]} dice: {c} dogs")
            elif ev == E.EV_BONUS:
                res = "a crossed-out dog" if b < 0 else f"+{b}"
                again = f" (reroll {c})" if c else ""
                out.append(f"  {who} bonus die{again} {a}: {res}")
            elif ev == E.EV_REROLL:
                out.append(f"  {who} pays {b} tokens: seat {a} rolls again")
            elif ev == E.EV_STEP:
                dashed = " (link)" if self._dashed(c) else ""
                out.append(f"    {self._sp(a)} -> {self._sp(b)}{dashed}")
            elif ev == E.EV_PASS:
                out.append(f"  {who} pays {a} tokens to pass sleds this turn")
            elif ev in (E.EV_ROUGH, E.EV_AVAL):
                what = "rough terrain at " + self._sp(a) if ev == E.EV_ROUGH else "avalanche"
                again = f" (reroll {e})" if e else ""
                out.append(f"    {what}{again}: rolls {b} +{c} -> {'passes' if d else 'fails'}")
            elif ev == E.EV_MARKER:
                if a < 0:
                    out.append(f"  {who} pays to remove the avalanche on {self._line(b)}")
                else:
                    moved = f" (moved from {self._line(b)})" if b >= 0 else ""
                    out.append(f"  {who} places an avalanche on {self._line(a)}{moved}")
            elif ev == E.EV_JUMP:
                out.append(f"    {self._sp(a)}: jumps to {self._sp(b)} (Central zone skipped)")
            elif ev == E.EV_BACK:
                out.append(f"    cannot stop on occupied {self._sp(a)}: back to {self._sp(b)}")
            elif ev == E.EV_COVER:
                extra = " (and the crossed-out dog)" if b else ""
                out.append(f"  {who} covers a dog{extra}: {a} covered")
            elif ev == E.EV_STATE:
                out.append(f"  = {who}: at {self._sp(a)}, {b} dogs covered, {c} tokens")
            elif ev == E.EV_FINISH:
                out.append(f"  {who} reaches {self._sp(a)} and wins")
            elif ev == E.EV_END:
                out.append("")
                out.append(f"Race over after {a} rounds" + (" (max_rounds reached)" if b else ""))
        out.append("")
        out.append("seat  bot  slot  training  finish  to_go  tokens_left  rests  covered_max")
        for s in range(self.cell.players):
            g = {k: self.seats[k][s] for k in self.seats}
            out.append(
                f"{s:<4}  {self.bots[s]:<4.4}  {g['slot']:<4}  {TRAINING[g['training']]:<8}  "
                f"{g['finish']:<6}  {g['to_go']:<5}  {g['tokens_left']:<11}  {g['rests']:<5}  "
                f"{g['dogs_covered_max']}"
            )
        return out

    def _dashed(self, line: int) -> bool:
        return bool(load_route(self.cell.variant.route).line_dashed[line])

    def _line(self, line: int) -> str:
        route = load_route(self.cell.variant.route)
        a, b = route.line_from[line], route.out_to[line]
        return f"{self._sp(int(a))} -> {self._sp(int(b))}"

    def draw(self, path: str | Path) -> Path:
        """The route with every sled's way through this race and where it ended."""
        from simkit.games.mush.draw import draw_route

        route = load_route(self.cell.variant.route)
        sleds = [[route.start] for _ in range(self.cell.players)]
        for row in self.events.tolist():
            if row[1] in (E.EV_STEP, E.EV_JUMP, E.EV_BACK):
                sleds[row[2]].append(row[4])
        title = f"{route.name}: MUSH race, key {self.key}"
        return draw_route(route, path, title=title, sleds=sleds)

    def text(self) -> str:
        return "\n".join(self.lines()) + "\n"

    def to_json(self) -> dict[str, Any]:
        fields = ("round", "event", "seat", "a", "b", "c", "d", "e")
        return {
            "game": "mush",
            "key": self.key,
            "variant": self.cell.variant.as_dict(),
            "players": self.cell.players,
            "bots": list(self.bots),
            "event_names": list(E.EVENTS),
            "events": [dict(zip(fields, row, strict=True)) for row in self.events.tolist()],
            "seats": self.seats,
            "race": self.races,
        }


def run_trace(
    cell: Cell,
    key: int,
    inp: Any,
    seat_columns: Mapping[str, Column],
    race_columns: Mapping[str, Column],
) -> MushTrace:
    """Replay the race with root ``key`` through ``batch.blocks`` with the log on (``inp``: the
    cell's ``game.Inputs``)."""
    n = cell.players
    cap = 64 * n * cell.variant.max_rounds + 64  # generous: a turn logs fewer than 64 events
    log = np.zeros((cap, E.LOG_WIDTH), dtype=np.int32)
    logn = np.zeros(1, dtype=np.int64)
    st = np.zeros((1, n), dtype=E.STAT)
    rs = np.zeros(1, dtype=E.RACE)
    keys = np.array([key], dtype=np.uint64)
    heat = (len(E.HEAT_KINDS), int(inp.rt["n_spaces"][0]))
    counts = BlockCounts.new(1, E.ROUND_CAP, n, heat=heat)
    searching = search_flag(inp.cell)
    args = (keys, (inp.prm, inp.cell), inp.rt, st, rs, counts.heat[0], counts.of_block(0))
    blocks(0, 1, *args, log, logn, searching)
    if logn[0] < 0:
        raise SimkitError(f"mush: the trace log of key {key} is full ({cap} events)")
    route = load_route(cell.variant.route)
    names = tuple(route.describe(v) for v in range(route.n_spaces))
    seats = {k: [_py(st[k][0, s], c) for s in range(n)] for k, c in seat_columns.items()}
    races = {k: _py(rs[k][0], c) for k, c in race_columns.items()}
    return MushTrace(cell, key, log[: logn[0]].copy(), seats, races, names, cell.bots)


def _py(x: Any, col: Column) -> Any:
    return bool(x) if col.dtype == "bool" else int(x)
