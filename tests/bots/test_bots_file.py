"""Playing a fit is an explicit step: a scenario's ``bots_file`` or ``--bots-file`` names the
tuning's own bots file, whose fits are then played by name (issue 37)."""

from __future__ import annotations

import json

from click.testing import CliRunner

from simkit.cli import main
from simkit.runner import load_scenario, resume, start
from simkit.tune.bots import presets

WEIGHTS = (0.5, 0.25, 1.0)
SPEC = "aim[0.5/0.25/1]"


def _fit_file(folder):
    path = folder / "fit" / "bots.toml"
    path.parent.mkdir()
    presets.record(path, "aim", "fitted", WEIGHTS, {"game": "aimrace"})
    return path


def test_a_scenario_plays_the_fits_of_its_bots_file_by_name(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = _fit_file(tmp_path)
    (tmp_path / "s.toml").write_text(
        'game = "aimrace"\nbots_file = "fit/bots.toml"\nskill = ["aim", "aim:fitted"]\n'
        "races = 40\nchunk_size = 20\n"
    )
    sc = load_scenario("s.toml")
    assert sc.bots_file == "fit/bots.toml" and sc.to_json()["bots_file"] == "fit/bots.toml"
    start(sc, "r")
    m = json.loads((tmp_path / "r" / "manifest.json").read_text())
    fitted = m["cells"][1]
    assert fitted["skill"] == "aim:fitted" and fitted["label"].endswith("skill=aim:fitted")
    assert fitted["bots"] == [SPEC] * 3  # the tables hold the weights played
    assert m["inputs"]["fit/bots.toml"]["use"] == "read"  # recorded by content
    path.write_text("[aim.fitted]\nweights = [9.0, 9.0, 1.0]\n")  # a refit after the start
    summary = resume("r", races=60)
    assert summary.notices == [
        "'fit/bots.toml' has changed since the run started; the run uses its copy "
        f"r/{m['inputs']['fit/bots.toml']['copy']}"
    ]


def test_a_bad_bots_file_is_the_scenarios_key(tmp_path):
    (tmp_path / "b.toml").write_text("[aim.x]\nweights = [1.0]\n")
    (tmp_path / "s.toml").write_text('game = "aimrace"\nbots_file = "b.toml"\n')
    res = CliRunner().invoke(main, ["scenario", "check", str(tmp_path / "s.toml")])
    assert res.exit_code == 1
    assert res.output == (
        f"Error: scenario '{tmp_path / 's.toml'}', key 'bots_file': bots file "
        f"'{tmp_path / 'b.toml'}': [aim.x] needs weights = [...] of 3 finite numbers (x, y, z)\n"
    )


def test_race_takes_a_bots_file(tmp_path):
    path = tmp_path / "bots.toml"
    weights = (1.0, 0.3, 2.5, 0.3, 1.0, 0.2, 1.5, 0.6, 1.5, 15.0)  # greedy's own
    presets.record(path, "greedy", "fitted", weights, {"game": "snowtails"})
    args = ["race", "snowtails", "--players", "2", "--seed", "3", "--json"]
    fitted = CliRunner().invoke(main, [*args, "--bots", "greedy:fitted", "--bots-file", str(path)])
    plain = CliRunner().invoke(main, [*args, "--bots", "greedy"])
    assert fitted.exit_code == 0, fitted.output
    assert json.loads(fitted.stdout)["turns"] == json.loads(plain.stdout)["turns"]
    refused = CliRunner().invoke(main, [*args, "--bots", "greedy:fitted"])
    assert refused.exit_code == 1 and "unknown bot 'greedy:fitted'" in refused.output


def test_ladder_takes_a_bots_file(tmp_path):
    path = _fit_file(tmp_path)
    out = tmp_path / "lad"
    args = ["ladder", "aimrace", "--bots", "aim,aim:fitted", "--bots-file", str(path)]
    lad = CliRunner().invoke(main, [*args, "--races", "20", "--out", str(out)])
    assert lad.exit_code == 0, lad.output
    bots = {b for c in json.loads((out / "manifest.json").read_text())["cells"] for b in c["bots"]}
    assert bots == {"aim", SPEC}
