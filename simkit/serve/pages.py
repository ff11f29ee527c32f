"""Pages and the one worker that plays their rounds, in turn.

Each open page has a :class:`Page`: its setting, its run folder under the served folder,
and the answer after its last round. One worker thread plays rounds (a round uses every
core it is given, so two at once would only share them), taking pages in turn from a
queue: a page whose round ends goes to the back, so one page's long question never
starves another's. A page's change bumps its ``generation``: a queued round of the old
setting is dropped, a round in flight finishes into its own folder (a complete run) and
its answer is thrown away, and the new setting starts a fresh run in the page's folder.
At most :data:`MAX_PAGES` pages live at once; a new one replaces the one idle longest.
"""

from __future__ import annotations

import secrets
import shutil
import threading
import time
import traceback
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from simkit.errors import SimkitError
from simkit.serve.study import InputError, Setting, play_round, scenario_text

MAX_PAGES = 8
SAVE_NAME = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_"


@dataclass
class Page:
    """One open page: what it asks, where it plays, what it found."""

    id: str
    setting: Setting
    folder: Path
    generation: int = 0
    races: int = 0  # races a cell in the folder's run, for this generation
    status: str = "idle"  # idle | queued | playing | decided | undetermined | error
    answer: dict[str, Any] | None = None
    error: str | None = None
    started: float = 0.0
    seconds: float = 0.0  # from the change to the last answer
    version: int = 0  # bumped whenever anything above changes (the event stream watches it)
    touched: float = field(default_factory=time.monotonic)
    opened: str | None = None  # the run folder the page was opened with, if any
    where: list[dict[str, Any]] | None = None  # where slots lose, once asked (answer.where)
    asked: bool = False  # where slots lose is queued or being worked out
    watchers: int = 0  # event streams open on it: none left, its rounds stop

    def state(self) -> dict[str, Any]:
        s = self.setting
        return {
            "page": self.id,
            "version": self.version,
            "status": self.status,
            "error": self.error,
            "races": self.races,
            "seconds": round(self.seconds, 2),
            "races_per_round": s.races_per_round,
            "max_races": s.max_races,
            "setting": {
                "game": s.base.get("game"),
                "preset": s.base.get("preset"),
                "track": s.base.get("track"),
                "players": s.players,
                "skill": s.skill,
                "tolerance": s.tolerance,
                "change": "\n".join(f"{k} = {_toml(v)}" for k, v in s.change.items()),
            },
            "answer": self.answer,
            "opened": self.opened,
            "where": self.where,
            "asked": self.asked,
        }


def _toml(value: Any) -> str:
    import tomlkit

    return tomlkit.item(value).as_string()


def next_races(done: int, per_round: int) -> int:
    """Races a cell after the next round: ``per_round`` more, or a quarter more once that is
    larger (in whole rounds), so that reading the run and answering, about a second a
    round, stays a small share of a long question's time. The sequence is valid at any
    looks, so how many there are changes nothing but the time."""
    return done + per_round * max(1, -(-done // (4 * per_round)))


class Pages:
    """Every page of one ``simkit serve``, the round queue and its worker."""

    def __init__(self, root: Path, setting: Setting, threads: int | None = None):
        self.root = Path(root)
        self.setting = setting
        self.threads = threads
        self.pages: dict[str, Page] = {}
        self.queue: deque[tuple[str, int, str]] = deque()  # (page, generation, round|where)
        self.lock = threading.Condition()
        self.stopping = False
        self.busy: str | None = None  # the page whose round is in flight
        self.worker = threading.Thread(target=self._work, name="simkit-serve-rounds", daemon=True)
        self.worker.start()

    # --- pages -------------------------------------------------------------------------

    def new(self, answer: dict[str, Any] | None = None, opened: str | None = None) -> Page:
        with self.lock:
            if len(self.pages) >= MAX_PAGES:
                idle = min(self.pages.values(), key=lambda p: p.touched)
                self._drop(idle)
            pid = secrets.token_hex(6)
            page = Page(pid, self.setting, self.root / "pages" / pid, opened=opened)
            if answer is not None:
                page.answer, page.status = answer, "opened"
            self.pages[pid] = page
            return page

    def get(self, pid: str) -> Page | None:
        with self.lock:
            page = self.pages.get(pid)
            if page is not None:
                page.touched = time.monotonic()
            return page

    def _drop(self, page: Page) -> None:
        page.generation += 1  # a round in flight for it is thrown away
        self.pages.pop(page.id, None)

    def play(self, page: Page, setting: Setting) -> None:
        """Start ``setting`` on ``page``, cancelling whatever it was playing."""
        with self.lock:
            page.setting = setting
            page.generation += 1
            page.races, page.answer, page.error = 0, None, None
            page.where, page.asked = None, False
            page.status, page.started, page.seconds = "queued", time.monotonic(), 0.0
            page.version += 1
            self.queue = deque(q for q in self.queue if q[0] != page.id)
            self.queue.append((page.id, page.generation, "round"))
            self.lock.notify_all()

    def ask_where(self, page: Page) -> None:
        """Queue where the slots lose (replays: seconds, once) for the run played so far."""
        with self.lock:
            if page.races == 0:
                raise InputError("where", "nothing played yet: play the change first")
            if not page.asked:
                page.asked, page.where = True, None
                page.version += 1
                self.queue.append((page.id, page.generation, "where"))
                self.lock.notify_all()

    def stop(self, page: Page) -> None:
        """Stop ``page``'s races where they are (the folder keeps the rounds played)."""
        with self.lock:
            page.generation += 1
            self.queue = deque(q for q in self.queue if q[0] != page.id)
            if page.status in ("queued", "playing"):
                page.status = "stopped"
            page.asked = False  # a queued replay is dropped with the rounds
            page.version += 1

    def save(self, page: Page, name: str) -> tuple[Path, Path]:
        """Write the page's scenario file and a copy of its run into ``saved/``."""
        if not name or len(name) > 64 or any(ch not in SAVE_NAME for ch in name):
            raise InputError(
                "name", "use 1 to 64 letters, digits, '-' or '_' (it names a file and a folder)"
            )
        with self.lock:
            # Wait out a round in flight: its folder is complete again when it ends.
            while self.busy == page.id:
                self.lock.wait(0.1)
            if page.races == 0:
                raise InputError("name", "nothing played yet: play the change first")
            saved = self.root / "saved"
            toml, run = saved / f"{name}.toml", saved / name
            if toml.exists() or run.exists():
                raise InputError("name", f"'{name}' is saved already; choose another name")
            saved.mkdir(parents=True, exist_ok=True)
            why = f"page {page.id}, {page.races:,} races a cell, status {page.status}"
            toml.write_text(scenario_text(page.setting, page.races, why), encoding="utf-8")
            shutil.copytree(page.folder, run)
            return toml, run

    def close(self) -> None:
        with self.lock:
            self.stopping = True
            self.lock.notify_all()
        self.worker.join(timeout=30)

    # --- the worker --------------------------------------------------------------------

    def _next(self) -> tuple[Page, int, str, int] | None:
        with self.lock:
            while not self.stopping:
                while self.queue:
                    pid, gen, kind = self.queue.popleft()
                    page = self.pages.get(pid)
                    if page is None or page.generation != gen:
                        continue  # replaced, changed or stopped since
                    if kind == "where":
                        self.busy = page.id
                        return page, gen, kind, page.races
                    if kind == "round":
                        page.status = "playing"
                        self.busy = page.id
                        page.version += 1
                        s = page.setting
                        races = min(next_races(page.races, s.races_per_round), s.max_races)
                        return page, gen, kind, races
                self.lock.wait()
            return None

    def _work(self) -> None:
        from simkit.results import load
        from simkit.serve.answer import answer

        while (job := self._next()) is not None:
            page, gen, kind, races = job
            setting = page.setting
            if kind == "where":
                self._where(page, gen)
                continue
            try:
                play_round(setting, page.folder, races, self.threads)
                found = answer(load(page.folder), setting.tolerance)
                error = None
            except SimkitError as exc:
                found, error = None, str(exc)
            except Exception:  # a bug: said on the page and on stderr, the worker goes on
                traceback.print_exc()
                found, error = None, "internal error (the terminal running simkit serve says)"
            with self.lock:
                self.busy = None
                self.lock.notify_all()
                if page.setting is not setting:
                    continue  # changed meanwhile: this round's answer is of the old setting
                page.races, page.seconds = races, time.monotonic() - page.started
                page.answer, page.error = found or page.answer, error
                if error is not None:
                    page.status = "error"
                elif page.generation != gen:
                    page.status = "stopped"  # the round played is kept; no more are queued
                elif found["decided"]:
                    page.status = "decided"
                elif races >= setting.max_races:
                    page.status = "undetermined"
                else:
                    page.status = "queued"
                    self.queue.append((page.id, gen, "round"))
                page.version += 1
                self.lock.notify_all()

    def _where(self, page: Page, gen: int) -> None:
        from simkit.results import load
        from simkit.serve.answer import where

        try:
            found, error = where(load(page.folder), self.pictures(page)), None
        except SimkitError as exc:
            found, error = None, str(exc)
        except Exception:
            traceback.print_exc()
            found, error = None, "internal error (the terminal running simkit serve says)"
        with self.lock:
            self.busy = None
            self.lock.notify_all()
            if page.generation == gen:  # else changed or stopped meanwhile: thrown away
                page.where, page.asked = found, False
                page.error = error or page.error
                page.version += 1

    def pictures(self, page: Page) -> Path:
        """Where the page's track pictures go (beside its run, never inside it)."""
        return self.root / "pictures" / page.id
