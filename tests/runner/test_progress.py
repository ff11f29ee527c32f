"""What long commands say on stderr: progress (tqdm) on terminals and in pipes, and the
compile notice of a first run, read from numba's cache index."""

from __future__ import annotations

import importlib.util
import io
import sys
from types import SimpleNamespace

from click.testing import CliRunner

from simkit.cli import main
from simkit.games.base import Extras
from simkit.runner import progress

from .helpers import write


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_pipe_gets_plain_lines_at_most_every_few_seconds():
    out = io.StringIO()
    bar = progress.bar(1000, 100, stream=out)
    for _ in range(9):
        bar.update(100)  # all within PIPE_SECONDS: no line in between
    bar.close()
    lines = out.getvalue().split("\n")
    assert lines[-1] == "" and len(lines) == 3, out.getvalue()
    assert "\r" not in out.getvalue() and "\x1b" not in out.getvalue()
    assert lines[0].startswith("10%|") and "100/1000" in lines[0]
    assert lines[1].startswith("100%|") and "1000/1000" in lines[1] and "races/s" in lines[1]


def test_a_pipe_never_repeats_a_line_without_new_races():
    out = io.StringIO()
    bar = progress.bar(10, stream=out)
    bar.mininterval = 0
    bar.update(10)  # printed at once: 100%
    bar.close()  # tqdm draws the last state again: left out
    lines = out.getvalue().splitlines()
    assert [line.split("|")[0] for line in lines] == ["0%", "100%"]


def test_a_terminal_gets_a_bar_redrawn_in_place_and_cleared():
    out = _Tty()
    bar = progress.bar(10, stream=out)
    bar.update(10)
    bar.close()
    text = out.getvalue()
    assert text.startswith("\r") and "races/s" in text
    assert text.endswith("\r") and "\n" not in text


def test_a_disabled_bar_is_silent():
    out = io.StringIO()
    bar = progress.bar(10, enabled=False, stream=out)
    bar.update(10)
    bar.close()
    assert out.getvalue() == ""


def _kernel_module(tmp_path, monkeypatch, body: str):
    path = tmp_path / "kern.py"
    path.write_text(f"from numba import njit\n\n@njit(cache=True)\ndef twice(x):\n{body}")
    spec = importlib.util.spec_from_file_location("simkit_test_kern", path)
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "simkit_test_kern", module)
    spec.loader.exec_module(module)
    return module


def test_compile_notice_follows_numba_cache_index(tmp_path, monkeypatch):
    module = _kernel_module(tmp_path, monkeypatch, "    return 2 * x\n")
    extras = Extras(kernels={"simulate": ("simkit_test_kern:twice",)})
    game = SimpleNamespace(title="Toy", extras=extras)
    want = "compiling Toy kernels, first run only (10-30 seconds)"
    assert progress.compile_notice(game, "simulate") == want
    assert progress.compile_notice(game, "trace") is None  # declares no trace kernel
    assert module.twice(3) == 6  # compiles and writes the cache
    assert progress.compile_notice(game, "simulate") is None
    # An edited source makes numba's index stale: it compiles again, and says so.
    _kernel_module(tmp_path, monkeypatch, "    return x + x  # edited\n")
    assert progress.compile_notice(game, "simulate") == want


def test_run_says_it_compiles_on_stderr_and_keeps_stdout_clean(tmp_path, monkeypatch):
    monkeypatch.setattr(progress, "_cached", lambda kernel: False)
    path = write(tmp_path, 'game = "dicerace"\nraces = 30\nchunk_size = 10\n')
    res = CliRunner().invoke(main, ["run", str(path), "--out", str(tmp_path / "r")])
    assert res.exit_code == 0, res.output
    assert res.stderr.startswith(
        "compiling Dice race (test game) kernels, first run only (10-30 seconds)\n"
    )
    assert "30/30" in res.stderr  # the bar's last line (not a terminal)
    assert res.stdout.startswith(f"{tmp_path / 'r'}: 30 races in 1 cell ")


def test_race_says_it_compiles_on_stderr(monkeypatch):
    monkeypatch.setattr(progress, "_cached", lambda kernel: False)
    res = CliRunner().invoke(main, ["race", "dicerace", "--seed", "1"])
    assert res.exit_code == 0, res.output
    assert res.stderr == "compiling Dice race (test game) kernels, first run only (10-30 seconds)\n"
    assert res.stdout.startswith("slot: ")
