"""Benchmark blind players against the solver on the same deals.

    python -m experiments.bench_players                # 50 deals, strict
    python -m experiments.bench_players -n 10 --players greedy,random,pimc,solver

Plays deals ``start .. start+n-1`` for each player and prints win %, mean
banked and seconds per game; writes one row per (player, deal) to
``results/bench/players.csv``. The ``solver`` row is the perfect-information
solver under ``--solver-seconds``: its banked is exact for won/lost and a lower
bound for unknown, and "won" counts only proven wins.
"""

from __future__ import annotations

import argparse
import statistics
import time

from canfield.engine.position import Position
from canfield.experiments.csv_rows import write_rows
from canfield.experiments.play import play_game
from canfield.experiments.players import GreedyPlayer, PimcPlayer, RandomPlayer
from canfield.solver.search import solve

FIELDS = ["player", "deal", "profile", "result", "banked", "reserve_left", "moves", "seconds"]


def make_player(name: str, args: argparse.Namespace):
    if name == "greedy":
        return GreedyPlayer()
    if name == "random":
        return RandomPlayer(seed=args.seed)
    if name == "pimc":
        return PimcPlayer(
            k=args.pimc_k,
            seconds_per_sample=args.pimc_seconds,
            nodes_per_sample=args.pimc_nodes,
            seed=args.seed,
        )
    raise SystemExit(f"unknown player {name!r} (greedy, random, pimc, solver)")


def solver_row(deal: int, profile: str, seconds: float) -> dict:
    t0 = time.perf_counter()
    r = solve(Position.from_deal(deal, profile), seconds=seconds)
    return {
        "player": "solver",
        "deal": deal,
        "profile": r.profile,
        "result": r.result,
        "banked": r.banked,
        "reserve_left": r.reserve_left,
        "moves": len(r.moves),
        "seconds": round(time.perf_counter() - t0, 4),
    }


def main(argv: list[str] | None = None) -> list[dict]:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-n", "--deals", type=int, default=50)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--profile", default="strict")
    ap.add_argument("--players", default="greedy,random,pimc,solver")
    ap.add_argument("--pimc-k", type=int, default=4)
    ap.add_argument("--pimc-seconds", type=float, default=0.02)
    ap.add_argument("--pimc-nodes", type=int, default=None)
    ap.add_argument("--solver-seconds", type=float, default=10.0)
    ap.add_argument(
        "--stock-unknown",
        action="store_true",
        help="hide the stock order until the stock has been emptied once",
    )
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default="results/bench/players.csv")
    args = ap.parse_args(argv)

    deals = range(args.start, args.start + args.deals)
    rows: list[dict] = []
    for name in args.players.split(","):
        name = name.strip()
        for deal in deals:
            if name == "solver":
                rows.append(solver_row(deal, args.profile, args.solver_seconds))
                continue
            rec = play_game(
                deal,
                args.profile,
                make_player(name, args),
                seed=args.seed,
                stock_known=not args.stock_unknown,
            )
            row = rec.row()
            row["player"] = name
            rows.append({k: row[k] for k in FIELDS})

    out = write_rows(args.out, rows, FIELDS)

    print(f"{args.profile}, deals {deals.start}-{deals.stop - 1} ({len(deals)})")
    print(f"{'player':<8} {'win %':>6} {'banked':>7} {'s/game':>8}  results")
    for name in dict.fromkeys(r["player"] for r in rows):
        rs = [r for r in rows if r["player"] == name]
        wins = sum(r["result"] == "won" for r in rs)
        counts = {}
        for r in rs:
            counts[r["result"]] = counts.get(r["result"], 0) + 1
        banked = statistics.mean(r["banked"] for r in rs)
        secs = statistics.mean(r["seconds"] for r in rs)
        print(f"{name:<8} {100 * wins / len(rs):6.1f} {banked:7.2f} {secs:8.3f}  {counts}")
    print(f"wrote {out}")
    return rows


if __name__ == "__main__":
    main()
