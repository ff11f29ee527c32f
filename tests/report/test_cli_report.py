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
    assert res.output == f"{run / 'report' / 'index.html'}\n"
    assert (run / "report" / "fairness.csv").exists()
    assert "within 5 percentage points" in (run / "report" / "report.md").read_text()


def test_compare_command_and_its_errors(tmp_path):
    a = write_run_dir(synthetic_run(CELLS, races=200, seed=5), tmp_path / "a")
    b = write_run_dir(synthetic_run(CELLS[::-1], races=200, seed=5), tmp_path / "b")
    res = CliRunner().invoke(main, ["compare", str(a), str(b)])
    assert res.exit_code == 0, res.output
    assert res.stdout == f"{a / 'compare-b' / 'index.html'}\n"
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
