"""The ready-made studies (docs/studies.md): every scenario validates, `make reports` runs
exactly the files in scenarios/, comparisons have the book as their baseline, and the
safety-speed study's tracks differ from The Nutcracker only where their cells say."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from simkit import tracks
from simkit.games import get
from simkit.runner import expand, load_scenario
from simkit.tracks.compiled import F_TREE

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "scenarios"
# make demo runs scenarios/demo.toml; every other scenario is a study of make reports, the
# tuning studies (tune-*.toml, with their *-space.toml) among its TUNINGS (tests/tune/).
NOT_STUDIES = {"demo"}
TUNING = "tune-"
SPACE = "-space"
# Studies whose report compares every cell with cell 0, race by race (crn).
COMPARISONS = {"extra-cards", "bonus", "safety-speeds", "compensation"}
BOOK_TRACK = "nutcracker"
# Mush! Mush! comparisons (issue 6): cell 0 is the mushmush preset on the study's own track.
MUSHMUSH_COMPARISONS = {
    "mushmush-buildings": "mm5-what-goes-up",
    "mushmush-trees": "mm1-old-faithful",
    "mushmush-st1-vs-st2": "mm1-old-faithful",
    "mushmush-compensation": "mm1-old-faithful",
}
MUSHMUSH_TRACK = "mm1-old-faithful"


def scenario_files() -> list[Path]:
    """Every scenario file (tuning studies' too), not the search spaces."""
    return sorted(p for p in SCENARIOS.glob("*.toml") if not p.stem.endswith(SPACE))


def make_studies() -> list[str]:
    """The STUDIES list of the Makefile, continuation lines joined."""
    text = (ROOT / "Makefile").read_text().replace("\\\n", " ")
    match = re.search(r"^STUDIES\s*:=(.*)$", text, flags=re.MULTILINE)
    assert match, "Makefile has no STUDIES := line"
    return match.group(1).split()


@pytest.mark.parametrize("path", scenario_files(), ids=lambda p: p.stem)
def test_scenario_checks(path: Path) -> None:
    """What `simkit scenario check FILE` does: load, validate and expand every cell."""
    sc = load_scenario(path)
    cells = expand(sc)
    assert sc.title, f"{path.name}: give the study a title for its report"
    assert cells and [pc.cell.cell_id for pc in cells] == list(range(len(cells)))


def test_make_reports_runs_every_study_once() -> None:
    studies = make_studies()
    assert len(studies) == len(set(studies)), f"repeated study in the Makefile: {studies}"
    files = {p.stem for p in scenario_files() if not p.stem.startswith(TUNING)} - NOT_STUDIES
    assert sorted(studies) == sorted(files)
    assert files >= COMPARISONS


def test_docs_describe_every_study() -> None:
    doc = (ROOT / "docs" / "studies.md").read_text()
    for stem in make_studies():
        assert f"scenarios/{stem}.toml" in doc, f"docs/studies.md does not describe {stem}"


@pytest.mark.parametrize("stem", sorted(COMPARISONS))
def test_comparisons_are_paired_against_the_book(stem: str) -> None:
    """The report compares each cell with the first: it must be the book's rules and track."""
    sc = load_scenario(SCENARIOS / f"{stem}.toml")
    assert sc.crn and sc.keep == "races", f"{stem}: paired comparisons need crn and races"
    cells = expand(sc)
    assert len(cells) >= 2
    first = cells[0].cell
    book = get(sc.game).presets[cells[0].preset]
    assert first.variant == book, f"{stem}: cell 0 is not the preset's rules"
    assert first.track == BOOK_TRACK
    assert len({pc.cell.players for pc in cells}) == 1


def one_level(cells: list) -> list:
    """The cells of the first skill level (all cells if the study has no skill axis)."""
    return [pc for pc in cells if pc.skill == cells[0].skill]


def test_fairness_study_covers_two_to_five_sleds() -> None:
    cells = expand(load_scenario(SCENARIOS / "fairness.toml"))
    assert [pc.cell.players for pc in one_level(cells)] == [2, 3, 4, 5]
    # The strong level is a field of two players of independent construction (issue 34):
    # model-free search and a search on a policy fitted on other grounds.
    field = ["search:64", "search:6h2xp3c4@policy:broad"]
    assert [pc.skill for pc in cells[:4]] == ["greedy", "greedy:tuned", *field]
    assert [pc.races for pc in cells[:4]] == [None, None, 4_000, 4_000]  # ±1.2 pp at 5 sleds
    assert {pc.cell.track for pc in cells} == {BOOK_TRACK}


@pytest.mark.parametrize("stem", sorted(MUSHMUSH_COMPARISONS))
def test_mushmush_comparisons_are_paired_against_the_book(stem: str) -> None:
    """Cell 0 of a Mush! Mush! comparison is the mushmush preset itself, on the study's track."""
    sc = load_scenario(SCENARIOS / f"{stem}.toml")
    assert sc.game == "mushmush" and sc.crn and sc.keep == "races", stem
    cells = expand(sc)
    assert len(cells) >= 2
    assert cells[0].preset == "mushmush"
    assert cells[0].cell.variant == get("mushmush").presets["mushmush"], f"{stem}: cell 0"
    assert {pc.cell.track for pc in cells} == {MUSHMUSH_COMPARISONS[stem]}
    assert len({pc.cell.players for pc in cells}) == 1
    levels = one_level(cells)
    assert len({pc.cell.variant for pc in levels}) == len(levels), f"{stem}: repeated cell"


def test_mushmush_fairness_covers_two_to_eight_sleds() -> None:
    cells = expand(load_scenario(SCENARIOS / "mushmush-fairness.toml"))
    assert [pc.cell.players for pc in one_level(cells)] == list(range(2, 9))
    assert {pc.cell.track for pc in cells} == {MUSHMUSH_TRACK}
    assert {pc.cell.variant for pc in cells} == {get("mushmush").presets["mushmush"]}


def test_mushmush_track_study_races_tracks_one_to_eight() -> None:
    forward = [
        t.name
        for t in tracks.library()
        if re.fullmatch(r"mm[1-8]-.*", t.name) and not t.name.endswith("-reversed")
    ]
    cells = expand(load_scenario(SCENARIOS / "mushmush-tracks.toml"))
    assert [pc.cell.track for pc in one_level(cells)] == sorted(forward) and len(forward) == 8
    assert {pc.cell.variant for pc in cells} == {get("mushmush").presets["mushmush"]}


def test_mushmush_feature_studies_race_tracks_with_the_feature() -> None:
    """Switching buildings or trees off must change the track the study races."""
    buildings = tracks.load(MUSHMUSH_COMPARISONS["mushmush-buildings"])
    assert len(buildings.buildings) >= 2
    trees = tracks.load(MUSHMUSH_COMPARISONS["mushmush-trees"])
    assert int(np.count_nonzero(trees.flags & F_TREE)) >= 3
    cells = expand(load_scenario(SCENARIOS / "mushmush-buildings.toml"))
    assert [pc.cell.variant.buildings for pc in cells][:1] == ["effects"]
    assert "none" in {pc.cell.variant.buildings for pc in cells}
    cells = expand(load_scenario(SCENARIOS / "mushmush-trees.toml"))
    assert [pc.cell.variant.trees for pc in one_level(cells)] == [True, False]


def test_mushmush_tournament_is_three_races_on_three_tracks() -> None:
    sc = load_scenario(SCENARIOS / "mushmush-tournament.toml")
    (pc,) = one_level(expand(sc))
    v = pc.cell.variant
    assert pc.preset == "mushmush-tournament" and v.races == 3
    assert v.replace(race_tracks=()) == get("mushmush").presets["mushmush-tournament"]
    used = [pc.cell.track, *v.race_tracks]
    assert len(set(used)) == 3 and used[0] == MUSHMUSH_TRACK
    for name in used:
        tracks.load(name)  # a library track


def _arrays(t: tracks.CompiledTrack) -> dict[str, object]:
    skip = {"name", "title", "source", "notes", "corner_safety"}
    return {f.name: getattr(t, f.name) for f in dataclasses.fields(t) if f.name not in skip}


def test_safety_study_changes_only_the_safety_speeds_its_cells_name() -> None:
    """Cell 0 races the library track; every other cell the track with the corners its
    label names at one lower or one higher safety speed, every other array unchanged."""
    cells = one_level(expand(load_scenario(SCENARIOS / "safety-speeds.toml")))
    book = tracks.load(BOOK_TRACK)
    assert cells[0].cell.track == BOOK_TRACK
    seen = set()
    for pc in cells[1:]:
        derived = tracks.load(pc.cell.track)
        expected = book.corner_safety.astype(np.int64).copy()
        for corner, safety in re.findall(r"track\.corner\.(\d)\.safety=(\d+)", pc.label):
            expected[int(corner) - 1] = int(safety)
        np.testing.assert_array_equal(derived.corner_safety, expected, err_msg=pc.label)
        step = set((expected - book.corner_safety).tolist()) - {0}
        assert step in ({-1}, {1}), pc.label
        changed = np.flatnonzero(expected != book.corner_safety)
        assert len(changed) in (1, book.n_corners), pc.label
        seen.add((tuple(changed), step.pop()))
        for name, value in _arrays(book).items():
            other = _arrays(derived)[name]
            if isinstance(value, np.ndarray):
                np.testing.assert_array_equal(other, value, err_msg=name)
            else:
                assert other == value, name
    # every corner alone, and all of them, one lower and one higher
    singles = {((k,), s) for k in range(book.n_corners) for s in (-1, 1)}
    every = {(tuple(range(book.n_corners)), s) for s in (-1, 1)}
    assert seen == singles | every


@pytest.mark.slow
@pytest.mark.parametrize("stem", make_studies())
def test_study_runs_and_reports(stem: str, tmp_path: Path) -> None:
    """What `make reports` does for one study, at a few races: every cell is run and reported."""
    from simkit import load
    from simkit.report import build
    from simkit.runner import start

    sc = load_scenario(SCENARIOS / f"{stem}.toml").with_overrides(races=20)
    start(sc, tmp_path / "run", threads=1)
    index = build(tmp_path / "run", tmp_path / "report")
    assert index.name == "index.html" and index.is_file()
    results = load(tmp_path / "run")
    fairness = pd.read_csv(tmp_path / "report" / "fairness.csv")
    assert list(fairness["label"]) == list(results.cells["label"])
    if stem in COMPARISONS or stem in MUSHMUSH_COMPARISONS:
        compared = pd.read_csv(tmp_path / "report" / "comparison.csv")
        pairs = compared[["baseline", "cell"]].drop_duplicates()
        # Every cell is compared, or is the baseline of its skill level (a study's skill
        # axis compares settings only between cells the same bots play).
        assert set(pairs["baseline"]) | set(pairs["cell"]) == set(results.cells["cell"])
        assert not set(pairs["baseline"]) & set(pairs["cell"])
        levels = results.cells.get("skill", pd.Series("", index=results.cells.index))
        skill = dict(zip(results.cells["cell"], levels.fillna(""), strict=True))
        assert len(set(pairs["baseline"])) == len(set(skill.values()))
        for baseline, cell in pairs.itertuples(index=False):
            assert skill[baseline] == skill[cell], (baseline, cell)
    if stem == "safety-speeds":
        corners = pd.read_csv(tmp_path / "report" / "overspeed_by_corner.csv")
        for cell, track in zip(results.cells["cell"], results.cells["track"], strict=True):
            got = corners[corners["cell"] == cell].sort_values("corner")["safety"].tolist()
            assert got == tracks.load(track).corner_safety.tolist(), track
