"""The HTML report renders in headless Chromium and the screenshot shows something."""

import os
import shutil
import subprocess

import pytest

from simkit.report import build
from tests.analysis.synthetic import synthetic_run

CHROMIUM = "/usr/bin/chromium"


@pytest.mark.skipif(
    not os.access(CHROMIUM, os.X_OK),
    reason=f"{CHROMIUM} is absent (Debian: apt-get install -y chromium; .ci/run installs it)",
)
def test_report_renders_in_headless_chromium(tmp_path):
    import matplotlib.image

    index = build(synthetic_run([{"players": 3, "label": "<b>three</b>"}], races=200), tmp_path)
    shot = tmp_path / "shot.png"
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
        f"--user-data-dir={profile}",
        f"--screenshot={shot}",
        "--window-size=1200,900",
        index.resolve().as_uri(),
    ]
    try:
        subprocess.run(cmd, capture_output=True, timeout=90, check=False)
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    assert shot.is_file(), "chromium wrote no screenshot"
    img = matplotlib.image.imread(shot)[..., :3]
    assert img.shape[:2] == (900, 1200)
    dark = (img.mean(axis=2) < 0.5).mean()  # text, rules and table borders
    assert 0.005 < dark < 0.5, f"screenshot looks blank or broken ({dark:.4f} dark pixels)"
    assert img.std() > 0.05
