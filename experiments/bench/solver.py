"""Solver benchmark: deals decided, time percentiles, states per second, memory.

Run as ``canfield bench solver``.
Writes one CSV row per (profile, deal) and prints a summary per profile.
"States" are positions entered (new to the table: expanded, or cut by rule
B1); "children" are positions generated (each move applied, keyed and looked
up in the table, repeats and dominated ones included).
"""

from __future__ import annotations

import csv
import resource
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from canfield.engine.profiles import parse_profile
from canfield.solver.beam_run import beam_profile
from canfield.solver.search import solve_deal, warm_up

FIELDS = [
    "profile",
    "profile_full",
    "deal",
    "result",
    "banked",
    "seconds",
    "nodes",
    "children",
    "cut",
    "dominated",
    "peak_table_bytes",
    "stop_reason",
    "stage",
    "probes",
    "reserve_left",
    "budget_seconds",
    "budget_memory",
    "version",
]


def summarise(rows: list[dict]) -> dict:
    """Decided share, verdicts, time percentiles and rates of one profile's rows."""
    secs = np.array([r["seconds"] for r in rows])
    nodes = np.array([r["nodes"] for r in rows])
    res = [r["result"] for r in rows]
    n = len(rows)
    decided = sum(x != "unknown" for x in res)
    return {
        "deals": n,
        "decided_pct": 100.0 * decided / n,
        "won": res.count("won"),
        "lost": res.count("lost"),
        "unknown": res.count("unknown"),
        "median_s": float(np.median(secs)),
        "p95_s": float(np.percentile(secs, 95)),
        "max_s": float(secs.max()),
        "total_s": float(secs.sum()),
        "states_per_s": float(nodes.sum() / max(secs.sum(), 1e-9)),
        "children_per_s": float(sum(r.get("children", 0) for r in rows) / max(secs.sum(), 1e-9)),
        "mean_banked": float(np.mean([r["banked"] for r in rows])),
        # a probe's stage is probeN, turnN (a turned probe) or beam (the
        # beams; all of double's wins)
        "won_by_probe": sum(
            r["result"] == "won"
            and (r["stage"].startswith(("probe", "turn")) or r["stage"] == "beam")
            for r in rows
        ),
        "peak_table_mib": max(r["peak_table_bytes"] for r in rows) / 2**20,
    }


def run_bench(
    profiles: list[str],
    deals: Sequence[int],
    seconds: float,
    memory: int,
    out: Path,
    probes: bool = True,
) -> None:
    """Solve ``deals`` under each profile, write one CSV row per solve to ``out``
    and print a summary line per profile."""
    # two packs (double) have kernels of their own, compiled outside the clock too
    parsed = [parse_profile(p) for p in profiles]
    beam = probes and any(beam_profile(p) for p in parsed)
    compile_s = sum(warm_up("dfs", n, beam) for n in sorted({p.packs for p in parsed}))
    print(f"compile/warm-up: {compile_s:.2f} s (numba cache: cached after the first run)")
    out.parent.mkdir(parents=True, exist_ok=True)
    summaries = {}
    with open(out, "w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=FIELDS)
        w.writeheader()
        for prof in profiles:
            rows = []
            t0 = time.perf_counter()
            for d in deals:
                r = solve_deal(d, prof, seconds=seconds, memory=memory, probes=probes)
                row = {k: getattr(r, k) for k in FIELDS if hasattr(r, k)}
                row.update(
                    profile=prof,
                    profile_full=parse_profile(prof).full(),
                    deal=d,
                    budget_seconds=seconds,
                    budget_memory=memory,
                    probes=probes,
                )
                rows.append(row)
                w.writerow(row)
                fh.flush()
            summaries[prof] = s = summarise(rows)
            wall = time.perf_counter() - t0
            print(
                f"{prof:12s} decided {s['decided_pct']:5.1f}%  won {s['won']} lost {s['lost']} "
                f"unknown {s['unknown']} (wins by probes {s['won_by_probe']})  "
                f"median {s['median_s'] * 1000:.1f} ms  "
                f"p95 {s['p95_s']:.2f} s  max {s['max_s']:.2f} s  "
                f"{s['states_per_s']:,.0f} states/s ({s['children_per_s']:,.0f} children/s)  "
                f"mean banked {s['mean_banked']:.2f}  "
                f"peak table {s['peak_table_mib']:.0f} MiB  wall {wall:.0f} s"
            )
    peak_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak RSS {peak_rss:.0f} MiB; rows in {out}")
