"""The page in a real browser (issue 36 item 7): Chromium, driven by Playwright for Python,
types a change, sees the verdict update, asks where the slots lose, saves, and the saved run
reports, compares and resumes.

Playwright drives the system Chromium (Debian's package; .ci/run installs it) through
``executable_path``: Playwright's own browser download needs the network. Rounds are 400
races a cell, so the test takes seconds.
"""

import http.client
import json
import shutil
import socket
import threading
import time
import tomllib
import urllib.request
from pathlib import Path

import pytest
from click.testing import CliRunner

from simkit.cli import main
from simkit.cli import serve as serve_cli
from simkit.serve.study import Setting, base_of

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
DEMO = Path(__file__).resolve().parents[2] / "scenarios" / "demo.toml"

pytest.importorskip(
    "uvicorn", reason="simkit serve's extra is not installed (pip install -e '.[serve]')"
)
playwright = pytest.importorskip(
    "playwright.sync_api", reason="playwright is not installed (pip install -e '.[test]')"
)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """``simkit serve``'s app over the demo study on a free port, in this process."""
    import uvicorn

    from simkit.serve.app import create_app
    from simkit.serve.pages import Pages

    root = tmp_path_factory.mktemp("serve")
    setting = Setting(base_of(tomllib.loads(DEMO.read_text())), races_per_round=400)
    pages = Pages(root, setting, threads=1)
    app = create_app(pages, hosts=["127.0.0.1", "localhost"])
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    srv = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))
    thread = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not srv.started:
        time.sleep(0.01)
    yield f"http://127.0.0.1:{sock.getsockname()[1]}", root, pages
    srv.should_exit = True
    thread.join(10)
    pages.close()


def _post(url: str, body: dict) -> tuple[int, dict]:
    req = urllib.request.Request(
        url, json.dumps(body).encode(), {"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, json.load(r)
    except urllib.error.HTTPError as err:
        return err.code, json.load(err)


def test_a_bad_value_is_refused_with_its_field_and_the_clis_words(server):
    url = server[0]
    status, page = _post(f"{url}/api/pages", {})
    assert status == 200 and page["status"] == "idle"
    status, err = _post(f"{url}/api/pages/{page['page']}/play", {"change": "bonus_rule = 3"})
    assert status == 422 and err["field"] == "change"
    assert "bonus_rule" in err["error"]


def test_a_request_for_another_host_is_refused(server):
    url = server[0]
    req = urllib.request.Request(f"{url}/", headers={"Host": "evil.example"})
    with pytest.raises(urllib.error.HTTPError) as err:
        urllib.request.urlopen(req, timeout=10)
    assert err.value.code == 400


def test_where_before_playing_and_any_picture_but_a_drawn_one_are_refused(server):
    url = server[0]
    _, page = _post(f"{url}/api/pages", {})
    status, err = _post(f"{url}/api/pages/{page['page']}/where", {})
    assert status == 422 and err["field"] == "where" and "nothing played" in err["error"]
    for name in ["track-0.png", "manifest.json", "..%2F..%2Fsaved", "%2Fetc%2Fpasswd"]:
        with pytest.raises(urllib.error.HTTPError) as got:
            urllib.request.urlopen(f"{url}/api/pages/{page['page']}/pictures/{name}", timeout=10)
        assert got.value.code == 404, name


def test_a_page_whose_event_stream_closes_stops_taking_turns(server):
    url, _, pages = server
    _, state = _post(f"{url}/api/pages", {})
    page = pages.get(state["page"])
    generation = page.generation
    conn = http.client.HTTPConnection(url.removeprefix("http://"), timeout=10)
    conn.request("GET", f"/api/pages/{page.id}/events")
    resp = conn.getresponse()
    assert resp.status == 200 and resp.read(12) == b"event: state"
    assert page.watchers == 1
    resp.close()
    conn.close()  # the tab closed
    end = time.monotonic() + 5
    while page.watchers and time.monotonic() < end:
        time.sleep(0.02)
    assert page.watchers == 0 and page.generation == generation + 1  # stopped: no turns


def test_the_page_in_chromium_plays_a_change_saves_it_and_the_run_reports(server, tmp_path):
    if not Path(CHROMIUM).is_file():
        pytest.skip(
            f"{CHROMIUM} is absent (Debian: apt-get install -y chromium; .ci/run installs it)"
        )
    url, root, _ = server
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            page = browser.new_page()
            # Nothing from the network (item 1): any request elsewhere is refused and listed.
            elsewhere = []
            page.route(
                lambda u: not u.startswith(url + "/"),
                lambda route: (elsewhere.append(route.request.url), route.abort()),
            )
            page.goto(url)
            expect(page.locator("#where")).to_contain_text("nutcracker", timeout=15_000)
            # A bad value: an inline error under its field, nothing plays.
            page.fill("#change", "track.corner.1.safety = 400")
            page.click("#play")
            expect(page.locator("#error-change")).to_contain_text("between 0 and 99")
            # Corner 1 three speeds slower: slot 4 falls far below the band.
            page.fill("#change", "track.corner.1.safety = 2")
            page.click("#play")
            verdict = page.locator("#cell-B .verdict")
            expect(verdict).to_have_text("unfair", timeout=60_000)
            expect(page.locator("#cell-B .label")).to_have_text("track.corner.1.safety=2")
            expect(page.locator("#changes")).to_contain_text("slot")
            page.click("#stop")
            # Where the slots lose: both ends of B's field in words, and its track picture.
            page.click("#ask-where")
            where_b = page.locator("#where-B")
            expect(where_b).to_contain_text("furthest from fair", timeout=120_000)
            expect(where_b).to_contain_text("at the other end")
            expect(where_b.locator("li").first).to_contain_text("per race")
            img = where_b.locator("img")
            expect(img).to_be_visible()
            page.wait_for_function(
                "(i) => i.complete && i.naturalWidth > 0", arg=img.element_handle()
            )
            page.fill("#save-name", "corner1")
            page.click("#save")
            expect(page.locator("#saved")).to_contain_text("simkit report", timeout=30_000)
            assert elsewhere == []
        finally:
            browser.close()
    run, scenario = root / "saved" / "corner1", root / "saved" / "corner1.toml"
    assert scenario.is_file() and (run / "manifest.json").is_file()
    res = CliRunner().invoke(main, ["report", str(run), "-o", str(tmp_path / "report")])
    assert res.exit_code == 0, res.output
    assert "track.corner.1.safety=2: unfair" in res.output
    assert (tmp_path / "report" / "index.html").is_file()
    # simkit compare reads it too: against a copy of itself, paired race by race, no change.
    shutil.copytree(run, tmp_path / "again")
    out = tmp_path / "compared"
    res = CliRunner().invoke(main, ["compare", str(run), str(tmp_path / "again"), "-o", str(out)])
    assert res.exit_code == 0, res.output
    assert "paired" in res.output and (out / "index.html").is_file()
    res = CliRunner().invoke(main, ["run", "--resume", str(run)])
    assert res.exit_code == 0 and "already complete" in res.output, res.output
    # Opening the saved run shows its answer and gives its change back (simkit serve RUN).
    setting, opened = serve_cli._open(run)
    assert setting.change == {"track.corner.1.safety": 2}
    assert opened["run"] == str(run)
    verdicts = {c["name"]: c["verdict"] for c in opened["answer"]["cells"]}
    assert verdicts["B"] == "unfair"
    assert setting.races_per_round == 400  # the page's rounds, kept in the run
    assert opened["answer"]["cells"][1]["races"] >= 400
