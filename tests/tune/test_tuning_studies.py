"""The ready-made tuning studies (docs/studies.md "Tuning studies"): `make reports` tunes
exactly the scenarios/tune-*.toml files, each over its space file; each checks as `simkit
tune` checks it and names the skill level it tunes for; the extra-cards studies confirm the
best table of scenarios/compensation.toml, the greedy one searching in no more races than
that grid played."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from simkit import tune
from simkit.runner import expand, load_scenario

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "scenarios"
# The extra-cards studies confirm the compensation grid's best table at their skill level;
# the greedy one is the comparison: no more races than the grid played.
EXTRA_CARDS = ("tune-extra-cards", "tune-extra-cards-greedy")
WITHIN_GRID = "tune-extra-cards-greedy"


def make_tunings() -> list[str]:
    """The TUNINGS list of the Makefile, continuation lines joined."""
    text = (ROOT / "Makefile").read_text().replace("\\\n", " ")
    match = re.search(r"^TUNINGS\s*:=(.*)$", text, flags=re.MULTILINE)
    assert match, "Makefile has no TUNINGS := line"
    return match.group(1).split()


def space_of(stem: str) -> Path:
    """The space file `make reports` gives a tuning study."""
    return SCENARIOS / f"{stem.removeprefix('tune-')}-space.toml"


def test_make_reports_tunes_every_tuning_study_once() -> None:
    tunings = make_tunings()
    assert len(tunings) == len(set(tunings)), f"repeated tuning in the Makefile: {tunings}"
    assert sorted(tunings) == sorted(p.stem for p in SCENARIOS.glob("tune-*.toml"))
    spaces = {p.name for p in SCENARIOS.glob("*-space.toml")}
    assert spaces == {space_of(t).name for t in tunings}


@pytest.mark.parametrize("stem", make_tunings())
def test_tuning_study_checks_and_says_its_skill_level(stem: str) -> None:
    s = tune.settings(SCENARIOS / f"{stem}.toml", space_of(stem))
    sc = s.base()
    assert sc.title and sc.description
    (bot,) = {b for pc in expand(sc) for b in pc.cell.bots}
    assert bot in sc.description, f"{stem}: the description names the skill level"
    text = (SCENARIOS / f"{stem}.toml").read_text()
    assert f"--space scenarios/{space_of(stem).name}" in text, "the file says how to run it"
    doc = (ROOT / "docs" / "studies.md").read_text()
    assert f"scenarios/{stem}.toml" in doc, f"docs/studies.md does not describe {stem}"


@pytest.mark.parametrize("stem", EXTRA_CARDS)
def test_extra_cards_studies_confirm_the_grid_best(stem: str) -> None:
    """The same game, rules, track, players and seed as the compensation grid, a skill level
    of the grid, and its tables' best among the references; the greedy study's search plays
    no more races than the grid played at that level to choose its table."""
    grid = load_scenario(SCENARIOS / "compensation.toml")
    s = tune.settings(SCENARIOS / f"{stem}.toml", space_of(stem))
    sc = s.base()
    same = {k: v for k, v in sc.axes.items() if k != "bots"}  # preset, track, players
    assert (sc.game, sc.seed, same) == (grid.game, grid.seed, grid.axes)
    grid_bots = {b for pc in expand(grid) for b in pc.cell.bots}
    assert {b for pc in expand(sc) for b in pc.cell.bots} <= grid_bots  # one of its levels
    tables = [list(t) for t in grid.grid["extra_cards"]]
    refs = s.search_space().references
    assert refs and all(r["extra_cards"] in tables for r in refs)
    if stem == WITHIN_GRID:  # the grid's races chose its best; the search may play as many
        assert s.budget <= grid.races * len(tables)
