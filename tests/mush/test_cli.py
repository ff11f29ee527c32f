"""``simkit routes`` and ``simkit race mush``: exact output and exit codes."""

from pathlib import Path

from click.testing import CliRunner

from simkit.cli import main
from tests.golden.kit import CliCase

DIR = Path(__file__).parent / "golden"
RACE_ARGS = ("race", "mush", "--set", "route=sprint", "--seed", "4", "-p", "3",
             "--bots", "greedy,random,greedy")  # fmt: skip
ROUTES = CliCase(DIR / "routes_list.txt", ("routes", "list"))
RACE = CliCase(DIR / "race_sprint_seed4_3p.txt", RACE_ARGS)
GOLDEN = [ROUTES, RACE]  # make golden rewrites them


def test_routes_list():
    assert ROUTES.render() == ROUTES.read()


def test_routes_show_writes_a_png(tmp_path):
    out = tmp_path / "r.png"
    res = CliRunner().invoke(main, ["routes", "show", "sprint", "-o", str(out)])
    assert res.exit_code == 0 and res.output == f"wrote {out}\n"
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_routes_check(tmp_path):
    from simkit.games.mush.route import route_dir

    good = route_dir() / "sprint.toml"
    res = CliRunner().invoke(main, ["routes", "check", str(good)])
    assert res.exit_code == 0
    assert res.output == f"{good}: ok (2 boards, 52 spaces, 6 towns, 8 rough, 7 links)\n"
    bad = tmp_path / "bad.toml"
    bad.write_text(good.read_text().replace('zone = "north"', 'zone = "arctic"'))
    res = CliRunner().invoke(main, ["routes", "check", str(bad)])
    assert res.exit_code == 1
    assert res.output == (
        f"Error: route '{bad}', board 'North': zone must be one of south, central, north "
        "(got 'arctic')\n"
    )


def test_race_log_matches_the_golden_trace():
    """A whole race, checked by hand against the text once; regenerate after an intended
    rule change with ``make golden``."""
    text = RACE.render()
    assert text == RACE.read()
    lines = text.splitlines()
    assert lines[0].startswith("MUSH race: route 'sprint', finish nome, 3 players, key ")
    assert any("reaches Nome and wins" in line for line in lines)


def test_race_png_draws_the_sleds(tmp_path):
    out = tmp_path / "race.png"
    res = CliRunner().invoke(main, [*RACE_ARGS, "--png", str(out)])
    assert res.exit_code == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_race_json_has_every_event():
    import json

    res = CliRunner().invoke(main, ["race", "mush", "--seed", "4", "-p", "2", "--json"])
    data = json.loads(res.stdout)
    assert data["game"] == "mush" and data["event_names"][data["events"][-1]["event"]] == "end"
