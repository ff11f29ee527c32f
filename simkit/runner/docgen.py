"""Keep the game-specific part of docs/tables.md in step with the games' own column lists.

``python -m simkit.runner.docgen [docs/tables.md]`` rewrites the text between the markers
below from every game's ``seat_columns``, ``race_columns`` and ``heat_kinds``; a test fails
when a game has a column the docs do not describe.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path

from simkit.games.base import COMMON_RACE_COLUMNS, COMMON_SEAT_COLUMNS, Column, Game

BEGIN = "<!-- BEGIN GAME COLUMNS (python -m simkit.runner.docgen) -->"
END = "<!-- END GAME COLUMNS -->"


def _rows(columns: dict[str, Column], skip: Iterable[str]) -> list[str]:
    out = []
    for name, col in columns.items():
        if name in skip:
            continue
        doc = col.doc.replace("|", "\\|")
        out.append(f"| `{name}` | {col.dtype} | {col.unit or '-'} | {doc} |")
    return out


def game_section(game: Game) -> str:
    """The markdown describing one game's own seat and race columns and heat kinds."""
    lines = [f"### {game.name} ({game.title})", ""]
    head = ["| column | dtype | unit | meaning |", "|---|---|---|---|"]
    seat = _rows(dict(game.seat_columns), COMMON_SEAT_COLUMNS)
    race = _rows(dict(game.race_columns), COMMON_RACE_COLUMNS)
    if seat:
        lines += ["Seat columns (one value per race and seat):", "", *head, *seat, ""]
    if race:
        lines += ["Race columns (one value per race, repeated on its seat rows):", ""]
        lines += [*head, *race, ""]
    kinds = ", ".join(f"`{k}`" for k in game.heat_kinds) or "none (no board)"
    lines += [f"Heat kinds: {kinds}.", ""]
    return "\n".join(lines)


def render(games: Iterable[Game]) -> str:
    return "\n".join(game_section(g) for g in games).rstrip() + "\n"


def rewrite(path: Path, games: Iterable[Game]) -> bool:
    """Replace the generated section of ``path``; True if the file changed."""
    text = path.read_text()
    head, _, rest = text.partition(BEGIN)
    _, _, tail = rest.partition(END)
    new = f"{head}{BEGIN}\n\n{render(games)}\n{END}{tail}"
    if new != text:
        path.write_text(new)
    return new != text


def main(argv: list[str] | None = None) -> int:
    from simkit.games import games

    args = sys.argv[1:] if argv is None else argv
    path = Path(args[0] if args else "docs/tables.md")
    changed = rewrite(path, games())
    print(f"{path}: {'updated' if changed else 'up to date'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
