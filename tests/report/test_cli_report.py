"""``simkit report`` and ``simkit compare`` on run directories in the contract's layout."""

from click.testing import CliRunner

from simkit.cli import main
from tests.analysis.synthetic import synthetic_run, write_run_dir

CELLS = [
    {"players": 3, "label": "a", "track": "gone.toml"},
    {"players": 3, "label": "b", "extra_rounds": 1, "track": "gone.toml"},
]


def test_report_command(tmp_path):
    run = write_run_dir(synthetic_run(CELLS[:1], races=200, seed=5), tmp_path / "run")
    res = CliRunner().invoke(main, ["report", str(run), "--tolerance", "0.05"])
    assert res.exit_code == 0, res.output
    # The answer on the terminal, then the path: the same sentence the report leads with.
    assert res.output == (
        "a: inconclusive: slot 2 wins 37.5% [31.1, 44.4] vs fair 33.3% ± 5 pp; ~12,965 races "
        f"would decide.\n{run / 'report' / 'index.html'}\n"
    )
    assert (run / "report" / "fairness.csv").exists()
    assert "within 5 percentage points" in (run / "report" / "report.md").read_text()


def test_compare_command_and_its_errors(tmp_path):
    a = write_run_dir(synthetic_run(CELLS, races=200, seed=5), tmp_path / "a")
    b = write_run_dir(synthetic_run(CELLS[::-1], races=200, seed=5), tmp_path / "b")
    res = CliRunner().invoke(main, ["compare", str(a), str(b)])
    assert res.exit_code == 0, res.output
    assert res.stdout == (
        f"Run B ({b}) against run A ({a}), cell by cell, race by race on the same seeds "
        "(paired): diff = B - A with a 95% interval. 2 of 26 differences significant after "
        "Holm's correction for 26 comparisons at 5%; intervals paired on common random "
        "numbers. 0 win-rate differences beyond ±2 pp.\n"
        # Issue 35: a comparison names the side effects beyond their tolerances (cell b's
        # races are a round longer than cell a's, and B plays the cells in reverse order).
        "Side effects: b vs a: median race length +1 rounds [+1, +1] (from 14 to 15; beyond "
        "±0.5); 4 more not beyond their tolerances.\n"
        "Side effects: a vs b: median race length -1 rounds [-1, -1] (from 15 to 14; beyond "
        "±0.5); 4 more not beyond their tolerances.\n"
        f"{a / 'compare-b' / 'index.html'}\n"
    )
    assert res.stderr == "comparison paired race by race\n"
    c = write_run_dir(synthetic_run(CELLS, races=200, seed=6), tmp_path / "c")
    res = CliRunner().invoke(main, ["compare", str(a), str(c), "-o", str(tmp_path / "x")])
    assert res.exit_code == 0, res.output
    assert res.stderr == "comparison unpaired (Welch): their seeds differ (5 vs 6)\n"
    assert (
        "as independent samples (unpaired, Welch) because their seeds differ"
        in (tmp_path / "x" / "report.md").read_text()
    )
    res = CliRunner().invoke(main, ["compare", str(a), str(c), "--paired", "-o", str(tmp_path)])
    assert res.exit_code == 1
    assert res.output.startswith("Error: runs ") and "seeds differ (5 vs 6)" in res.output
    assert len(res.output.strip().splitlines()) == 1
    lean = synthetic_run(CELLS, races=200, seed=5, keep="aggregates")
    d = write_run_dir(lean, tmp_path / "d")
    res = CliRunner().invoke(main, ["compare", str(a), str(d), "-o", str(tmp_path / "y")])
    assert res.exit_code == 0 and "kept aggregates only" in res.stderr


def test_not_a_run_directory(tmp_path):
    res = CliRunner().invoke(main, ["report", str(tmp_path)])
    assert res.exit_code == 1 and "is not a simkit run" in res.output


def test_report_prints_the_skill_axis_and_caps_long_answers(tmp_path):
    from simkit.cli.report import MAX_LINES, verdict_lines

    (tmp_path / "summary.json").write_text(
        '{"cells": ['
        '{"cell": 0, "sentence": "skill=a: fair.", "across_skill": "robust: fair at every level"},'
        '{"cell": 1, "sentence": "skill=b: fair.", "across_skill": "robust: fair at every level"}'
        "]}"
    )
    index = tmp_path / "index.html"
    assert verdict_lines(index) == [
        "skill=a: fair.",
        "skill=b: fair.",
        "across skill levels (cells 0, 1): robust: fair at every level",
    ]
    cells = ",".join(f'{{"cell": {i}, "sentence": "c{i}: fair."}}' for i in range(30))
    (tmp_path / "summary.json").write_text(f'{{"cells": [{cells}]}}')
    lines = verdict_lines(index)
    assert len(lines) == MAX_LINES + 1
    assert lines[-1] == f"... and {30 - MAX_LINES} more in {index}"
