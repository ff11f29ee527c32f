"""The ASGI app of ``simkit serve``: a static page, a small JSON API, one event stream.

Starlette routes, uvicorn serves, sse-starlette streams (docs/serve.md says why these).
Everything the browser loads comes from ``simkit/serve/static`` in the installed package:
no CDN, no font service, nothing from the network. Only JSON is accepted, and only from a
host the server was bound to (``TrustedHostMiddleware``: a page elsewhere cannot reach a
server on 127.0.0.1 by renaming itself).
"""

from __future__ import annotations

import asyncio
import os
import re
from pathlib import Path
from typing import Any

from sse_starlette.sse import EventSourceResponse
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from simkit.serve.pages import Page, Pages
from simkit.serve.study import InputError, with_inputs

STATIC = Path(__file__).with_name("static")
PICTURE = re.compile(r"track-\d+\.png")  # the only files a page's pictures folder serves
POLL = 0.1  # seconds between the event stream's looks at its page


def _shown(path: Path) -> str:
    """``path`` as the user would type it: relative to where simkit serve was started."""
    try:
        return os.path.relpath(path)
    except ValueError:
        return str(path)


def create_app(
    pages: Pages,
    *,
    hosts: list[str] | None = None,
    opened: dict[str, Any] | None = None,
) -> Starlette:
    """The app over ``pages``. ``opened``: the answer of the run folder served, shown on
    every new page until it plays."""

    def _page(request: Request) -> Page:
        page = pages.get(request.path_params["pid"])
        if page is None:
            raise _Gone()
        return page

    async def index(request: Request) -> FileResponse:
        return FileResponse(STATIC / "index.html")

    async def new_page(request: Request) -> JSONResponse:
        page = pages.new(answer=(opened or {}).get("answer"), opened=(opened or {}).get("run"))
        return JSONResponse(page.state())

    async def options(request: Request) -> JSONResponse:
        from simkit.games import get

        game = get(pages.setting.base["game"])
        return JSONResponse(
            {
                "parameters": list(game.params.names()),
                "track_parts": [
                    "track.corner.1.safety",
                    "track.corner.1.radius",
                    "track.segment.1.length",
                    "track.segment.1.trees",
                    "track.segment.1.buildings",
                ],
                "bots": ["greedy", "greedy:tuned", "random", "search:16", "search:64"],
            }
        )

    async def _json(request: Request) -> dict[str, Any]:
        try:
            body = await request.json()
        except ValueError:
            raise InputError("change", "the page sent no JSON") from None
        if not isinstance(body, dict):
            raise InputError("change", "the page sent no JSON object")
        return body

    async def play(request: Request) -> JSONResponse:
        page = _page(request)
        body = await _json(request)
        setting = await asyncio.to_thread(
            with_inputs,
            page.setting,
            change=str(body.get("change", "")),
            players=body.get("players"),
            skill=body.get("skill"),
            tolerance=body.get("tolerance"),
        )
        pages.play(page, setting)
        return JSONResponse(page.state())

    async def stop(request: Request) -> JSONResponse:
        page = _page(request)
        pages.stop(page)
        return JSONResponse(page.state())

    async def save(request: Request) -> JSONResponse:
        page = _page(request)
        body = await _json(request)
        toml, run = await asyncio.to_thread(pages.save, page, str(body.get("name", "")))
        return JSONResponse(
            {
                "scenario": _shown(toml),
                "run": _shown(run),
                "report": f"simkit report {_shown(run)}",
                "resume": f"simkit run --resume {_shown(run)} --races N",
            }
        )

    async def ask_where(request: Request) -> JSONResponse:
        page = _page(request)
        pages.ask_where(page)
        return JSONResponse(page.state())

    async def picture(request: Request) -> FileResponse:
        page = _page(request)
        name = request.path_params["name"]
        path = pages.pictures(page) / name
        if not PICTURE.fullmatch(name) or not path.is_file():
            raise _Gone()
        return FileResponse(path, media_type="image/png")

    async def events(request: Request) -> EventSourceResponse:
        page = _page(request)

        async def stream():
            seen = -1
            page.watchers += 1
            try:
                while True:
                    if await request.is_disconnected():
                        return
                    if page.version != seen:
                        seen = page.version
                        yield {"event": "state", "data": _dumps(page.state())}
                    await asyncio.sleep(POLL)
            finally:
                page.watchers -= 1
                if page.watchers == 0:
                    pages.stop(page)  # the tab closed: its races stop taking turns

        return EventSourceResponse(stream(), ping=15)

    async def input_error(request: Request, exc: InputError) -> JSONResponse:
        return JSONResponse({"field": exc.field, "error": str(exc)}, status_code=422)

    async def gone(request: Request, exc: _Gone) -> JSONResponse:
        return JSONResponse(
            {"field": "base", "error": "no such page or picture (a page closed: reload it)"},
            status_code=404,
        )

    routes = [
        Route("/", index),
        Route("/api/options", options),
        Route("/api/pages", new_page, methods=["POST"]),
        Route("/api/pages/{pid}/play", play, methods=["POST"]),
        Route("/api/pages/{pid}/stop", stop, methods=["POST"]),
        Route("/api/pages/{pid}/save", save, methods=["POST"]),
        Route("/api/pages/{pid}/where", ask_where, methods=["POST"]),
        Route("/api/pages/{pid}/pictures/{name}", picture),
        Route("/api/pages/{pid}/events", events),
        Mount("/static", app=StaticFiles(directory=STATIC), name="static"),
    ]
    middleware = [Middleware(TrustedHostMiddleware, allowed_hosts=hosts)] if hosts else []
    return Starlette(
        routes=routes,
        middleware=middleware,
        exception_handlers={InputError: input_error, _Gone: gone},
    )


class _Gone(Exception):
    """A page id the server no longer has (replaced, or from before a restart)."""


def _dumps(value: Any) -> str:
    import json

    return json.dumps(_plain(value), allow_nan=False)


def _plain(value: Any) -> Any:
    """JSON's values: numpy scalars as Python ones, NaN (no value yet) as null."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if hasattr(value, "item") and not isinstance(value, str):
        value = value.item()
    if isinstance(value, float) and value != value:
        return None
    return value
