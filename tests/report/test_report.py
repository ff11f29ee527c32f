"""Report folders from small synthetic runs: files, escaping, CSVs equal to the tables."""

import base64
import re
import shutil
from html.parser import HTMLParser

import numpy as np
import pandas as pd
import pytest

from simkit import __version__
from simkit.analysis.compare import compare_cells, compare_runs
from simkit.analysis.fairness import fairness, fairness_by_slot
from simkit.analysis.track import track_summary
from simkit.report import build, build_comparison
from simkit.report.document import prepare
from tests.analysis.synthetic import synthetic_run

EVIL = "<script>alert('x')</script>"
CELLS = [
    {
        "players": 4,
        "label": f"bonus {EVIL}",
        "strength": [0.7, 0, 0, 0],
        "bots": ["greedy", f"bot{EVIL}", "greedy", "random"],
    },
    {"players": 4, "label": "no bonus $x^$ 100%", "extra_rounds": 1},
    {"players": 3, "label": "three sleds", "track": "no_such_track"},
]


class _Page(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags, self.images, self.links, self.tables = [], [], [], []
        self._row = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags.append(tag)
        if tag == "img":
            self.images.append(a["src"])
        if tag == "a":
            self.links.append(a["href"])
        if tag == "table":
            self.tables.append([])
        if tag == "tr":
            self._row = []

    def handle_endtag(self, tag):
        if tag == "tr":
            self.tables[-1].append(self._row)
            self._row = None

    def handle_data(self, data):
        if self._row is not None and data.strip():
            self._row.append(data)


@pytest.fixture(scope="module")
def run():
    return synthetic_run(CELLS, races=400, seed=3)


@pytest.fixture(scope="module")
def report(run, tmp_path_factory):
    out = tmp_path_factory.mktemp("report")
    index = build(run, out)
    page = _Page()
    page.feed(index.read_text(encoding="utf-8"))
    return out, index, page


def test_folder_has_every_file(report):
    out, index, page = report
    assert index == out / "index.html"
    assert (out / "report.md").is_file()
    pngs = sorted(p.name for p in out.glob("*.png"))
    assert {"slots_cell0.png", "slots_cell1.png", "slots_cell2.png", "race_length_1.png"} <= set(
        pngs
    )
    assert "track_cell0.png" in pngs and "track_cell2.png" not in pngs
    assert "compare_1.png" in pngs
    assert {"fairness_overview_3.png", "fairness_overview_4.png"} <= set(pngs)
    md = (out / "report.md").read_text(encoding="utf-8")
    for png in pngs:
        assert f"]({png})" in md
    csvs = {p.name for p in out.glob("*.csv")}
    assert set(page.links) == csvs
    assert {"fairness.csv", "fairness_by_slot.csv", "track.csv", "comparison.csv"} <= csvs


def test_html_is_self_contained_and_parses(report):
    _, index, page = report
    assert page.tags[0] == "html" and "script" not in page.tags
    assert len(page.images) == len(list(index.parent.glob("*.png")))
    for src in page.images:
        assert src.startswith("data:image/png;base64,")
        assert base64.b64decode(src.split(",", 1)[1])[:8] == b"\x89PNG\r\n\x1a\n"
    assert not re.search(r'(src|href)="(https?:|//)', index.read_text())


def test_user_names_are_escaped(report):
    out, index, _ = report
    text = index.read_text(encoding="utf-8")
    assert "<script>" not in text
    assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;" in text
    md = (out / "report.md").read_text(encoding="utf-8")
    assert "<script>" not in md and "&lt;script&gt;" in md


def test_csvs_equal_the_analysis_tables(report, run):
    out, _, page = report
    expected = {
        "fairness.csv": fairness(run),
        "fairness_by_slot.csv": fairness_by_slot(run),
        "track.csv": track_summary(run),
        "comparison.csv": pd.concat(
            [compare_cells(run, [0, 1], tolerance=0.02)], ignore_index=True
        ),
    }
    for name, frame in expected.items():
        got = pd.read_csv(out / name, keep_default_na=True)
        want = pd.read_csv(pd.io.common.StringIO(frame.to_csv(index=False)))
        pd.testing.assert_frame_equal(got, want, check_dtype=False)
    # every HTML table shows exactly the rows and columns of its CSV: the names for reading
    # (no underscores), a verdict right after the cell's name
    for rows, csv in zip(page.tables, page.links, strict=True):
        frame = pd.read_csv(out / csv)
        assert sorted(rows[0]) == sorted(c.replace("_", " ") for c in frame.columns), csv
        assert len(rows) - 1 == len(frame), csv
        if "verdict" in frame.columns:
            names = [c for c in ("cell", "label", "combination") if c in frame.columns]
            assert rows[0][: len(names) + 1] == [*names, "verdict"], csv


def test_report_states_bots_races_seed_version_and_command(report):
    out, _, _ = report
    md = (out / "report.md").read_text(encoding="utf-8")
    assert "greedy,bot&lt;script&gt;" in md
    assert "| races per cell | 400 |" in md
    assert "| seed | 3 |" in md
    assert f"| report made with simkit | {__version__} |" in md
    assert "simkit run scenarios/synthetic.toml --races 400 --seed 3 -o synthetic-again" in md
    assert f"simkit report synthetic-again -o {out}-again" in md
    assert "No track picture for cell 2: track 'no_such_track' could not be loaded" in md
    assert "bonus &lt;script&gt;alert('x')&lt;/script&gt;: unfair: slot 1 wins" in md
    assert (
        "None of the 2 settings with 4 players is fair at ±2 pp; the fairest, no bonus $x^$ "
        "100%, is still inconclusive"
    ) in md


def test_aggregates_only_run_compares_unpaired_and_says_so(tmp_path):
    cells = [{"players": 3, "track": "gone.toml"}, {"players": 3, "track": "gone.toml"}]
    lean = synthetic_run(cells, races=100, seed=3, keep="aggregates")
    md = (build(lean, tmp_path).parent / "report.md").read_text()
    assert "as independent samples (Welch), because the run kept aggregates only" in md
    assert "t, conservative" in (tmp_path / "track.csv").read_text()
    assert set(pd.read_csv(tmp_path / "comparison.csv")["pairing"]) == {"unpaired"}


def test_comparison_of_two_runs(run, tmp_path):
    other = synthetic_run([CELLS[1], CELLS[1], CELLS[2]], races=400, seed=3, directory="b")
    index = build_comparison(run, other, tmp_path, title="A vs B")
    got = pd.read_csv(tmp_path / "comparison.csv")
    want = pd.read_csv(
        pd.io.common.StringIO(compare_runs(run, other, tolerance=0.02).to_csv(index=False))
    )
    pd.testing.assert_frame_equal(got, want, check_dtype=False)
    text = index.read_text()
    assert "<title>A vs B</title>" in text and "<script>" not in text
    assert (tmp_path / "a_fairness.csv").exists() and (tmp_path / "compare_1.png").exists()


def test_rebuilding_removes_the_old_reports_plots_only(report, tmp_path):
    old = tmp_path / "old"
    shutil.copytree(report[0], old)
    assert (old / "slots_cell2.png").exists()
    (old / "notes.txt").write_text("mine")
    build(synthetic_run([{"players": 3, "track": "gone.toml"}], races=100, seed=3), old)
    assert not (old / "slots_cell2.png").exists()
    assert not (old / "comparison.csv").exists()
    assert (old / "notes.txt").read_text() == "mine"
    other = tmp_path / "not_a_report"
    other.mkdir()
    (other / "data.csv").write_text("a\n1\n")
    prepare(other)
    assert (other / "data.csv").exists()


def test_rings_stay_before_the_finish_line(run, tmp_path):
    # The run-off past the finish line made the hottest spaces: the pictures' rings (and
    # their table) must still name the five worst spaces a designer could change.
    import dataclasses

    from simkit.analysis.track import past_finish

    past = np.flatnonzero(past_finish(run, 0))
    assert len(past) >= 5
    kind = run.heat["kind"].cat.categories[0]
    extra = pd.DataFrame({"cell": 0, "kind": kind, "space": past, "count": 10**6})
    extra = extra.astype(run.heat.dtypes.to_dict())
    hot = dataclasses.replace(run, heat=pd.concat([run.heat, extra], ignore_index=True))
    build(hot, tmp_path)
    marked = pd.read_csv(tmp_path / "hot_spaces_marked.csv")
    rings = marked[marked["cell"] == 0]
    assert len(rings) == 5
    assert not set(rings["space"]) & set(past.tolist())


def test_a_run_that_is_not_complete_says_so_first(tmp_path):
    """Issue 35: a report on an interrupted run looked complete (header "12 cells", 5 with
    verdicts, only "run status: running" in the settings table)."""
    import dataclasses
    import json

    full = synthetic_run([*CELLS[:2], {"players": 4, "label": "third"}], races=400, seed=3)
    agg = {k: v[v["cell"] != 2] for k, v in full.agg.items()}
    manifest = {**full.manifest, "status": "running", "races_per_cell": 1000}
    run = dataclasses.replace(
        full,
        manifest=manifest,
        agg=agg,
        races=full.races[full.races["cell"] != 2],
        heat=full.heat[full.heat["cell"] != 2],
    )
    md = (build(run, tmp_path).parent / "report.md").read_text(encoding="utf-8")
    head, answer = md.split("## Answer", 1)
    assert "3 cells (2 with races so far: the run is not complete)" in head
    answer = answer.split("## ", 1)[0]
    first = answer.strip().splitlines()[0]
    assert first.startswith("This run is not complete (run status: running): 2 of 3 cells")
    assert "800 of 3,000 races" in first and "cell 2 has none yet" in first
    assert "`simkit run --resume synthetic` finishes it" in first
    assert "third: not played yet (the run is not complete)." in answer
    assert "decided 100.0% of 400 (of 1,000: the run is not complete)" in answer
    cells = json.loads((tmp_path / "summary.json").read_text())["cells"]
    assert [c["verdict"] for c in cells][-1] == "not played"


@pytest.mark.parametrize(
    ("game", "says"),
    [
        ("mush", "What a slot is in MUSH (1994): slot k is the k-th sled to choose its training"),
        ("mushroomwalk", "What a slot is in Mushroom Walk: slot 1 is the player who takes"),
        ("snowtails", None),
    ],
)
def test_the_answer_says_what_a_slot_is_where_it_is_no_place(game, says):
    """Issue 35: in MUSH "slot" silently meant the order of choosing training."""
    import dataclasses

    from simkit.report.summary import slot_meanings

    run = synthetic_run([{"players": 3}], races=50, seed=3)
    run = dataclasses.replace(run, cells=run.cells.assign(game=game))
    lines = slot_meanings(run)
    assert lines == ([] if says is None else [lines[0]])
    if says is not None:
        assert lines[0].startswith(says)


def test_the_answer_names_side_effects_beyond_their_tolerance(report):
    """Issue 35: the bonus sweep's answer said nothing of its races running 1.4 to 1.6 rounds
    longer. A compared cell's changes beyond tolerance follow the verdicts, before "Try
    next"; each verdict's detail gives its cell's race length and roughness."""
    out, _, _ = report
    answer = (out / "report.md").read_text(encoding="utf-8").split("## Answer", 1)[1]
    answer = answer.split("\n## ", 1)[0]
    (side,) = [x for x in answer.splitlines() if x.startswith("Side effects: ")]
    assert "median race length +1 rounds [+1, +1] (from 14 to 15; beyond ±0.5)" in side
    assert answer.index("Side effects: ") < answer.index("Try next: ")
    assert "races 14 rounds [14, 14] (90%: " in answer
    side_csv = pd.read_csv(out / "side_effects.csv")
    assert set(side_csv["measure"]) >= {"rounds_median", "rounds_p90", "crashes", "dents"}


def test_a_comparison_of_two_runs_names_its_side_effects(run, tmp_path):
    other = synthetic_run(
        [CELLS[0], {**CELLS[1], "extra_rounds": 3}, CELLS[2]], races=400, seed=3, directory="b"
    )
    build_comparison(run, other, tmp_path)
    answer = (tmp_path / "report.md").read_text(encoding="utf-8").split("## Differences")[0]
    lines = [x for x in answer.splitlines() if x.startswith("Side effects: ")]
    assert any("median race length +2 rounds" in x for x in lines), lines
    assert (tmp_path / "side_effects.csv").is_file()


def test_races_the_engine_guard_ended_are_named_where_the_verdicts_are(report, tmp_path):
    """A race still running at max_rounds ends by the engine's guard, not by the rules
    (docs/rules-snowtails.md, "Engine guard": 36% of greedy:tuned's 6-sled races on Drift
    Away reversed under Mush! Mush! rules). The verdicts' cells say how many, and the
    fairness section why; a run where none did says nothing of it."""
    import dataclasses

    from simkit.analysis.track import guard_ended

    out, _, _ = report
    assert "engine guard" not in (out / "report.md").read_text(encoding="utf-8")
    full = synthetic_run(CELLS, races=400, seed=3)
    assert guard_ended(full).empty
    rows = pd.DataFrame(
        {
            "cell": [0, 2],
            "metric": "timed_out",
            "n": [400, 400],
            "sum": [0.0, 7.0],
            "sumsq": [0.0, 7.0],
        }
    )
    agg = {**full.agg, "race_metric": pd.concat([full.agg["race_metric"], rows])}
    races = full.races.assign(timed_out=(full.races["cell"] == 2) & (full.races["race"] < 7))
    run = dataclasses.replace(full, agg=agg, races=races)
    guard = guard_ended(run)
    assert guard[["cell", "races", "timed_out"]].values.tolist() == [[2, 400, 7]]
    assert guard["low"].iloc[0] < 7 / 400 < guard["high"].iloc[0]
    md = (build(run, tmp_path).parent / "report.md").read_text(encoding="utf-8")
    answer = md.split("## Answer", 1)[1].split("## ", 1)[0]
    assert "of 400, 7 ended by the engine guard" in answer
    assert answer.count("ended by the engine guard") == 1
    assert "Races the engine guard ended, not the rules: three sleds: 7 of 400 races (1.8%)" in md
