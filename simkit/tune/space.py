"""The search space of a tuning: which scenario keys move, over which values (docs/tuning.md).

A space file is TOML, one table per key of the scenario that the search moves: a variant
parameter (``[extra_cards]``) or a track part (``[track.corner.1.safety]``)::

    objective = "fairness"        # optional: what the tuning minimises (docs/tuning.md)

    [extra_cards]                 # a per-slot table
    elements = [2, 3, 4, 5]       # the entries that move (1-based: slots 2-5); default all
    low = 0                       # each entry from low to high (integers: whole numbers)
    high = 5
    order = "non-decreasing"      # a constraint: the moving entries never decrease

    [track.corner.1.safety]
    low = 2
    high = 7

    [bonus_rule]
    values = ["position", "none"] # a choice among listed values

    [[reference]]                 # a candidate to confirm beside the book's values (and to
    extra_cards = [0, 1, 1, 2, 2] # play first): e.g. the best of a hand-picked grid

    [search]                      # optional: how much to play (command-line options win)
    budget = 85_000
    top = 2

Each moving value is one Optuna parameter (``extra_cards[2]``, ``track.corner.1.safety``).
An ``order`` constraint is kept by sorting the moving entries of a candidate, so every
point the sampler proposes is a legal candidate (two points may then be one candidate; the
tuner plays it once).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from simkit.errors import SimkitError, SpaceError
from simkit.files import read_toml, shown
from simkit.names import did_you_mean
from simkit.tracks import override

ENTRY_KEYS = ("low", "high", "step", "values", "elements", "order")
MAX_STEPS = 1_000_000  # values a stepped range may hold (Optuna counts them in Decimal)
ORDERS = ("non-decreasing", "non-increasing")
SEARCH_KEYS = ("budget", "min_races", "max_races", "halving", "sampler", "top", "confirm")
TOP_KEYS = ("title", "objective", "reference", "search")


@dataclass(frozen=True)
class Entry:
    """One key the search moves, and how.

    ``elements`` are the 1-based entries of a list value that move (None: the value is a
    scalar); ``values`` the choices of a categorical key (None: ``low``..``high`` by
    ``step``); ``order`` sorts the moving entries of a candidate.
    """

    key: str
    low: float | None = None
    high: float | None = None
    step: float | None = None
    values: tuple[Any, ...] | None = None
    elements: tuple[int, ...] | None = None
    order: str | None = None

    @property
    def integer(self) -> bool:
        return all(isinstance(v, int) for v in (self.low, self.high, self.step) if v is not None)

    def names(self) -> list[str]:
        """The Optuna parameter of each moving value."""
        if self.elements is None:
            return [self.key]
        return [f"{self.key}[{e}]" for e in self.elements]

    def suggest(self, trial: Any, name: str) -> Any:
        if self.values is not None:
            return trial.suggest_categorical(name, [_choice(v) for v in self.values])
        if self.integer:
            return trial.suggest_int(name, int(self.low), int(self.high), step=int(self.step or 1))
        return trial.suggest_float(name, float(self.low), float(self.high), step=self.step)

    def decode(self, raw: Any) -> Any:
        """The value an Optuna parameter stands for (choices travel as JSON text)."""
        return json.loads(raw) if self.values is not None else raw

    def encode(self, value: Any) -> Any | None:
        """The Optuna parameter that stands for ``value``, or None if the space has no such."""
        if self.values is not None:
            return _choice(value) if _choice(value) in map(_choice, self.values) else None
        if isinstance(value, bool) or not isinstance(value, int | float):
            return None
        if not self.low <= value <= self.high:
            return None
        step = self.step or (1 if self.integer else None)
        if step and not math.isclose((value - self.low) / step, round((value - self.low) / step)):
            return None
        return int(value) if self.integer else float(value)


def _choice(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


@dataclass(frozen=True)
class Space:
    """A checked space file: its entries in file order, title and objective (or None)."""

    path: str
    entries: tuple[Entry, ...]
    title: str = ""
    objective: str | None = None
    references: tuple[dict[str, Any], ...] = ()  # candidates named by the user, partial
    search: tuple[tuple[str, Any], ...] = ()  # [search]: the tuning's options, as (key, value)

    @property
    def keys(self) -> list[str]:
        return [e.key for e in self.entries]

    def suggest(self, trial: Any) -> dict[str, Any]:
        """Ask ``trial`` for every moving value: the Optuna parameters of a candidate."""
        return {n: e.suggest(trial, n) for e in self.entries for n in e.names()}

    def candidate(self, params: dict[str, Any], base: dict[str, Any]) -> dict[str, Any]:
        """The scenario values Optuna parameters stand for, lists completed from ``base``
        (the scenario's own values of the space's keys) and sorted where an order is kept."""
        out = {}
        for e in self.entries:
            moved = [e.decode(params[n]) for n in e.names()]
            if e.elements is None:
                out[e.key] = moved[0]
                continue
            if e.order is not None:
                moved = sorted(moved, reverse=e.order == "non-increasing")
            value = list(base[e.key])
            for k, v in zip(e.elements, moved, strict=True):
                value[k - 1] = v
            out[e.key] = value
        return out

    def params(self, values: dict[str, Any], base: dict[str, Any]) -> dict[str, Any] | None:
        """Optuna parameters for the candidate ``values`` (e.g. the book's), or None if the
        space cannot propose it: outside the ranges, breaking the order, or changing an
        entry that does not move."""
        out = {}
        for e in self.entries:
            value = values[e.key]
            if e.elements is None:
                moved = [value]
            else:
                if not isinstance(value, list | tuple) or len(value) != len(base[e.key]):
                    return None
                still = [i for i in range(len(value)) if i + 1 not in e.elements]
                if any(value[i] != base[e.key][i] for i in still):
                    return None
                moved = [value[k - 1] for k in e.elements]
                if e.order is not None and moved != sorted(
                    moved, reverse=e.order == "non-increasing"
                ):
                    return None
            for name, v in zip(e.names(), moved, strict=True):
                out[name] = e.encode(v)
                if out[name] is None:
                    return None
        return out

    def corners(self, base: dict[str, Any]) -> list[dict[str, Any]]:
        """Two extreme candidates (every moving value at its lowest, then its highest), for
        checking the space against the scenario before a race is played."""
        out = []
        for pick in (0, -1):
            params = {}
            for e in self.entries:
                lo_hi = (
                    [_choice(e.values[pick])] if e.values is not None else [(e.low, e.high)[pick]]
                )
                params.update({n: lo_hi[0] for n in e.names()})
            out.append(self.candidate(params, base))
        return out

    def to_json(self) -> dict[str, Any]:
        """The file's content, as :func:`parse` reads it back (kept in ``tune.json``)."""
        data: dict[str, Any] = {}
        if self.title:
            data["title"] = self.title
        if self.objective is not None:
            data["objective"] = self.objective
        if self.references:
            data["reference"] = [dict(r) for r in self.references]
        if self.search:
            data["search"] = dict(self.search)
        for e in self.entries:
            table = {k: getattr(e, k) for k in ENTRY_KEYS if getattr(e, k) is not None}
            for k in ("values", "elements"):
                if k in table:
                    table[k] = list(table[k])
            data[e.key] = table
        return data


def load(path: str | Path) -> Space:
    """Read and check the space file at ``path`` (its shape; :func:`check` its keys)."""
    where = str(path)
    return parse(read_toml(path, lambda msg: SpaceError(msg, path=where)), where)


def _entries(data: dict[str, Any]) -> dict[str, Any]:
    """Tables of the file by key, ``[track.corner.1.safety]`` flattened to one key."""
    out = {}
    for key, value in data.items():
        if key in TOP_KEYS:
            continue
        if key == "track" and isinstance(value, dict):
            out.update(_tables(value, "track"))
        else:
            out[key] = value
    return out


def _tables(table: dict[str, Any], prefix: str) -> dict[str, Any]:
    if any(k in ENTRY_KEYS for k in table) or not all(isinstance(v, dict) for v in table.values()):
        return {prefix: table}
    out = {}
    for key, value in table.items():
        out.update(_tables(value, f"{prefix}.{key}"))
    return out


def parse(data: dict[str, Any], path: str) -> Space:
    """Check the parsed ``data`` of the space file at ``path``."""
    title = data.get("title", "")
    if not isinstance(title, str):
        raise SpaceError(f"must be a string (got {shown(title)})", path=path, key="title")
    objective = data.get("objective")
    if objective is not None and not isinstance(objective, str):
        raise SpaceError(
            f'must be a string such as "fairness" (got {shown(objective)})',
            path=path,
            key="objective",
        )
    entries = [_entry(key, table, path) for key, table in _entries(data).items()]
    if not entries:
        raise SpaceError(
            "names no key to search: add a table such as [extra_cards] low = 0 high = 5",
            path=path,
        )
    keys = [e.key for e in entries]
    refs = _references(data, keys, path)
    return Space(path, tuple(entries), title, objective, refs, _search(data, path))


def _search(data: dict[str, Any], path: str) -> tuple[tuple[str, Any], ...]:
    """The ``[search]`` table: options of ``simkit tune`` kept with the space."""
    table = data.get("search", {})
    if not isinstance(table, dict):
        raise SpaceError("must be a table, e.g. [search] budget = 50000", path=path, key="search")
    for k, v in table.items():
        if k not in SEARCH_KEYS:
            raise SpaceError(
                f"unknown key; [search] takes {', '.join(SEARCH_KEYS)}"
                + did_you_mean(str(k), SEARCH_KEYS),
                path=path,
                key=f"search.{k}",
            )
        if k == "sampler" and not isinstance(v, str):
            raise SpaceError(f"must be a string (got {shown(v)})", path=path, key=f"search.{k}")
        if k != "sampler" and (type(v) is not int or v < 1):
            raise SpaceError(
                f"must be a whole number from 1 (got {shown(v)})", path=path, key=f"search.{k}"
            )
    return tuple(table.items())


def _references(data: dict[str, Any], keys: list[str], path: str) -> tuple[dict, ...]:
    """``[[reference]]`` tables: values of the space's keys (the others the book's)."""
    from simkit.runner.scenario import flat_parts

    refs = data.get("reference", [])
    if not isinstance(refs, list) or not all(isinstance(r, dict) and r for r in refs):
        raise SpaceError(
            "must be a list of tables, e.g. [[reference]] extra_cards = [0, 1, 1, 2, 2]",
            path=path,
            key="reference",
        )
    out = []
    for ref in refs:
        table = flat_parts(ref)
        for key in table:
            if key not in keys:
                raise SpaceError(
                    f"'{key}' is no key of the space ({', '.join(keys)})" + did_you_mean(key, keys),
                    path=path,
                    key="reference",
                )
        if table in out:  # the confirmation's grid would list the same cell twice
            raise SpaceError(
                f"reference {len(out) + 1} repeats reference {out.index(table) + 1} "
                f"({shown(table)}); give each candidate once",
                path=path,
                key="reference",
            )
        out.append(table)
    return tuple(out)


def _number(value: Any, key: str, path: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise SpaceError(f"must be a number (got {shown(value)})", path=path, key=key)
    return value


def _entry(key: str, table: Any, path: str) -> Entry:
    if not isinstance(table, dict):
        raise SpaceError("must be a table, e.g. [hand_size] low = 4 high = 7", path=path, key=key)
    for k in table:
        if k not in ENTRY_KEYS:
            raise SpaceError(
                f"unknown key; a space table takes {', '.join(ENTRY_KEYS)}"
                + did_you_mean(str(k), ENTRY_KEYS),
                path=path,
                key=f"{key}.{k}",
            )
    if key.startswith(override.PREFIX):
        try:
            override.parse_key(key.removeprefix(override.PREFIX))
        except SimkitError as exc:
            raise SpaceError(str(exc), path=path, key=key) from None
    kw: dict[str, Any] = {}
    if "values" in table:
        values = table["values"]
        if not isinstance(values, list) or not values:
            raise SpaceError(
                f"must be a non-empty list of values (got {shown(values)})",
                path=path,
                key=f"{key}.values",
            )
        if any(k in table for k in ("low", "high", "step")):
            raise SpaceError("give either values or low/high, not both", path=path, key=key)
        kw["values"] = tuple(values)
    else:
        for k in ("low", "high"):
            if k not in table:
                raise SpaceError("required (or give values = [...])", path=path, key=f"{key}.{k}")
            kw[k] = _number(table[k], f"{key}.{k}", path)
        if kw["low"] > kw["high"]:
            raise SpaceError(
                f"low {kw['low']} is above high {kw['high']}", path=path, key=f"{key}.low"
            )
        if "step" in table:
            kw["step"] = _number(table["step"], f"{key}.step", path)
            if kw["step"] <= 0:
                raise SpaceError("must be above 0", path=path, key=f"{key}.step")
            count = (kw["high"] - kw["low"]) / kw["step"]  # inf when it overflows
            if not count <= MAX_STEPS:
                raise SpaceError(
                    f"gives {count:.3g} steps from low to high, more than {MAX_STEPS:,}; "
                    "use a larger step",
                    path=path,
                    key=f"{key}.step",
                )
    if "elements" in table:
        els = table["elements"]
        ok = isinstance(els, list) and els and all(type(e) is int and e >= 1 for e in els)
        if not ok or len(set(els)) != len(els):
            raise SpaceError(
                f"must be a list of distinct entry numbers from 1, e.g. [2, 3, 4, 5] "
                f"(got {shown(els)})",
                path=path,
                key=f"{key}.elements",
            )
        kw["elements"] = tuple(sorted(els))
    if "order" in table:
        if table["order"] not in ORDERS:
            raise SpaceError(
                f"must be one of {', '.join(ORDERS)} (got {shown(table['order'])})",
                path=path,
                key=f"{key}.order",
            )
        kw["order"] = table["order"]
    return Entry(key, **kw)


def check(space: Space, base: dict[str, Any], param_names: list[str]) -> Space:
    """The space, list entries completed (every entry moves unless ``elements`` says),
    checked against the scenario's keys and values ``base``."""
    entries = []
    for e in space.entries:
        if not e.key.startswith(override.PREFIX) and e.key not in param_names:
            raise SpaceError(
                f"no parameter of the game or track part has this name; parameters: "
                f"{', '.join(param_names)}" + did_you_mean(e.key, param_names),
                path=space.path,
                key=e.key,
            )
        value = base[e.key]
        if isinstance(value, list | tuple):
            elements = e.elements or tuple(range(1, len(value) + 1))
            if max(elements) > len(value):
                raise SpaceError(
                    f"{e.key} has {len(value)} entries (got entry {max(elements)})",
                    path=space.path,
                    key=f"{e.key}.elements",
                )
            e = Entry(e.key, e.low, e.high, e.step, e.values, elements, e.order)
        elif e.elements is not None or e.order is not None:
            what = "elements" if e.elements is not None else "order"
            raise SpaceError(
                f"{e.key} is no list: {what} applies to lists only",
                path=space.path,
                key=f"{e.key}.{what}",
            )
        if e.order is not None and len(e.elements or ()) < 2:
            raise SpaceError(
                "an order needs at least two moving entries", path=space.path, key=f"{e.key}.order"
            )
        entries.append(e)
    return Space(
        space.path, tuple(entries), space.title, space.objective, space.references, space.search
    )


def key_text(key: str) -> str:
    """How a space key reads in a report: ``corner 1 safety`` for ``track.corner.1.safety``,
    ``slot order`` for ``track.slot_order``; a parameter keeps its own name."""
    if not key.startswith(override.PREFIX):
        return key
    return " ".join(key.removeprefix(override.PREFIX).replace("_", " ").split("."))


def describe(values: dict[str, Any], book: dict[str, Any]) -> str:
    """A candidate in words, each value beside the book's: ``corner 1 safety 8 (book 4),
    corner 2 safety 4 (as the book)``; the book's values themselves read as such."""
    from simkit.runner.grid import format_value

    parts = []
    for key, value in values.items():
        text = f"{key_text(key)} {format_value(value)}"
        if key in book:
            same = format_value(book[key]) == format_value(value)
            text += " (as the book)" if same else f" (book {format_value(book[key])})"
        parts.append(text)
    return ", ".join(parts)
