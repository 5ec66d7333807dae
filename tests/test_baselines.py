"""Golden test: our verdicts never contradict Solvitaire's per-deal verdicts.

The baselines (``results/baselines/``, provenance in its README) are another
solver's verdicts: a deal one of us wins and the other proves lost is a bug in
one of the two. Unknowns on either side prove nothing and are not compared.
Solving all 200 deals here would be too slow for the suite, so the published
``main-10k`` rows (deals 0-199, 50,000 positions) are read from the Parquet
parts, and a small fixed sample is solved afresh at a small node budget, which
also checks that today's solver agrees with the rows it would publish.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from canfield.experiments.bench.compare_baseline import compare, read_verdicts
from canfield.experiments.sweep.store import RunFolder
from canfield.solver.search import solve_deal

ROOT = Path(__file__).resolve().parents[1]
BASELINES = ROOT / "results" / "baselines"
MAIN_10K = ROOT / "results" / "published" / "main-10k"
#: Solvitaire's words for the verdicts of its own deals (the seeds file).
SEED_VERDICTS = {"solved": "won", "unsolvable": "lost", "timed-out": "unknown"}
#: Deals solved afresh: every 25th of 0-199 and the strict losses that only a
#: longer search decides stay out (they are the published rows' job).
FRESH_DEALS = range(0, 200, 25)
FRESH_NODES = 20_000


def exact_baseline(profile: str) -> pd.DataFrame:
    return read_verdicts(BASELINES / f"solvitaire-exact-{profile}-deals-0-199.csv")


def seeds_baseline() -> pd.DataFrame:
    """The seeds file as ``seed, tokens`` and one verdict per Solvitaire budget."""
    df = pd.read_csv(BASELINES / "solvitaire-seeds-1-50.tsv", sep="\t", comment="#")
    for col in ("arbitrary_5s", "arbitrary_10s"):
        assert set(df[col]) <= set(SEED_VERDICTS), col
        df[col] = df[col].map(SEED_VERDICTS)
    return df


def contradictions(ours: pd.Series, theirs: pd.Series) -> list:
    """Indices where one side is won and the other lost."""
    both = ours.ne("unknown") & theirs.ne("unknown")
    return sorted(ours.index[both & ours.ne(theirs)])


@pytest.mark.parametrize("profile", ["strict", "hevagames"])
def test_published_rows_never_contradict_the_exact_baselines(profile):
    rows = RunFolder(MAIN_10K).load()
    ours = rows[(rows["profile"] == profile) & (rows["deal"] < 200)]
    assert set(ours["version"]) and set(ours["budget_nodes"]) == {50_000}
    theirs = exact_baseline(profile)
    c = compare(ours[["profile", "deal", "result"]], theirs)
    assert c["deals"] == 200
    assert c["contradictions"] == [], c
    # the comparison bites: both sides decide most deals, and both lose some of them
    m = ours.merge(theirs, on=["profile", "deal"], suffixes=("_ours", "_theirs"))
    both = m[m["result_ours"].ne("unknown") & m["result_theirs"].ne("unknown")]
    assert len(both) >= 100, c
    assert (both["result_ours"] == "lost").sum() >= 15, c


@pytest.mark.parametrize("profile", ["strict", "hevagames"])
def test_a_fresh_sample_never_contradicts_the_exact_baselines(profile):
    theirs = exact_baseline(profile).set_index("deal")["result"]
    ours = pd.Series(
        {d: solve_deal(d, profile, seconds=600, nodes=FRESH_NODES).result for d in FRESH_DEALS}
    )
    assert contradictions(ours, theirs[ours.index]) == []
    assert (ours.ne("unknown") & theirs[ours.index].ne("unknown")).sum() >= 5


def test_the_seeds_file_parses_and_its_two_budgets_agree():
    df = seeds_baseline()
    assert list(df["seed"]) == list(range(1, 51))
    assert all(len(t.split()) == 52 for t in df["tokens"])
    # a longer budget never takes back a verdict
    assert contradictions(df["arbitrary_10s"], df["arbitrary_5s"]) == []


def test_a_fresh_sample_of_solvitaires_own_deals_never_contradicts_it():
    """Our ``solvitaire`` profile is its ``canfield-arbitrary-built-moves``."""
    df = seeds_baseline().set_index("seed")
    sample = df.iloc[::4]  # 13 seeds: 1, 5, 9, ..., 49
    ours = pd.Series(
        {
            seed: solve_deal(row.tokens, "solvitaire", seconds=600, nodes=FRESH_NODES).result
            for seed, row in sample.iterrows()
        }
    )
    for col in ("arbitrary_5s", "arbitrary_10s"):
        assert contradictions(ours, sample[col]) == [], col
    decided = ours.ne("unknown") & sample["arbitrary_10s"].ne("unknown")
    # it bites: wins and losses on both sides among the compared
    assert decided.sum() >= 8
    assert {"won", "lost"} <= set(ours[decided])
