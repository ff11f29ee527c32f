"""Variant parameters: frozen dataclasses with a default, bounds and a one-line doc each.

A game declares its parameters once (DESIGN §1, STYLE "variant parameters")::

    @dataclass(frozen=True)
    class SnowTailsParams(Variant):
        hand_size: int = param(5, "cards in hand after refilling", lo=1, hi=10, source="ST1 ...")

``Variant`` validates every value on construction, so an instance is always legal; presets
are instances, and a variant is a preset plus overrides (``preset.replace(**overrides)``).
Kernels never see this object: each game turns it into flat numbers (``to_kernel``).
"""

from __future__ import annotations

import dataclasses
import difflib
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Self

from simkit.errors import ParamError


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
    """
    meta = {
        "doc": doc,
        "lo": lo,
        "hi": hi,
        "choices": choices,
        "length": length,
        "source": source,
        "elem": elem,
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
        """Cross-parameter checks; games override and raise ``ParamError``."""

    @classmethod
    def _coerce(cls, f: dataclasses.Field, value: Any) -> Any:
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
                raise ParamError(f"{self.game}: unknown parameter '{key}'{hint}")
        return dataclasses.replace(self, **overrides)  # type: ignore[type-var]

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
