"""``simkit tracks``: list, draw and check tracks (docs/tracks.md)."""

from __future__ import annotations

from pathlib import Path

import click

from simkit.cli.common import ExamplesCommand, LazyChoice, SimkitGroup, force_option, out_option


def _families() -> tuple[str, ...]:
    from simkit.tracks.library import families

    return families()


@click.group(cls=SimkitGroup)
def tracks() -> None:
    """List, draw and check the tracks races run on (the games' own, or your files).

    \b
    Examples:
      simkit tracks list
      simkit tracks show nutcracker -o nutcracker.png
      simkit tracks check my_track.toml
    """


@tracks.command("list", cls=ExamplesCommand)
@click.option(
    "--family",
    type=LazyChoice(_families),
    help="Only the tracks of this game's board.",
)
def list_tracks(family: str | None) -> None:
    """List the library's tracks: name, family, lanes, spaces, corners and title.

    A track's family is the game whose board it models.

    \b
    Example:
      simkit tracks list
    """
    from simkit.report.text import table
    from simkit.tracks import library, load
    from simkit.tracks.summary import list_row

    rows = [list_row(load(info.name)) for info in library() if family in (None, info.family)]
    click.echo(table(rows, ["name", "family", "lanes", "spaces", "corners", "title"]))


@tracks.command()
@click.argument("track", required=False)
@click.option("--all", "all_", is_flag=True, help="Draw every library track into the -o folder.")
@out_option(
    "PNG file to write (a folder with --all). Default: NAME.png here.",
    type=click.Path(path_type=Path),
)
@click.option("--segments", is_flag=True, help="Label segments with their index.")
@click.option(
    "--dpi", type=click.IntRange(30, 600), default=130, show_default=True, help="PNG resolution."
)
@force_option("Replace PNG files that exist (or use a foreign -o folder).")
def show(
    track: str | None, all_: bool, out: Path | None, segments: bool, dpi: int, force: bool
) -> None:
    """Draw TRACK (a library name or a .toml path) to a PNG.

    The picture shows lanes and spaces, corner entry lines with their safety speeds,
    the numbered start spaces, the finish line with its flag, trees, buildings and
    closed spaces.

    \b
    Examples:
      simkit tracks show nutcracker -o nutcracker.png
      simkit tracks show my_track.toml --segments -o my_track.png
      simkit tracks show --all -o reports/tracks
    """
    from simkit.files import claim_file, claim_folder, write_replacing
    from simkit.tracks import library, load
    from simkit.tracks.picture import save_png

    if all_ == (track is not None):
        raise click.UsageError("give a TRACK or --all (not both)")
    if all_:
        folder = claim_folder(
            out or Path("reports/tracks"), "track pictures", force=force, option="-o"
        )
        for info in library():
            path = folder / f"{info.name}.png"
            t = load(info.name)
            write_replacing(path, lambda p, t=t: save_png(t, p, dpi=dpi, segments=segments))
            click.echo(f"wrote {path}")
        return
    t = load(track)
    path = claim_file(out or Path(f"{t.name}.png"), suffix=".png", force=force, option="-o")
    if path.parent != Path(""):
        path.parent.mkdir(parents=True, exist_ok=True)
    write_replacing(path, lambda p: save_png(t, p, dpi=dpi, segments=segments))
    click.echo(f"wrote {path}")


@tracks.command()
@click.argument("path")
def check(path: str) -> None:
    """Check the track file PATH and print a summary; exit 1 with the error if invalid.

    The summary gives the lanes, spaces, corners with their safety speeds, the length
    to the finish line, and the start slots.

    \b
    Examples:
      simkit tracks check my_track.toml
      simkit tracks check nutcracker
    """
    from simkit.tracks import load
    from simkit.tracks.summary import check_lines

    t = load(path)
    click.echo(f"track '{path}': OK")
    for line in check_lines(t):
        click.echo(line)
