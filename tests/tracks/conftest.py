"""Hypothesis strategies for track specs: valid ones, and invalid ones with the segment to blame."""

from __future__ import annotations

import copy

import pytest
from hypothesis import strategies as st


def _rows(seg: dict, lanes: int) -> list[int]:
    """Rows per lane of a generated segment (corners: the model's spaces per lane)."""
    import math

    if seg["type"] != "corner":
        return [seg["length"]] * lanes
    theta = math.radians(seg["angle"])
    out = []
    for ln in range(lanes):
        k = ln if seg["turn"] == "left" else lanes - 1 - ln
        out.append(max(1, round(theta * (seg["radius"] + k + 0.5))))
    return out


@st.composite
def segment_specs(draw, lanes: int, index: int, prev: dict) -> dict:
    """One straight or corner after ``prev`` (of ``lanes`` lanes), maybe changing width.

    Width changes follow a clear straight long enough to drift across every lane, so the
    lanes that continue can always be reached.
    """
    seg: dict = {}
    clear = (
        prev["type"] == "straight"
        and prev["length"] >= 6
        and not prev.get("buildings")
        and not prev.get("closed")
    )
    if clear and draw(st.booleans()):
        new = draw(st.integers(1, 6))
        keep = draw(st.integers(1, min(new, lanes)))
        first_old = draw(st.integers(0, lanes - keep))
        first_new = draw(st.integers(0, new - keep))
        cont = [-1] * new
        for i in range(keep):
            cont[first_new + i] = first_old + i
        seg["lanes"] = new
        seg["continues"] = cont
        lanes = new
    if draw(st.booleans()):
        seg.update(type="straight", length=draw(st.integers(1, 8)))
    else:
        seg.update(
            type="corner",
            turn=draw(st.sampled_from(["left", "right"])),
            angle=draw(st.sampled_from([15, 30, 45, 60, 90, 120, 180, 270])),
            radius=draw(st.sampled_from([0, 0.5, 1, 2, 3.5])),
            safety=draw(st.integers(0, 7)),
            tight=draw(st.booleans()),
        )
    rows = _rows(seg, lanes)
    taken: set[tuple[int, int]] = set()
    if seg["type"] == "straight" and lanes >= 4 and seg["length"] >= 2 and draw(st.booleans()):
        row = draw(st.integers(0, seg["length"] - 2))
        lane = draw(st.integers(1, lanes - 3))
        kind = draw(st.sampled_from(["kennels", "chapel", "bothy"]))
        seg["buildings"] = [{"kind": kind, "row": row, "lane": lane}]
        taken |= {(r, ln) for r in (row, row + 1) for ln in (lane, lane + 1)}
    elif seg["type"] == "straight" and draw(st.booleans()):
        side = draw(st.sampled_from(["left", "right"]))
        seg["buildings"] = [
            {"kind": "tavern", "row": draw(st.integers(0, seg["length"] - 1)), "side": side}
        ]
    if lanes >= 2 and not taken and draw(st.booleans()):
        # One marker, never on the first or last row nor beside a building, so a route
        # always stays open.
        lane = draw(st.integers(0, lanes - 1))
        if rows[lane] >= 3:
            row = draw(st.integers(1, rows[lane] - 2))
            if (row, lane) not in taken:
                seg["closed"] = [[row, lane]]
                taken.add((row, lane))
    trees = []
    for _ in range(draw(st.integers(0, 2))):
        lane = draw(st.integers(0, lanes - 1))
        row = draw(st.integers(0, rows[lane] - 1))
        if (row, lane) not in taken:
            trees.append([row, lane])
            taken.add((row, lane))
    if trees:
        seg["trees"] = trees
    return seg


@st.composite
def valid_specs(draw) -> dict:
    """A valid spec: a start, 1-6 straights and corners, a finish with run-off."""
    lanes = draw(st.integers(1, 6))
    start = {
        "type": "start",
        "lanes": lanes,
        "length": draw(st.integers(-(-5 // lanes), max(3, -(-5 // lanes)))),
    }
    segments = [start]
    for i in range(1, draw(st.integers(2, 7))):
        seg = draw(segment_specs(lanes, i, segments[-1]))
        lanes = seg.get("lanes", lanes)
        segments.append(seg)
    if draw(st.booleans()):
        segments.append({"type": "finish", "length": draw(st.integers(1, 4))})
    else:
        at = draw(st.integers(1, len(segments) - 1))
        segments[at]["finish"] = True
    return {
        "name": "generated",
        "family": draw(st.sampled_from(["snowtails", "mushmush"])),
        "flag": draw(st.sampled_from(["left", "right"])),
        "segment": segments,
    }


@st.composite
def invalid_specs(draw) -> tuple[dict, int, str]:
    """A valid spec with one mistake in one segment: (spec, segment index, what is wrong)."""
    spec = copy.deepcopy(draw(valid_specs()))
    segs = spec["segment"]
    if draw(st.integers(0, 9)) == 0:
        segs[0]["slots"] = [[0, 0], [0, 1], [0, 2], [0, 3], [draw(st.sampled_from([0, 9])), 9]]
        return spec, 0, "start grid off the track"
    i = draw(st.integers(1, len(segs) - 1))
    seg = segs[i]
    kind = seg["type"]
    mistakes = ["unknown key", "wrong type", "bad type", "bad lanes", "bad continues"]
    finish_at = next(k for k, s in enumerate(segs) if s.get("finish") or s["type"] == "finish")
    if kind in ("straight", "finish"):
        mistakes += ["bad length", "side building", "tree off the track"]
        if i <= finish_at:
            mistakes.append("closed row")
        if seg.get("buildings") and seg["buildings"][0]["kind"] != "tavern":
            mistakes.append("tree in building")
    else:
        mistakes += ["bad angle", "bad radius", "bad turn", "building on corner"]
    what = draw(st.sampled_from(mistakes))
    if what == "unknown key":
        seg[draw(st.sampled_from(["lenght", "radious", "tres", "colour"]))] = 1
    elif what == "wrong type":
        key = "length" if kind != "corner" else draw(st.sampled_from(["angle", "turn", "tight"]))
        seg[key] = draw(st.sampled_from(["3", [3], {"a": 1}])) if key != "turn" else 3
    elif what == "bad type":
        seg["type"] = draw(st.sampled_from(["straigt", "curve", "start", ""]))
    elif what == "bad lanes":
        seg["lanes"] = draw(st.sampled_from([0, -2, 99, 2.5]))
        seg.pop("continues", None)
    elif what == "bad continues":
        prev = next(s.get("lanes") for s in reversed(segs[:i]) if "lanes" in s)
        lanes = seg.get("lanes", prev)
        seg["continues"] = draw(
            st.sampled_from([[prev + 3] * lanes, [-1] * lanes, [0] * (lanes + 1), "all"])
        )
    elif what == "bad length":
        seg["length"] = draw(st.sampled_from([0, -1, -40]))
    elif what == "side building":
        seg["buildings"] = [{"kind": "chapel", "row": 0, "lane": 0}]
    elif what == "closed row":
        lanes = next(s["lanes"] for s in reversed(segs[: i + 1]) if "lanes" in s)
        # Past the finish line the race is already won: block the line itself there.
        row = 0 if i == finish_at else draw(st.integers(0, seg["length"] - 1))
        seg["closed"] = [[row, ln] for ln in range(lanes)]
    elif what == "tree off the track":
        seg["trees"] = [[99, 0]]
    elif what == "tree in building":
        b = seg["buildings"][0]
        seg["trees"] = [[b["row"] + 1, b["lane"]]]
    elif what == "bad angle":
        seg["angle"] = draw(st.sampled_from([0, -90, 361, 1000]))
    elif what == "bad radius":
        seg["radius"] = draw(st.sampled_from([-1, -0.5, 1000]))
    elif what == "bad turn":
        seg["turn"] = draw(st.sampled_from(["up", "lft", "LEFT"]))
    elif what == "building on corner":
        seg["buildings"] = [{"kind": "chapel", "row": 0, "lane": 1}]
    return spec, i, what


@pytest.fixture(scope="session")
def valid_spec_strategy():
    """The strategy for valid specs, for tests that draw with ``st.data()``."""
    return valid_specs()


@pytest.fixture(scope="session")
def invalid_spec_strategy():
    """The strategy for specs with one mistake: (spec, segment index, what is wrong)."""
    return invalid_specs()
