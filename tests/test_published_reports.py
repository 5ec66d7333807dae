"""The published report tables are what their commands make today.

``results/published/README.md`` gives the command behind every report
folder; a change to the report (a new column, a reworded preamble) must be
published with it, or the committed tables say something the toolkit no
longer does. Each folder's tables are made again into a temporary folder and
compared byte for byte (``main-100k``, the largest, takes about 20 s).
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

import pytest
from click.testing import CliRunner

from canfield.experiments.cli import main

PUBLISHED = Path(__file__).resolve().parent.parent / "results" / "published"
RUNS = sorted(p.parent.name for p in PUBLISHED.glob("*/report") if p.is_dir())
#: the players' report: its own folder, made from three runs
PLAYERS = ("greedy-1k", "pimc-1k", "main-10k")
#: deals 0-999 decided one by one under five profiles: a report of the
#: ladders pooled (--pool: strict's two folders count as one sample)
LADDERS_1K = (
    "strict-600",
    "strict-600-999",
    "hevagames-1k",
    "cardgames-1k",
    "solvitaire-1k",
    "superior-1k",
)

#: `strict` 0-1999 beside the variants estimate and `cardgames-1k`: the
#: related profiles' section settles `superior` and `selective` rows from
#: `strict` wins
RELATED_2K = ("strict-600", "strict-600-999", "strict-1000-1999", "cardgames-1k", "variants-2k-est")


def blocks(profile: str, first: int, stop: int) -> tuple[str, ...]:
    """The folders of ``profile``'s blocks of 1,000 deals from ``first`` to ``stop``."""
    return tuple(f"{profile}-{a}-{a + 999}" for a in range(first, stop, 1000))


#: every `strict` deal of 0-24999 by the ladder, pooled: the README's headline
STRICT_25K = ("strict-600", "strict-600-999", *blocks("strict", 1000, 25000))


#: `strict`, `hevagames` and `cardgames` on deals 0-24999, each decided one by
#: one (--pool: each profile's folders count as one sample; hevagames-1000-4999's
#: subsample, its one hard deal, is a census and pools as phase 1)
RULES_25K = (
    *STRICT_25K,
    *(
        folder
        for profile in ("hevagames", "cardgames")
        for folder in (f"{profile}-1k", f"{profile}-1000-4999", *blocks(profile, 5000, 25000))
    ),
)


def remade(runs: tuple[str, ...], out: Path, *options: str) -> None:
    args = ["report", *(str(PUBLISHED / r) for r in runs), "--out", str(out), *options]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output


def differing(committed: Path, made: Path) -> list[str]:
    """Names of the committed tables that the command no longer makes as they are."""
    out = []
    for f in sorted(committed.iterdir()):
        if f.is_file() and f.suffix in (".csv", ".md"):
            new = made / f.name
            if not new.exists() or new.read_bytes() != f.read_bytes():
                out.append(f.name)
    return out


def test_every_report_folder_is_checked() -> None:
    # the glob must find the folders the README lists, or the test below checks nothing
    assert {"main-10k", "main-100k", "variants-2k", "strict-600", "double-2k"} <= set(RUNS)


@pytest.mark.parametrize("run", RUNS)
def test_published_report_is_current(run: str, tmp_path: Path) -> None:
    remade((run,), tmp_path)
    assert differing(PUBLISHED / run / "report", tmp_path) == []


class Combined(NamedTuple):
    """A report folder made from several runs, and the lines of its
    ``report.md`` that the README quotes."""

    folder: str
    runs: tuple[str, ...]
    options: tuple[str, ...]
    quoted: tuple[str, ...]


COMBINED = [
    Combined("players-report", PLAYERS, (), ()),
    # the README's superior bracket on 0-999: 4 of superior-1k's 13 unknowns
    # are strict wins, so 949 / 42 / 9
    Combined(
        "ladders-1k-report",
        LADDERS_1K,
        ("--pool",),
        (
            "| superior | 1000 | 949 | 42 | 9 | 4 | 0 | 95.8 [94.3, 96.8] | 94.9 .. 95.8 |",
            "| superior | won | strict | fill | 4 | 13, 179, 321, 351 |",
        ),
    ),
    # the section this report is published for: superior and selective rows
    # settled from strict wins (36 and 4), none contradicted, and what they
    # come to: the brackets the README gives for variants-2k-est
    Combined(
        "related-2k-report",
        RELATED_2K,
        (),
        (
            "Related profiles: no contradiction; 40 unknown rows settled",
            "| superior | 2000 | 1754 | 68 | 178 | 36 | 0 |",
            "| selective | 2000 | 1952 | 27 | 21 | 4 | 0 |",
        ),
    ),
    # the README's first answer: 18,120 won, 6,874 lost, 6 unknown (205, 3765,
    # 4300, 13636, 20890, 21873)
    Combined(
        "strict-25k-report",
        STRICT_25K,
        ("--pool",),
        ("| strict | 25000 | 18120 | 6874 | 6 | 72.5 [71.9, 73.0] | 72.5 .. 72.5 |",),
    ),
    # the README's table: three profiles on the same 25,000 deals, and every
    # strict win a hevagames win, every hevagames win a cardgames win;
    # hevagames-8000-8999's and hevagames-18000-18999's censuses of their one
    # hard deal (8175 and 18617, each won turned by 128) fold into phase 1,
    # so hevagames has no unknown left
    Combined(
        "rules-25k-report",
        RULES_25K,
        ("--pool",),
        (
            "| hevagames | 25000 | 22122 | 2878 | 0 | 88.5 [88.1, 88.9] |",
            "| cardgames | 25000 | 23088 | 1909 | 3 | 92.4 [92.0, 92.7] |",
            "| strict | hevagames | 25000 | 6 | 18120 | 0 | 3996 | 2878 |",
            "| hevagames | cardgames | 25000 | 3 | 22122 | 0 | 966 | 1909 |",
            "| hevagames | 25000 | 22122 (88.5%) | 2878 (11.5%) | 0 (0.0%) | 88.5 | 88.5 .. 88.5 "
            "| 0 | none | none | 1 | 88.5 [88.1, 88.9] |",
        ),
    ),
]


@pytest.mark.parametrize("report", COMBINED, ids=lambda c: c.folder)
def test_combined_report_is_current(report: Combined, tmp_path: Path) -> None:
    remade(report.runs, tmp_path, *report.options)
    assert differing(PUBLISHED / report.folder, tmp_path) == []
    text = (PUBLISHED / report.folder / "report.md").read_text()
    for line in report.quoted:
        assert line in text
