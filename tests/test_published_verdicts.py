"""Golden test: a deal's verdict never depends on the budget or the toolkit
version that found it.

``results/published/strict-600`` escalates every `strict` deal of 0-599 up
to 400 million positions (node budgets: reproducible), and
``results/published/strict-600-999`` deals 600-999 the same way; the
benchmark rows of the same deals were made at 10 s or 60 s a deal and by
long one-deal solves, by other toolkit versions. A deal won in one and
proven lost in another, or two proofs that bank different counts, would be
a bug in one of them. Unknowns prove nothing and are not compared.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

import pandas as pd
import pytest

from canfield.experiments.report import load_runs

ROOT = Path(__file__).resolve().parents[1]
PUBLISHED = ROOT / "results" / "published"
BENCH = ROOT / "results" / "bench"


class Ladder(NamedTuple):
    folder: str
    deals: range
    #: benchmark rows holding strict deals of ``deals``
    bench: tuple[str, ...]
    #: how many unknown rows the folder may keep
    unknown: int
    #: the fewest comparisons with decided benchmark rows, and with long proofs
    compared: int
    by_long: int


LADDERS = [
    # 1,370 comparisons today: each 0-599 file at 10 s decides 578 deals, the
    # 0-199 one 193, the long proofs 21; 205 resisted 3 billion positions
    Ladder(
        "strict-600",
        range(600),
        (
            "evict-0-599-0.22.0.csv",
            "evict-0-599-0.21.0.csv",
            "solver-0.22.0.csv",
            "long-0.11.0.csv",
            "long-200-399-0.11.0.csv",
            "long-200-599-0.21.0.csv",
        ),
        unknown=3,
        compared=1_300,
        by_long=15,
    ),
    # every deal decided (toolkit 0.23.9); 784 comparisons: 387 deals decided
    # at 10 s by each of two toolkits, 10 more at 60 s
    Ladder(
        "strict-600-999",
        range(600, 1000),
        (
            "held-600-799-0.22.0.csv",
            "held-800-999-0.22.0.csv",
            "held-600-999-0.23.9.csv",
            "strict-unknowns-600-999-60s-0.22.0.csv",
        ),
        unknown=0,
        compared=784,
        by_long=10,
    ),
]


def published(ladder: Ladder) -> pd.DataFrame:
    df = load_runs([PUBLISHED / ladder.folder])
    return df[df["profile"] == "strict"].set_index("deal")


@pytest.mark.parametrize("ladder", LADDERS, ids=lambda lad: lad.folder)
def test_the_ladder_decides_all_but_a_few_deals(ladder: Ladder) -> None:
    df = published(ladder)
    assert sorted(df.index) == list(ladder.deals)
    unknown = df.index[df["result"] == "unknown"].tolist()
    assert len(unknown) <= ladder.unknown, unknown
    won = df[df["result"] == "won"]
    assert (won["banked"] == 52).all()
    assert (df.loc[df["result"] == "lost", "banked"] < 52).all()


@pytest.mark.parametrize("ladder", LADDERS, ids=lambda lad: lad.folder)
def test_the_ladder_agrees_with_every_benchmark_row_of_its_deals(ladder: Ladder) -> None:
    df = published(ladder)
    compared = by_long = 0
    for name in ladder.bench:
        rows = pd.read_csv(BENCH / name)
        rows = rows[(rows["profile"] == "strict") & rows["deal"].isin(ladder.deals)]
        for deal, result, banked in rows[["deal", "result", "banked"]].itertuples(index=False):
            ours = df.loc[deal]
            if result == "unknown" or ours["result"] == "unknown":
                continue
            assert (ours["result"], ours["banked"]) == (result, banked), (name, deal)
            compared += 1
            by_long += name.startswith(("long", "strict-unknowns"))
    assert compared >= ladder.compared and by_long >= ladder.by_long, (compared, by_long)
