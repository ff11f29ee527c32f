"""``simkit ladder``: exact output on a tiny run, resume, one-line errors, help that teaches."""

from __future__ import annotations

from click.testing import CliRunner

from simkit.analysis.ratings import REPLICATES
from simkit.cli import main
from simkit.ladder import DEFAULT_RACES

ARGS = ["ladder", "lucerace", "--bots", "luce:1,luce:0,luce:-1", "--races", "200", "--seed", "3"]


def _invoke(args):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def test_tiny_ladder_prints_ratings_rungs_and_report(tmp_path):
    out = tmp_path / "lad"
    res = _invoke([*ARGS, "--out", out, "--bootstrap", 50])
    assert res.exit_code == 0, res.output
    assert res.stdout == (
        "rung  bot      rating  95% interval      wins/seat\n"
        "----  -------  ------  ----------------  ---------\n"
        "1     luce:1   +0.975  [+0.902, +1.094]  65.8%\n"
        "2     luce:0   -0.000  [-0.019, +0.018]  24.8%\n"
        "3     luce:-1  -0.975  [-1.086, -0.892]  9.3%\n"
        "luce:1 above luce:0 (rating difference +0.975 [+0.891, +1.102]; head to head "
        "72.5% [70.0, 74.9]).\n"
        "luce:0 above luce:-1 (rating difference +0.974 [+0.871, +1.082]; head to head "
        "72.5% [70.0, 74.9]).\n"
        "top rung not certified: lucerace names no reference player (--reference BOT "
        "certifies against one).\n"
        f"{out}/report/index.html\n"
    )
    # stderr: progress (and a compile notice on a cold cache), then the summary.
    assert res.stderr.splitlines()[-1].startswith(
        f"{out}: 600 races in 3 lineups (600 simulated now in "
    )
    again = _invoke(["ladder", "--resume", out, "--bootstrap", 50])
    assert again.exit_code == 0
    assert again.stdout == res.stdout
    assert again.stderr.splitlines()[-1].startswith(
        f"{out}: 600 races in 3 lineups (0 simulated now in "
    )
    # Without --bootstrap, the resume uses the ladder's own 50 (issue 26 item 9), not 200.
    recorded = _invoke(["ladder", "--resume", out])
    assert recorded.exit_code == 0
    assert recorded.stdout == res.stdout
    other = _invoke(["ladder", "--resume", out, "--bootstrap", REPLICATES])
    assert other.stdout != res.stdout  # the intervals do depend on the replicates


def test_the_top_rung_is_certified_against_the_reference_and_resumes_without_replaying(
    tmp_path,
):
    """Off the ladder, the reference plays the top rung in its setting once (stored in the
    run folder, read back by --resume); on the ladder, its own races certify it."""
    out = tmp_path / "lad"
    args = ["ladder", "lucerace", "--bots", "luce:0,luce:1", "--races", 100, "--bootstrap", 30]
    res = _invoke([*args, "--out", out, "--reference", "luce:1.4", "--reference-races", 150])
    assert res.exit_code == 0, res.output
    line = res.stdout.splitlines()[-2]
    assert line.startswith("luce:1 is weaker than luce:1.4 on 3 players: head to head ")
    assert line.endswith("; these are a weaker player's verdicts.")
    assert (
        "certifying the top rung, luce:1, against luce:1.4: 150 races per lineup at most (it "
        "stops once an interim look settles it)"
    ) in res.stderr
    again = _invoke(["ladder", "--resume", out])
    assert again.stdout == res.stdout and "certifying" not in again.stderr
    md = (out / "report" / "report.md").read_text()
    assert line in md.split("## Ratings")[0]
    on = _invoke([*args, "--out", tmp_path / "on", "--reference", "luce:0"])
    # on the ladder: its own races (luce:1 beats luce:0, so it is at least as strong)
    assert on.stdout.splitlines()[-2].startswith("luce:1 is as strong as luce:0 on 3 players")
    assert "certifying" not in on.stderr
    bad = _invoke([*args, "--out", tmp_path / "bad", "--reference", "dice"])
    assert (
        bad.exit_code == 1 and bad.output == "Error: lucerace: unknown bot 'dice' (known: luce)\n"
    )


def test_a_bot_never_ahead_prints_no_infinite_interval():
    """Issue 35: the ladder printed "-inf [-inf, -inf]" and one win rate as 0.390, 0.3895
    and 39.0% in three places."""
    import pandas as pd

    from simkit.analysis.ratings_text import ratings_rows

    t = pd.DataFrame(
        {
            "rung": [1, 2],
            "bot": ["greedy", "random"],
            "rating": [0.0, float("-inf")],
            "low": [0.0, float("-inf")],
            "high": [0.0, float("-inf")],
            "win_rate": [0.38951, 0.0],
        }
    )
    rows = ratings_rows(t)
    assert rows[1]["rating"] == "-inf" and rows[1]["95% interval"] == "never ahead"
    assert [r["wins/seat"] for r in rows] == ["39.0%", "0.0%"]


def test_default_run_directory_and_refusal_to_overwrite(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    args = ["ladder", "lucerace", "--bots", "luce:1,luce:0", "--races", 20, "--bootstrap", 20]
    assert _invoke(args).exit_code == 0
    assert (tmp_path / "runs" / "ladder-lucerace" / "report" / "index.html").is_file()
    res = _invoke(args)
    assert res.exit_code == 1
    assert res.output == (
        "Error: 'runs/ladder-lucerace' holds a finished run; use --force to overwrite it or "
        "--out to write elsewhere\n"
    )


def test_errors_are_one_line(tmp_path):
    res = _invoke(["ladder", "lucerace", "--bots", "luce:1,dice", "--out", tmp_path / "x"])
    assert res.exit_code == 1
    assert res.output == "Error: lucerace: unknown bot 'dice' (known: luce)\n"
    res = _invoke(["ladder", "lucerace"])
    assert res.exit_code == 2 and "give a GAME and --bots A,B,... (or --resume DIR)" in res.output
    res = _invoke(["ladder", "--resume", tmp_path, "--races", 5, "--bots", "a,b"])
    assert res.exit_code == 2 and "--bots, --races cannot be used with --resume" in res.output
    res = _invoke(["ladder", "--resume", tmp_path])
    assert (
        res.exit_code == 1
        and res.output == f"Error: '{tmp_path}' is not a simkit run (no manifest.json)\n"
    )


def test_help_teaches_with_examples_and_states_the_defaults():
    res = _invoke(["ladder", "--help"])
    assert res.exit_code == 0
    assert "Examples:\n    simkit ladder GAME --bots A,B,C" in res.output
    assert "simkit ladder --resume runs/ladder-GAME" in res.output
    # and each game's own ladder example, from the registry
    assert "simkit ladder snowtails --bots random,greedy" in res.output
    text = " ".join(res.output.split())
    assert f"Races per lineup [default: {DEFAULT_RACES:,}]" in text
    assert f"95% interval [default: {REPLICATES}]" in text


def test_docs_describe_every_option():
    from pathlib import Path

    from simkit.cli.ladder import ladder

    doc = (Path(__file__).resolve().parents[2] / "docs" / "ladder.md").read_text()
    for param in ladder.params:
        for opt in param.opts:
            if opt.startswith("--") and opt != "--help":
                assert opt in doc, f"docs/ladder.md does not mention {opt}"
