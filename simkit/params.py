"""Variant parameters: frozen dataclasses with a default, bounds and a one-line doc each.

A game declares its parameters once (DESIGN §1, STYLE "variant parameters")::

    @dataclass(frozen=True)
    class SnowTailsParams(Variant):
        hand_size: int = param(5, "cards in hand after refilling", lo=1, hi=10, source="ST1 ...")

``Variant`` validates every value on construction, so an instance is always legal; presets
are instances, and a variant is a preset plus overrides (``preset.replace(**overrides)``).
Kernels never see this object. Each field declares what it puts into the kernel's record
(``kernel=``, worked out from its default when not given), and ``Variant.kernel_dtype``
builds the record's layout from the fields in declaration order: no offset is numbered by
hand, in any game. ``to_kernel`` fills one record, ``from_kernel`` reads it back (a test
round-trips every field of every game). Kernels read fields by name (``prm.hand_size``).
"""

from __future__ import annotations

import dataclasses
import difflib
import functools
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Self

import numpy as np

from simkit.errors import ParamError
from simkit.names import unknown


def param(
    default: Any,
    doc: str,
    *,
    lo: float | None = None,
    hi: float | None = None,
    choices: Sequence[Any] | None = None,
    length: int | tuple[int, int] | None = None,
    source: str = "",
    elem: str | None = None,
    kernel: bool = True,
    favours: str | None = None,
    when: Mapping[str, Any] | None = None,
) -> Any:
    """Declare one variant parameter.

    Args:
        default: the book's value (a tuple for per-slot or per-value tables).
        doc: one line for ``simkit variants`` and the docs.
        lo, hi: inclusive bounds, applied to every element of a tuple.
        choices: the allowed values, for named options.
        length: exact length, or (min, max), for tuple parameters.
        source: where the default comes from (rulebook section or ruling, e.g. "R-11").
        elem: element kind ("int", "str", ...) of a tuple parameter whose default is empty.
        kernel: False for a parameter the kernels never read (it acts before them, e.g. on
            the track table, or names a file). Otherwise it becomes one record field: a
            number as int64/float64, a bool as int64 0/1, a named option as the int64 index
            of its value in ``choices``, a tuple as an array of its longest length (zeros
            after its entries) plus ``<name>_n``, its length, when that can vary.
        favours: for a per-slot table that compensates start slots (its source gives the
            back slots more), ``"higher"``: a larger entry favours that slot. Reports use it
            to say which way to move a slot that is behind or ahead.
        when: the other parameters' values under which the rules read this one (e.g.
            ``{"bonus_rule": "dice"}``); None if always.
    """
    meta = {
        "doc": doc,
        "lo": lo,
        "hi": hi,
        "choices": choices,
        "length": length,
        "source": source,
        "elem": elem,
        "kernel": kernel,
        "favours": favours,
        "when": dict(when) if when else None,
    }
    return dataclasses.field(default=default, metadata=meta)


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "float"
    if isinstance(value, str):
        return "str"
    if isinstance(value, tuple):
        return "tuple"
    return type(value).__name__


class Variant:
    """Mixin for a game's frozen parameter dataclass: validation, overrides, description."""

    game: ClassVar[str] = "?"

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            value = self._coerce(f, getattr(self, f.name))
            object.__setattr__(self, f.name, value)
        self.check()

    def check(self) -> None:
        """Cross-parameter checks; games override and raise ``ParamError`` with ``key``."""

    @classmethod
    def _coerce(cls, f: dataclasses.Field, value: Any) -> Any:
        try:
            return cls._coerce_field(f, value)
        except ParamError as exc:
            exc.key = f.name
            raise

    @classmethod
    def _coerce_field(cls, f: dataclasses.Field, value: Any) -> Any:
        name = f"{cls.game}.{f.name}"
        meta = f.metadata
        default = f.default
        want = _kind(default)
        if want == "tuple":
            if isinstance(value, list):
                value = tuple(value)
            if not isinstance(value, tuple):
                raise ParamError(f"{name} must be a list (got {value!r})")
            length = meta.get("length")
            if length is not None:
                lo_n, hi_n = (length, length) if isinstance(length, int) else length
                if not lo_n <= len(value) <= hi_n:
                    want_n = lo_n if lo_n == hi_n else f"{lo_n} to {hi_n}"
                    raise ParamError(f"{name} must have {want_n} entries (got {len(value)})")
            elem_kind = _kind(default[0]) if default else (meta.get("elem") or "int")
            items = tuple(cls._scalar(name, elem_kind, v, meta) for v in value)
            return items
        return cls._scalar(name, want, value, meta)

    @staticmethod
    def _scalar(name: str, want: str, value: Any, meta: Mapping[str, Any]) -> Any:
        got = _kind(value)
        if want == "float" and got == "int":
            value = float(value)
            got = "float"
        if got != want:
            raise ParamError(f"{name} must be {want} (got {value!r})")
        choices = meta.get("choices")
        if choices is not None and value not in choices:
            allowed = ", ".join(repr(c) for c in choices)
            raise ParamError(f"{name} must be one of {allowed} (got {value!r})")
        lo, hi = meta.get("lo"), meta.get("hi")
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            raise ParamError(f"{name} must be between {lo} and {hi} (got {value!r})")
        return value

    @classmethod
    def names(cls) -> list[str]:
        return [f.name for f in dataclasses.fields(cls)]  # type: ignore[arg-type]

    def replace(self, **overrides: Any) -> Self:
        """A copy with some parameters changed; unknown names or bad values: ``ParamError``."""
        known = self.names()
        for key in overrides:
            if key not in known:
                close = difflib.get_close_matches(key, known, n=1)
                hint = f" (did you mean '{close[0]}'?)" if close else ""
                raise ParamError(f"{self.game}: unknown parameter '{key}'{hint}", key=key)
        return dataclasses.replace(self, **overrides)  # type: ignore[type-var]

    @classmethod
    def resolve(
        cls, presets: Mapping[str, Self], preset: str, overrides: Mapping[str, Any] | None = None
    ) -> Self:
        """The variant ``preset`` plus ``overrides``: the one place a variant is built from
        user input (CLI, scenarios, positions). Errors name the key: ``preset`` or the
        parameter."""
        if preset not in presets:
            msg = unknown("preset", preset, sorted(presets), prefix=f"{cls.game}: ")
            raise ParamError(msg, key="preset")
        if overrides is not None and not isinstance(overrides, Mapping):
            msg = f"{cls.game}: overrides must be a table of parameter = value"
            raise ParamError(msg, key="set")
        return presets[preset].replace(**dict(overrides or {}))

    def as_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}  # type: ignore[arg-type]

    def describe(self) -> list[dict[str, Any]]:
        """One row per parameter: name, value, bounds, doc, source (for tables and docs)."""
        rows = []
        for f in dataclasses.fields(self):  # type: ignore[arg-type]
            m = f.metadata
            if m.get("choices") is not None:
                bounds = "|".join(str(c) for c in m["choices"])
            elif m.get("lo") is not None or m.get("hi") is not None:
                lo, hi = m.get("lo"), m.get("hi")
                bounds = f"{'' if lo is None else lo}..{'' if hi is None else hi}"
            else:
                bounds = ""
            rows.append(
                {
                    "name": f.name,
                    "value": getattr(self, f.name),
                    "bounds": bounds,
                    "doc": m.get("doc", ""),
                    "source": m.get("source", ""),
                }
            )
        return rows

    # --- the kernel record: its layout is computed from the fields, never numbered ---

    @classmethod
    def kernel_dtype(cls) -> np.dtype:
        """The record layout kernels read this game's parameters from (see ``param``)."""
        return _kernel_dtype(cls)

    def to_kernel(self) -> np.ndarray:
        """A one-element structured array holding this variant (kernels take ``[0]``)."""
        rec = np.zeros(1, dtype=self.kernel_dtype())
        for f, name, length in _kernel_fields(type(self)):
            value = getattr(self, f.name)
            if length is None:
                rec[name] = _encode(f, value)
            else:
                rec[name][0, : len(value)] = [_encode(f, v) for v in value]
                if f"{name}_n" in rec.dtype.names:
                    rec[f"{name}_n"] = len(value)
        return rec

    @classmethod
    def from_kernel(cls, rec: np.ndarray) -> dict[str, Any]:
        """The parameter values a kernel record holds (the inverse of ``to_kernel``)."""
        out: dict[str, Any] = {}
        r = rec[0] if rec.shape else rec
        for f, name, length in _kernel_fields(cls):
            if length is None:
                out[f.name] = _decode(f, r[name], f.default)
            else:
                n = int(r[f"{name}_n"]) if f"{name}_n" in rec.dtype.names else length
                proto = f.default[0] if f.default else 0
                out[f.name] = tuple(_decode(f, x, proto) for x in r[name][:n])
        return out


def _length_range(f: dataclasses.Field) -> tuple[int, int]:
    length = f.metadata.get("length")
    if length is None:
        n = len(f.default)
        return n, n
    return (length, length) if isinstance(length, int) else length


@functools.cache
def _kernel_fields(cls: type) -> tuple[tuple[dataclasses.Field, str, int | None], ...]:
    """(field, record name, array length or None) of every parameter the kernel reads."""
    rows = []
    for f in dataclasses.fields(cls):
        if not f.metadata.get("kernel", True):
            continue
        kind = _kind(f.default)
        elem = f.metadata.get("elem") if kind == "tuple" and not f.default else None
        if kind == "tuple":
            elem = elem or _kind(f.default[0])
        if (kind == "str" or elem == "str") and f.metadata.get("choices") is None:
            raise TypeError(f"{cls.__name__}.{f.name}: free text cannot go to a kernel; "
                            "declare kernel=False")  # fmt: skip
        rows.append((f, f.name, _length_range(f)[1] if kind == "tuple" else None))
    return tuple(rows)


@functools.cache
def _kernel_dtype(cls: type) -> np.dtype:
    fields: list[tuple] = []
    for f, name, length in _kernel_fields(cls):
        proto = (f.default[0] if f.default else 0) if length is not None else f.default
        base = np.float64 if isinstance(proto, float) else np.int64
        if length is None:
            fields.append((name, base))
        else:
            fields.append((name, base, (length,)))
            lo, hi = _length_range(f)
            if lo != hi:
                fields.append((f"{name}_n", np.int64))
    return record_dtype(fields)


def record_dtype(fields: list[tuple]) -> np.dtype:
    """An aligned structured dtype whose elements are ``np.record``: fields read as
    attributes (``rec.hand_size``) in Python too, so kernels also run with the JIT off."""
    return np.dtype((np.record, np.dtype(fields, align=True)))


def _encode(f: dataclasses.Field, value: Any) -> Any:
    choices = f.metadata.get("choices")
    if choices is not None:
        return list(choices).index(value)
    return int(value) if isinstance(value, bool) else value


def _decode(f: dataclasses.Field, raw: Any, proto: Any) -> Any:
    choices = f.metadata.get("choices")
    if choices is not None:
        return choices[int(raw)]
    if isinstance(proto, bool):
        return bool(raw)
    if isinstance(proto, float):
        return float(raw)
    return int(raw)
