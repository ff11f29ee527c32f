"""Track overrides: a library track or track file with some of its parts changed.

A scenario changes a track's parts with ``track.…`` keys (docs/scenarios.md "Track parts"):
``corner.N.safety`` (corners counted from the start, from 1), any other key of a corner
(``angle``, ``radius``, ``tight``, ``turn``, ``lanes``, ``continues``, ``trees``, ``closed``),
``segment.N.KEY`` for the other segments (counted from 0, as ``simkit tracks show
--segments`` numbers them: ``length``, ``lanes``, ``continues``, ``trees``, ``closed``,
``buildings``, ``slots``), ``lanes`` (the width of a track that never changes width) and
``slot_order`` (which of the track's ST1 start spaces each slot takes).

Inside simkit a changed track is a :class:`DerivedTrack`: its base, its changes and its
name. The name is what screens, tables, manifests and a cell's key show, and what a user
types (``--track``, a scenario's ``track``): the base, ``?``, then the changes in a
canonical order, ``&`` between them, values in compact JSON::

    nutcracker?corner.1.safety=6&segment.4.length=5

A name is read once, where it comes in (``as_track``: a cell makes its track one), and
the code that needs the base or the changes reads them from the value, never from the
name. :func:`load` compiles it: the base spec (library name or file) is written back as
segment tables (:func:`tables`), the changes are applied to them, and the result is checked
and compiled exactly as a track file would be, so every error names the corner or segment
and the ``track.…`` key to blame (``SimkitError.key``).
"""

from __future__ import annotations

import difflib
import functools
import json
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from simkit.errors import TrackError
from simkit.tracks.compiled import CompiledTrack
from simkit.tracks.library import compile_spec, load_spec
from simkit.tracks.library import load as load_track
from simkit.tracks.spec import COMMON_KEYS, TYPE_KEYS, Spec
from simkit.tracks.summary import row_of

SEP = "?"  # between the base track and its changes in a derived track's name
AND = "&"  # between two changes
PREFIX = "track."  # what a change's key starts with in a scenario
N_SLOTS = 5  # the ST1 start spaces ``slot_order`` orders
CORNER_KEYS = tuple(k for k in (*COMMON_KEYS, *TYPE_KEYS["corner"]) if k not in ("type", "finish"))
SEGMENT_KEYS = ("length", "lanes", "continues", "trees", "closed", "buildings", "slots")
TRACK_KEYS = ("lanes", "slot_order")


@dataclass(frozen=True, order=True)
class Part:
    """What one change addresses: ``kind`` track, segment or corner, its ``index``, ``field``."""

    kind: str
    index: int
    field: str

    def key(self) -> str:
        """The key without the ``track.`` prefix: ``corner.1.safety``, ``lanes``."""
        return self.field if self.kind == "track" else f"{self.kind}.{self.index}.{self.field}"


def _fail(message: str, key: str | None, base: str | None = None) -> TrackError:
    err = TrackError(message, path=base)
    err.key = None if key is None else PREFIX + key
    return err


def parse_key(key: str) -> Part:
    """The part a change key (without ``track.``) addresses; ``TrackError`` naming the key."""
    words = key.split(".")
    if len(words) == 1:
        if key in TRACK_KEYS:
            return Part("track", -1, key)
        raise _fail(_unknown(key, TRACK_KEYS, "the whole track", ("corner.N.", "segment.N.")), key)
    if len(words) != 3 or words[0] not in ("corner", "segment"):
        raise _fail(
            f"'{PREFIX}{key}' is no track part; give track.corner.N.KEY, track.segment.N.KEY, "
            "track.lanes or track.slot_order",
            key,
        )
    kind, index, field = words
    lo = 1 if kind == "corner" else 0
    if not index.isdigit() or int(index) < lo:
        what = "corners count from 1" if kind == "corner" else "segments count from 0"
        raise _fail(f"'{index}' is no {kind} number ({what})", key)
    # A segment key that only corners have is checked against the track (_segment_of).
    allowed = CORNER_KEYS if kind == "corner" else (*SEGMENT_KEYS, *CORNER_KEYS)
    if field not in allowed:
        allowed = CORNER_KEYS if kind == "corner" else SEGMENT_KEYS
        raise _fail(_unknown(field, allowed, f"a {kind}"), key)
    return Part(kind, int(index), field)


def _unknown(field: str, allowed: tuple[str, ...], where: str, more: tuple[str, ...] = ()) -> str:
    close = difflib.get_close_matches(field, list(allowed), n=1)
    hint = f" (did you mean '{close[0]}'?)" if close else ""
    return f"'{field}' is no key of {where}{hint}; keys: {', '.join([*allowed, *more])}"


def _value(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


def derived_name(base: str, changes: dict[str, Any]) -> str:
    """The name of ``base`` with ``changes`` (keys without ``track.``), canonical: the same
    changes in any order give the same name, and no changes give ``base`` itself."""
    if not changes:
        return base
    parts = sorted((parse_key(k), v) for k, v in changes.items())
    return base + SEP + AND.join(f"{p.key()}={_value(v)}" for p, v in parts)


def split(name: str) -> tuple[str, dict[str, Any]]:
    """(base, changes) of a track name: ``(name, {})`` for a track without changes."""
    base, sep, rest = name.partition(SEP)
    if not sep:
        return name, {}
    changes = {}
    for item in rest.split(AND):
        key, eq, raw = item.partition("=")
        try:
            changes[key] = json.loads(raw) if eq else None
        except json.JSONDecodeError:
            changes[key] = None
        if changes[key] is None:
            raise _fail(f"'{item}' must be KEY=VALUE with a JSON value", key or None, base)
    return base, changes


@dataclass(frozen=True, eq=False)
class DerivedTrack:
    """A track with some of its parts changed: ``base`` (a library name or a track file),
    ``changes`` (keys without ``track.``) and ``name``, the string that shows it (``str``
    gives it). It equals, and hashes as, its name: two are the same track when their names
    are, and a name read from a table or file finds it in a set or a comparison."""

    name: str
    base: str
    changes: Mapping[str, Any]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, DerivedTrack | str):
            return self.name == str(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.name)

    @classmethod
    def parse(cls, name: str) -> DerivedTrack:
        """The derived track a name written as :func:`derived_name` writes it names (its
        changes in any order; the name is kept as given). Its keys are checked where it
        is loaded (:func:`load`), as a track file's are."""
        base, changes = split(name)
        return cls(name, base, MappingProxyType(changes))

    @classmethod
    def of(cls, base: str, changes: Mapping[str, Any]) -> DerivedTrack:
        """``base`` with ``changes``, named canonically (:func:`derived_name`)."""
        changes = dict(changes)
        return cls(derived_name(base, changes), base, MappingProxyType(changes))

    def __str__(self) -> str:
        return self.name

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        # pickled (Dask tasks, worker processes) as its name, read again where it lands
        return (DerivedTrack.parse, (self.name,))


def as_track(value: str | DerivedTrack | None) -> str | DerivedTrack | None:
    """A track as simkit holds it: a name with changed parts as a :class:`DerivedTrack`,
    any other name (a library track, a file) or None as it is."""
    if isinstance(value, str) and SEP in value:
        return DerivedTrack.parse(value)
    return value


def track_name(value: str | DerivedTrack | None) -> str | None:
    """What a table, manifest or cell key writes for a track: its name (None stays None)."""
    return None if value is None else str(value)


def base_and_changes(value: str | DerivedTrack) -> tuple[str, dict[str, Any]]:
    """(base, changes) of a track: ``(name, {})`` for a track without changes."""
    track = as_track(value)
    if isinstance(track, DerivedTrack):
        return track.base, dict(track.changes)
    return str(track), {}


def describe(changes: dict[str, Any]) -> str:
    """The changes as a reader says them: ``corner 1 safety 6, segment 4 length 5``."""
    out = []
    for p, v in sorted((parse_key(k), v) for k, v in changes.items()):
        where = p.field if p.kind == "track" else f"{p.kind} {p.index} {p.field}"
        out.append(f"{where} {_value(v).replace(',', ', ')}")
    return ", ".join(out)


def _building(b: Any) -> dict[str, Any]:
    if b.kind == "tavern":
        return {"kind": b.kind, "row": b.row, "side": "left" if b.side > 0 else "right"}
    return {"kind": b.kind, "row": b.row, "lane": b.lane}


def tables(spec: Spec) -> list[dict[str, Any]]:
    """The spec's segments written back as the tables of a track file (tiles expanded)."""
    out = []
    for seg in spec.segments:
        t: dict[str, Any] = {"type": seg.kind, "lanes": seg.lanes}
        prev = spec.segments[seg.index - 1] if seg.index else None
        same = prev is not None and prev.lanes == seg.lanes
        if seg.continues is not None and not (same and seg.continues == tuple(range(seg.lanes))):
            t["continues"] = list(seg.continues)
        if seg.is_corner:
            t.update(
                turn="left" if seg.turn > 0 else "right",
                angle=seg.angle,
                radius=seg.radius,
                safety=seg.safety,
                tight=seg.tight,
            )
        else:
            t["length"] = seg.length
            if seg.buildings:
                t["buildings"] = [_building(b) for b in seg.buildings]
            if seg.slots is not None:
                t["slots"] = [list(c) for c in seg.slots]
        if seg.kind != "start":
            t["finish"] = seg.finish
        for key in ("trees", "closed"):
            if getattr(seg, key):
                t[key] = [list(c) for c in getattr(seg, key)]
        out.append(t)
    return out


def _header(spec: Spec, name: str, changes: dict[str, Any]) -> dict[str, Any]:
    note = f"Derived from '{spec.name}' by a scenario: {describe(changes)}."
    return {
        "name": name,
        "title": f"{spec.title} ({describe(changes)})",
        **({"family": spec.family} if spec.family else {}),
        "flag": "left" if spec.flag > 0 else "right",
        "notes": f"{spec.notes}\n{note}" if spec.notes else note,
    }


def _segment_of(part: Part, corners: list[int], spec: Spec, base: str) -> int:
    """The segment index a corner or segment part addresses, checked against the track."""
    if part.kind == "corner":
        if part.index > len(corners):
            have = f"corners 1-{len(corners)}" if corners else "no corners"
            raise _fail(f"{spec.title} has {have} (got corner {part.index})", part.key(), base)
        return corners[part.index - 1]
    n = len(spec.segments)
    if part.index >= n:
        raise _fail(f"{spec.title} has segments 0-{n - 1} (got {part.index})", part.key(), base)
    if part.index in corners:
        k = corners.index(part.index) + 1
        fix = (
            f"write track.corner.{k}.{part.field}"
            if part.field in CORNER_KEYS
            else f"a corner has no '{part.field}' (its keys: {', '.join(CORNER_KEYS)})"
        )
        raise _fail(f"segment {part.index} is corner {k}: {fix}", part.key(), base)
    if part.field not in SEGMENT_KEYS:
        raise _fail(
            f"segment {part.index} is no corner; its keys: {', '.join(SEGMENT_KEYS)}",
            part.key(),
            base,
        )
    if part.field == "slots" and part.index != 0:
        raise _fail("'slots' belongs to the start, segment 0", part.key(), base)
    return part.index


def apply(
    spec: Spec, changes: dict[str, Any], base: str
) -> tuple[list[dict[str, Any]], dict[int, Part]]:
    """The segment tables of ``spec`` with ``changes`` made (``slot_order`` aside), and for
    each segment changed, the first part that changed it (the one an error blames)."""
    out = tables(spec)
    corners = [s.index for s in spec.segments if s.is_corner]
    touched: dict[int, Part] = {}
    for key, value in sorted(changes.items(), key=lambda kv: parse_key(kv[0])):
        part = parse_key(key)
        if part.kind == "track":
            if part.field == "lanes":
                widths = {s.lanes for s in spec.segments}
                if len(widths) > 1:
                    first = next(
                        s.index for s in spec.segments if s.lanes != spec.segments[0].lanes
                    )
                    raise _fail(
                        f"{spec.title} changes width at segment {first}; set each segment's "
                        "lanes (track.segment.N.lanes) instead",
                        key,
                        base,
                    )
                for t in out:
                    t["lanes"] = value
                    t.pop("continues", None)
            continue
        g = _segment_of(part, corners, spec, base)
        out[g][part.field] = value
        touched.setdefault(g, part)
    return out, touched


def current(track: str | DerivedTrack, key: str) -> Any:
    """The value part ``key`` (without ``track.``) has on ``track``: what a change replaces."""
    base, changes = base_and_changes(track)
    if key in changes:
        return changes[key]
    part = parse_key(key)
    spec = load_spec(base)
    if part.kind == "track":
        return spec.segments[0].lanes if part.field == "lanes" else list(range(1, N_SLOTS + 1))
    g = _segment_of(part, [s.index for s in spec.segments if s.is_corner], spec, base)
    table = tables(spec)[g]
    if part.field in table:
        return table[part.field]
    if part.field == "continues":
        return list(range(spec.segments[g].lanes))
    if part.field == "slots":
        t = load_track(base)
        return [[row_of(t, int(s)), int(t.lane[s])] for s in t.start_slots]
    return []  # trees, closed, buildings: none


def load(track: str | DerivedTrack) -> CompiledTrack:
    """Compile a derived track (or its name, :func:`derived_name`)."""
    derived = as_track(track)
    if not isinstance(derived, DerivedTrack):
        raise _fail(f"'{track}' has no changed parts ({SEP} and KEY=VALUE)", None)
    return _compiled(derived)


@functools.lru_cache(maxsize=256)
def _compiled(track: DerivedTrack) -> CompiledTrack:
    """Compile ``track``; kept, since a tuning asks for each candidate's track in every cell
    it plays."""
    name, base, changes = track.name, track.base, dict(track.changes)
    for key in changes:
        parse_key(key)
    spec = load_spec(base)
    order = changes.get("slot_order")
    rest = {k: v for k, v in changes.items() if k != "slot_order"}
    segs, touched = apply(spec, rest, base)
    header = _header(spec, name, changes)

    def build(segments: list[dict[str, Any]]) -> CompiledTrack:
        try:
            return compile_spec({**header, "segment": segments}, name)
        except TrackError as exc:
            raise _blame(exc, touched, changes, spec, base) from None

    track = build(segs)
    if order is None:
        return track
    if "slots" in segs[0]:
        raise _fail("give either track.slot_order or track.segment.0.slots", "slot_order", base)
    ints = isinstance(order, list) and all(type(k) is int for k in order)
    if not ints or sorted(order) != list(range(1, N_SLOTS + 1)):
        raise _fail(
            f"slot_order must list the start slots 1-{N_SLOTS} once each, e.g. [2, 1, 3, 4, 5] "
            f"(got {_value(order)})",
            "slot_order",
            base,
        )
    spaces = [int(track.start_slots[k - 1]) for k in order]
    segs[0]["slots"] = [[row_of(track, s), int(track.lane[s])] for s in spaces]
    return build(segs)


def _blame(
    exc: TrackError, touched: dict[int, Part], changes: dict[str, Any], spec: Spec, base: str
) -> TrackError:
    """The compiler's error about the changed track, naming the change to blame."""
    part = touched.get(exc.segment) if exc.segment is not None else None
    key = part.key() if part else next(iter(sorted(changes, key=parse_key)))
    where = ""
    if exc.segment is not None:
        corners = [s.index for s in spec.segments if s.is_corner]
        where = f"segment {exc.segment}"
        if exc.segment in corners:
            where = f"corner {corners.index(exc.segment) + 1} ({where})"
        where += ": "
    value = _value(changes[key])
    return _fail(f"with {key}={value}: {where}{exc.reason}", key, base)
