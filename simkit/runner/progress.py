"""A one-line progress bar for terminals: races done, races/s, ETA. Silent in pipes and CI."""

from __future__ import annotations

import os
import sys
import time
from typing import TextIO


def wanted(stream: TextIO | None = None) -> bool:
    """True when a bar helps: output is a terminal and no CI environment is set."""
    stream = stream or sys.stdout
    return stream.isatty() and not os.environ.get("CI")


def _clock(seconds: float) -> str:
    s = int(seconds + 0.5)
    h, rest = divmod(s, 3600)
    return f"{h}:{rest // 60:02d}:{rest % 60:02d}" if h else f"{rest // 60}:{rest % 60:02d}"


class Progress:
    """Redraws ``done/total races  pct  rate  ETA`` at most every ``every`` seconds."""

    def __init__(self, total: int, done: int = 0, *, enabled: bool, stream: TextIO | None = None):
        self.total = total
        self.start_done = done
        self.done = done
        self.enabled = enabled
        self.stream = stream or sys.stdout
        self.t0 = time.monotonic()
        self.last = 0.0
        self.every = 0.2

    def line(self, now: float) -> str:
        elapsed = max(now - self.t0, 1e-9)
        rate = (self.done - self.start_done) / elapsed
        pct = 100.0 * self.done / self.total if self.total else 100.0
        left = self.total - self.done
        eta = _clock(left / rate) if rate > 0 else "?"
        width = 24
        filled = int(width * self.done / self.total) if self.total else width
        bar = "#" * filled + "." * (width - filled)
        return (
            f"[{bar}] {self.done:,}/{self.total:,} races {pct:5.1f}%  "
            f"{rate:,.0f} races/s  ETA {eta}"
        )

    def update(self, races: int) -> None:
        self.done += races
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self.last >= self.every or self.done >= self.total:
            self.last = now
            self.stream.write("\r" + self.line(now) + "\x1b[K")
            self.stream.flush()

    def close(self) -> None:
        if self.enabled:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
