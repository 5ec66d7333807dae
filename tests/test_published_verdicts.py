"""Golden test: a deal's verdict never depends on the budget or the toolkit
version that found it.

``results/published/strict-600`` escalates every `strict` deal of 0-599 up
to 400 million positions (node budgets: reproducible); the benchmark rows
of the same deals were made at 10 s a deal and by long one-deal solves, by
other toolkit versions. A deal won in one and proven lost in another, or
two proofs that bank different counts, would be a bug in one of them.
Unknowns prove nothing and are not compared.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from canfield.experiments.report import load_runs

ROOT = Path(__file__).resolve().parents[1]
STRICT_600 = ROOT / "results" / "published" / "strict-600"
BENCH = ROOT / "results" / "bench"
#: Benchmark rows of strict deals 0-599: 10 s a deal, and the long proofs.
BENCH_ROWS = [
    "evict-0-599-0.22.0.csv",
    "evict-0-599-0.21.0.csv",
    "solver-0.22.0.csv",
    "long-0.11.0.csv",
    "long-200-399-0.11.0.csv",
    "long-200-599-0.21.0.csv",
]


def published() -> pd.DataFrame:
    df = load_runs([STRICT_600])
    return df[df["profile"] == "strict"].set_index("deal")


def test_strict_600_decides_all_but_a_few_deals():
    df = published()
    assert sorted(df.index) == list(range(600))
    unknown = df.index[df["result"] == "unknown"].tolist()
    assert len(unknown) <= 3, unknown  # 205 resisted 506 million positions before
    won = df[df["result"] == "won"]
    assert (won["banked"] == 52).all()
    assert (df.loc[df["result"] == "lost", "banked"] < 52).all()


def test_strict_600_agrees_with_every_benchmark_row_of_its_deals():
    df = published()
    compared = by_long = 0
    for name in BENCH_ROWS:
        rows = pd.read_csv(BENCH / name)
        rows = rows[(rows["profile"] == "strict") & (rows["deal"] < 600)]
        for deal, result, banked in rows[["deal", "result", "banked"]].itertuples(index=False):
            ours = df.loc[deal]
            if result == "unknown" or ours["result"] == "unknown":
                continue
            assert (ours["result"], ours["banked"]) == (result, banked), (name, deal)
            compared += 1
            by_long += name.startswith("long")
    # 1,370 today: each 0-599 file at 10 s decides 578 deals, the 0-199 one
    # 193, the long proofs 21
    assert compared >= 1_300 and by_long >= 15, (compared, by_long)
