"""The study index lists every report with its verdict and a link, escaped."""

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
