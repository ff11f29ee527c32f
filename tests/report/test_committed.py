"""Every command in every committed report runs when pasted (issue 35).

The committed samples (``git ls-files reports``) ship their reports and the files beside
them, not the runs they were made from: a command such as ``simkit run --resume
runs/mushmush-tournament --races 221649`` failed for every reader. Each report's commands
are pasted, in the order they appear, into a fresh folder holding only what a clone holds
(``scenarios/`` and the committed reports' own files), in a cheap dry form: runs and tunings
play a handful of races (``--races``, ``--budget``, ...), everything else as printed.
"""

from __future__ import annotations

import shlex
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from simkit.cli import main
from tests.report.test_commands import _commands

ROOT = Path(__file__).resolve().parents[2]
DRY_RACES = "12"  # races per cell of a dry run (a skill level's own count is capped by it)
# A dry tuning: one rung of a few races, one candidate confirmed on a few races.
DRY_TUNE = {
    "--budget": "2000",
    "--min-races": "10",
    "--max-races": "10",
    "--top": "1",
    "--confirm": "10",
}


def committed() -> list[Path]:
    """The committed report.md files and the study index, as a clone has them."""
    try:
        out = subprocess.run(
            ["git", "ls-files", "reports"], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout: no list of committed reports")
    return [ROOT / p for p in out.split() if p.endswith(("report.md", "index.md"))]


def _set(words: list[str], option: str, value: str) -> list[str]:
    if option in words:
        i = words.index(option)
        return [*words[: i + 1], value, *words[i + 2 :]]
    return [*words, option, value]


def dry(command: str) -> list[str]:
    """The command's words in their cheap form (the same command, fewer races)."""
    words = shlex.split(command)[1:]
    if words[0] == "run":
        words = _set(_set(words, "--races", DRY_RACES), "--threads", "1")
    elif words[0] == "tune":
        for option, value in DRY_TUNE.items():
            words = _set(words, option, value)
        words = _set(words, "--threads", "1")
    elif words[0] == "why":
        words = _set(_set(words, "--races", DRY_RACES), "--threads", "1")
    return words


def _clone(tmp: Path) -> None:
    """What a fresh clone holds that a command may read: the scenarios and the files the
    committed reports keep beside themselves (their scenario and space files)."""
    (tmp / "scenarios").symlink_to(ROOT / "scenarios")
    for path in committed():
        for f in path.parent.glob("*.toml"):
            target = tmp / f.relative_to(ROOT)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(f, target)


def test_the_commands_are_pasted_in_their_dry_form():
    assert dry("simkit run scenarios/x.toml --races 20000 --seed 1 -o runs/a") == [
        "run",
        "scenarios/x.toml",
        "--races",
        DRY_RACES,
        "--seed",
        "1",
        "-o",
        "runs/a",
        "--threads",
        "1",
    ]
    tune = dry("simkit tune a.toml --space b.toml --budget 2000000 --confirm 50000")
    assert tune[:3] == ["tune", "a.toml", "--space"]
    assert tune[tune.index("--budget") + 1] == "2000"
    assert tune[tune.index("--confirm") + 1] == "10"
    assert dry("simkit report runs/a-again -o reports/a") == [
        "report",
        "runs/a-again",
        "-o",
        "reports/a",
    ]


def test_committed_reports_name_no_run_folder_they_do_not_ship():
    """A command may read a run folder only after an earlier command of the same report
    made it (the reproduce section's run, then its report)."""
    for path in committed():
        made: set[str] = set()
        for command in _commands(path.read_text(encoding="utf-8")):
            words = shlex.split(command)
            for option in ("-o", "--out"):
                if option in words and words[1] == "run":
                    made.add(words[words.index(option) + 1].rstrip("/"))
            reads = [w.rstrip("/") for w in words if w.startswith("runs/")]
            outs = {words[words.index(o) + 1].rstrip("/") for o in ("-o", "--out") if o in words}
            missing = [r for r in reads if r not in made | outs]
            assert not missing and "--resume" not in words, f"{path}: {command}"


@pytest.mark.slow
def test_every_command_of_every_committed_report_runs_when_pasted(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _clone(tmp_path)
    ran = 0
    done: set[str] = set()  # a run's report and its confirmation's both name the run's command
    for path in committed():
        for command in _commands(path.read_text(encoding="utf-8")):
            if command in done:
                ran += 1
                continue
            done.add(command)
            result = CliRunner().invoke(main, dry(command), catch_exceptions=False)
            assert result.exit_code == 0, f"{path.relative_to(ROOT)}: {command}\n{result.output}"
            ran += 1
    assert ran >= len(committed())
