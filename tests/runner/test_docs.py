"""docs/tables.md describes every column and docs/scenarios.md every key, with valid examples."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from simkit.games import games, get
from simkit.runner import docgen
from simkit.runner.scenario_file import _PRECISION_KEYS, _TOP_KEYS, parse

from .helpers import run

DOCS = Path(__file__).resolve().parents[2] / "docs"


def _mentioned(text: str) -> set[str]:
    return set(re.findall(r"`([A-Za-z_0-9]+)`", text))


def test_tables_doc_names_every_runner_column_and_manifest_key(tmp_path):
    res = run(tmp_path, 'game = "dicerace"\nraces = 20\n', "r")
    mentioned = _mentioned((DOCS / "tables.md").read_text())
    game = get("dicerace")
    own = set(game.seat_columns) | set(game.race_columns)
    params = set(game.params.names())
    columns = set(res.cells.columns) - params
    columns |= set(res.races.columns) - (
        own - {"slot", "finish", "points", "finished", "eliminated", "rounds"}
    )
    columns |= set(res.heat.columns)
    for frame in res.agg.values():
        columns |= set(frame.columns)
    columns |= {"table", *res.agg}
    assert columns - mentioned == set()
    assert set(res.manifest) - mentioned == set()
    assert set(res.manifest["timings"]) - mentioned == set()


def test_tables_doc_is_generated_from_every_registered_game(tmp_path):
    copy = tmp_path / "tables.md"
    copy.write_text((DOCS / "tables.md").read_text())
    shipped = [g for g in games() if g.name != "dicerace"]
    assert {g.name for g in shipped} >= {"snowtails", "mush"}
    changed = docgen.rewrite(copy, shipped)
    assert not changed, "docs/tables.md is stale: run `python -m simkit.runner.docgen`"


def test_docgen_renders_a_game_section():
    text = docgen.game_section(get("dicerace"))
    assert "| `sixes` | int16 | rolls | rolls of the die's top face |" in text
    assert "| `lead_changes` | int16 | changes | times the leader changed |" in text
    assert "Heat kinds: `landing`." in text
    assert "`finish`" not in text  # common columns are documented once, above


def test_scenarios_doc_has_every_key_and_valid_examples():
    text = (DOCS / "scenarios.md").read_text()
    headings = set(re.findall(r"^### `\[?([a-z_]+)\]?`", text, flags=re.M))
    assert set(_TOP_KEYS) - headings == set()
    assert set(_PRECISION_KEYS) <= _mentioned(text)
    blocks = re.findall(r"```toml\n(.*?)```", text, flags=re.S)
    assert len(blocks) >= len(_TOP_KEYS)
    for block in blocks:
        data = tomllib.loads(block)
        data.setdefault("game", "snowtails")
        if "races" in data and "precision" in data:
            del data["races"]
        parse(data, "docs/scenarios.md")
