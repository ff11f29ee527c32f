"""The one guarded way simkit reads a file it is given: scenarios, tracks, routes, positions
(``simkit moves``) and run manifests.

Whatever a file holds, reading it ends in parsed data or in one :class:`SimkitError` line
from the caller's ``error`` factory (which names the file): missing or unreadable, larger
than the cap, not UTF-8, not valid TOML or JSON, or nested deeper than :data:`MAX_DEPTH`.
The size cap bounds the time any parser and any later check can take. :func:`shown`
quotes a user's value for a message; :func:`one_line` makes any message one printable line.
"""

from __future__ import annotations

import json
import math
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from simkit.errors import SimkitError

MAX_BYTES = 1 << 20  # 1 MiB: far more than any hand-written scenario, track, route or position
MAX_DEPTH = 32  # tables and lists inside one another
SHOWN_CHARS = 60  # of a user's value quoted in a message
LINE_CHARS = 600  # of one error line

ErrorFactory = Callable[[str], SimkitError]


def read_text(path: str | Path, error: ErrorFactory, max_bytes: int = MAX_BYTES) -> str:
    """The file's text, read as UTF-8; at most ``max_bytes`` are ever read."""
    p = Path(path)
    try:
        with open(p, "rb") as fh:
            data = fh.read(max_bytes + 1)
    except FileNotFoundError:
        raise error("file not found") from None
    except IsADirectoryError:
        raise error("is a folder, not a file") from None
    except OSError as exc:
        raise error(f"cannot read it ({exc.strerror or exc})") from None
    if len(data) > max_bytes:
        raise error(f"larger than {max_bytes:,} bytes; is it the right file?")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        bad = data[exc.start]
        raise error(
            f"not UTF-8 text (byte 0x{bad:02x} at offset {exc.start}); save it as UTF-8"
        ) from None


def read_toml(path: str | Path, error: ErrorFactory, max_bytes: int = MAX_BYTES) -> dict:
    """The file parsed as TOML (a table)."""
    text = read_text(path, error, max_bytes)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise error(f"not valid TOML ({one_line(str(exc))})") from None
    except RecursionError:
        raise error(f"nested deeper than {MAX_DEPTH} levels") from None
    except ValueError as exc:  # e.g. an integer of more digits than Python converts
        raise error(f"not valid TOML ({one_line(str(exc))[:SHOWN_CHARS]})") from None
    _check_depth(data, error)
    return data


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"number {text[:SHOWN_CHARS]} is out of range")
    return value


def read_json(path: str | Path, error: ErrorFactory, max_bytes: int = MAX_BYTES) -> Any:
    """The file parsed as JSON; NaN, Infinity and out-of-range numbers are refused."""
    text = read_text(path, error, max_bytes)
    try:
        data = json.loads(text, parse_constant=_no_constant, parse_float=_finite)
    except json.JSONDecodeError as exc:
        raise error(f"not valid JSON ({exc.msg} at line {exc.lineno})") from None
    except RecursionError:
        raise error(f"nested deeper than {MAX_DEPTH} levels") from None
    except ValueError as exc:
        raise error(f"not valid JSON ({one_line(str(exc))[:SHOWN_CHARS]})") from None
    _check_depth(data, error)
    return data


def _check_depth(data: Any, error: ErrorFactory) -> None:
    """Refuse data nested deeper than MAX_DEPTH (checked without recursion)."""
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict):
            children = value.values()
        elif isinstance(value, list):
            children = value
        else:
            continue
        if depth > MAX_DEPTH:
            raise error(f"nested deeper than {MAX_DEPTH} levels")
        stack.extend((child, depth + 1) for child in children)


def one_line(text: str) -> str:
    """``text`` as one printable line: control and other invisible characters escaped."""
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode() for c in text)


def shown(value: Any) -> str:
    """A user's value for a message: its repr, escaped to one line and cut short."""
    text = one_line(repr(value))
    return text if len(text) <= SHOWN_CHARS else text[: SHOWN_CHARS - 3] + "..."
