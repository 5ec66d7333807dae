"""Depth-first against layered search: the same deals, time and peak memory.

The layered search (``docs/solver.md``) visits the same positions as the
depth-first one but forgets each finished layer of progress, so a proof
needs less memory. This benchmark solves each deal both ways under the same
budget and prints, per deal and strategy, the verdict, banked, positions,
seconds and peak memory, then the median memory ratio and the total time
ratio over the deals both strategies decided. Rows go to a CSV.

Run: ``python -m experiments.bench_layers --deals 0,9,19,6,12,64,110 --budget 120s --memory 8GB``
(add ``--dfs-share 0 --no-probes`` for the layers alone, with no depth-first
share and no probes first).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from canfield.engine.position import Position
from canfield.engine.profiles import parse_profile
from canfield.engine.version import __version__
from canfield.experiments.csv_rows import write_rows
from canfield.solver import config
from canfield.solver.search import STRATEGIES, Solver, parse_bytes, parse_seconds, warm_up


def parse_deals(text: str) -> list[int]:
    """``0:10`` (a range) or ``0,9,19`` (a list)."""
    try:
        if ":" in text:
            a, _, b = text.partition(":")
            return list(range(int(a), int(b)))
        return [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise ValueError(f"cannot read deals from {text!r} (try 0:10 or 0,9,19)") from None


def run(
    profile: str, deals: list[int], seconds: float, memory: int, probes: bool = True
) -> list[dict]:
    solvers = {s: Solver(memory, strategy=s, probes=probes) for s in STRATEGIES}
    rows = []
    for d in deals:
        pos = Position.from_deal(d, profile)
        for name, solver in solvers.items():
            r = solver.solve(pos, seconds=seconds)
            rows.append(
                {
                    "profile": profile,
                    "profile_full": pos.profile.full(),
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
        for s in STRATEGIES
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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--profile", default="strict")
    ap.add_argument("--deals", default="0,9,19,6,12,64")
    ap.add_argument("--budget", default="120s")
    ap.add_argument("--memory", default="8GB")
    ap.add_argument(
        "--dfs-share",
        type=float,
        default=config.LAYER_DFS_SHARE,
        help="share of the budgets the layered strategy spends depth-first first (0: none)",
    )
    ap.add_argument(
        "--no-probes",
        action="store_true",
        help="leave out the narrowed probes (docs/solver.md) in both strategies",
    )
    ap.add_argument("--out", default="results/bench/layers.csv")
    args = ap.parse_args()
    if not 0 <= args.dfs_share < 1:
        print("error: --dfs-share must be at least 0 and below 1", file=sys.stderr)
        raise SystemExit(2)
    config.LAYER_DFS_SHARE = args.dfs_share
    try:
        profile = parse_profile(args.profile)
        deals = parse_deals(args.deals)
        seconds, memory = parse_seconds(args.budget), parse_bytes(args.memory)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        raise SystemExit(2) from None
    if profile.worry == "yes":
        print("error: the layered search needs a profile with worry=no", file=sys.stderr)
        raise SystemExit(2)
    if not deals:
        print("error: no deals given", file=sys.stderr)
        raise SystemExit(2)
    warm_up("dfs")
    warm_up("layers")
    t0 = time.perf_counter()
    rows = run(profile.canonical(), deals, seconds, memory, not args.no_probes)
    print(summarise(rows))
    out = write_rows(args.out, rows)
    print(f"wall {time.perf_counter() - t0:.0f} s; rows in {out}")


if __name__ == "__main__":
    main()
