"""``simkit serve``'s command line: what it opens, where it listens, what it refuses."""

import socket
from pathlib import Path

import pytest
from click.testing import CliRunner

from simkit.cli import main
from simkit.cli import serve as serve_cli


@pytest.fixture
def served(monkeypatch):
    """Run the command up to the server, which is recorded instead of started."""
    got = {}

    def fake_run(sock, host, root, setting, opened, threads):
        got.update(sock=sock, host=host, root=root, setting=setting, opened=opened)
        sock.close()

    monkeypatch.setattr(serve_cli, "_run", fake_run)
    return got


def test_no_argument_serves_the_demo_study_on_localhost_and_prints_the_url(served):
    res = CliRunner().invoke(main, ["serve", "--port", "0"])
    assert res.exit_code == 0, res.output
    line = res.output.strip()
    assert line.startswith("simkit serve: http://127.0.0.1:")
    port = int(line.split(":")[3].split("/")[0])
    assert port > 0
    assert line == (
        f"simkit serve: http://127.0.0.1:{port}/  (pages play into runs/serve; Ctrl-C stops)"
    )
    assert served["host"] == "127.0.0.1"
    assert served["setting"].base["track"] == "nutcracker" and served["opened"] is None
    assert served["setting"].races_per_round == 2000


def test_a_scenario_file_and_the_folder_and_round_options_are_passed_on(served, tmp_path):
    res = CliRunner().invoke(
        main,
        [
            "serve",
            str(Path("scenarios") / "fairness.toml"),
            "--port",
            "0",
            "--out",
            str(tmp_path / "live"),
            "--races-per-round",
            "500",
            "--max-races",
            "5000",
        ],
    )
    assert res.exit_code == 0, res.output
    assert served["root"] == tmp_path / "live"
    assert served["setting"].races_per_round == 500 and served["setting"].max_races == 5000


def test_the_old_name_of_max_races_still_works_with_a_notice(served):
    """--cap is --max-races's old name (a scenario's precision.max_races, tune's
    --max-races): hidden from --help, it still works."""
    res = CliRunner().invoke(main, ["serve", "--port", "0", "--cap", "5000"], prog_name="simkit")
    assert res.exit_code == 0, res.output
    assert served["setting"].max_races == 5000
    assert res.stderr == "simkit serve: --cap is deprecated; write --max-races 5000\n"
    res = CliRunner().invoke(main, ["serve", "--port", "0", "--cap", "5000", "--max-races", "5000"])
    assert res.exit_code == 0, res.output
    res = CliRunner().invoke(main, ["serve", "--port", "0", "--cap", "5000", "--max-races", "600"])
    assert res.exit_code == 2
    assert res.output.splitlines()[-1] == (
        "Error: --max-races 600 and the old --cap 5000 differ; give --max-races only"
    )
    text = CliRunner().invoke(main, ["serve", "-h"]).output
    assert "--max-races" in text and "--cap" not in text


def test_a_port_in_use_is_refused_in_one_line(served):
    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen()
    port = busy.getsockname()[1]
    try:
        res = CliRunner().invoke(main, ["serve", "--port", str(port)])
    finally:
        busy.close()
    assert res.exit_code == 1
    assert res.output.startswith(f"Error: cannot listen on 127.0.0.1:{port} (")
    assert res.output.endswith("give another --port, or 0\n")


def test_a_missing_scenario_is_refused_in_one_line(served, tmp_path):
    res = CliRunner().invoke(main, ["serve", str(tmp_path / "nope.toml"), "--port", "0"])
    assert res.exit_code == 1
    assert res.output.count("\n") == 1 and "nope.toml" in res.output
