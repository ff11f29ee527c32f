"""Pictures that explain themselves: corners numbered from 1, marks, a legend for sleds."""

from simkit import tracks


def _texts(fig) -> list[str]:
    return [t.get_text() for ax in fig.axes for t in ax.texts]


def test_track_picture_numbers_corners_from_one_and_rings_marks():
    t = tracks.load("nutcracker")
    fig = tracks.draw(t, marks=[(10, "A"), (20, "B")])
    texts = _texts(fig)
    assert [x for x in texts if x.startswith("C")] == [f"C{k}" for k in range(1, t.n_corners + 1)]
    assert {"A", "B"} <= set(texts)


def test_a_ring_past_the_finish_line_says_so():
    """Issue 25: rings pointed at the run-off, where a crash costs a finished sled nothing;
    such a ring is dashed and grey and labelled, the others are not."""
    from matplotlib.patches import Circle

    from simkit.tracks.compiled import F_PAST_FINISH

    t = tracks.load("nutcracker")
    past = int(((t.flags & F_PAST_FINISH) != 0).nonzero()[0][0])
    fig = tracks.draw(t, marks=[(10, "A"), (past, "B")])
    assert _texts(fig).count("past the finish") == 1
    rings = [p for ax in fig.axes for p in ax.patches if isinstance(p, Circle) and p.zorder == 9]
    assert [r.get_linestyle() for r in rings] == ["-", "--"]


def test_race_picture_has_a_legend_below_the_board():
    t = tracks.load("nutcracker")
    sleds = [(30, "yellow", "0"), (40, "blue", "1x")]
    fig = tracks.draw(t, sleds=sleds, sled_names=["yellow (seat 0)", "blue (seat 1), out"])
    legend = fig.axes[0].get_legend()
    assert [x.get_text() for x in legend.get_texts()] == ["yellow (seat 0)", "blue (seat 1), out"]
    labels = [x for x in fig.axes[0].texts if x.get_text() in ("0", "1x")]
    assert len(labels) == 2 and all(x.get_path_effects() for x in labels)  # outlined text
    default = tracks.draw(t, sleds=sleds).axes[0].get_legend()
    assert [x.get_text() for x in default.get_texts()] == ["sled 0", "sled 1x"]


def _by_slot(labels: list[str]):
    import pandas as pd

    rows = [
        {
            "cell": c,
            "label": label,
            "slot": s,
            "deviation": 0.01 * (s - 2),
            "win_rate": 0.25,
            "win_low": 0.2,
            "win_high": 0.3,
        }
        for c, label in enumerate(labels)
        for s in (1, 2, 3, 4)
    ]
    return pd.DataFrame(rows)


def test_an_overview_of_many_long_cells_gives_each_a_row(tmp_path):
    """A sweep over every corner at two skill levels: 26 cells, some labels of 150
    characters. Side by side they squeezed every cell into a strip and matplotlib could
    not lay the picture out; in rows, the picture is tall and lays out."""
    import warnings

    from matplotlib.image import imread

    from simkit.report import plots

    every = ", ".join(f"track.corner.{k}.safety={k + 2}" for k in range(1, 7))
    labels = [f"{every}, skill=greedy", f"{every}, skill=greedy:tuned"]
    labels += [f"track.corner.{k % 6 + 1}.safety={k % 3 + 2}, skill=greedy" for k in range(24)]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # "Tight layout not applied" before
        plots.overview(tmp_path / "many.png", _by_slot(labels), 0.02, "many", best=3)
        plots.overview(tmp_path / "few.png", _by_slot(labels[2:8]), 0.02, "few", best=3)
    many, few = imread(tmp_path / "many.png").shape, imread(tmp_path / "few.png").shape
    assert few[1] > few[0]  # a few cells stay side by side
    assert many[0] > few[0]  # many grow down, a row each
    assert many[1] < 2 * few[1]  # side by side, 26 cells took 25 inches


def test_wrapped_labels_break_between_settings():
    from simkit.report.plots import _wrapped

    label = ", ".join(f"track.corner.{k}.safety={k}" for k in range(1, 7)) + ", skill=greedy"
    lines = _wrapped(label).split("\n")
    assert len(lines) > 1 and all(len(line) <= 60 for line in lines)
    assert " ".join(lines) == label
    assert all(line.endswith(",") for line in lines[:-1])  # each break follows a setting
    assert _wrapped("skill=greedy") == "skill=greedy"


def test_a_label_that_looks_like_a_markdown_link_stays_text():
    """A user's label ``[x](javascript:...)`` must not become a link in report.md."""
    from simkit.report.document import Document, Paragraph, to_markdown

    md = to_markdown(Document("t", [Paragraph("cell [x](javascript:alert(1)) wins [1, 2]")]))
    assert "[x]\\(javascript:alert(1))" in md and "](javascript" not in md
    assert "wins [1, 2]" in md  # brackets that make no link are left as they are


def test_heat_colour_scale_is_set_before_the_finish_line():
    """Issue 35: the demo's run-off (about 500 crashes per 1,000 races) set the colour scale,
    so the real hazards (about 100) looked dark. The scale now ends at the worst space
    before the line; the run-off shows the top colour."""
    import matplotlib.pyplot as plt
    import numpy as np

    from simkit.report.track_plots import heat_figure, heat_scale
    from simkit.tracks.compiled import F_PAST_FINISH

    t = tracks.load("nutcracker")
    past = (t.flags & F_PAST_FINISH) != 0
    values = np.zeros(t.n_spaces)
    values[10], values[20] = 100.0, 40.0
    values[np.flatnonzero(past)[:3]] = 500.0
    assert heat_scale(values, past) == 100.0
    assert heat_scale(np.where(past, 7.0, 0.0), past) == 7.0  # nothing before the line
    fig = heat_figure("nutcracker", values, "t", "crashes per 1000 races")
    try:
        scaled = [c for ax in fig.axes for c in ax.collections if c.get_array() is not None]
        assert scaled and all(c.get_clim() == (0.0, 100.0) for c in scaled)
        bar = [ax for ax in fig.axes if ax.get_label() == "<colorbar>"]
        assert bar and bar[0].get_ylim()[1] == 100.0
    finally:
        plt.close(fig)
