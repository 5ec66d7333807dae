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


#: every `strict` deal of 0-26999 by the ladder, pooled: the README's headline
STRICT_27K = ("strict-600", "strict-600-999", *blocks("strict", 1000, 27000))


#: `strict`, `hevagames` and `cardgames` on deals 0-26999, each decided one by
#: one (--pool: each profile's folders count as one sample; hevagames-1000-4999's
#: subsample, its one hard deal, is a census and pools as phase 1)
RULES_27K = (
    *STRICT_27K,
    *(
        folder
        for profile in ("hevagames", "cardgames")
        for folder in (f"{profile}-1k", f"{profile}-1000-4999", *blocks(profile, 5000, 27000))
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
    # the README's first answer: 19,583 won, 7,410 lost, 7 unknown (205, 3765,
    # 4300, 13636, 20890, 21873, 25896)
    Combined(
        "strict-27k-report",
        STRICT_27K,
        ("--pool",),
        ("| strict | 27000 | 19583 | 7410 | 7 | 72.5 [72.0, 73.1] | 72.5 .. 72.6 |",),
    ),
    # the README's table: three profiles on the same 27,000 deals, and every
    # strict win a hevagames win, every hevagames win a cardgames win;
    # hevagames-8000-8999's and hevagames-18000-18999's censuses of their one
    # hard deal (8175 and 18617, each won turned by 128) fold into phase 1,
    # so hevagames has no unknown left
    Combined(
        "rules-27k-report",
        RULES_27K,
        ("--pool",),
        (
            "| hevagames | 27000 | 23886 | 3114 | 0 | 88.5 [88.1, 88.8] |",
            "| cardgames | 27000 | 24940 | 2056 | 4 | 92.4 [92.1, 92.7] |",
            "| strict | hevagames | 27000 | 7 | 19583 | 0 | 4296 | 3114 |",
            "| hevagames | cardgames | 27000 | 4 | 23886 | 0 | 1054 | 2056 |",
            "| hevagames | 27000 | 23886 (88.5%) | 3114 (11.5%) | 0 (0.0%) | 88.5 | 88.5 .. 88.5 "
            "| 0 | none | none | 1 | 88.5 [88.1, 88.8] |",
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
