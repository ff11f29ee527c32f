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
