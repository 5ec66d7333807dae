"""The README's tables of the published blocks say what their files hold.

A row is written by hand after each block of 1,000 deals: the `strict`
ladder table (*Deals 1000-N, a block of 1,000 at a time*), the
`hevagames` / `cardgames` table (*Three profiles on the same N deals*) and
the two 10 s benchmark tables, the bullets of what each block's long rungs
decided, each block's row of ``results/published/README.md`` and the
pooled `strict` paragraph. Each figure is checked against the folder's
report tables (which
``test_published_reports.py`` makes again from the rows), the benchmark
file or the ladders, and each table must hold a row for every published
block, so a block published without its row fails too.
(Three `strict` rows once gave the won share over all 1,000 deals, an
unknown counted as lost, where the header and the report give it over the
decided ones.)
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pandas as pd
import pytest
from test_published_verdicts import BY_100K, LADDERS, Ladder, bench_rows, published

ROOT = Path(__file__).resolve().parents[1]
PUBLISHED = ROOT / "results" / "published"
BENCH = ROOT / "results" / "bench"
README = (ROOT / "README.md").read_text().splitlines()

DEALS = r"\| (?P<first>\d+)-(?P<last>\d+) \| "
#: | deals | toolkit | won | lost | unknown | decided at ... | CPU hours | won [95% Wilson] |
LADDER_ROW = re.compile(
    DEALS + r"(?P<version>0\.\d+\.\d+) \| (?P<won>\d+) \| (?P<lost>\d+) \| (?P<unknown>\d+) \| "
    r"(?P<rungs>[\d /-]+) \| (?P<hours>[\d.]+) \| (?P<wilson>[\d.]+ \[[\d.]+, [\d.]+\]) \|$"
)
#: | deals | hevagames won / lost / unknown | CPU hours | ... | cardgames ... | CPU hours | ... |
THREE_ROW = re.compile(
    DEALS + r"(?P<hevagames>[\d,]+ / [\d,]+ / \d+) \| (?P<hevagames_hours>[\d.]+) \| .* \| "
    r"(?P<cardgames>[\d,]+ / [\d,]+ / \d+) \| (?P<cardgames_hours>[\d.]+) \| .* \|$"
)
#: | deals | toolkit | decided | won / lost / unknown | [blocks of 100 |] positions a second |
#: of those left, the ladder proves lost / wins | rows |
BENCH_ROW = re.compile(
    DEALS + r"(?P<version>0\.\d+\.\d+) \| (?P<decided>\d+) \| (?P<verdicts>\d+ / \d+ / \d+) \| "
    r"(?:(?P<per_100>\d+-\d+) \| )?(?P<rate>[\d,]+) \| (?P<left>.*) \| (?P<file>.*) \|$"
)


def rows_of(pattern: re.Pattern[str]) -> list[re.Match[str]]:
    return [m for line in README if (m := pattern.match(line))]


def blocks(profile: str) -> list[tuple[int, int]]:
    """(first, last) deal of every published block folder of ``profile``
    from deal 1000 on (``<profile>-<first>-<last>``)."""
    found = []
    for path in PUBLISHED.iterdir():
        m = re.fullmatch(rf"{profile}-(\d+)-(\d+)", path.name)
        if m and int(m.group(1)) >= 1000:
            found.append((int(m.group(1)), int(m.group(2))))
    return sorted(found)


def report(folder: str, profile: str) -> tuple[pd.Series, pd.DataFrame]:
    """The folder's summary row of ``profile`` and its escalation table."""
    tables = PUBLISHED / folder / "report"
    summary = pd.read_csv(tables / "summary.csv")
    escalation = pd.read_csv(tables / "escalation.csv")
    return (
        summary[summary["profile"] == profile].iloc[0],
        escalation[escalation["profile"] == profile],
    )


def cpu_hours(escalation: pd.DataFrame) -> str:
    """Every rung's CPU time (the sweep's is wall time, and not counted)."""
    seconds = escalation.loc[escalation["seconds_kind"] == "CPU", "seconds_total"].sum()
    return f"{seconds / 3600:.2f}"


def verdicts(summary: pd.Series, words: bool = False) -> str:
    """The counts as the tables give them ("W / L / U"), or in words."""
    counts = [(f"{int(summary[k]):,}", k) for k in ("won", "lost", "unknown")]
    if words:
        return ", ".join(f"{n} {k}" for n, k in counts)
    return " / ".join(n for n, _ in counts)


def test_the_strict_ladder_table_is_the_blocks_reports() -> None:
    rows = rows_of(LADDER_ROW)
    assert [(int(m["first"]), int(m["last"])) for m in rows] == blocks("strict")
    for m in rows:
        folder = f"strict-{m['first']}-{m['last']}"
        summary, escalation = report(folder, "strict")
        decided = escalation["decided"].tolist()
        # the sweep and three rungs, then what every rung past 400 million
        # decided together ("-" where there was none)
        more = str(sum(decided[4:])) if len(decided) > 4 else "-"
        wilson = f"{summary['win_pct']:.1f} [{summary['win_lo']:.1f}, {summary['win_hi']:.1f}]"
        assert set(escalation["version"]) == {m["version"]}, folder
        assert (
            int(m["won"]),
            int(m["lost"]),
            int(m["unknown"]),
            m["rungs"],
            m["hours"],
            m["wilson"],
        ) == (
            summary["won"],
            summary["lost"],
            summary["unknown"],
            " / ".join(map(str, decided[:4])) + f" / {more}",
            cpu_hours(escalation),
            wilson,
        ), folder


def test_the_three_profile_table_is_the_blocks_reports() -> None:
    rows = rows_of(THREE_ROW)
    # 0-999 and 1000-4999 are one folder each, then a block a folder
    heva = [(0, 999), *blocks("hevagames")]
    assert [(int(m["first"]), int(m["last"])) for m in rows] == heva
    assert blocks("cardgames") == blocks("hevagames")
    for m in rows:
        for profile in ("hevagames", "cardgames"):
            first, last = m["first"], m["last"]
            folder = f"{profile}-1k" if first == "0" else f"{profile}-{first}-{last}"
            summary, escalation = report(folder, profile)
            assert (m[profile], m[f"{profile}_hours"]) == (
                verdicts(summary),
                cpu_hours(escalation),
            ), folder


@pytest.mark.parametrize("profile", ["strict", "hevagames"])
def test_the_10s_benchmark_tables_are_their_files(profile: str) -> None:
    rows = [m for m in rows_of(BENCH_ROW) if (m["per_100"] is not None) == (profile == "strict")]
    # a row a block of 1,000 from deal 1000 to the last published block
    last = blocks(profile)[-1][1]
    assert [(int(m["first"]), int(m["last"])) for m in rows] == [
        (a, a + 999) for a in range(1000, last + 1, 1000)
    ]
    file = None
    for m in rows:
        first, last = int(m["first"]), int(m["last"])
        named = re.fullmatch(r"`results/bench/(.*)`", m["file"])
        assert named or m["file"] == "the same file", m.group(0)
        file = named.group(1) if named else file
        bench = pd.read_csv(BENCH / file)
        bench = bench[bench["deal"].between(first, last)]
        assert len(bench) == 1000 and (bench["profile"] == profile).all(), file
        assert set(bench["version"]) == {m["version"]}, file
        counts = bench["result"].value_counts()
        decided = bench["result"] != "unknown"
        per_100 = decided.groupby(bench["deal"] // 100).sum()
        got = (
            int(decided.sum()),
            " / ".join(str(int(counts.get(k, 0))) for k in ("won", "lost", "unknown")),
            f"{bench['nodes'].sum() / bench['seconds'].sum():,.0f}",
        )
        assert (int(m["decided"]), m["verdicts"], m["rate"]) == got, m.group(0)
        if profile == "strict":
            assert m["per_100"] == f"{per_100.min()}-{per_100.max()}", m.group(0)


#: the `strict` blocks whose 10 s file is their own (one file a block)
STRICT_BLOCKS = [lad for lad in LADDERS if lad.profile == "strict" and lad.deals.start >= 1000]


@pytest.mark.parametrize("ladder", STRICT_BLOCKS, ids=lambda lad: lad.folder)
def test_the_strict_benchmark_table_gives_the_ladders_verdicts_of_what_10s_left(
    ladder: Ladder,
) -> None:
    # "46 (23.2 million) / 6; 3765 unknown": the deals the 10 s solve left
    # unknown that the ladder proves lost (the median of its positions to
    # the verdict), those it wins, and any it leaves unknown too
    (row,) = [
        m
        for m in rows_of(BENCH_ROW)
        if m["per_100"] is not None and int(m["first"]) == ladder.deals.start
    ]
    bench = bench_rows(ladder.bench[0])
    left = published(ladder).loc[bench.loc[bench["result"] == "unknown", "deal"]]
    lost = left[left["result"] == "lost"]
    won = (left["result"] == "won").sum()
    said = f"{len(lost)} ({lost['nodes'].median() / 1e6:.1f} million) / {won}"
    said += "".join(f"; {deal} unknown" for deal in left.index[left["result"] == "unknown"])
    assert row["left"] == said, ladder.folder


@cache
def long_rung_bullets() -> dict[int, str]:
    """*What the long rungs decided*: each block's bullet by its first deal,
    its lines joined (the list ends at the first blank line after it starts)."""
    text = "\n".join(README)
    start = text.index("\n* ", text.index("What the long rungs decided"))
    listed = text[start : text.index("\n\n", start)] + "\n"
    found = re.findall(r"^\* (\d+)-\d+: (.*?)(?=^\* |\Z)", listed, re.M | re.S)
    return {int(first): " ".join(body.split()) for first, body in found}


def near(written: str, value: float) -> bool:
    """``written`` (as "19.7" or "213") is ``value`` to within a unit of its
    last digit."""
    decimals = len(written.partition(".")[2])
    return abs(float(written) - value) < 10.0**-decimals


@pytest.mark.parametrize("ladder", STRICT_BLOCKS, ids=lambda lad: lad.folder)
def test_the_long_rung_bullets_name_what_the_ladder_decided_late(ladder: Ladder) -> None:
    # "* 20000-20999: 16 losses in 20.6-308 million (...), 20570, 20607,
    # 20823 and 20996 won in 24-139 million; at 800 million ... 20012 ...;
    # **20890 unknown** at 800 million"
    bullet = long_rung_bullets()[ladder.deals.start]
    df = published(ladder)
    at_400m = df[df["decided_rung"] == 3]
    millions = at_400m["nodes"] / 1e6
    lost = millions[at_400m["result"] == "lost"]
    m = re.match(r"(\d+) losses( and \w+ wins \([^)]*\))? in ([\d.]+)-([\d.]+) million", bullet)
    assert m, bullet
    assert int(m[1]) == len(lost), bullet
    # "N losses and two wins (...) in A-B million" spans the wins too
    span = millions if m[2] else lost
    assert near(m[3], span.min()) and near(m[4], span.max()), (bullet, span.min(), span.max())
    # every win of the 400 million rung, every deal a longer rung decided and
    # every deal left unknown is named; the unknown in bold
    late = df.index[(df["decided_rung"] > 3) | (df["result"] == "unknown")]
    named = set(map(int, re.findall(r"\b\d{4,5}\b", bullet)))
    must_name = set(at_400m.index[at_400m["result"] == "won"]) | set(late)
    assert must_name <= named, sorted(must_name - named)
    for deal in df.index[df["result"] == "unknown"]:
        assert f"**{deal} unknown**" in bullet, deal


#: a block's row of ``results/published/README.md``: its folder, what the
#: ladder did, its commands
PUBLISHED_ROW = re.compile(
    r"\| `(?P<folder>(?P<profile>strict|hevagames|cardgames)-\d+-\d+)/` \| "
    r"(?P<what>.*?) \| `canfield"
)


def test_the_published_readme_gives_each_blocks_report() -> None:
    lines = (PUBLISHED / "README.md").read_text().splitlines()
    rows = [m for line in lines if (m := PUBLISHED_ROW.match(line))]
    published = {
        f"{profile}-{first}-{last}"
        for profile in ("strict", "hevagames", "cardgames")
        for first, last in blocks(profile)
    }
    assert {m["folder"] for m in rows} == published | {"strict-600-999"}
    for m in rows:
        summary, escalation = report(m["folder"], m["profile"])
        decided = escalation["decided"].tolist()
        what = m["what"]
        # the sweep, then "1,000,000 (N more)" and "20,000,000 (N more)" or
        # "(the last N)"
        assert f"the sweep at 50,000 ({decided[0]:,} decided" in what, m["folder"]
        assert f"1,000,000 ({decided[1]:,} more)" in what, m["folder"]
        assert re.search(rf"20,000,000 \((the last )?{decided[2]:,}( more)?[);:]", what), m[
            "folder"
        ]
        end = f"{verdicts(summary, words=True)}; {cpu_hours(escalation)} CPU hours"
        assert end in what, m["folder"]


def test_the_readme_quotes_the_pooled_strict_ladders_and_their_agreement() -> None:
    # the headline (question 1) and the pooled paragraph come from the one
    # pooled `strict` report; the agreement figure is the sum of the
    # counts test_published_verdicts.py holds
    (folder,) = [p for p in PUBLISHED.glob("strict-*k-report") if p.is_dir()]
    summary = pd.read_csv(folder / "summary.csv").iloc[0]
    text = " ".join(" ".join(README).split())
    wilson = f"[{summary['win_lo']:.1f}, {summary['win_hi']:.1f}]"
    assert f"`results/published/{folder.name}`" in text
    assert (
        f"{int(summary['won']):,} won, {int(summary['lost']):,} lost,"
        f" {int(summary['unknown'])} unknown" in text
    )
    assert f"{summary['win_pct']:.1f}% {wilson}" in text  # the headline
    assert f"Wilson 95% {wilson}" in text
    assert f"{sum(BY_100K.values()):,} rows over the ladders" in text
