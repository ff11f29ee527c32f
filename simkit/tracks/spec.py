"""Read and check a track spec (a parsed TOML dict) into plain segment records.

This module owns every user-facing check of a spec's *shape*: unknown keys (with a close
match suggested), wrong types, out-of-range numbers, lane mappings. Geometry and features
that need the laid-out spaces (buildings, trees, start grid, reachability) are checked in
:mod:`simkit.tracks.compile`. Every error is a one-line :class:`TrackError` naming the
file and the segment index. ``docs/tracks.md`` documents every key.
"""

from __future__ import annotations

import difflib
import math
from dataclasses import dataclass, field
from typing import Any

from simkit.errors import TrackError
from simkit.files import shown
from simkit.tracks.compiled import BUILDING_KINDS

# Bounds (docs/tracks.md "Bounds"), checked while reading so that no spec, however large,
# keeps the compiler busy: lanes, rows of a straight, segments, and spaces in all.
MAX_LANES = 12
MAX_ROWS = 500
MAX_SEGMENTS = 200
MAX_SPACES = 20_000
TOP_KEYS = ("name", "title", "family", "flag", "notes", "segment", "reverse_of")
COMMON_KEYS = ("type", "lanes", "continues", "trees", "closed", "finish")
TYPE_KEYS = {
    "start": ("length", "slots"),
    "straight": ("length", "buildings"),
    "finish": ("length", "buildings"),
    "corner": ("turn", "angle", "radius", "safety", "tight"),
}
TYPES = (*TYPE_KEYS, "tile")
BUILDING_KEYS = ("kind", "row", "lane", "side")


@dataclass(frozen=True)
class Building:
    """A building on a straight: a 2x2 block at (row, lane)..(row+1, lane+1), or a tavern."""

    kind: str
    row: int
    lane: int  # -1 for the tavern, which stands beside the track
    side: int  # tavern only: +1 left, -1 right; 0 otherwise


@dataclass(frozen=True)
class Segment:
    """One checked segment of a spec; ``kind`` is start, straight, finish or corner."""

    index: int
    kind: str
    lanes: int
    continues: tuple[int, ...] | None  # new lane i <- previous lane continues[i] (-1: new)
    length: int = 0  # straights: rows
    turn: int = 0  # corners: +1 left, -1 right
    angle: float = 0.0  # corners: degrees
    radius: float = 0.0  # corners: inner radius in space widths
    safety: int = 0
    tight: bool = False
    finish: bool = False  # the finish line is this segment's entry line
    trees: tuple[tuple[int, int], ...] = ()
    closed: tuple[tuple[int, int], ...] = ()
    buildings: tuple[Building, ...] = ()
    slots: tuple[tuple[int, int], ...] | None = None

    @property
    def is_corner(self) -> bool:
        return self.kind == "corner"


@dataclass(frozen=True)
class Spec:
    """A checked spec: the header and its segments."""

    name: str
    title: str
    family: str
    flag: int  # +1 left, -1 right
    notes: str
    path: str | None
    segments: tuple[Segment, ...] = field(default=())
    reverse_of: str = ""  # a track raced the other way (ST2 G): its name or path


class _Ctx:
    """Raises TrackErrors that name the file and segment."""

    def __init__(self, path: str | None):
        self.path = path

    def fail(self, message: str, segment: int | None = None) -> TrackError:
        return TrackError(message, path=self.path, segment=segment)


def _unknown_keys(ctx: _Ctx, table: dict, allowed, where: str, seg: int | None) -> None:
    for key in table:
        if key not in allowed:
            close = difflib.get_close_matches(str(key), list(allowed), n=1, cutoff=0.6)
            hint = f" (did you mean '{close[0]}'?)" if close else ""
            known = ", ".join(allowed)
            raise ctx.fail(f"unknown key '{key}' in {where}{hint}; known keys: {known}", seg)


def _type_name(value: Any) -> str:
    return {bool: "boolean", int: "integer", float: "number", str: "string"}.get(
        type(value), type(value).__name__
    )


def _int(ctx: _Ctx, value: Any, key: str, seg: int | None, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ctx.fail(f"'{key}' must be an integer, got {_type_name(value)} {shown(value)}", seg)
    if not lo <= value <= hi:
        raise ctx.fail(f"'{key}' must be between {lo} and {hi} (got {value})", seg)
    return value


def _num(ctx: _Ctx, value: Any, key: str, seg: int | None) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ctx.fail(f"'{key}' must be a number, got {_type_name(value)} {shown(value)}", seg)
    return float(value)


def _str(ctx: _Ctx, value: Any, key: str, seg: int | None, choices=None) -> str:
    if not isinstance(value, str):
        raise ctx.fail(f"'{key}' must be a string, got {_type_name(value)} {shown(value)}", seg)
    if choices is not None and value not in choices:
        close = difflib.get_close_matches(value, list(choices), n=1, cutoff=0.5)
        hint = f" (did you mean '{close[0]}'?)" if close else ""
        raise ctx.fail(f"'{key}' must be one of {', '.join(choices)}, got '{value}'{hint}", seg)
    return value


def _bool(ctx: _Ctx, value: Any, key: str, seg: int | None) -> bool:
    if not isinstance(value, bool):
        got = f"{_type_name(value)} {shown(value)}"
        raise ctx.fail(f"'{key}' must be true or false, got {got}", seg)
    return value


def _pairs(ctx: _Ctx, value: Any, key: str, seg: int) -> tuple[tuple[int, int], ...]:
    """A list of [row, lane] pairs of non-negative integers."""
    msg = f"'{key}' must be a list of [row, lane] pairs, e.g. {key} = [[0, 1], [3, 2]]"
    if not isinstance(value, list):
        raise ctx.fail(msg, seg)
    out = []
    for item in value:
        ok = isinstance(item, list) and len(item) == 2
        ok = ok and all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in item)
        if not ok:
            raise ctx.fail(f"{msg} (got {shown(item)})", seg)
        out.append((item[0], item[1]))
    if len(set(out)) != len(out):
        raise ctx.fail(f"'{key}' lists a space twice", seg)
    return tuple(out)


def _building(ctx: _Ctx, value: Any, seg: int) -> Building:
    if not isinstance(value, dict):
        raise ctx.fail(
            "each of 'buildings' must be a table, e.g. {kind = \"chapel\", row = 2, lane = 1}",
            seg,
        )
    _unknown_keys(ctx, value, BUILDING_KEYS, "a building", seg)
    if "kind" not in value or "row" not in value:
        raise ctx.fail("a building needs 'kind' and 'row'", seg)
    kind = _str(ctx, value["kind"], "kind", seg, BUILDING_KINDS)
    row = _int(ctx, value["row"], "row", seg, 0, MAX_ROWS)
    if kind == "tavern":
        if "lane" in value:
            raise ctx.fail("the tavern stands beside the track: give 'side', not 'lane'", seg)
        side = _str(ctx, value.get("side", "left"), "side", seg, ("left", "right"))
        return Building(kind, row, -1, 1 if side == "left" else -1)
    if "side" in value:
        raise ctx.fail(f"the {kind} stands on the track: give 'lane', not 'side'", seg)
    if "lane" not in value:
        raise ctx.fail(f"the {kind} needs 'lane' (its left column of the 2x2 block)", seg)
    return Building(kind, row, _int(ctx, value["lane"], "lane", seg, 0, MAX_LANES), 0)


def _continues(ctx: _Ctx, value: Any, lanes: int, prev: int, seg: int) -> tuple[int, ...]:
    """Check a lane mapping: new lane i continues previous lane value[i], -1 for a new lane."""
    example = "e.g. continues = [1, 2, 3] (previous lanes 1-3 become lanes 0-2)"
    if not isinstance(value, list) or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in value
    ):
        raise ctx.fail(f"'continues' must be a list of lane numbers, {example}", seg)
    if len(value) != lanes:
        raise ctx.fail(
            f"'continues' must give one entry per lane ({lanes}, -1 for a new lane), "
            f"got {len(value)}; {example}",
            seg,
        )
    kept = [i for i, v in enumerate(value) if v != -1]
    if not kept:
        raise ctx.fail("'continues' must keep at least one previous lane", seg)
    for v in value:
        if v != -1 and not 0 <= v < prev:
            raise ctx.fail(
                f"'continues' names lane {v} but the previous segment has lanes 0-{prev - 1}", seg
            )
    first, last = kept[0], kept[-1]
    if kept != list(range(first, last + 1)) or any(
        value[i] != value[first] + (i - first) for i in kept
    ):
        raise ctx.fail(
            "'continues' must keep neighbouring lanes side by side in order, with -1 (new "
            f"lanes) only at the edges; got {value}",
            seg,
        )
    return tuple(value)


def parse(spec: Any, path: str | None, tiles: dict[str, dict], families: tuple[str, ...]) -> Spec:
    """Check ``spec`` (a parsed TOML dict) and return its segments, or raise TrackError.

    ``families`` are the games whose boards a track may say it models (``family``; absent:
    none in particular).
    """
    ctx = _Ctx(path)
    if not isinstance(spec, dict):
        raise ctx.fail("a track spec must be a TOML table")
    _unknown_keys(ctx, spec, TOP_KEYS, "the track header", None)
    stem = None
    if path is not None:
        stem = path.replace("\\", "/").rsplit("/", 1)[-1].removesuffix(".toml")
    name = _str(ctx, spec.get("name", stem or "track"), "name", None)
    title = _str(ctx, spec.get("title", name), "title", None)
    family = _str(ctx, spec["family"], "family", None, families) if "family" in spec else ""
    flag = _str(ctx, spec.get("flag", "left"), "flag", None, ("left", "right"))
    notes = _str(ctx, spec.get("notes", ""), "notes", None)
    flag_side = 1 if flag == "left" else -1
    if "reverse_of" in spec:
        if "segment" in spec:
            raise ctx.fail(
                "a track with 'reverse_of' takes its segments from that track; remove the "
                "[[segment]] tables"
            )
        base = _str(ctx, spec["reverse_of"], "reverse_of", None)
        return Spec(name, title, family, flag_side, notes, path, (), reverse_of=base)
    raw = spec.get("segment")
    if not isinstance(raw, list) or not raw or not all(isinstance(s, dict) for s in raw):
        raise ctx.fail("a track needs segments: add [[segment]] tables, the first of type 'start'")
    if len(raw) > MAX_SEGMENTS:
        raise ctx.fail(f"a track has at most {MAX_SEGMENTS} segments (got {len(raw)})")
    segments: list[Segment] = []
    prev_lanes = 0
    spaces = 0
    for i, table in enumerate(raw):
        seg = _segment(ctx, table, i, prev_lanes, tiles)
        segments.append(seg)
        prev_lanes = seg.lanes
        spaces += _spaces(seg)
        if spaces > MAX_SPACES:
            raise ctx.fail(
                f"the track reaches {spaces:,} spaces here, more than {MAX_SPACES:,}; "
                "shorten it or split it",
                i,
            )
    finishes = [s.index for s in segments if s.finish]
    if not finishes:
        raise ctx.fail(
            "finish unreachable: no finish line; make this segment type 'finish' or give it "
            "finish = true",
            len(segments) - 1,
        )
    if len(finishes) > 1:
        raise ctx.fail("a track has one finish line; remove the extra one", finishes[1])
    if finishes[0] == 0:
        raise ctx.fail("the finish line cannot be on the start segment", 0)
    return Spec(name, title, family, flag_side, notes, path, tuple(segments))


def _spaces(seg: Segment) -> int:
    """Spaces the compiler lays for ``seg`` (DESIGN §2: a corner lane has about θ·(r+k+½))."""
    if not seg.is_corner:
        return seg.length * seg.lanes
    theta = math.radians(seg.angle)
    return sum(max(1, round(theta * (seg.radius + k + 0.5))) for k in range(seg.lanes))


def _segment(ctx: _Ctx, table: dict, i: int, prev_lanes: int, tiles: dict[str, dict]) -> Segment:
    if "type" not in table:
        raise ctx.fail(f"segment needs 'type' (one of {', '.join(TYPES)})", i)
    kind = _str(ctx, table["type"], "type", i, TYPES)
    if kind == "tile":
        if "tile" not in table:
            raise ctx.fail("a segment of type 'tile' needs 'tile' (a tile name)", i)
        tile = _str(ctx, table["tile"], "tile", i, tuple(tiles))
        merged = dict(tiles[tile])
        merged.update({k: v for k, v in table.items() if k not in ("type", "tile")})
        table = merged
        kind = table["type"]
    _unknown_keys(ctx, table, (*COMMON_KEYS, *TYPE_KEYS[kind]), f"a {kind} segment", i)
    if i == 0 and kind != "start":
        raise ctx.fail(f"the first segment must be of type 'start', got '{kind}'", i)
    if i > 0 and kind == "start":
        raise ctx.fail("only the first segment can be of type 'start'", i)
    if "lanes" in table:
        lanes = _int(ctx, table["lanes"], "lanes", i, 1, MAX_LANES)
    elif i == 0:
        raise ctx.fail("the start segment needs 'lanes' (the track's width)", i)
    else:
        lanes = prev_lanes
    continues = None
    if "continues" in table:
        if i == 0:
            raise ctx.fail("the start segment has no previous lanes to continue", i)
        continues = _continues(ctx, table["continues"], lanes, prev_lanes, i)
    elif i > 0 and lanes != prev_lanes:
        raise ctx.fail(
            f"width changes from {prev_lanes} to {lanes} lanes: say which lanes continue, "
            f"e.g. continues = {list(range(min(lanes, prev_lanes)))}"
            + (" + [-1] for each new lane" if lanes > prev_lanes else ""),
            i,
        )
    elif i > 0:
        continues = tuple(range(lanes))
    kw: dict[str, Any] = {
        "trees": _pairs(ctx, table.get("trees", []), "trees", i),
        "closed": _pairs(ctx, table.get("closed", []), "closed", i),
        "finish": _bool(ctx, table.get("finish", kind == "finish"), "finish", i),
    }
    if kind == "corner":
        if "turn" not in table:
            raise ctx.fail('a corner needs \'turn\' = "left" or "right"', i)
        turn = _str(ctx, table["turn"], "turn", i, ("left", "right"))
        angle = _num(ctx, table.get("angle", 90), "angle", i)
        if not 0 < angle <= 360:
            raise ctx.fail(f"corner angle must be in (0, 360] degrees (got {angle:g})", i)
        radius = _num(ctx, table.get("radius", 1), "radius", i)
        if not 0 <= radius <= 100:
            raise ctx.fail(f"corner radius must be between 0 and 100 (got {radius:g})", i)
        return Segment(
            i,
            kind,
            lanes,
            continues,
            turn=1 if turn == "left" else -1,
            angle=angle,
            radius=radius,
            safety=_int(ctx, table.get("safety", 0), "safety", i, 0, 99),
            tight=_bool(ctx, table.get("tight", False), "tight", i),
            **kw,
        )
    if "length" not in table:
        raise ctx.fail(f"a {kind} segment needs 'length' (rows of spaces, >= 1)", i)
    length = _int(ctx, table["length"], "length", i, 1, MAX_ROWS)
    buildings = table.get("buildings", [])
    if not isinstance(buildings, list):
        raise ctx.fail("'buildings' must be a list of tables", i)
    slots = None
    if "slots" in table:
        slots = _pairs(ctx, table["slots"], "slots", i)
        if len(slots) != 5:
            raise ctx.fail(
                f"'slots' must give the 5 ST1 start spaces as [row, lane] (got {len(slots)})", i
            )
    return Segment(
        i,
        kind,
        lanes,
        continues,
        length=length,
        buildings=tuple(_building(ctx, b, i) for b in buildings),
        slots=slots,
        **kw,
    )
