"""docs/statistics.md: its sample-size table is what the code computes."""

import re
from pathlib import Path

import pytest

from simkit.analysis.stats import races_for_half_width

DOC = Path(__file__).resolve().parents[2] / "docs" / "statistics.md"


def test_sample_size_table_matches_the_formula():
    rows = re.findall(r"^\| ±([\d.]+) pp \|(.+)\|$", DOC.read_text(), flags=re.M)
    assert len(rows) == 6
    for half, cells in rows:
        values = [int(v.strip().replace(",", "")) for v in cells.split("|")]
        assert len(values) == 7
        for n, races in zip(range(2, 9), values, strict=True):
            want = races_for_half_width(1 / n, float(half) / 100)
            assert races == pytest.approx(want, abs=0), (half, n)


def test_permutation_false_alarm_rate_claim():
    from scipy.stats import chi2

    for n in range(2, 9):
        dof = (n - 1) ** 2
        rate = chi2.sf(chi2.ppf(0.95, dof) * (n - 1) / n, dof)
        assert 0.165 < rate < 0.185, n
    assert "17-18% of fair runs" in DOC.read_text()
