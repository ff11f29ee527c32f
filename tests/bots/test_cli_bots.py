"""``simkit bots tune`` on the command line: help, output, resume, one-line errors."""

from __future__ import annotations

from click.testing import CliRunner

from simkit.cli import main

ARGS = ["bots", "tune", "aimrace", "aim", "--races", 60, "--evaluations", 12, "--confirm", 200]


def _invoke(args):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def test_help_teaches_the_method():
    res = _invoke(["bots", "tune", "--help"])
    assert res.exit_code == 0
    for words in ("CMA-ES", "head-to-head", "decided races", "common random numbers", "--resume"):
        assert words in res.output


def test_tune_prints_the_bot_the_confirmation_and_where_it_went(tmp_path):
    out = tmp_path / "t"
    res = _invoke([*ARGS, "--out", out])
    assert res.exit_code == 0, res.output
    lines = res.stdout.splitlines()
    assert lines[0].startswith("aim:fitted: aim[")
    assert lines[1].startswith("aim:fitted (fitted) finished ahead of aim (default) in ")
    assert lines[2] == (
        f"recorded as [aim.fitted] in {out / 'bots.toml'}; play it as aim:fitted with "
        f"--bots-file {out / 'bots.toml'}"
    )
    assert lines[3] == str(out / "report" / "index.html")
    again = _invoke(["bots", "tune", "--resume", out])
    assert again.exit_code == 0
    assert again.stdout.splitlines()[:2] == lines[:2]
    twice = _invoke([*ARGS, "--out", out])
    assert twice.exit_code == 1
    assert f"already holds a tuning; continue it with --resume {out}, or --force" in twice.output


def test_errors_are_one_line(tmp_path):
    res = _invoke(["bots", "tune", "aimrace", "nope", "--out", tmp_path / "x"])
    assert res.exit_code == 1
    assert res.output == "Error: aimrace: bot 'nope' cannot be tuned (tunable: aim)\n"
    res = _invoke(["bots", "tune", "nogame", "aim", "--out", tmp_path / "x"])
    assert res.exit_code == 2 and "Invalid value for '[GAME]': 'nogame' is not one of" in res.output
    res = _invoke(["bots", "tune", "--resume", tmp_path, "--races", 5])
    assert res.exit_code == 2 and "--races cannot be used with --resume" in res.output
    res = _invoke(["bots", "tune", "--resume", tmp_path])
    assert res.exit_code == 1
    assert res.output == (
        f"Error: '{tmp_path}' holds no tuning (tune.json missing); start one without --resume\n"
    )


def test_docs_name_every_option():
    from pathlib import Path

    from simkit.cli.bots import tune

    doc = (Path(__file__).resolve().parents[2] / "docs" / "bots.md").read_text()
    for param in tune.params:
        for opt in param.opts:
            if opt.startswith("--"):
                assert opt in doc, f"docs/bots.md does not mention {opt}"


def test_evaluations_are_counted_by_their_own_option_and_the_old_budget_still_works(tmp_path):
    """--evaluations (what simkit tune's --budget was named here) and --budget, its old name
    here, hidden from --help: one line on stderr, then the same tuning."""
    head = ["bots", "tune", "aimrace", "aim", "--races", 60, "--out", tmp_path / "x"]
    res = _invoke([*head, "--evaluations", 5])
    assert res.exit_code == 1
    assert res.output == "Error: --evaluations 5 is less than one generation of 6 evaluations\n"
    old = CliRunner().invoke(main, [str(a) for a in [*head, "--budget", 5]], prog_name="simkit")
    assert old.exit_code == 1
    assert old.stderr == (
        "simkit bots tune: --budget is deprecated; write --evaluations 5\n"
        "Error: --evaluations 5 is less than one generation of 6 evaluations\n"
    )
    res = _invoke([*head, "--evaluations", 12, "--budget", 18])
    assert res.exit_code == 2 and res.stdout == ""
    assert res.output.splitlines()[-1] == (
        "Error: --evaluations 12 and the old --budget 18 differ; give --evaluations only"
    )
    res = _invoke(["bots", "tune", "--resume", tmp_path, "--budget", 12])
    assert res.exit_code == 2 and "--evaluations cannot be used with --resume" in res.output
    text = _invoke(["bots", "tune", "--help"]).output
    assert "--evaluations" in text and "--budget" not in text
