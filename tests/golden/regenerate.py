"""``make golden``: rewrite the file of every golden case the test modules declare.

Finds the test modules under ``tests/`` with a module-level ``GOLDEN`` list (see
:mod:`tests.golden.kit`), imports them and writes each case's output to its file. Run it
from the project root as ``python -m tests.golden.regenerate``; review ``git diff``.
"""

from __future__ import annotations

import importlib
import re
import sys

from tests.golden.kit import ROOT, Case

_DECLARES = re.compile(r"^GOLDEN\b[^=\n]*=", re.M)


def declared() -> list[Case]:
    """Every golden case of every test module, in file order."""
    cases: list[Case] = []
    for path in sorted((ROOT / "tests").rglob("test_*.py")):
        if _DECLARES.search(path.read_text()):
            parts = path.relative_to(ROOT).with_suffix("").parts
            cases += importlib.import_module(".".join(parts)).GOLDEN
    return cases


def main() -> int:
    for case in declared():
        case.path.parent.mkdir(parents=True, exist_ok=True)
        case.path.write_text(case.render())
        print(f"wrote {case.path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
