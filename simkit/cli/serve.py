"""``simkit serve``: the live what-if page (docs/serve.md)."""

from __future__ import annotations

from pathlib import Path

import click

from simkit.cli.common import max_races_option, out_option, renamed_option, threads_option

_MAX_RACES = click.IntRange(100, 10_000_000)
DEMO = Path(__file__).resolve().parents[2] / "scenarios" / "demo.toml"


@click.command()
@click.argument("target", type=click.Path(path_type=Path), required=False)
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to listen on; anything but 127.0.0.1 or localhost lets other machines in.",
)
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=8036,
    show_default=True,
    help="Port to listen on (0: any free port; the URL printed says which).",
)
@out_option("Folder the pages play and save into (default: runs/serve); nothing goes elsewhere.")
@threads_option()
@click.option(
    "--races-per-round",
    type=click.IntRange(100, 100_000),
    default=2_000,
    show_default=True,
    help="Races a cell (A and B each) per round; the answer is looked at after every round.",
)
@max_races_option(
    "Races a cell at which a page stops undecided.",
    type=_MAX_RACES,
    default=200_000,
    show_default=True,
)
@renamed_option(
    "--cap", into="max_races", new="--max-races", write="--max-races {value}", type=_MAX_RACES
)
def serve(target, host, port, out, threads, races_per_round, max_races) -> None:
    """Serve the live what-if page for the scenario file or run folder TARGET.

    The page plays baseline A (the scenario's first setting) beside a change B you type
    (rules parameters, track parts, players, skill level) on the same race keys, in rounds,
    streams the answer and stops when it is decided. TARGET defaults to the demo study; a
    run folder opens with its answer. Saving writes a scenario file and a run folder that
    simkit report, compare and run --resume read.

    \b
    Examples:
      simkit serve
      simkit serve scenarios/fairness.toml --port 8040
      simkit serve runs/serve/saved/corner1 --out runs/serve2
    """
    import socket

    from simkit.serve.study import Setting, check

    root = out or Path("runs") / "serve"
    opened = None
    if target is None:
        target = DEMO
        if not target.is_file():
            raise click.ClickException(
                f"the demo study {target} is not here (an installed simkit without its "
                "scenarios/); give a scenario file or run folder"
            )
    setting, opened = _open(target)
    setting = Setting(
        setting.base,
        setting.change,
        setting.tolerance,
        races_per_round=races_per_round,
        max_races=max_races,
    )
    try:
        check(setting)
    except Exception as exc:  # an InputError: the file's setting is what is wrong
        raise click.ClickException(f"{target}: {exc}") from None
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        raise click.ClickException(
            f"cannot listen on {host}:{port} ({exc.strerror}); give another --port, or 0"
        ) from None
    port = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    click.echo(f"simkit serve: http://{shown}:{port}/  (pages play into {root}; Ctrl-C stops)")
    _run(sock, host, root, setting, opened, threads)


def _open(target: Path):
    """The base setting and, for a run folder, its answer."""
    from simkit.serve.study import base_of, setting_of_run

    if target.is_dir():
        from simkit.results import load
        from simkit.serve.answer import answer

        results = load(target)
        setting = setting_of_run(results.manifest)
        return setting, {"answer": answer(results, setting.tolerance), "run": str(target)}
    from simkit.runner import load_scenario
    from simkit.serve.study import Setting

    sc = load_scenario(target)
    return Setting(base_of(sc.to_json())), None


def _run(sock, host, root, setting, opened, threads) -> None:
    import uvicorn

    from simkit.serve.app import create_app
    from simkit.serve.pages import Pages

    pages = Pages(root, setting, threads=threads)
    local = host in ("127.0.0.1", "localhost", "::1")
    hosts = ["127.0.0.1", "localhost", "[::1]", "::1"] if local else None
    app = create_app(pages, hosts=hosts, opened=opened)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))
    try:
        server.run(sockets=[sock])
    finally:
        pages.close()
