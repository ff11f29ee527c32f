"""The words a report's tables use, explained once at its end (GLOSSARY, docs/statistics.md)."""

from __future__ import annotations

import pandas as pd

from simkit.report.document import Document, Heading, Table

WORDS = (
    ("cell", "one combination a study plays: variant, track, number of players and bots"),
    ("slot", "a start position, 1 = best placed by the book (front, inside)"),
    ("seat", "a player's place in a race, carrying a bot"),
    ("skill level", "one bot playing every seat of a cell"),
    ("decided race", "a race with a winner who finished; win rates count only these"),
    ("draw", "a race in which seats share a finish position: not decided, counted apart"),
    ("finish mean", "a slot's mean finish position over its races that were not drawn"),
    ("win rate", "a slot's wins over the decided races it was in, with a 95% Wilson interval"),
    ("fair rate", "1 / players: every slot's win rate if start positions did not matter"),
    ("deviation", "a slot's win rate minus the fair rate, in percentage points (pp)"),
    ("tolerance", "how far from the fair rate a slot may be and still count as fair"),
    ("fair", "every slot's 95% interval lies within the fair rate ± the tolerance"),
    ("unfair", "some slot's whole 95% interval lies outside the fair rate ± the tolerance"),
    ("inconclusive", "neither yet: some interval straddles the band's edge; more races decide"),
    ("no verdict", "fewer than half the races were decided, so the winners say little"),
    (
        "robust",
        "every skill level decided, the same verdict, no difference between levels "
        "significantly beyond the tolerance",
    ),
    (
        "skill-dependent",
        "a slot's win rate differs by significantly more than the tolerance between two "
        "skill levels the level check separates (one measured stronger here)",
    ),
    (
        "style-dependent",
        "such a difference only between players the level check finds equally strong here: "
        "stated as the range among them",
    ),
    (
        "undetermined",
        "no such difference, but some level cannot decide, or the levels' strength was not "
        "measured",
    ),
    ("strong field", "two or more players of measured equal strength and independent build"),
    (
        "as strong as the reference",
        "the top level's head-to-head share against the model-free reference search "
        "(search:64 in Snow Tails) has its 95% low end at 45% or more, where the study plays",
    ),
    ("chi2, p", "Pearson's chi-square test that all slots are equal, and its p-value"),
    ("Cramér's V", "how strongly slot and result are linked: 0 not at all, 1 completely"),
    ("paired", "compared race by race on the same deals and dice (common random numbers)"),
    ("races unpaired", "races per cell an unpaired comparison would need for the same precision"),
    ("Holm", "the correction that keeps the chance of any false alarm in a table at 5%"),
    ("races needed", "races that would decide an inconclusive verdict, if the rates held"),
    ("race position", "a seat's place in the race order at the end of a round, 1 = leading"),
    ("drama", "how far behind the eventual winner was, averaged over the rounds: 0 = led all"),
    ("lead change", "share of rounds after which a different seat leads than the round before"),
    ("uncertainty", "how open the winner still is at a round: 0 = the leader wins, 1 = anyone"),
    ("stability", "1 - how much race positions move between rounds: 1 = no place ever changed"),
    ("rounds before the end", "counted back from each race's last round (0), so races line up"),
)


def add_glossary(doc: Document) -> None:
    """The report's last section: every term its tables use, in a line each."""
    doc.add(
        Heading("Words used in this report"),
        Table(
            pd.DataFrame(WORDS, columns=["word", "means"]),
            "glossary.csv",
            "docs/statistics.md gives each method and why.",
            collapsed=False,
        ),
    )
