"""The import graph of simkit, read from the source (issue 27, "one house").

Every ``simkit/**/*.py`` is parsed with :mod:`ast`; every ``import`` and ``from ... import``
counts, wherever it stands: at module level, inside a function, under ``if TYPE_CHECKING``.
An import moved into a function still ties the two modules, so it cannot hide a circle.
Relative imports are resolved against the importing module, and ``from package import
name`` points at the submodule ``package.name`` when that file exists (else at the
package). A package's ``__init__.py`` is a module of its own (``simkit.runner``): importing
``simkit.runner.storage`` ties the importer to ``storage``, not to ``simkit.runner`` as
well, though Python runs the package's ``__init__`` first (otherwise every package whose
``__init__`` gathers its submodules would be a circle).

The rules:

- no circle among simkit's modules (the failure lists each circle's modules), but those
  inside a game package listed in ``LEFT`` for the game's own step;
- nothing under ``simkit/runner/`` imports ``simkit.analysis`` or ``simkit.report``: the
  runner sits below the analysis of its tables (what it needs of statistics and ratings
  lives in :mod:`simkit.stats` and :mod:`simkit.ratings`);
- nothing under ``simkit/tracks/`` imports ``simkit.games``: the games tell the tracks
  library which of them ship tracks, and where (``simkit.tracks.library.shelve``).

The registry look-up the issue allows is not an import this test sees: ``simkit.games``
finds and imports its game packages by name at run time (``pkgutil`` and
``importlib.import_module``), and ``simkit.games.import_ref`` imports a game's kernels,
commands and sections from the ``"module:attribute"`` strings the game declares. Those are
the one way up, and the only one.
"""

from __future__ import annotations

import ast
from pathlib import Path

import simkit

ROOT = Path(simkit.__file__).resolve().parent

# Circles inside a game package, left to the game's own step of issue 27 (which renames the
# modules inside ``simkit/games/<game>/``; this step touches no game package): the package's
# ``__init__`` imports ``oracle`` inside a function, ``oracle`` takes ``load_track`` from the
# ``__init__``. The test fails on any circle not listed here, and on a listed one that is gone.
LEFT: list[list[str]] = []


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in sorted(ROOT.rglob("*.py"))}


def _targets(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The simkit modules ``name`` (at ``path``) imports, anywhere in the file."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]

    def known(dotted: str) -> str | None:
        # The module itself, or the nearest package above it that is a simkit module
        # (``import simkit.runner.storage`` names ``simkit.runner.storage``).
        while dotted:
            if dotted in modules:
                return dotted
            dotted = dotted.rpartition(".")[0]
        return None

    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                target = known(alias.name) if alias.name.split(".")[0] == "simkit" else None
                if target:
                    out.add(target)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                source = ".".join([*base, node.module] if node.module else base)
            else:
                source = node.module or ""
            if source.split(".")[0] != "simkit":
                continue
            for alias in node.names:
                sub = f"{source}.{alias.name}"
                target = sub if sub in modules else known(source)
                if target:
                    out.add(target)
    out.discard(name)
    return out


def graph() -> dict[str, set[str]]:
    """simkit module -> the simkit modules it imports."""
    modules = _modules()
    return {name: _targets(name, path, modules) for name, path in modules.items()}


def circles(g: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        # Iterative: the graph is a few hundred modules, but recursion depth is not ours.
        work = [(v, iter(sorted(g[v])))]
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        while work:
            node, edges = work[-1]
            for w in edges:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(g[w]))))
                    break
                if w in on:
                    low[node] = min(low[node], index[w])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    part = []
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        part.append(w)
                        if w == node:
                            break
                    if len(part) > 1:
                        found.append(sorted(part))

    for v in sorted(g):
        if v not in index:
            visit(v)
    return sorted(found)


def _within(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def _crossings(g: dict[str, set[str]], lower: str, upper: tuple[str, ...]) -> list[str]:
    return sorted(
        f"{a} imports {b}"
        for a, targets in g.items()
        if _within(a, lower)
        for b in targets
        if any(_within(b, u) for u in upper)
    )


def test_the_graph_is_read():
    g = graph()
    assert "simkit.runner" in g and "simkit.runner.driver" in g["simkit.runner"]
    assert "simkit.errors" in g["simkit.runner.storage"]
    # ``from simkit.tracks import override`` is the module, not the package.
    assert "simkit.tracks.override" in g["simkit.runner.grid"]


def test_circles_are_found():
    g = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e"}}
    assert circles(g) == [["a", "b", "c"]]


def test_no_import_circle():
    found = circles(graph())
    new = [c for c in found if c not in LEFT]
    assert new == [], "import circles:\n" + "\n".join(" <-> ".join(c) for c in new)
    gone = [c for c in LEFT if c not in found]
    assert gone == [], f"no longer circles, drop them from LEFT: {gone}"


def test_the_runner_imports_no_analysis_or_report():
    assert _crossings(graph(), "simkit.runner", ("simkit.analysis", "simkit.report")) == []


def test_tracks_import_no_game():
    assert _crossings(graph(), "simkit.tracks", ("simkit.games",)) == []
