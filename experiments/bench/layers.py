"""Depth-first against layered search: the same deals, time and peak memory.

The layered search (``docs/solver.md``) visits the same positions as the
depth-first one but forgets each finished layer of progress, so a proof
needs less memory. This benchmark solves each deal both ways under the same
budget and prints, per deal and strategy, the verdict, banked, positions,
seconds and peak memory, then the median memory ratio and the total time
ratio over the deals both strategies decided. Rows go to a CSV.

Run: ``canfield bench layers --deals 0,9,19,6,12,64,110 --budget 120s --memory 8GB``
(add ``--dfs-share 0 --no-probes`` for the layers alone, with no depth-first
share and no probes first).
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path

from canfield.engine.profiles import parse_profile
from canfield.engine.version import __version__
from canfield.experiments.bench.csv_rows import write_rows
from canfield.solver import config
from canfield.solver.search import ONE_CORE_STRATEGIES, Solver, warm_up


def run(
    profile: str, deals: list[int], seconds: float, memory: int, probes: bool = True
) -> list[dict]:
    """Solve each deal depth-first and layered; one row per (deal, strategy)."""
    solvers = {s: Solver(memory, strategy=s, probes=probes) for s in ONE_CORE_STRATEGIES}
    rows = []
    full = parse_profile(profile).full()
    for d in deals:
        for name, solver in solvers.items():
            # solve_deal: a selective deal is its five base picks, each on a share
            r = solver.solve_deal(d, profile, seconds=seconds)
            rows.append(
                {
                    "profile": profile,
                    "profile_full": full,
                    "deal": d,
                    "strategy": name,
                    "result": r.result,
                    "banked": r.banked,
                    "nodes": r.nodes,
                    "seconds": round(r.seconds, 3),
                    "peak_bytes": r.peak_table_bytes,
                    "stop_reason": r.stop_reason,
                    "budget_seconds": seconds,
                    "budget_memory": memory,
                    "dfs_share": config.LAYER_DFS_SHARE if name == "layers" else None,
                    "probes": probes,
                    "stage": r.stage,
                    "version": __version__,
                }
            )
            print(
                f"{profile} deal {d:>5} {name:>6}: {r.result:>7} banked {r.banked:>2} "
                f"{r.nodes:>11,} positions {r.seconds:8.2f} s "
                f"{r.peak_table_bytes / 2**20:8.1f} MiB  ({r.stop_reason})",
                flush=True,
            )
    return rows


def summarise(rows: list[dict]) -> str:
    """One line: deals decided both ways, differences, and the layers/dfs ratios."""
    by = {(r["deal"], r["strategy"]): r for r in rows}
    deals = sorted({r["deal"] for r in rows})
    both = [
        d
        for d in deals
        if by[(d, "dfs")]["result"] != "unknown" and by[(d, "layers")]["result"] != "unknown"
    ]
    differ = [
        d
        for d in both
        if (by[(d, "dfs")]["result"], by[(d, "dfs")]["banked"])
        != (by[(d, "layers")]["result"], by[(d, "layers")]["banked"])
    ]
    only = {
        s: [d for d in deals if by[(d, s)]["result"] != "unknown" and d not in both]
        for s in ONE_CORE_STRATEGIES
    }
    text = (
        f"decided both ways {len(both)}, differences {len(differ)}, "
        f"decided by dfs only {only['dfs']}, by layers only {only['layers']}"
    )
    if both:
        mem = [by[(d, "layers")]["peak_bytes"] / by[(d, "dfs")]["peak_bytes"] for d in both]
        sec = sum(by[(d, "layers")]["seconds"] for d in both) / max(
            sum(by[(d, "dfs")]["seconds"] for d in both), 1e-6
        )
        text += (
            f"; layers/dfs: median peak memory ratio {statistics.median(mem):.2f}, "
            f"total time ratio {sec:.2f}"
        )
    return text


def bench(
    profile: str,
    deals: list[int],
    seconds: float,
    memory: int,
    dfs_share: float,
    probes: bool,
    out: str | Path,
) -> Path:
    """Solve ``deals`` both ways, print each solve and the summary, write the rows.

    Parameters
    ----------
    profile : str
        A canonical profile with worry=no.
    deals : list of int
    seconds, memory : float, int
        Budgets of each solve.
    dfs_share : float
        Share of the budgets the layered strategy spends depth-first first
        (0: none); it is set for the whole process.
    probes : bool
        Narrowed probes first, in both strategies.
    out : path
        The CSV file.

    Returns
    -------
    Path
        The CSV file written.
    """
    config.LAYER_DFS_SHARE = dfs_share
    warm_up("dfs")
    warm_up("layers")
    t0 = time.perf_counter()
    rows = run(profile, deals, seconds, memory, probes)
    print(summarise(rows))
    path = write_rows(out, rows)
    print(f"wall {time.perf_counter() - t0:.0f} s; rows in {path}")
    return path
