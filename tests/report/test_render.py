"""The HTML report in headless Chromium: it renders, and the answer is on the first screen."""

import json
import os
import re
import shutil
import subprocess
from dataclasses import replace

import pytest

from simkit.report import build
from tests.analysis.synthetic import synthetic_run

CHROMIUM = "/usr/bin/chromium"
WIDTH, FIRST_SCREEN = 1280, 800
pytestmark = pytest.mark.skipif(
    not os.access(CHROMIUM, os.X_OK),
    reason=f"{CHROMIUM} is absent (Debian: apt-get install -y chromium; .ci/run installs it)",
)
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


def verdict_bottoms(tmp_path, index) -> list[float]:
    probe = tmp_path / "probe.html"
    probe.write_text(index.read_text(encoding="utf-8").replace("</body>", PROBE, 1))
    res = _chromium(tmp_path, probe.resolve().as_uri(), "--dump-dom")
    m = re.search(r'data-verdict-bottoms="([^"]*)"', res.stdout)
    assert m, f"chromium gave no layout ({res.stderr[-300:]})"
    return json.loads(m.group(1).replace("&quot;", '"'))


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
