"""Pictures a designer can read: whole numbers on axes that count whole things."""

import matplotlib
import numpy as np
import pandas as pd

from simkit.report import plots


def _drawn(monkeypatch, make):
    """The figure a plot function draws, kept open instead of written."""
    import matplotlib.pyplot as plt

    matplotlib.use("Agg", force=False)
    kept = {}

    def keep(draw, path, size):
        fig = plt.figure(figsize=size)
        draw(fig)
        fig.canvas.draw()
        kept["fig"] = fig
        return path

    monkeypatch.setattr(plots, "save_figure", keep)
    make()
    return kept["fig"]


def test_race_length_ticks_are_whole_rounds(monkeypatch, tmp_path):
    rounds = np.arange(11, 29)
    share = np.exp(-0.5 * (rounds - 13.0) ** 2 / 4)
    hist = pd.DataFrame({"cell": 0, "rounds": rounds, "share": share / share.sum()})
    fig = _drawn(monkeypatch, lambda: plots.race_length(tmp_path / "x.png", hist, {0: "a"}))
    ticks = [t for t in fig.axes[0].get_xticks() if rounds.min() <= t <= rounds.max()]
    assert len(ticks) >= 3 and all(float(t).is_integer() for t in ticks), ticks
