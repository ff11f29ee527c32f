"""The round queue: pages take turns, a change cancels, a save waits for its round."""

import threading
import time

import pytest

from simkit.serve import pages as pages_module
from simkit.serve.pages import MAX_PAGES, Pages
from simkit.serve.study import InputError, Setting

BASE = {"game": "snowtails", "track": "nutcracker", "players": 4, "bots": "greedy"}


@pytest.fixture
def played(monkeypatch, tmp_path):
    """Pages whose rounds are recorded instead of played (no races: the queue alone)."""
    log: list[tuple[str, dict, int]] = []
    gate = threading.Event()
    gate.set()

    def fake_round(setting, folder, races, threads):
        gate.wait(5)
        log.append((folder.name, dict(setting.change), races))
        folder.mkdir(parents=True, exist_ok=True)
        time.sleep(0.005)

    monkeypatch.setattr(pages_module, "play_round", fake_round)
    monkeypatch.setattr("simkit.results.load", lambda folder: None)
    monkeypatch.setattr("simkit.serve.answer.answer", lambda results, tol: {"decided": False})
    setting = Setting(BASE, races_per_round=100, max_races=1000)
    p = Pages(tmp_path, setting)
    yield p, log, gate
    p.close()


def _wait(cond, seconds=5.0):
    end = time.monotonic() + seconds
    while not cond():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.005)


def test_two_pages_take_turns_round_by_round(played):
    p, log, gate = played
    gate.clear()  # hold the worker so both pages are queued before any round plays
    a, b = p.new(), p.new()
    p.play(a, a.setting)
    p.play(b, b.setting)
    gate.set()
    _wait(lambda: a.status == "undetermined" and b.status == "undetermined")
    order = [name for name, _, _ in log]
    assert order[:6] == [a.id, b.id] * 3  # neither waits for the other's rounds
    # 100 more a round, then a quarter more (in whole rounds) past 400, to the cap
    assert [r for name, _, r in log if name == a.id] == [100, 200, 300, 400, 500, 700, 900, 1000]


def test_a_change_cancels_the_rounds_of_the_old_setting(played):
    p, log, _ = played
    page = p.new()
    old = Setting(BASE, {"hand_size": 6}, races_per_round=100, max_races=1000)
    new = Setting(BASE, {"hand_size": 4}, races_per_round=100, max_races=300)
    p.play(page, old)
    _wait(lambda: len(log) >= 2)
    p.play(page, new)
    _wait(lambda: page.status == "undetermined")
    changes = [c for _, c, _ in log]
    first_new = changes.index({"hand_size": 4})
    assert all(c == {"hand_size": 4} for c in changes[first_new:])
    assert changes.count({"hand_size": 6}) < 10  # the old setting never finished
    assert page.races == 300 and page.setting.change == {"hand_size": 4}


def test_a_ninth_page_replaces_the_one_idle_longest(played):
    p, _, _ = played
    first = p.new()
    for _ in range(MAX_PAGES):
        p.new()
    assert p.get(first.id) is None and len(p.pages) == MAX_PAGES


@pytest.mark.parametrize("name", ["", "../up", "a/b", "x" * 65, "sp ace"])
def test_a_save_name_that_is_no_plain_name_is_refused(played, name):
    p, _, _ = played
    with pytest.raises(InputError, match="letters, digits"):
        p.save(p.new(), name)


def test_where_is_asked_once_played_and_a_stop_drops_it(played, monkeypatch, tmp_path):
    p, _, gate = played
    asked = []

    def fake_where(results, pictures):
        asked.append(pictures)
        return [{"cell": 0}]

    monkeypatch.setattr("simkit.serve.answer.where", fake_where)
    page = p.new()
    with pytest.raises(InputError, match="nothing played yet") as err:
        p.ask_where(page)
    assert err.value.field == "where"
    p.play(page, Setting(BASE, races_per_round=100, max_races=200))
    _wait(lambda: page.status == "undetermined")
    p.ask_where(page)
    p.ask_where(page)  # asked twice while queued: replayed once
    _wait(lambda: not page.asked)
    assert page.where == [{"cell": 0}] and asked == [tmp_path / "pictures" / page.id]
    # A stop drops a queued replay: held behind another page's round, it never plays.
    gate.clear()
    other = p.new()
    p.play(other, Setting(BASE, races_per_round=100, max_races=200))
    _wait(lambda: p.busy == other.id)
    p.ask_where(page)
    assert page.asked and page.where is None
    p.stop(page)
    assert not page.asked
    gate.set()
    _wait(lambda: other.status == "undetermined" and p.busy is None)
    assert len(asked) == 1 and page.where is None
