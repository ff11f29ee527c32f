"""docs/rules-mushmush.md names every rule on which the Snow Tails family's presets differ.

The page's table of differences is rendered here from ``PRESETS`` (field by field), so it
cannot drift from the code: when a preset changes, the table test fails until the page is
regenerated with ``.venv/bin/python tests/test_rules_mushmush_doc.py`` and the prose is
brought in step. Other tests check that every differing parameter is also explained in the
hand-written sections, that every parameter the page names exists, and that every example
command builds a legal variant.
"""

from __future__ import annotations

import dataclasses
import re
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest

from simkit.cli.common import parse_overrides
from simkit.games import get, names
from simkit.games.cells import build_cell
from simkit.games.snowtails.params import PRESETS, SnowTailsParams
from simkit.runner.scenario_file import _TOP_KEYS

DOC = Path(__file__).resolve().parents[1] / "docs" / "rules-mushmush.md"
BEGIN = "<!-- BEGIN PRESET DIFFERENCES (python tests/test_rules_mushmush_doc.py) -->"
END = "<!-- END PRESET DIFFERENCES -->"
# The presets the page compares, and the race preset each season/tournament builds on.
BOOKS = ("snowtails", "mushmush")
BASE = {"snowtails-season": "snowtails", "mushmush-tournament": "mushmush"}


def differing(a: SnowTailsParams, b: SnowTailsParams) -> list[str]:
    """Fields on which two variants differ, in declaration order."""
    return [f.name for f in dataclasses.fields(a) if getattr(a, f.name) != getattr(b, f.name)]


def _value(v: Any) -> str:
    """A value as a scenario file writes it (TOML)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return f'"{v}"'
    if isinstance(v, tuple):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    return str(v)


def render() -> str:
    """The generated part of the page: the differences of the books' presets and their units."""
    fields = {f.name: f for f in dataclasses.fields(SnowTailsParams)}
    a, b = (PRESETS[p] for p in BOOKS)
    lines = [
        f"| parameter | what it controls | `{BOOKS[0]}` | `{BOOKS[1]}` | source |",
        "|---|---|---|---|---|",
    ]
    for name in differing(a, b):
        meta = fields[name].metadata
        doc = meta["doc"].replace("|", "\\|")
        va, vb = _value(getattr(a, name)), _value(getattr(b, name))
        lines.append(f"| `{name}` | {doc} | `{va}` | `{vb}` | {meta['source']} |")
    lines += ["", "| preset | built on | differs from it in |", "|---|---|---|"]
    for preset, base in BASE.items():
        diff = differing(PRESETS[base], PRESETS[preset])
        cells = ", ".join(f"`{n} = {_value(getattr(PRESETS[preset], n))}`" for n in diff)
        lines.append(f"| `{preset}` | `{base}` | {cells} |")
    return "\n".join(lines) + "\n"


def _split(text: str) -> tuple[str, str, str]:
    """The page before the generated block, the block, and the page after it."""
    head, found, rest = text.partition(BEGIN)
    block, found_end, tail = rest.partition(END)
    assert found and found_end, f"{DOC.name}: the markers {BEGIN!r} and {END!r} are missing"
    return head, block, tail


def rewrite() -> bool:
    """Regenerate the block between the markers; True if the page changed."""
    text = DOC.read_text()
    head, _, tail = _split(text)
    new = f"{head}{BEGIN}\n\n{render()}\n{END}{tail}"
    if new != text:
        DOC.write_text(new)
    return new != text


def _prose() -> str:
    head, _, tail = _split(DOC.read_text())
    return head + tail


def _backticked() -> set[str]:
    """Every lower-case name the page writes in backticks, alone or as ``name = value``."""
    out = set()
    for span in re.findall(r"`([^`\n]+)`", DOC.read_text()):
        m = re.fullmatch(r"([a-z][a-z0-9_]*)(\s*=.*)?", span.strip())
        if m:
            out.add(m.group(1))
    return out


def _commands() -> list[list[str]]:
    """The page's example command lines (`simkit race ...`), split as a shell would."""
    blocks = re.findall(r"```(?:console|sh|bash)?\n(.*?)```", DOC.read_text(), flags=re.S)
    lines = [ln.split("  #")[0].strip() for b in blocks for ln in b.splitlines()]
    return [shlex.split(ln) for ln in lines if ln.startswith("simkit race")]


def test_difference_table_is_current() -> None:
    _, block, _ = _split(DOC.read_text())
    assert block.strip() == render().strip(), (
        "docs/rules-mushmush.md is out of date with PRESETS: run "
        "`.venv/bin/python tests/test_rules_mushmush_doc.py` and update the prose"
    )


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_difference_is_explained_in_the_prose(preset: str) -> None:
    """A parameter on which any preset departs from ST1 is named outside the table too."""
    prose = _prose()
    missing = [n for n in differing(PRESETS["snowtails"], PRESETS[preset]) if f"`{n}" not in prose]
    assert not missing, f"docs/rules-mushmush.md never explains {missing} ({preset})"


def test_every_named_parameter_exists() -> None:
    """A lower-case name in backticks is a parameter, preset, game, bot or scenario key."""
    game = get("mushmush")
    known = set(game.params.names()) | set(PRESETS) | set(names()) | set(game.bots)
    known |= set(_TOP_KEYS) | {"true", "false"}
    unknown = _backticked() - known
    assert not unknown, f"docs/rules-mushmush.md names what is no parameter: {sorted(unknown)}"
    assert set(game.params.names()) - _backticked() == set(), "every parameter is named"


def test_example_commands_build_legal_cells() -> None:
    """Each example is a cell `simkit race` accepts: variant, track, seats (``build_cell``)."""
    commands = _commands()
    assert len(commands) >= 5
    for argv in commands:
        opts: dict[str, list[str]] = {}
        game = argv[2]  # simkit race GAME --option value ...
        for flag, value in zip(argv[3::2], argv[4::2], strict=True):
            opts.setdefault(flag, []).append(value)
        preset = opts.get("--preset", [get(game).default_preset])[0]
        overrides = parse_overrides(opts.get("--set", []))
        players = int(opts["--players"][0]) if "--players" in opts else None
        track = opts.get("--track", [None])[0]
        cell = build_cell(game, preset=preset, overrides=overrides, track=track, players=players)
        assert cell.variant != get(game).presets[preset] or not overrides, argv


@pytest.mark.parametrize(
    "mix",
    [
        "simkit race mushmush --preset snowtails",
        "simkit race mushmush --set brake=true --set brake_start=3 --set max_cards=3",
        "simkit race mushmush --set bonus_rule=none",
    ],
)
def test_issue_mixes_are_shown(mix: str) -> None:
    shown = mix in DOC.read_text()
    assert shown, f"docs/rules-mushmush.md lacks the example `{mix}`"


def test_rulings_examples_and_links() -> None:
    text = DOC.read_text()
    rulings = [f"R-{r:02d}" for r in [*range(1, 6), 20, *range(21, 30)]]
    assert [r for r in rulings if r not in text] == [], "rulings not cited"
    sections = [f"ST2 {s}" for s in "ABCDEFG"]
    assert [s for s in sections if s not in text] == [], "ST2 sections not cited"
    people = ("Robyn", "Daniel", "Ruaridh", "Iona", "Glenn", "blue, black", "blue 1st")
    assert [p for p in people if p not in text] == [], "the book's worked examples"
    linked = "](rules-snowtails.md)" in text
    assert linked, "no link to docs/rules-snowtails.md"


if __name__ == "__main__":
    changed = rewrite()
    print(f"{DOC}: {'updated' if changed else 'up to date'}")
    sys.exit(0)
