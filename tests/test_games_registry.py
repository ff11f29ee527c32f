"""The game registry: every game package registers itself; no shared layer names a game."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import simkit.games
from simkit.errors import SimkitError
from simkit.games import get, names, register

SIMKIT = Path(simkit.games.__file__).resolve().parents[1]
PACKAGES = {p.name for p in (SIMKIT / "games").iterdir() if (p / "__init__.py").exists()}


def test_every_game_package_registers_its_games():
    assert {"snowtails", "mushmush", "mush", "mushroomwalk"} <= set(names())
    assert names() == sorted(names())
    for name in names():
        game = get(name)
        assert game.name == name
        assert set(game.extras.kernels) <= {"simulate", "trace"}
        for line in game.extras.examples:
            assert line.startswith("simkit "), line


def test_unknown_game_names_the_known_ones():
    with pytest.raises(SimkitError) as info:
        get("snowtail")
    assert info.value.key == "game"
    assert str(info.value).startswith("unknown game 'snowtail' (known: ")
    assert "mush, mushmush, mushroomwalk, snowtails" in str(info.value)


def test_a_second_game_of_the_same_name_is_refused():
    class Impostor:
        name = "snowtails"

    with pytest.raises(ValueError, match="two games are named 'snowtails'"):
        register(Impostor())
    assert register(get("snowtails")) is get("snowtails")  # registering again is harmless


def test_no_shared_layer_names_a_game():
    """Adding a game touches only its package: runner, CLI, tracks, reports ask the registry."""
    words = re.compile(r"\b(" + "|".join(re.escape(n) for n in names()) + r")\b")
    found = []
    for path in sorted(SIMKIT.rglob("*")):
        rel = path.relative_to(SIMKIT)
        if not path.is_file() or path.suffix not in (".py", ".toml", ".json", ".html", ".css"):
            continue
        if rel.parts[0] == "games" and len(rel.parts) > 2 and rel.parts[1] in PACKAGES:
            continue  # a game's own package
        for i, line in enumerate(path.read_text().splitlines(), 1):
            if words.search(line):
                found.append(f"{rel}:{i}: {line.strip()}")
    assert found == []


def test_every_declared_kernel_exists():
    # The compile notice looks these up; a renamed kernel must fail here, not in `simkit race`.
    from simkit.games import games, import_ref

    for g in games():
        for refs in g.extras.kernels.values():
            for ref in refs:
                assert hasattr(import_ref(ref), "py_func"), (g.name, ref)
