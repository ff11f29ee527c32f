"""Ctrl-C at any moment of a command's first second ends in one line, never a traceback
through the imports (issue 37). Before Python runs any simkit code (its own start-up, the
first few hundredths of a second) an interrupt is Python's to report."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = """game = "snowtails"
track = "nutcracker"
players = 2
races = 40
chunk_size = 10
seed = 1
"""


def _python(cwd: Path, args: list[str]) -> subprocess.Popen:
    """``python ARGS`` with this checkout's simkit, SIGINT at its default action (as a
    terminal's Ctrl-C finds it: a process started in the background would ignore it)."""
    return subprocess.Popen(
        [sys.executable, *args],
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )


def _interrupted(cwd: Path, args: list[str], after: float) -> subprocess.CompletedProcess:
    """``python -m simkit ARGS`` sent SIGINT ``after`` seconds."""
    p = _python(cwd, ["-m", "simkit", *args])
    time.sleep(after)
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=120)
    return subprocess.CompletedProcess(p.args, p.returncode, out, err)


@pytest.mark.parametrize("after", [0.2, 0.5, 1.0])
def test_ctrl_c_in_the_first_second_is_one_line(tmp_path, after):
    (tmp_path / "s.toml").write_text(SCENARIO)
    res = _interrupted(tmp_path, ["run", "s.toml", "--out", "r", "--threads", "1"], after)
    assert "Traceback" not in res.stderr, res.stderr
    lines = res.stderr.strip().splitlines()
    if res.returncode != 0:  # else it finished first
        assert res.returncode in (1, 130) and lines[-1].startswith("Error: "), res.stderr
        assert lines[-1] in (
            "Error: interrupted while starting; nothing was done",
            "Error: interrupted; finish the run with `simkit run --resume r`",
        )


def test_a_library_import_is_not_the_command():
    """Ctrl-C while simkit's package hashes its kernel sources ends the command in one line
    (make test caught a traceback there under load at 0.2 s), but a program importing
    simkit gets its KeyboardInterrupt: only the command exits by itself."""
    import simkit

    assert not simkit._as_the_command()


FINISHING = """
import sys, time

class Slow:
    def __del__(self, sleep=time.sleep, out=sys.stdout):
        # freed with the modules, after Python's exit has reset its signal handlers
        out.write("finalizing\\n")
        out.flush()
        sleep(2)

sys.modules["__main__"].slow = Slow()
sys.argv = ["simkit", "--version"]
from simkit._entry import main
main()
"""


def test_ctrl_c_while_a_finished_command_exits_keeps_its_status(tmp_path):
    """A finished command interrupted while Python frees its modules (past _PySignal_Fini,
    where a default SIGINT kills with status -2 and no word) ends with its own status."""
    p = _python(tmp_path, ["-c", FINISHING])
    lines = []
    for line in p.stdout:
        lines.append(line)
        if line.startswith("finalizing"):
            p.send_signal(signal.SIGINT)
            break
    _out, err = p.communicate(timeout=60)
    assert lines and lines[-1].startswith("finalizing"), (lines, err)
    assert p.returncode == 0, (p.returncode, err)
