"""The study index lists every report with its verdict and a link, escaped."""

import re
from dataclasses import replace

from simkit.report import build
from simkit.report.index import main, write_index
from tests.analysis.synthetic import synthetic_run

EVIL = "<script>alert(1)</script>"


def _report(folder, name, cells, title):
    run = synthetic_run(cells, races=300, seed=2)
    scenario = {**run.manifest["scenario"], "title": title, "description": f"about {EVIL}"}
    build(replace(run, manifest={**run.manifest, "scenario": scenario}), folder / name)


def test_index_has_one_line_per_study(tmp_path, capsys):
    _report(tmp_path, "one", [{"players": 4, "strength": [0.5, 0, 0, 0]}], f"Slot one {EVIL}")
    _report(tmp_path, "sweep", [{"players": 3}, {"players": 3, "label": "b"}], "A sweep")
    (tmp_path / "not-a-report").mkdir()
    assert main([str(tmp_path)]) == 0
    assert capsys.readouterr().out.strip() == str(tmp_path / "index.html")
    page = (tmp_path / "index.html").read_text()
    assert page.count("<li>") == 2
    assert '<a href="one/index.html">Slot one &lt;script&gt;' in page
    assert "<script>" not in page
    assert "unfair</span>: players=4: unfair: slot 1 wins" in page
    assert '<a href="sweep/index.html">A sweep</a>' in page and "2 cells: " in page
    md = (tmp_path / "index.md").read_text()
    assert "- [A sweep](sweep/index.html)" in md
    assert write_index(tmp_path) == tmp_path / "index.html"


def test_index_names_the_studies_not_built_and_how_to_build_them(tmp_path):
    _report(tmp_path, "fairness", [{"players": 3}], "Fairness")
    scenarios = tmp_path / "scenarios"
    scenarios.mkdir()
    for name in ("demo", "fairness", "bonus", "extra-cards", "extra-cards-space"):
        (scenarios / f"{name}.toml").write_text("")
    write_index(tmp_path, scenarios)
    md = (tmp_path / "index.md").read_text()
    assert md.splitlines()[2:5] == [
        "1 reports here; each line gives the study's verdict and links to it.",
        "",
        "Not built here (2): bonus, extra-cards. `make reports` runs every ready-made study "
        "and writes its report into this folder (about an hour on 2 cores).",
    ]
    assert "&#x27;" not in md and "study's verdict" in md
    # every link of the page points at a report that is there
    page = (tmp_path / "index.html").read_text()
    for link in re.findall(r'href="([^"]+)"', page):
        assert (tmp_path / link).is_file(), link
