"""What a long command tells the user on stderr: a compile notice, then progress (tqdm).

A first run compiles a game's kernels for 10 to 30 seconds; :func:`compile_notice` says so
beforehand, from numba's cache index of the entry kernels the game declares
(``Game.extras.kernels``). :func:`bar` is a tqdm bar: redrawn in place on a terminal, and one
plain line every few seconds in a pipe or a CI log, so a long run never looks stuck.
"""

from __future__ import annotations

import io
import sys
from typing import TextIO

from tqdm import tqdm

from simkit.games import import_ref
from simkit.games.base import Game

TTY_SECONDS = 0.2  # redraw interval on a terminal
PIPE_SECONDS = 5.0  # at most one line per interval in a pipe


class _Lines(io.TextIOBase):
    """tqdm's output for pipes: each redraw becomes its own line, without carriage returns,
    and a redraw that shows no new races (tqdm's last one, on close) is left out."""

    def __init__(self, stream: TextIO):
        self.stream = stream
        self.last = ""

    def write(self, text: str) -> int:
        line = text.replace("\r", "").strip()
        done = line.rsplit("| ", 1)[-1].split(" [", 1)[0]  # "done/total", without bar or rate
        if line and done != self.last:
            self.last = done
            self.stream.write(line + "\n")
            self.stream.flush()
        return len(text)

    def flush(self) -> None:
        self.stream.flush()


def bar(total: int, done: int = 0, *, enabled: bool = True, stream: TextIO | None = None) -> tqdm:
    """A progress bar over ``total`` races of which ``done`` are already on disk."""
    stream = stream or sys.stderr
    tty = stream.isatty()
    return tqdm(
        total=total,
        initial=done,
        unit=" races",
        file=stream if tty else _Lines(stream),
        mininterval=TTY_SECONDS if tty else PIPE_SECONDS,
        ncols=None if tty else 100,
        dynamic_ncols=tty,
        ascii=not tty,
        leave=not tty,  # a pipe keeps the last line; a terminal clears it
        disable=not enabled,
    )


def _cached(kernel: object) -> bool:
    """True when numba's on-disk cache holds machine code for ``kernel``'s current source.

    numba's index file is stamped with the source file's time and size; an index that
    does not match is ignored by numba, so it counts as empty here too. Kernels run
    without caching (``NUMBA_DISABLE_JIT=1``) never compile.
    """
    cache_file = getattr(getattr(kernel, "_cache", None), "_cache_file", None)
    load_index = getattr(cache_file, "_load_index", None)
    return load_index is None or bool(load_index())


def compile_notice(game: Game, method: str) -> str | None:
    """The line to print before ``game.<method>`` first compiles its kernels, else None."""
    if all(_cached(import_ref(ref)) for ref in game.extras.kernels.get(method, ())):
        return None
    return f"compiling {game.title} kernels, first run only (10-30 seconds)"
