"""``simkit moves`` for MUSH: every legal play of a position given as JSON (docs/state.md).

The position is built into a ``POSITION`` record and listed by the kernels' own
``legal_plays``, so the list is what a race allows; the greedy bot's choice is marked.
Three decisions can be asked about: a bid (R-47), resting or racing in a town (text,
Repos) and the path of a move after the roll (text, Mouvement). A position no race can
reach stops with one line naming the sled and the key.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from simkit.errors import StateError
from simkit.games.mush import records as R
from simkit.games.mush.kernels import choose, legal_plays, to_move
from simkit.games.mush.params import PRESETS, MushParams
from simkit.games.mush.route import REST_KINDS, ROUGH, TOWN, WEATHER, Route, load_route

DECISIONS = {"bid": R.PH_BID, "rest": R.PH_REST, "move": R.PH_MOVE}
_KEYS = {
    "game",
    "preset",
    "set",
    "round",
    "initiative",
    "weather",
    "decision",
    "to_move",
    "sleds",
    "avalanches",
    "dice",
    "extra",
}
_SLED_KEYS = {"space", "training", "covered", "tokens", "name"}


def _fail(msg: str, key: str) -> None:
    raise StateError(f"state: {msg}", key=key)


def _int(value: Any, key: str, lo: int, hi: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        _fail(f"{key} must be an integer (got {value!r})", key)
    if not lo <= value <= hi:
        _fail(f"{key} must be between {lo} and {hi} (got {value})", key)
    return value


class MushMoves:
    """The legal plays of a MUSH position, as text and JSON."""

    def __init__(self, state: dict[str, Any], lines: list[str], plays: list[dict[str, Any]]):
        self.state = state
        self._lines = lines
        self.plays = plays

    def text(self) -> str:
        return "\n".join(self._lines) + "\n"

    def to_json(self) -> dict[str, Any]:
        return {"position": self.state, "plays": self.plays}


def legal_moves(state: Mapping[str, Any]) -> MushMoves:
    """Every legal play of the seat to move in ``state`` (see docs/state.md)."""
    from simkit.games import get

    for k in state:
        if k not in _KEYS:
            _fail(f"unknown key '{k}' (allowed: {', '.join(sorted(_KEYS))})", k)
    v = MushParams.resolve(PRESETS, str(state.get("preset", "mush")), state.get("set"))
    route = load_route(v.route)
    sleds = state.get("sleds")
    if not isinstance(sleds, list) or not 2 <= len(sleds) <= R.MAX_SEATS:
        _fail(f"sleds must list 2 to {R.MAX_SEATS} sleds, in clockwise order", "sleds")
    n = len(sleds)
    game = get("mush")
    from simkit.games.cells import build_cell

    cell = build_cell("mush", players=n, bots="greedy", overrides=v.as_dict())
    inp = game.inputs(cell)
    P = np.zeros(1, R.POSITION)
    decision = _fill(P[0], state, v, route, inp.rt[0])
    out = np.zeros((1, R.PLAY_WIDTH), dtype=np.int64)
    total = legal_plays(P, inp.prm, inp.rt, out)
    out = np.zeros((total, R.PLAY_WIDTH), dtype=np.int64)
    legal_plays(P, inp.prm, inp.rt, out)
    pick = _greedy(P, inp)
    s = int(to_move(P))
    names = [str(sl.get("name", f"seat {i}")) for i, sl in enumerate(sleds)]
    head = (
        f"round {P[0]['round_no']}, {WEATHER[int(P[0]['weather'])]} weather: {names[s]} "
        f"({decision}) at {route.describe(int(P[0]['space'][s]))}, "
        f"{P[0]['covered'][s]} dogs covered, {P[0]['tokens'][s]} tokens; {total} legal plays"
    )
    lines = [head]
    plays = []
    for row in out:
        text = _describe(row, P[0], v, route, inp.rt[0], names)
        greedy = bool(np.array_equal(row, pick))
        lines.append(f"{'*' if greedy else ' '} {text}")
        width = R.PLAY_PATH + (int(row[1]) if row[0] == R.P_MOVE else 0)
        plays.append({"play": row[:width].tolist(), "text": text, "greedy": greedy})
    lines.append("(* greedy's choice)")
    return MushMoves(dict(state), lines, plays)


def _greedy(P: np.ndarray, inp: Any) -> np.ndarray:
    tmp = P.copy()
    work = np.zeros(1, R.WORK)
    play = np.zeros(1, R.PLAY)
    s = int(to_move(tmp))
    choose(tmp, inp.prm, inp.cell, inp.rt, s, work, play)
    return play[0]["row"].copy()


def _space(value: Any, key: str, route: Route) -> int:
    if isinstance(value, str):
        if value not in route.town_name:
            _fail(f"{key}: no town '{value}' on route '{route.name}'", key)
        return route.town_name.index(value)
    return _int(value, key, 0, route.n_spaces - 1)


def _fill(pos: Any, state: Mapping[str, Any], v: MushParams, route: Route, rt: Any) -> str:
    """Set ``pos`` from ``state``, checking that a race could reach it; returns the decision."""
    sleds = state["sleds"]
    n = len(sleds)
    rnd = _int(state.get("round", 1), "round", 1, v.max_rounds)
    decision = state.get("decision", "move")
    if decision not in DECISIONS:
        _fail(f"decision must be one of {', '.join(DECISIONS)} (got {decision!r})", "decision")
    s = _int(state.get("to_move", 0), "to_move", 0, n - 1)
    weather = state.get("weather", "warm")
    if weather not in WEATHER:
        _fail(f"weather must be one of {', '.join(WEATHER)} (got {weather!r})", "weather")
    pos["n"], pos["round_no"], pos["weather"] = n, rnd, WEATHER.index(weather)
    pos["ini"] = _int(state.get("initiative", 0), "initiative", 0, n - 1)
    pos["winner"] = pos["bid_winner"] = -1
    pos["markers"][:] = -1
    reach = _reach(route, v)
    most_tokens = v.start_tokens + (rnd - 1) * max(
        v.rest_start_tokens, *v.rest_checkpoint[1::2], *v.rest_town[1::2]
    )
    taken = [0, 0, 0]
    for i, sl in enumerate(sleds):
        key = f"sleds[{i}]"
        if not isinstance(sl, dict):
            _fail(f"{key} must be an object", key)
        for k in sl:
            if k not in _SLED_KEYS:
                _fail(f"{key}: unknown key '{k}' (allowed: {', '.join(sorted(_SLED_KEYS))})", key)
        sp = _space(sl.get("space", route.start), f"{key}.space", route)
        if rt["sp"][sp]["goal"]:
            msg = f"{route.describe(sp)} ends the race; no sled stands there in a round"
            _fail(f"{key}.space: {msg}", f"{key}.space")
        if reach[sp] > rnd - 1:
            msg = f"{route.describe(sp)} takes {reach[sp]} round(s) of moves from the start"
            _fail(f"{key}.space: {msg}, more than the {rnd - 1} before round {rnd}", f"{key}.space")
        for j in range(i):
            if pos["space"][j] == sp and route.kind[sp] != TOWN:
                msg = f"sleds[{j}] is on wilderness space {sp} already (one sled a space, text)"
                _fail(f"{key}.space: {msg}", f"{key}.space")
        t = sl.get("training", "warm")
        if t not in WEATHER:
            _fail(f"{key}.training must be one of {', '.join(WEATHER)} (got {t!r})", key)
        ti = WEATHER.index(t)
        taken[ti] += 1
        if taken[ti] > v.limits(n)[ti]:
            msg = f"more sleds train for {t} than {n} players may ({v.limits(n)[ti]}, R-44)"
            _fail(f"{key}.training: {msg}", f"{key}.training")
        pos["space"][i] = sp
        pos["covered"][i] = _int(sl.get("covered", 0), f"{key}.covered", 0, v.dogs)
        tokens = _int(sl.get("tokens", v.start_tokens), f"{key}.tokens", 0, 1 << 40)
        if tokens > most_tokens:
            msg = f"{tokens} is more than a sled can hold in round {rnd} ({v.start_tokens} to"
            msg += f" start and at most {(most_tokens - v.start_tokens) // max(1, rnd - 1)} a rest"
            _fail(f"{key}.tokens: {msg}: {most_tokens})", f"{key}.tokens")
        pos["tokens"][i] = tokens
        pos["seat_at"][i] = pos["place"][i] = pos["order"][i] = i
        pos["stats"][i]["slot"] = i + 1
        pos["stats"][i]["training"] = ti
    pos["mover"] = s
    pos["turn_from"] = pos["space"][s]
    pos["phase"] = DECISIONS[decision]
    _avalanches(pos, state, v, route)
    if decision == "bid":
        if not v.bidding:
            _fail("decision 'bid': this variant has no bidding (bidding = false)", "decision")
        pos["bid_i"] = (s - pos["ini"]) % n
    elif decision == "rest":
        where = pos["space"][s]
        if route.kind[where] != TOWN or REST_KINDS[route.rest[where]] == "none":
            _fail(f"decision 'rest': sleds[{s}] is not in a town where it may rest", "decision")
    else:
        dice = _int(state.get("dice", 0), "dice", 0, v.dogs)
        if dice > v.dogs - pos["covered"][s]:
            msg = f"{dice} dog faces need as many dice; sleds[{s}] has {v.dogs - pos['covered'][s]}"
            _fail(f"dice: {msg} uncovered dogs (R-41)", "dice")
        most = max(0, *v.bonus_table) + v.bid_extra
        pos["moves"] = dice + _int(state.get("extra", 0), "extra", 0, most)
    return decision


def _avalanches(pos: Any, state: Mapping[str, Any], v: MushParams, route: Route) -> None:
    marks = state.get("avalanches", [])
    if not isinstance(marks, list) or len(marks) > v.avalanche_markers:
        msg = f"avalanches must list at most {v.avalanche_markers} [space, space] lines"
        _fail(msg, "avalanches")
    for i, m in enumerate(marks):
        key = f"avalanches[{i}]"
        if not isinstance(m, list) or len(m) != 2:
            _fail(f"{key} must be [space, space]", key)
        a, b = (_space(x, key, route) for x in m)
        lines = [e for e in range(route.out_ptr[a], route.out_ptr[a + 1]) if route.out_to[e] == b]
        if not lines or not route.line_avalanche[lines[0]]:
            _fail(f"{key}: no line from {a} to {b} that an avalanche may lie on (text)", key)
        if lines[0] in pos["markers"]:
            _fail(f"{key}: that line has a marker already", key)
        pos["markers"][i] = lines[0]
        pos["on_board"] = i + 1


def _reach(route: Route, v: MushParams) -> np.ndarray:
    """Fewest rounds of moves from the start to each space (a round moves at most every
    dog, the best bonus and the bid's extra)."""
    step = v.dogs + max(0, *v.bonus_table) + v.bid_extra
    moves = np.full(route.n_spaces, 1 << 20)
    moves[route.start] = 0
    for u in np.argsort(route.col, kind="stable"):
        for e in range(route.out_ptr[u], route.out_ptr[u + 1]):
            w = route.out_to[e]
            moves[w] = min(moves[w], moves[u] + 1)
    return -(-moves // step)


def _describe(row: np.ndarray, pos: Any, v: MushParams, route: Route, rt: Any, names: list) -> str:
    kind, a = int(row[0]), int(row[1])
    if kind == R.P_BID:
        return f"bid {a} tokens"
    if kind == R.P_RACE:
        return "race"
    if kind == R.P_REST:
        s = int(pos["mover"])
        sp = int(pos["space"][s])
        rk = REST_KINDS[route.rest[sp]]
        table = v.rest_checkpoint if rk == "checkpoint" else v.rest_town
        opts = (0, v.rest_start_tokens) if rk == "start" else table[2 * a : 2 * a + 2]
        d = min(opts[0], int(pos["covered"][s]), int(route.cap_dogs[sp]))
        t = min(opts[1], int(route.cap_tokens[sp]))
        return f"rest (option {a + 1}): uncover {d} dogs, gain {t} tokens"
    path = [int(e) for e in row[R.PLAY_PATH : R.PLAY_PATH + a]]
    cur = int(pos["turn_from"])
    spaces = [route.describe(cur)]
    notes = []
    for e in path:
        nxt = int(route.out_to[e])
        if e in pos["markers"]:
            notes.append(f"avalanche before {route.describe(nxt)}: a 6, or 5 tokens to move it")
        held = [names[o] for o in range(int(pos["n"])) if pos["space"][o] == nxt]
        if held and route.kind[nxt] != TOWN:
            notes.append(f"passes {', '.join(held)}: {v.pass_cost} tokens")
        if route.kind[nxt] == ROUGH:
            notes.append(f"rough terrain at {route.describe(nxt)}: a {v.rough_target}+")
        spaces.append(route.describe(nxt))
        if rt["sp"][nxt]["jump"] >= 0:
            spaces.append(f"(jump) {route.describe(int(rt['sp'][nxt]['jump']))}")
    tail = f"; {'; '.join(notes)}" if notes else ""
    return f"move {a}: {' -> '.join(spaces)}{tail}"
