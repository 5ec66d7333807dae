"""Lost verdicts re-proven with each pruning rule off: which rules the proofs need.

Run: ``canfield bench verify --run results/published/main-10k --deals 0:200
--nodes 2000000`` (add ``--also 6,12`` for deals the run did not prove lost).

The deals are those the run folder's rows prove lost under ``--profile``
within ``--deals``, plus ``--also``. Each is solved again with every rule on
and the node budget given; a loss is then re-proven by
:func:`canfield.solver.verify.verify_loss`, one rule off at a time and all
off, each with the same budget. One CSV row per solve: the deal, the rule
off (``none`` for the solve with every rule on), verdict, banked, positions
and seconds. The summary says how many losses were re-proven without each
rule and what that cost; a contradiction (a re-proof that wins, or another
banked count) is counted and must be 0.
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path

import pandas as pd

from canfield.engine.profiles import parse_profile
from canfield.engine.version import __version__
from canfield.experiments.bench.csv_rows import write_rows
from canfield.experiments.sweep.store import RunFolder
from canfield.solver.search import Solver, SolveResult, warm_up
from canfield.solver.verify import Verification, verify_loss

FIELDS = [
    "deal",
    "profile",
    "profile_full",
    "budget_nodes",
    "version",
    "published",
    "off",
    "result",
    "banked",
    "nodes",
    "seconds",
    "stop_reason",
    "needed",
    "contradicts",
]


def lost_deals(run: str | Path, profile: str, deals: range) -> list[int]:
    """The deals of ``deals`` that the run folder's rows prove lost under ``profile``."""
    rows: pd.DataFrame = RunFolder(run).load()
    canon = parse_profile(profile).canonical()
    pick = rows[(rows["profile"] == canon) & rows["deal"].isin(deals) & (rows["result"] == "lost")]
    return sorted(int(d) for d in pick["deal"])


def _row(deal: int, prof: str, nodes: int, published: str, off: str, r) -> dict:
    return {
        "deal": deal,
        "profile": prof,
        "profile_full": parse_profile(prof).full(),
        "budget_nodes": nodes,
        "version": __version__,
        "published": published,
        "off": off,
        "result": r.result,
        "banked": r.banked,
        "nodes": r.nodes,
        "seconds": round(r.seconds, 3),
        "stop_reason": r.stop_reason,
    }


def verify_deal(
    deal: int, profile: str, nodes: int, memory: int, published: str
) -> tuple[SolveResult, Verification | None, list[dict]]:
    """Solve ``deal`` with every rule on; re-prove a loss with each rule off."""

    def solve_with(prune: bool | list[str]) -> SolveResult:
        # no time budget: the node budget alone, so the rows are the same on any
        # machine; solve_deal: a selective deal is lost when its five picks are
        return Solver(memory, prune=prune).solve_deal(deal, profile, seconds=1e9, nodes=nodes)

    first = solve_with(True)
    rows = [
        {**_row(deal, profile, nodes, published, "none", first), "needed": "", "contradicts": ""}
    ]
    if first.result != "lost":
        return first, None, rows
    checked = verify_loss(parse_profile(profile), first.banked, solve_with)
    bad = set(checked.contradictions)
    for p in checked.reproofs:
        row = _row(deal, profile, nodes, published, p.off, p)
        rows.append({**row, "needed": p.needed, "contradicts": p.off in bad})
    return first, checked, rows


def summarize(rows: list[dict]) -> list[str]:
    """Lines of the summary: per rule off, losses re-proven and their cost."""
    df = pd.DataFrame(rows)
    on = df[df["off"] == "none"]
    lost = set(on.loc[on["result"] == "lost", "deal"])
    counts = on["result"].value_counts()
    lines = [
        f"deals {len(on)}; lost with every rule on {len(lost)}; "
        f"unknown {counts.get('unknown', 0)}; won {counts.get('won', 0)}"
    ]
    base = on.set_index("deal")
    for off, grp in df[df["off"] != "none"].groupby("off", sort=False):
        proven = grp[grp["result"] == "lost"]
        ratio = proven["nodes"].sum() / max(1, base.loc[proven["deal"], "nodes"].sum())
        secs = grp["seconds"].tolist()
        lines.append(
            f"without {off}: re-proven {len(proven)} of {len(grp)}, still unknown "
            f"{int((grp['result'] == 'unknown').sum())}, contradictions "
            f"{int(grp['contradicts'].astype(bool).sum())}; positions {int(grp['nodes'].sum()):,} "
            f"(re-proven: {int(proven['nodes'].sum()):,}, {ratio:.2f} x the proofs with the "
            f"rule on), seconds {sum(secs):.1f} (median {statistics.median(secs):.2f})"
        )
        unproven = sorted(int(d) for d in grp.loc[grp["result"] != "lost", "deal"])
        if unproven:
            lines.append(f"  without {off}, not re-proven: deals {unproven}")
    return lines


def bench(
    run: str | Path,
    profile: str,
    deals: range,
    also: list[int],
    nodes: int,
    memory: int,
    out: str | Path,
) -> tuple[Path, int]:
    """Re-prove the run's lost deals (and ``also``) with each rule off; write the rows.

    Returns
    -------
    tuple of (Path, int)
        The CSV file written and the number of contradictions (must be 0).
    """
    warm_up()
    chosen = lost_deals(run, profile, deals)
    published = dict.fromkeys(chosen, "lost")
    todo = chosen + [d for d in also if d not in published]
    print(f"{len(chosen)} deals lost in {run} under {profile}; {len(todo)} to re-prove")
    rows: list[dict] = []
    t0 = time.perf_counter()
    contradictions = 0
    for deal in todo:
        first, checked, deal_rows = verify_deal(
            deal, profile, nodes, memory, published.get(deal, "")
        )
        rows += deal_rows
        # written after every deal: a long run stopped early keeps what it did
        path = write_rows(out, rows, FIELDS)
        needed = "" if checked is None else f", needed {checked.needed or 'none'}"
        print(
            f"deal {deal}: {first.result} {first.banked} in {first.nodes:,} positions, "
            f"{first.seconds:.1f} s{needed}"
        )
        for p in [] if checked is None else checked.reproofs:
            print(f"  without {p.off}: {p.result} {p.banked}, {p.nodes:,} positions, {p.seconds} s")
        contradictions += 0 if checked is None else len(checked.contradictions)
        # a published loss that a larger budget wins: the published proof was wrong
        contradictions += published.get(deal) == "lost" and first.result == "won"
    path = write_rows(out, rows, FIELDS)
    for line in summarize(rows):
        print(line)
    print(f"wall {time.perf_counter() - t0:.0f} s; rows in {path}")
    return path, contradictions
