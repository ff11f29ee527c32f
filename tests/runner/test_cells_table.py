"""The cells table's variant columns: a list-valued parameter is JSON text that the table's
schema names (``simkit.json_columns``), and readers decode the columns it names, not the
values that look like JSON; a run written before the schema named them loads alike."""

from __future__ import annotations

import pandas.testing as pdt
import pyarrow.parquet as pq

from simkit.analysis.tables import cell_variants
from simkit.results import load
from simkit.runner.manifest import CELLS
from simkit.runner.storage import RunDir
from simkit.runner.tables import JSON_COLUMNS, parquet_bytes

from .helpers import run

TEXT = 'game = "dicerace"\nraces = 5\n[grid]\nhead_start = [[0,0,1,0,0,0], [0,1,2,0,0,0]]\n'
STARTS = [(0, 0, 1, 0, 0, 0), (0, 1, 2, 0, 0, 0)]


def test_list_parameters_are_json_text_in_columns_the_schema_names(tmp_path):
    res = run(tmp_path, TEXT, "r")
    schema = pq.read_schema(tmp_path / "r" / CELLS)
    assert schema.metadata[JSON_COLUMNS] == b'["head_start", "points"]'
    assert res.json_columns == ("head_start", "points")
    assert list(res.cells["head_start"]) == ["[0,0,1,0,0,0]", "[0,1,2,0,0,0]"]  # the table's values
    assert list(res.cells["faces"]) == [6, 6] and schema.field("faces").type == "int64"
    variants = cell_variants(res)
    assert [v.head_start for v in variants.values()] == STARTS
    assert variants[1].points == (5, 3, 2, 1, 0, 0)


def test_a_run_written_before_the_schema_named_them_loads_alike(tmp_path):
    res = run(tmp_path, TEXT, "r")
    rd = RunDir(tmp_path / "r")
    old = pq.read_table(rd.path / CELLS).replace_schema_metadata(None)  # the former form
    manifest = rd.read_manifest()
    rd.write(CELLS, parquet_bytes(old), manifest)
    rd.write_manifest(manifest)
    again = load(tmp_path / "r")
    assert again.json_columns is None
    pdt.assert_frame_equal(again.cells, res.cells)
    assert cell_variants(again) == cell_variants(res)  # by the game's list parameters
    assert [v.head_start for v in cell_variants(again).values()] == STARTS
