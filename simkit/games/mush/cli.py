"""``simkit routes``: the MUSH routes simkit ships, and checking or drawing your own."""

from __future__ import annotations

from pathlib import Path

import click

from simkit.cli.common import force_option, out_option


@click.group()
def routes() -> None:
    """MUSH routes: list the shipped ones, draw one, check a route file you wrote.

    \b
    Examples:
      simkit routes list
      simkit routes show standard -o standard.png
      simkit routes check my-route.toml
    """


def _summary(route) -> str:
    towns = sum(1 for name in route.town_name if name)
    rough = int((route.kind == 1).sum())
    return (
        f"{len(route.boards)} boards, {route.n_spaces} spaces, {towns} towns, "
        f"{rough} rough, {int(route.line_dashed.sum())} links"
    )


@routes.command("list")
def list_routes() -> None:
    """List the routes simkit ships, with their size."""
    from simkit.games.mush.route import load_route, route_names
    from simkit.report.text import table

    rows = []
    for name in route_names():
        r = load_route(name)
        rows.append({"name": name, "title": r.title, "size": _summary(r)})
    click.echo(table(rows, ["name", "title", "size"]))


@routes.command()
@click.argument("route")
@out_option(
    "PNG to write (default: ROUTE.png in the current directory).",
    type=click.Path(dir_okay=False, path_type=Path),
)
@force_option("Replace the PNG file if it exists.")
def show(route: str, out: Path | None, force: bool) -> None:
    """Draw ROUTE (a shipped name or a TOML path) with towns and rough terrain marked.

    The picture is written as every simkit picture is (docs/reliability.md): only to a
    name ending in .png, never over a file without --force nor through a link, through a
    temporary file renamed when complete.
    """
    from simkit.files import claim_file, write_replacing
    from simkit.games.mush.draw import draw_route
    from simkit.games.mush.route import load_route

    r = load_route(route)
    out = claim_file(out or Path(f"{r.name}.png"), suffix=".png", force=force, option="-o")
    write_replacing(out, lambda p: draw_route(r, p))
    click.echo(f"wrote {out}")


@routes.command()
@click.argument("path", type=click.Path(dir_okay=False, path_type=Path))
def check(path: Path) -> None:
    """Check a route file; print its size, or the first problem with file and space."""
    from simkit.games.mush.route import load_route

    r = load_route(str(path))
    click.echo(f"{path}: ok ({_summary(r)})")
