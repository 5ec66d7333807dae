"""Benchmark blind players against the solver on the same deals.

    canfield bench players                # 50 deals, strict
    canfield bench players -n 10 --players greedy,random,pimc,solver

Plays deals ``start .. start+n-1`` for each player and prints win %, mean
banked and seconds per game; writes one row per (player, deal) to a CSV
(``--out``; ``results/runs/bench/players.csv`` by default). The ``solver``
row is the perfect-information solver under ``--solver-seconds``: its banked
is exact for won/lost and a lower bound for unknown, and "won" counts only
proven wins.
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path

from canfield.engine.position import Position
from canfield.engine.profiles import parse_profile
from canfield.engine.version import __version__
from canfield.experiments.bench.csv_rows import write_rows
from canfield.experiments.play import play_game
from canfield.experiments.sweep.rows import blind_player
from canfield.solver.search import solve

FIELDS = ["player", "deal", "profile", "result", "banked", "reserve_left", "moves", "seconds"]
#: What makes a row reproducible: the full profile, the player's budget (the
#: solver's seconds; PIMC's samples and their budgets; none for greedy and
#: random), the stock knowledge, the seed and the toolkit.
RUN_FIELDS = ["profile_full", "budget", "stock_known", "seed", "version"]


#: Who ``--players`` may name.
NAMES = ("greedy", "random", "pimc", "solver")


def solver_row(deal: int, profile: str, seconds: float) -> dict:
    """The solver's row for one deal, in the players' columns."""
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


def bench(
    players: list[str],
    deals: range,
    profile: str,
    seed: int,
    pimc_k: int,
    pimc_seconds: float,
    pimc_nodes: int | None,
    solver_seconds: float,
    stock_known: bool,
    out: str | Path,
) -> list[dict]:
    """Play ``deals`` with each player, write one row per game, print a table.

    Parameters
    ----------
    players : list of str
        Names from :data:`NAMES`.
    deals : range
    profile : str
    seed : int
        Seed of the random and PIMC players (and of each game).
    pimc_k, pimc_seconds, pimc_nodes : int, float, int or None
        PIMC's samples per decision and budgets per sample.
    solver_seconds : float
        Budget of the solver per deal.
    stock_known : bool
        Whether the players know the stock order from the start.
    out : path
        The CSV file.

    Returns
    -------
    list of dict
        The rows written.
    """
    rows: list[dict] = []
    budgets = {
        "solver": f"seconds={solver_seconds:g}",
        "pimc": f"k={pimc_k},seconds={pimc_seconds:g},nodes={pimc_nodes or 'none'}",
    }
    run = {"profile_full": parse_profile(profile).full(), "seed": seed, "version": __version__}
    for name in players:
        # the solver sees every card: the stock is known to it
        known = stock_known or name == "solver"
        run_row = {**run, "budget": budgets.get(name, ""), "stock_known": known}
        for deal in deals:
            if name == "solver":
                rows.append({**solver_row(deal, profile, solver_seconds), **run_row})
                continue
            player = blind_player(
                name,
                k=pimc_k,
                nodes_per_sample=pimc_nodes,
                seconds_per_sample=pimc_seconds,
                seed=seed,
            )
            rec = play_game(deal, profile, player, seed=seed, stock_known=stock_known)
            row = rec.row()
            row["player"] = name
            rows.append({**{k: row[k] for k in FIELDS}, **run_row})

    path = write_rows(out, rows, FIELDS + RUN_FIELDS)

    print(f"{profile}, deals {deals.start}-{deals.stop - 1} ({len(deals)})")
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
    print(f"wrote {path}")
    return rows
