"""The HTML report in headless Chromium: it renders, and the answer is on the first screen.

Every committed report (``git ls-files reports``) is rendered too, all in one browser: each
page in a 1280 x 800 frame, where a probe reports its layout, script errors and broken
pictures; and every link of the study index and of each report names a committed file.
"""

import json
import os
import posixpath
import re
import shutil
import subprocess
from dataclasses import replace
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from simkit.report import build
from tests.analysis.synthetic import synthetic_run

CHROMIUM = "/usr/bin/chromium"
WIDTH, FIRST_SCREEN = 1280, 800
needs_chromium = pytest.mark.skipif(
    not os.access(CHROMIUM, os.X_OK),
    reason=f"{CHROMIUM} is absent (Debian: apt-get install -y chromium; .ci/run installs it)",
)
ROOT = Path(__file__).resolve().parents[2]


def _committed() -> list[str]:
    """Files under reports/ in the checkout's index; empty outside a git checkout."""
    try:
        res = subprocess.run(
            ["git", "-C", str(ROOT), "ls-files", "reports"],
            capture_output=True,
            text=True,
            timeout=30,
            check=True,
        )
    except (OSError, subprocess.SubprocessError):
        return []
    return res.stdout.split()


COMMITTED = _committed()
PAGES = sorted(f for f in COMMITTED if re.fullmatch(r"reports/.+/index\.html", f))
INDEXES = [f for f in ("reports/index.html", "reports/index.md") if f in COMMITTED]
# Appended to a copy of the page (the report itself carries no script): where each verdict
# sentence ends, in CSS pixels from the top of the page.
PROBE = """<script>
const out = [...document.querySelectorAll('li.verdict .sentence')].map(
  e => e.getBoundingClientRect().bottom + window.scrollY);
document.body.setAttribute('data-verdict-bottoms', JSON.stringify(out));
</script></body>"""


def _chromium(tmp_path, url: str, *args: str) -> subprocess.CompletedProcess:
    profile = tmp_path / "profile"
    cmd = [
        CHROMIUM,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--hide-scrollbars",
        f"--user-data-dir={profile}",
        f"--window-size={WIDTH},{FIRST_SCREEN}",
        *args,
        url,
    ]
    try:
        return subprocess.run(cmd, capture_output=True, timeout=90, check=False, text=True)
    finally:
        shutil.rmtree(profile, ignore_errors=True)


def _layout(tmp_path, index, script: str, attr: str, name: str, base: bool = False):
    """What ``script``, run in the report ``index`` laid out by headless Chromium, wrote
    into the body's ``attr`` (JSON); ``base``: the report's own folder resolves its files."""
    probe = tmp_path / name
    html = index.read_text(encoding="utf-8").replace("</body>", script, 1)
    if base:
        html = html.replace("<head>", f'<head><base href="{index.parent.as_uri()}/">', 1)
    probe.write_text(html)
    res = _chromium(tmp_path, probe.resolve().as_uri(), "--dump-dom")
    m = re.search(attr + r'="([^"]*)"', res.stdout)
    assert m, f"chromium gave no layout ({res.stderr[-300:]})"
    return json.loads(m.group(1).replace("&quot;", '"'))


def verdict_bottoms(tmp_path, index) -> list[float]:
    return _layout(tmp_path, index, PROBE, "data-verdict-bottoms", "probe.html")


@needs_chromium
def test_report_renders_in_headless_chromium(tmp_path):
    import matplotlib.image

    index = build(synthetic_run([{"players": 3, "label": "<b>three</b>"}], races=200), tmp_path)
    shot = tmp_path / "shot.png"
    _chromium(tmp_path, index.resolve().as_uri(), f"--screenshot={shot}")
    assert shot.is_file(), "chromium wrote no screenshot"
    img = matplotlib.image.imread(shot)[..., :3]
    assert img.shape[:2] == (FIRST_SCREEN, WIDTH)
    dark = (img.mean(axis=2) < 0.5).mean()  # text, rules and table borders
    assert 0.005 < dark < 0.5, f"screenshot looks blank or broken ({dark:.4f} dark pixels)"
    assert img.std() > 0.05


SWEEP = [
    {"players": 4, "label": f"extra_cards=[0, 0, {k}, {k}]", "strength": [0.3 - 0.1 * k, 0, 0, 0]}
    for k in range(8)
]


@needs_chromium
@pytest.mark.parametrize(
    ("cells", "description"),
    [
        ([{"players": 4, "label": "snowtails", "strength": [0.3, 0, 0, 0]}], "One cell. " * 40),
        (SWEEP, "Which compensation makes the slots fairest? " * 3),
        (SWEEP + SWEEP[:4] + [{"players": 3, "label": "three sleds"}], ""),
    ],
)
def test_every_verdict_is_on_the_first_screen(tmp_path, cells, description):
    run = synthetic_run(cells, races=300, seed=4)
    scenario = {**run.manifest["scenario"], "title": "A study", "description": description}
    run = replace(run, manifest={**run.manifest, "scenario": scenario})
    bottoms = verdict_bottoms(tmp_path, build(run, tmp_path / "r"))
    assert len(bottoms) == len(cells)
    assert max(bottoms) <= FIRST_SCREEN, f"a verdict ends {max(bottoms):.0f} px down"


# Written into a copy of each committed page: a <base> so its relative links still name the
# committed folder, a listener that records script errors and failed loads from the start,
# and, once the page has loaded, its layout posted to the harness that frames it.
EARLY = """<base href="{base}"><script>
window.__errors = [];
addEventListener('error', e => window.__errors.push(
  e.message || ('could not load ' + (e.target.src || e.target.href || e.target.tagName))), true);
</script>"""
LATE = """<script>
addEventListener('load', () => {{
  const bottom = e => e ? e.getBoundingClientRect().bottom + window.scrollY : null;
  const answer = [...document.querySelectorAll('h2')].find(h => h.textContent.trim() === 'Answer');
  parent.postMessage(JSON.stringify({{
    page: {page},
    title: bottom(document.querySelector('h1')),
    answer: bottom(answer),
    said: answer && answer.nextElementSibling ? bottom(answer.nextElementSibling) : null,
    verdicts: [...document.querySelectorAll('li.verdict .sentence')].map(bottom),
    width: document.documentElement.scrollWidth,
    broken: [...document.images].filter(i => !i.complete || i.naturalWidth === 0).length,
    images: document.images.length,
    errors: window.__errors,
  }}), '*');
}});
</script></body>"""
HARNESS = """<!DOCTYPE html><html><body style="margin:0"><script>
const got = {{}};
addEventListener('message', e => {{
  const d = JSON.parse(e.data);
  got[d.page] = d;
  document.body.setAttribute('data-first-screens', JSON.stringify(got));
}});
</script>{frames}</body></html>"""


@pytest.fixture(scope="module")
def first_screens(tmp_path_factory) -> dict[str, dict]:
    """Every committed report's layout at 1280 x 800, from one Chromium for all of them."""
    if not os.access(CHROMIUM, os.X_OK):
        pytest.skip(f"{CHROMIUM} is absent (.ci/run installs it)")
    tmp = tmp_path_factory.mktemp("committed")
    frames = []
    for k, page in enumerate(PAGES):
        src = ROOT / page
        html = src.read_text(encoding="utf-8")
        early = EARLY.format(base=src.parent.as_uri() + "/")
        html = re.sub(r"<head>", "<head>" + early, html, count=1)
        html = html.replace("</body>", LATE.format(page=json.dumps(page)), 1)
        (tmp / f"page{k}.html").write_text(html, encoding="utf-8")
        frames.append(
            f'<iframe src="page{k}.html" width="{WIDTH}" height="{FIRST_SCREEN}" '
            'style="display:block;border:0"></iframe>'
        )
    harness = tmp / "harness.html"
    harness.write_text(HARNESS.format(frames="".join(frames)), encoding="utf-8")
    res = _chromium(
        tmp,
        harness.as_uri(),
        "--dump-dom",
        "--virtual-time-budget=30000",
        "--run-all-compositor-stages-before-draw",
    )
    m = re.search(r'data-first-screens="([^"]*)"', res.stdout)
    assert m, f"chromium rendered no committed report ({res.stderr[-300:]})"
    return json.loads(m.group(1).replace("&quot;", '"').replace("&amp;", "&"))


def test_reports_are_committed():
    if not COMMITTED:
        pytest.skip("not a git checkout: no committed reports to check")
    assert PAGES, "no reports/*/index.html is committed"
    assert INDEXES == ["reports/index.html", "reports/index.md"]


@pytest.mark.parametrize("page", PAGES)
def test_committed_report_first_screen(first_screens, page):
    got = first_screens.get(page)
    assert got is not None, f"{page} did not load in chromium"
    assert not got["errors"], f"{page}: {got['errors'][:3]}"
    assert got["images"] > 0 and got["broken"] == 0, f"{page}: {got['broken']} broken pictures"
    assert got["width"] <= WIDTH, f"{page} is {got['width']} px wide: cut at {WIDTH}"
    assert got["title"] is not None and got["title"] <= FIRST_SCREEN
    assert got["answer"] is not None, f"{page} has no 'Answer' heading"
    # The answer starts on the first screen: its first verdict line (a sweep's later lines
    # may follow below), or what follows the heading in a report without verdict lines (a
    # comparison's paragraph).
    first = got["verdicts"][0] if got["verdicts"] else got["said"]
    assert first is not None, f"{page}: nothing follows the 'Answer' heading"
    assert first <= FIRST_SCREEN, f"{page}: the answer's first line ends {first:.0f} px down"


def _links(page: str) -> list[str]:
    text = (ROOT / page).read_text(encoding="utf-8")
    if page.endswith(".md"):
        return re.findall(r"\]\(([^)\s]+)\)", text)
    return re.findall(r'(?:href|src)="([^"]+)"', text)


@pytest.mark.parametrize("page", INDEXES + PAGES)
def test_every_link_names_a_committed_file(page):
    """The study index (HTML and Markdown) and each report link only what is committed."""
    files = set(COMMITTED)
    local = [x for x in _links(page) if not x.startswith(("data:", "#"))]
    assert local or page not in INDEXES, f"{page} links nothing"
    missing = []
    for link in local:
        parts = urlsplit(link)
        if parts.scheme:
            continue  # an address outside the repository: not this test's business
        target = posixpath.normpath(posixpath.join(posixpath.dirname(page), unquote(parts.path)))
        if target not in files:
            missing.append(link)
    assert not missing, f"{page} links files that are not committed: {missing[:5]}"


# Where the first paragraph naming the race length's change ends (CSS pixels from the top).
SIDE_PROBE = """<script>
const hit = [...document.querySelectorAll('p')].find(
  p => p.textContent.includes('median race length +'));
document.body.setAttribute('data-side-bottom',
  JSON.stringify(hit ? hit.getBoundingClientRect().bottom + window.scrollY : null));
</script></body>"""


def side_effect_bottom(tmp_path, index) -> float | None:
    return _layout(tmp_path, index, SIDE_PROBE, "data-side-bottom", "side.html", base=True)


@needs_chromium
def test_a_sweeps_race_length_change_is_on_the_first_screen(tmp_path):
    """Issue 35 (done when): the bonus sweep's answer names its race-length change on the
    first screen. A sweep of two settings at two skill levels, the second's races two rounds
    longer, as the bonus study's are without the bonus."""
    cells = [
        {
            "players": 4,
            "label": f"bonus_rule={rule}, skill={level}",
            "bots": [level] * 4,
            "strength": [0.4, 0, 0, 0],
            "params": {"bonus_rule": rule},
            "extra_rounds": extra,
        }
        for rule, extra in (("position", 0), ("none", 2))
        for level in ("greedy", "greedy:tuned")
    ]
    run = synthetic_run(cells, races=2000, seed=6)
    run = replace(run, cells=run.cells.assign(skill=["greedy", "greedy:tuned"] * 2))
    bottom = side_effect_bottom(tmp_path, build(run, tmp_path / "r"))
    assert bottom is not None and bottom <= FIRST_SCREEN, bottom


@needs_chromium
def test_the_tuned_s_bends_race_length_change_is_on_its_first_screen(tmp_path):
    """Issue 35 (done when): the committed tuned S-Bends page names its race length's
    change (median 9 to 11 rounds) on the first screen."""
    page = ROOT / "reports/tune-s-bends/index.html"
    if "reports/tune-s-bends/index.html" not in COMMITTED:
        pytest.skip("the tuned S-Bends sample is not committed")
    bottom = side_effect_bottom(tmp_path, page)
    assert bottom is not None and bottom <= FIRST_SCREEN, bottom
