"""The report's pictures of a race round by round (matplotlib, Agg backend), as PNGs.

Who wins from each race position after each round and the comebacks (:func:`rounds`),
each start slot's or bot's lead round by round (:func:`slot_rounds`), and the same counted
back from the race's end (:func:`race_end`), each over the share of races still running.
The section that shows them is :mod:`simkit.report.rounds`; the frame every picture shares
(:func:`simkit.report.plots.save_figure`, :func:`~simkit.report.plots.legend_below`) and the
pictures of rates and differences are :mod:`simkit.report.plots`'.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from simkit.report.plots import legend_below, save_figure

MIN_RACES = 30  # per-round points drawn only where at least this many races reach the round


def _running(ax, x, share, label: str = "races still running") -> None:
    """The share of races still running, grey, on a right-hand axis of ``ax`` (0-100%)."""
    from matplotlib.ticker import MaxNLocator

    twin = ax.twinx()
    twin.fill_between(x, 100 * share, step="mid", color="#a0aec0", alpha=0.25, lw=0)
    twin.plot(x, 100 * share, color="#718096", lw=1, ls=":", drawstyle="steps-mid", label=label)
    twin.set_ylim(0, 105)
    twin.set_ylabel(f"% {label}", color="#718096")
    twin.tick_params(axis="y", colors="#718096")
    ax.set_zorder(twin.get_zorder() + 1)
    ax.patch.set_visible(False)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))


def rounds(
    path: Path,
    wins: pd.DataFrame,
    backs: pd.DataFrame,
    row: pd.Series,
    title: str,
    running: pd.DataFrame | None = None,
):
    """Who wins from where: win probability by race position after each round, comebacks.

    Left: for each race position at the end of a round, how often that seat went on to win
    (decided races, Wilson 95% bands), with the 90% line and the round that passes it.
    Right: the share of decided races whose winner was not leading at the end of the round.
    Rounds that fewer than :data:`MIN_RACES` decided races reach are left out (their bands
    would fill the picture and say nothing). ``running`` (round, running): the share of
    races still running, drawn in grey behind both, since late rounds stand on long races.
    """
    wins = wins[wins["seats"] >= MIN_RACES]
    backs = backs[backs["races"] >= MIN_RACES]
    if running is not None:
        running = running[running["races"] >= MIN_RACES]

    def draw(fig):
        ax1, ax2 = fig.subplots(1, 2)
        if running is not None and not running.empty:
            for ax in (ax1, ax2):
                _running(ax, running["round"].to_numpy(), running["running"].to_numpy())
        for pos, part in wins.groupby("position"):
            ax1.plot(part["round"], 100 * part["win_rate"], "-", lw=1.4, label=f"position {pos}")
            ax1.fill_between(
                part["round"], 100 * part["win_low"], 100 * part["win_high"], alpha=0.2
            )
        ax1.axhline(90, color="#c53030", ls="--", lw=1, label="90%")
        if pd.notna(row["decided_round"]):
            ax1.axvline(
                row["decided_round"],
                color="#c53030",
                lw=1,
                label=f"decided after round {int(row['decided_round'])}",
            )
        ax1.set_xlabel("round (race position at its end)")
        ax1.set_ylabel("% of decided races won")
        ax1.set_ylim(0, 100)
        ax1.set_title("Win probability by race position")
        legend_below(ax1, 3)
        ax2.plot(
            backs["round"],
            100 * backs["comeback_rate"],
            "-",
            color="#805ad5",
            lw=1.4,
            label="winner not leading",
        )
        ax2.fill_between(
            backs["round"],
            100 * backs["comeback_low"],
            100 * backs["comeback_high"],
            color="#805ad5",
            alpha=0.2,
        )
        ax2.axvline(
            row["comeback_round"],
            color="#805ad5",
            ls="--",
            lw=1,
            label=f"comeback rate: round {int(row['comeback_round'])}",
        )
        ax2.set_xlabel("round")
        ax2.set_ylabel("% of decided races")
        ax2.set_ylim(0, 100)
        ax2.set_title("Comebacks: winner behind at the end of the round")
        legend_below(ax2, 2)
        fig.suptitle(title)

    return save_figure(draw, path, (9.0, 4.2))


def slot_rounds(
    path: Path,
    by_slot: pd.DataFrame,
    running: pd.DataFrame,
    players: int,
    title: str,
    key: str = "slot",
):
    """Does a start slot's edge fade during the race? Per slot and round (all races still
    running): left, the share of the slot's seats leading, with Wilson 95% bands and the
    fair share 1 / players; right, the slot's mean race position. Grey: the share of races
    still running. Rounds fewer than :data:`MIN_RACES` races reach are left out. With
    ``key="bot"`` the same per bot (``position_by_bot``'s rows): does a bot pull ahead?
    """
    by_slot = by_slot[by_slot["seats"] >= MIN_RACES]
    running = running[running["races"] >= MIN_RACES]

    def draw(fig):
        ax1, ax2 = fig.subplots(1, 2)
        for ax in (ax1, ax2):
            _running(ax, running["round"].to_numpy(), running["running"].to_numpy())
        for value, part in by_slot.groupby(key):
            name = f"slot {value}" if key == "slot" else str(value)
            ax1.plot(part["round"], 100 * part["lead_rate"], "-", lw=1.4, label=name)
            ax1.fill_between(
                part["round"], 100 * part["lead_low"], 100 * part["lead_high"], alpha=0.2
            )
            ax2.plot(part["round"], part["mean_position"], "-", lw=1.4, label=name)
        what = "start slot" if key == "slot" else "bot"
        ax1.axhline(100 / players, color="#4a5568", ls="--", lw=1, label="fair share")
        ax1.set_xlabel("round")
        ax1.set_ylabel(f"% of the {what}'s seats leading")
        ax1.set_ylim(0, 100)
        ax1.set_title(f"Leading at the end of the round, by {what}")
        legend_below(ax1, 4)
        ax2.axhline((players + 1) / 2, color="#4a5568", ls="--", lw=1, label="middle")
        ax2.set_xlabel("round")
        ax2.set_ylabel("mean race position (1 = leading)")
        ax2.set_ylim(players + 0.2, 0.8)  # the leader on top
        ax2.set_title(f"Mean race position, by {what}")
        legend_below(ax2, 4)
        fig.suptitle(title)

    return save_figure(draw, path, (9.0, 4.4))


def race_end(path: Path, wins: pd.DataFrame, unc: pd.DataFrame, title: str):
    """Curves aligned to the race's end: rounds before each race's last round.

    Left: win probability by race position k rounds before the end (decided races long
    enough to have that round, Wilson 95% bands). Right: uncertainty, the normalised
    entropy of the eventual winner's race position then. Grey, behind both: the share of
    decided races that lasted more than k rounds (``wins['running']``). Points that fewer
    than :data:`MIN_RACES` races reach, or fewer seats held, are left out.
    """
    wins = wins[wins["races"] >= MIN_RACES]
    unc = unc[unc["races"] >= MIN_RACES]
    share = wins.groupby("rounds_left")["running"].first()
    wins = wins[wins["seats"] >= MIN_RACES]  # a position few seats held says nothing

    def draw(fig):
        ax1, ax2 = fig.subplots(1, 2)
        for ax in (ax1, ax2):
            _running(ax, share.index.to_numpy(), share.to_numpy())
            ax.invert_xaxis()  # the end on the right
        for pos, part in wins.groupby("position"):
            x = part["rounds_left"].to_numpy()
            ax1.plot(x, 100 * part["win_rate"], "-", lw=1.4, label=f"position {pos}")
            ax1.fill_between(x, 100 * part["win_low"], 100 * part["win_high"], alpha=0.2)
        ax1.set_xlabel("rounds before the race's last round (0 = the last round)")
        ax1.set_ylabel("% of decided races won")
        ax1.set_ylim(0, 100)
        ax1.set_title("Win probability, counted back from the end")
        legend_below(ax1, 3)
        ax2.plot(unc["rounds_left"], unc["uncertainty"], "-", color="#dd6b20", lw=1.4)
        ax2.set_xlabel("rounds before the race's last round (0 = the last round)")
        ax2.set_ylabel("uncertainty (0 = the winner leads, 1 = anyone)")
        ax2.set_ylim(0, 1.02)
        ax2.set_title("Uncertainty of the winner, counted back")
        fig.suptitle(title)

    return save_figure(draw, path, (9.0, 4.2))
