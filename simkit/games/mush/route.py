"""MUSH routes: the boards, trails, towns and links of a race, read from TOML and checked.

A route is data a user can write (R-40: the real boards' lengths and town places are not
in the text, so the shipped routes are reconstructions). Format, one table per board in
race order::

    name = "standard"
    title = "..."
    source = "..."
    start = "Anchorage"           # the town every sled starts in
    finish = "Nome"               # first sled into it wins

    [[boards]]
    name = "Anchorage"
    zone = "south"                # south | central | north: which weather table applies
    weather = ["warm", ...]       # optional: this board's own d6 table (else the zone's)
    trails = [                    # one string per main trail, one character per column
      "A..^..K..",                #   .  wilderness    ^  rough terrain    -  no space
      "A.....-..",                #   a letter: a town from [boards.towns]; the same letter
      "A...^^...",                #   in one column on several trails is one shared space
    ]
    links = [[0, 2, 1, 3]]        # dashed connections: [trail, column, trail, column]
    [boards.towns]
    A = { name = "Anchorage", rest = "start" }
    K = { name = "Knik", rest = "town", max_dogs = 3, max_tokens = 6 }

Along a trail each space leads to the next space of the same trail; the last space of a
trail on one board leads to the first space of that trail on the next. Links go strictly
forward (to a later column), so every path ends. Avalanche markers may lie on any line
(trail or link) unless one of its ends is rough terrain (text, "Déplacer un bâton
avalanche"); the compiled route marks those lines.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from simkit.errors import RouteError
from simkit.files import read_toml
from simkit.names import did_you_mean

ZONES = ("south", "central", "north")
WEATHER = ("warm", "mild", "cold")
# Space kinds.
WILD, ROUGH, TOWN = 0, 1, 2
# Rest kinds of a town: what resting there gives.
REST_KINDS = ("none", "start", "checkpoint", "town")
NO_CAP_DOGS = 99
NO_CAP_TOKENS = 999

_ROUTE_KEYS = {"name", "title", "source", "start", "finish", "boards"}
_BOARD_KEYS = {"name", "zone", "weather", "trails", "links", "towns"}
_TOWN_KEYS = {"name", "rest", "max_dogs", "max_tokens"}


@dataclass(frozen=True)
class Board:
    """One board of the line-up: its zone, weather table (or None: the zone's), columns."""

    name: str
    zone: int
    weather: tuple[int, ...] | None
    first_col: int
    length: int


@dataclass(frozen=True)
class Route:
    """A checked route as flat arrays (one entry per space, one per line).

    Spaces are numbered by (column, trail). ``out_ptr[v]:out_ptr[v+1]`` indexes the lines
    leaving space ``v`` in ``out_to`` (their end), ``line_dashed`` (a link rather than a
    main trail) and ``line_avalanche`` (an avalanche marker may be placed there).
    """

    name: str
    path: str
    title: str
    source: str
    boards: tuple[Board, ...]
    n_trails: int
    kind: np.ndarray  # int8: WILD, ROUGH, TOWN
    rest: np.ndarray  # int8: index into REST_KINDS
    board: np.ndarray  # int16
    zone: np.ndarray  # int8: index into ZONES
    trail: np.ndarray  # int8: trail of the space (the lowest one for a shared town)
    trails_mask: np.ndarray  # int8: bit t set when the space lies on trail t
    col: np.ndarray  # int32: global column
    cap_dogs: np.ndarray  # int16: most dog tokens removed by one rest here (town sign)
    cap_tokens: np.ndarray  # int16: most action tokens taken by one rest here
    town_name: tuple[str, ...]  # "" for wilderness
    out_ptr: np.ndarray  # int32 (n + 1)
    out_to: np.ndarray  # int32 (m)
    line_from: np.ndarray  # int32 (m)
    line_dashed: np.ndarray  # bool (m)
    line_avalanche: np.ndarray  # bool (m)
    start: int
    finish: int

    @property
    def n_spaces(self) -> int:
        return int(self.kind.shape[0])

    @property
    def n_lines(self) -> int:
        return int(self.out_to.shape[0])

    def town(self, name: str) -> int:
        """Index of the town called ``name``; ``RouteError`` if the route has none."""
        try:
            return self.town_name.index(name)
        except ValueError:
            raise RouteError(f"has no town '{name}'", path=self.path) from None

    def describe(self, v: int) -> str:
        """A space as a player would name it: the town, or board, trail and column."""
        if self.town_name[v]:
            return self.town_name[v]
        b = self.boards[int(self.board[v])]
        return (
            f"board '{b.name}' trail {int(self.trail[v])} column {int(self.col[v]) - b.first_col}"
        )

    def distances(self, goal: np.ndarray) -> np.ndarray:
        """Fewest moves from each space to any goal space (large where none is reachable)."""
        n = self.n_spaces
        dist = np.full(n, 1 << 20, dtype=np.int32)
        dist[goal] = 0
        for v in np.argsort(-self.col, kind="stable"):  # lines go to later columns only
            if goal[v]:
                continue
            for e in range(self.out_ptr[v], self.out_ptr[v + 1]):
                dist[v] = min(dist[v], dist[self.out_to[e]] + 1)
        return dist

    def toward(self, dist: np.ndarray) -> np.ndarray:
        """For each space the line that starts a shortest path to the goal (-1 at the goal)."""
        out = np.full(self.n_spaces, -1, dtype=np.int32)
        for v in range(self.n_spaces):
            best = dist[v]
            for e in range(self.out_ptr[v], self.out_ptr[v + 1]):
                if dist[self.out_to[e]] + 1 <= best and dist[v] > 0:
                    best = dist[self.out_to[e]] + 1
                    out[v] = e
                    break
        return out


def route_dir() -> Path:
    """Where the shipped routes live (package data)."""
    return Path(str(resources.files("simkit.games.mush") / "data"))


def route_names() -> list[str]:
    """Names of the shipped routes."""
    return sorted(p.stem for p in route_dir().glob("*.toml"))


def resolve(name_or_path: str) -> Path:
    """A shipped route name or a path to a TOML file."""
    if name_or_path in route_names():
        return route_dir() / f"{name_or_path}.toml"
    path = Path(name_or_path)
    if path.suffix == ".toml" or path.exists():
        if not path.exists():
            raise RouteError("file not found", path=str(path))
        return path  # anything but a regular file is refused by the reader, unopened
    known = ", ".join(route_names())
    hint = did_you_mean(name_or_path, route_names())
    raise RouteError(
        f"unknown route '{name_or_path}' (shipped: {known}; or give a .toml path){hint}"
    )


_CACHE: dict[tuple[str, float], Route] = {}


def load_route(name_or_path: str) -> Route:
    """Read and check a route; the result is cached per file and modification time."""
    path = resolve(name_or_path)
    key = (str(path.resolve()), path.stat().st_mtime)
    if key not in _CACHE:
        shown = name_or_path if name_or_path in route_names() else str(path)
        spec = read_toml(path, lambda msg: RouteError(msg, path=shown))
        _CACHE[key] = compile_route(spec, shown)
    return _CACHE[key]


def _unknown(keys: Any, allowed: set[str], path: str, where: str | None) -> None:
    for k in keys:
        if k not in allowed:
            raise RouteError(
                f"unknown key '{k}' (allowed: {', '.join(sorted(allowed))})", path=path, where=where
            )


def _need(table: dict, key: str, kind: type, path: str, where: str | None) -> Any:
    if key not in table:
        raise RouteError(f"missing key '{key}'", path=path, where=where)
    value = table[key]
    if not isinstance(value, kind) or isinstance(value, bool):
        raise RouteError(
            f"'{key}' must be a {kind.__name__} (got {value!r})", path=path, where=where
        )
    return value


def compile_route(spec: dict[str, Any], path: str) -> Route:
    """Check a parsed route spec and build its arrays; every error names file and space."""
    _unknown(spec, _ROUTE_KEYS, path, None)
    boards_spec = _need(spec, "boards", list, path, None)
    if not boards_spec:
        raise RouteError("needs at least one [[boards]] table", path=path)
    spaces: list[dict[str, Any]] = []  # kind, rest, board, col, trails, name, caps
    at: dict[tuple[int, int], int] = {}  # (global column, trail) -> space
    rows: list[list[list[int]]] = []  # per board, per trail: spaces in order
    links: list[tuple[int, int, str]] = []
    boards: list[Board] = []
    n_trails = None
    names_seen: dict[str, str] = {}
    col0 = 0
    for b, bs in enumerate(boards_spec):
        if not isinstance(bs, dict):
            raise RouteError(f"boards[{b}] must be a table", path=path)
        bname = bs.get("name", f"#{b}")
        where = f"board '{bname}'"
        _unknown(bs, _BOARD_KEYS, path, where)
        _need(bs, "name", str, path, f"boards[{b}]")
        zone = _need(bs, "zone", str, path, where)
        if zone not in ZONES:
            raise RouteError(f"zone must be one of {', '.join(ZONES)} (got '{zone}')", path, where)
        weather = bs.get("weather")
        if weather is not None:
            if (
                not isinstance(weather, list)
                or len(weather) != 6
                or any(w not in WEATHER for w in weather)
            ):
                raise RouteError(
                    "weather must list 6 of warm, mild, cold (one per d6 face)", path, where
                )
            weather = tuple(WEATHER.index(w) for w in weather)
        trails = _need(bs, "trails", list, path, where)
        if not trails or not all(isinstance(t, str) and t for t in trails):
            raise RouteError("trails must be a list of non-empty strings", path=path, where=where)
        if n_trails is None:
            n_trails = len(trails)
        elif len(trails) != n_trails:
            raise RouteError(
                f"has {len(trails)} trails, the first board has {n_trails}", path, where
            )
        length = len(trails[0])
        for t, s in enumerate(trails):
            if len(s) != length:
                raise RouteError(
                    f"trail {t} has {len(s)} columns, trail 0 has {length}", path, where
                )
        towns = bs.get("towns", {})
        if not isinstance(towns, dict):
            raise RouteError("towns must be a table of letter = {...}", path=path, where=where)
        used = set()
        letter_col: dict[str, int] = {}
        board_rows: list[list[int]] = []
        for t, s in enumerate(trails):
            row = []
            for c, ch in enumerate(s):
                here = f"{where} trail {t} column {c}"
                g = col0 + c
                if ch == "-":
                    continue
                if ch in ".^":
                    at[(g, t)] = len(spaces)
                    spaces.append(
                        dict(
                            kind=ROUGH if ch == "^" else WILD,
                            rest=0,
                            board=b,
                            col=g,
                            trails=1 << t,
                            name="",
                            dogs=NO_CAP_DOGS,
                            tokens=NO_CAP_TOKENS,
                        )
                    )
                elif ch.isalpha() and ch.isupper():
                    if ch not in towns:
                        raise RouteError(f"town letter '{ch}' is not in [towns]", path, here)
                    if letter_col.setdefault(ch, c) != c:
                        raise RouteError(
                            f"town letter '{ch}' is also at column {letter_col[ch]}; "
                            "a town is one column",
                            path,
                            here,
                        )
                    used.add(ch)
                    existing = next(
                        (at[(g, u)] for u in range(t) if (g, u) in at and trails[u][c] == ch),
                        None,
                    )
                    if existing is not None:
                        spaces[existing]["trails"] |= 1 << t
                        at[(g, t)] = existing
                    else:
                        at[(g, t)] = len(spaces)
                        spaces.append(_town(towns[ch], ch, b, g, t, path, where))
                else:
                    raise RouteError(
                        f"unknown character '{ch}' (use . ^ - or a town letter)", path, here
                    )
                row.append(at[(g, t)])
            if not row:
                raise RouteError(f"trail {t} has no spaces", path=path, where=where)
            board_rows.append(row)
        for ch in towns:
            if ch not in used:
                raise RouteError(f"town '{ch}' is defined but not on any trail", path, where)
        for ch in used:
            name = spaces[at[(col0 + letter_col[ch], _first_trail(trails, ch))]]["name"]
            if name in names_seen and names_seen[name] != f"{b}:{ch}":
                raise RouteError(f"town name '{name}' is used twice", path=path, where=where)
            names_seen[name] = f"{b}:{ch}"
        for i, ln in enumerate(bs.get("links", [])):
            here = f"{where} links[{i}]"
            if (
                not isinstance(ln, list)
                or len(ln) != 4
                or not all(isinstance(x, int) and not isinstance(x, bool) for x in ln)
            ):
                raise RouteError("a link is [trail, column, trail, column]", path, here)
            t1, c1, t2, c2 = ln
            for t, c in ((t1, c1), (t2, c2)):
                if not (0 <= t < n_trails and 0 <= c < length) or (col0 + c, t) not in at:
                    raise RouteError(f"no space at trail {t} column {c}", path, here)
            if c2 <= c1:
                raise RouteError(
                    f"links go forward: column {c2} must be after column {c1}", path, here
                )
            links.append((at[(col0 + c1, t1)], at[(col0 + c2, t2)], here))
        rows.append(board_rows)
        boards.append(Board(bname, ZONES.index(zone), weather, col0, length))
        col0 += length
    return _assemble(spec, path, spaces, rows, links, boards, n_trails or 0)


def _first_trail(trails: list[str], ch: str) -> int:
    return next(t for t, s in enumerate(trails) if ch in s)


def _town(ts: Any, ch: str, b: int, g: int, t: int, path: str, where: str) -> dict[str, Any]:
    here = f"{where} town '{ch}'"
    if not isinstance(ts, dict):
        raise RouteError("a town is a table {name = ..., rest = ...}", path=path, where=here)
    _unknown(ts, _TOWN_KEYS, path, here)
    name = _need(ts, "name", str, path, here)
    rest = ts.get("rest", "town")
    if rest not in REST_KINDS:
        raise RouteError(f"rest must be one of {', '.join(REST_KINDS)} (got '{rest}')", path, here)
    caps = {}
    for key, default in (("max_dogs", NO_CAP_DOGS), ("max_tokens", NO_CAP_TOKENS)):
        value = ts.get(key, default)
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= default:
            raise RouteError(
                f"{key} must be an integer from 0 to {default} (no cap; got {value!r})", path, here
            )
        caps[key] = value
    return dict(
        kind=TOWN,
        rest=REST_KINDS.index(rest),
        board=b,
        col=g,
        trails=1 << t,
        name=name,
        dogs=caps["max_dogs"],
        tokens=caps["max_tokens"],
    )


def _assemble(spec, path, spaces, rows, links, boards, n_trails) -> Route:
    """Number the spaces by (column, trail), add the lines, check start, finish, reachability."""
    order = sorted(range(len(spaces)), key=lambda i: (spaces[i]["col"], _low(spaces[i]["trails"])))
    new = {old: k for k, old in enumerate(order)}
    sp = [spaces[i] for i in order]
    edges: list[tuple[int, int, bool]] = []
    for t in range(n_trails):
        seq = [new[v] for board_rows in rows for v in board_rows[t]]
        for a, b in itertools.pairwise(seq):
            if a != b:
                edges.append((a, b, False))
    for a, b, _ in links:
        edges.append((new[a], new[b], True))
    edges = sorted(
        set(edges), key=lambda e: (e[0], e[2], sp[e[1]]["col"], _low(sp[e[1]]["trails"]))
    )
    n = len(sp)
    kind = np.array([s["kind"] for s in sp], dtype=np.int8)
    out_ptr = np.zeros(n + 1, dtype=np.int32)
    for a, _, _ in edges:
        out_ptr[a + 1] += 1
    out_ptr = np.cumsum(out_ptr).astype(np.int32)
    route = Route(
        name=str(spec.get("name", Path(path).stem)),
        path=path,
        title=str(spec.get("title", "")),
        source=str(spec.get("source", "")),
        boards=tuple(boards),
        n_trails=n_trails,
        kind=kind,
        rest=np.array([s["rest"] for s in sp], dtype=np.int8),
        board=np.array([s["board"] for s in sp], dtype=np.int16),
        zone=np.array([boards[s["board"]].zone for s in sp], dtype=np.int8),
        trail=np.array([_low(s["trails"]) for s in sp], dtype=np.int8),
        trails_mask=np.array([s["trails"] for s in sp], dtype=np.int8),
        col=np.array([s["col"] for s in sp], dtype=np.int32),
        cap_dogs=np.array([s["dogs"] for s in sp], dtype=np.int16),
        cap_tokens=np.array([s["tokens"] for s in sp], dtype=np.int16),
        town_name=tuple(s["name"] for s in sp),
        out_ptr=out_ptr,
        out_to=np.array([e[1] for e in edges], dtype=np.int32),
        line_from=np.array([e[0] for e in edges], dtype=np.int32),
        line_dashed=np.array([e[2] for e in edges], dtype=bool),
        # Text: an avalanche may lie on any line not partly or wholly in rough terrain.
        line_avalanche=np.array(
            [kind[e[0]] != ROUGH and kind[e[1]] != ROUGH for e in edges], dtype=bool
        ),
        start=-1,
        finish=-1,
    )
    start = _need(spec, "start", str, path, None)
    finish = _need(spec, "finish", str, path, None)
    s, f = route.town(start), route.town(finish)
    if s == f:
        raise RouteError("start and finish must be different towns", path=path)
    if route.out_ptr[f + 1] != route.out_ptr[f]:
        raise RouteError(f"the finish '{finish}' must be the end of every trail", path=path)
    object.__setattr__(route, "start", s)
    object.__setattr__(route, "finish", f)
    goal = np.zeros(n, dtype=bool)
    goal[f] = True
    dist = route.distances(goal)
    reach = np.zeros(n, dtype=bool)
    reach[s] = True
    for v in np.argsort(route.col, kind="stable"):
        if reach[v]:
            reach[route.out_to[route.out_ptr[v] : route.out_ptr[v + 1]]] = True
    for v in range(n):
        if dist[v] >= 1 << 20:
            raise RouteError(
                f"cannot reach the finish '{finish}' from here", path, route.describe(v)
            )
        if not reach[v]:
            raise RouteError(f"cannot be reached from the start '{start}'", path, route.describe(v))
    return route


def _low(mask: int) -> int:
    return (mask & -mask).bit_length() - 1
