"""The progress bar: drawn on terminals only, with races, rate and ETA."""

from __future__ import annotations

import io

from simkit.runner import progress
from simkit.runner.progress import Progress


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_bar_line_has_races_rate_and_eta():
    bar = Progress(1000, enabled=True, stream=io.StringIO())
    bar.t0 = 100.0
    bar.done = 250
    assert bar.line(110.0) == (
        "[######..................] 250/1,000 races  25.0%  25 races/s  ETA 0:30"
    )
    bar.done, bar.total = 7_200_250, 14_400_250
    assert bar.line(100.0 + 7200).endswith("1,000 races/s  ETA 2:00:00")


def test_bar_is_quiet_when_disabled_and_clears_its_line():
    quiet = io.StringIO()
    bar = Progress(10, enabled=False, stream=quiet)
    bar.update(10)
    bar.close()
    assert quiet.getvalue() == ""
    loud = io.StringIO()
    bar = Progress(10, enabled=True, stream=loud)
    bar.update(10)
    bar.close()
    assert loud.getvalue().startswith("\r[########################] 10/10 races 100.0%")
    assert loud.getvalue().endswith("\r\x1b[K")


def test_wanted_only_on_a_terminal_outside_ci(monkeypatch):
    monkeypatch.delenv("CI", raising=False)
    assert progress.wanted(_Tty()) is True
    assert progress.wanted(io.StringIO()) is False
    monkeypatch.setenv("CI", "true")
    assert progress.wanted(_Tty()) is False
