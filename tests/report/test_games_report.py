"""Game sections of real (small) runs: present in the report, CSVs equal to the analysis."""

from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

import simkit
from simkit.cli import main
from simkit.games.mush import analysis as mush
from simkit.games.mushroomwalk import analysis as mushroomwalk
from simkit.report import build

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"


# Two cells each (the scenario files have more; reports of many cells take long to draw).
MUSHROOMWALK = """
game = "mushroomwalk"
bots = "lookahead"
[set]
who_starts = "random"
[grid]
preset = ["mushroomwalk", "morels"]
"""
MUSH = """
game = "mush"
players = 3
bots = ["greedy:start_rest=3:reserve=10", "greedy:rest_at=2:rest_to=0", "greedy"]
[grid]
preset = ["mush", "mush-short-north"]
"""


def _run(tmp_path: Path, text: str, races: int) -> Path:
    (tmp_path / "s.toml").write_text(text)
    out = tmp_path / "run"
    args = ["run", str(tmp_path / "s.toml"), "--races", str(races), "--threads", "1"]
    res = CliRunner().invoke(main, [*args, "-o", str(out)])
    assert res.exit_code == 0, res.output
    return out


@pytest.mark.parametrize("name", ["mushroomwalk-vs-morels", "mush-strategies", "mush-short-games"])
def test_scenario_files_are_valid(name):
    res = CliRunner().invoke(main, ["scenario", "check", str(SCENARIOS / f"{name}.toml")])
    assert res.exit_code == 0, res.output


def _same(csv: Path, table: pd.DataFrame) -> None:
    pd.testing.assert_frame_equal(
        pd.read_csv(csv), table.reset_index(drop=True), check_dtype=False, rtol=1e-9
    )


@pytest.fixture(scope="module")
def mushroomwalk_run(tmp_path_factory):
    return _run(tmp_path_factory.mktemp("mw"), MUSHROOMWALK, 150)


def test_mushroomwalk_section(mushroomwalk_run, tmp_path):
    index = build(mushroomwalk_run, tmp_path)
    md = (tmp_path / "report.md").read_text()
    assert "## Mushroom Walk: first player, scores, card value" in md
    assert "preset=morels: the starter wins" in md
    run = simkit.load(mushroomwalk_run)
    _same(tmp_path / "mushroomwalk_first_player.csv", mushroomwalk.first_player(run))
    _same(tmp_path / "mushroomwalk_scores.csv", mushroomwalk.scores(run))
    _same(tmp_path / "mushroomwalk_length.csv", mushroomwalk.game_length(run))
    _same(tmp_path / "mushroomwalk_card_value.csv", mushroomwalk.card_value(run))
    comparison = mushroomwalk.preset_comparison(run)
    _same(tmp_path / "mushroomwalk_comparison.csv", comparison)
    assert sorted(set(zip(comparison["baseline"], comparison["cell"], strict=True))) == [(0, 1)]
    fp = mushroomwalk.first_player(run)
    assert (fp["starter_wins"] + fp["second_wins"] + fp["draws"] == 150).all()
    for png in ("mushroomwalk_first_player", "mushroomwalk_scores", "mushroomwalk_cards_cell1"):
        assert (tmp_path / f"{png}.png").stat().st_size > 1000
    assert index.read_text().count("data:image/png;base64,") >= 6


def test_mush_section(tmp_path):
    races = 100
    run_dir = _run(tmp_path, MUSH, races)
    out = tmp_path / "report"
    build(run_dir, out)
    md = (out / "report.md").read_text()
    assert "## MUSH: training, initiative, strategies, game length" in md
    run = simkit.load(run_dir)
    _same(out / "mush_training.csv", mush.training(run))
    _same(out / "mush_training_by_players.csv", mush.training(run, by="players"))
    _same(out / "mush_training_test.csv", mush.training_test(run))
    _same(out / "mush_initiative.csv", mush.initiative(run))
    _same(out / "mush_strategies.csv", mush.strategies(run))
    _same(out / "mush_length.csv", mush.game_length(run))
    wins = mush.training(run).groupby("cell")["wins"].sum()
    timed = mush.game_length(run).drop_duplicates("cell").set_index("cell")["timed_outs"]
    assert (wins + timed == races).all()
    st = pd.read_csv(out / "mush_strategies.csv")
    assert len(st) == 6 and st["seats"].eq(races).all()
    assert (out / "mush_strategies_cell1.png").stat().st_size > 1000


def test_aggregates_only_run_gets_a_note(mushroomwalk_run, tmp_path):
    run = simkit.load(mushroomwalk_run)
    run.races = None
    build(run, tmp_path)
    md = (tmp_path / "report.md").read_text()
    assert "This section needs per-race rows" in md
    assert not (tmp_path / "mushroomwalk_first_player.csv").exists()


def test_games_without_a_section_get_none(tmp_path):
    from tests.analysis.synthetic import synthetic_run

    build(synthetic_run([{"players": 3, "label": "a"}], races=100, seed=2), tmp_path)
    md = (tmp_path / "report.md").read_text()
    assert "## Mushroom Walk" not in md and "## MUSH" not in md
    assert not list(tmp_path.glob("mush*.csv"))
