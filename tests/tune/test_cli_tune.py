"""The `simkit tune` command: its output, its one-line errors, --resume."""

from __future__ import annotations

import re

from click.testing import CliRunner

from simkit.cli import main
from tests.tune.test_tune import SCENARIO, _files

SPACE = "[course]\nvalues = [5, 11]\n\n[[reference]]\ncourse = 9\n"


def test_tune_prints_the_best_and_every_confirmed_candidate(tmp_path):
    scenario, space = _files(tmp_path, SCENARIO, SPACE)
    out = tmp_path / "out"
    args = ["tune", str(scenario), "--space", str(space), "--out", str(out)]
    args += ["--objective", "rounds=12", "--budget", "3000", "--min-races", "100"]
    args += ["--max-races", "900", "--confirm", "2000"]
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 0, res.output
    lines = res.stdout.splitlines()
    assert lines[0] == f"{out}: best course=11"
    book = lines[1].removeprefix("  the book's values: objective ")
    assert abs(float(book.split()[0]) - 3) < 0.1  # course 8: 9 rounds a race, 3 from 12
    ref = re.fullmatch(
        r"  course 9 \(book 8\): objective (\S+) .*, vs the book (\S+) \(better\)", lines[2]
    )
    assert ref and abs(float(ref[1]) - 2) < 0.1 and abs(float(ref[2]) + 1) < 0.1  # 10 rounds
    found = re.fullmatch(
        r"  course 11 \(book 8\): objective 0\.0.*, vs the book (\S+) \(better\), "
        r"vs the best reference (\S+) \(better\)",
        lines[3],
    )
    assert found and abs(float(found[1]) + 3) < 0.1 and abs(float(found[2]) + 2) < 0.1
    assert lines[-1] == f"report: {out / 'report' / 'index.html'}"
    report = (out / "report" / "report.md").read_text()
    assert "short of its budget of 3,000: the sampler proposed only candidates" in report
    again = CliRunner().invoke(main, ["tune", "--resume", str(out)])
    assert again.exit_code == 0 and again.stdout.splitlines()[0] == lines[0]
    twice = CliRunner().invoke(main, args)
    assert twice.exit_code == 1 and "already holds a tuning" in twice.output


def test_mistakes_exit_1_with_one_line(tmp_path):
    scenario, space = _files(tmp_path, SCENARIO, "[course]\nlow = 1\nhigh = 99\n")
    res = CliRunner().invoke(main, ["tune", str(scenario), "--space", str(space)])
    assert res.exit_code == 1
    assert res.output.count("\n") == 1 and "slotrace.course must be between 1 and 30" in res.output
    res = CliRunner().invoke(main, ["tune", str(scenario)])
    assert res.exit_code == 2 and "--space" in res.output
    res = CliRunner().invoke(main, ["tune", "--resume", str(tmp_path), "--budget", "5"])
    assert res.exit_code == 2 and "--budget cannot be used with --resume" in res.output
