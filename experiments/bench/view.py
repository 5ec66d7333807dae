"""Benchmark ``canfield view`` and ``canfield analyze``.

    canfield bench view                  # strict; solutions of deals 0-9, greedy games 0-4

Two figures:

- the HTML view of a solution of about 200 moves: its size in bytes and the
  time to compute its frames and write it (median of ``repeats`` writes). The
  solution is the longest the solver finds (at ``solve_nodes``) among deals
  ``start .. start+solutions-1``; bytes per move are printed too;
- ``analyze`` of a blind (greedy) player's game at the default budget
  (:data:`canfield.experiments.view.fate.DEFAULT_NODES` nodes per position):
  seconds per game and per position, over the games of deals
  ``start .. start+games-1``.

One row per measurement goes to the CSV file, with the profile, the budget
and the toolkit version.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

from canfield.engine.notation import parse_move
from canfield.engine.position import Position
from canfield.engine.version import __version__
from canfield.experiments.bench.csv_rows import write_rows
from canfield.experiments.play import play_game
from canfield.experiments.players import GreedyPlayer
from canfield.experiments.view.fate import DEFAULT_NODES, analyse
from canfield.experiments.view.html import view_page, write
from canfield.solver.search import solve

#: Node budget of the solves that find the solutions to view.
SOLVE_NODES = 200_000


def _longest_solution(deals: range, profile: str) -> tuple[int, list[str]]:
    best: tuple[int, list[str]] = (-1, [])
    for deal in deals:
        r = solve(Position.from_deal(deal, profile), nodes=SOLVE_NODES)
        if r.result == "won" and len(r.moves) > len(best[1]):
            best = (deal, r.moves)
    return best


def bench(
    start: int, solutions: int, games: int, profile: str, repeats: int, out: str | Path
) -> list[dict]:
    """Measure, print and write the figures of the module doc; return the rows."""
    rows = []
    deal, line = _longest_solution(range(start, start + solutions), profile)
    if deal < 0:
        raise ValueError(f"no deal of {start}..{start + solutions - 1} was won: no view to time")
    pos = Position.from_deal(deal, profile)
    moves = [parse_move(m) for m in line]
    times = []
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "view.html"
        for _ in range(repeats):
            t0 = time.perf_counter()
            write(path, view_page(pos, moves, f"deal {deal}"))
            times.append(time.perf_counter() - t0)
        size = path.stat().st_size
    rows.append(
        {
            "measure": "view",
            "profile": profile,
            "deal": deal,
            "moves": len(moves),
            "bytes": size,
            "seconds": round(statistics.median(times), 4),
            "budget_nodes": SOLVE_NODES,
            "version": __version__,
        }
    )
    print(
        f"view: deal {deal} ({profile}), {len(moves)}-move solution: {size:,} bytes "
        f"({size / len(moves):,.0f} bytes a move), written in "
        f"{statistics.median(times):.3f} s (median of {repeats})"
    )
    per_game = []
    for d in range(start, start + games):
        game = play_game(d, profile, GreedyPlayer())
        t0 = time.perf_counter()
        a = analyse(Position.from_deal(d, profile), [parse_move(m) for m in game.moves])
        seconds = time.perf_counter() - t0
        per_game.append(seconds)
        solved = sum(p.how == "solved" for p in a.points)
        rows.append(
            {
                "measure": "analyze",
                "profile": profile,
                "deal": d,
                "moves": len(game.moves),
                "bytes": None,
                "seconds": round(seconds, 3),
                "budget_nodes": DEFAULT_NODES,
                "version": __version__,
                "positions_solved": solved,
                "turn": a.turn.kind,
            }
        )
        print(
            f"analyze: deal {d} greedy game of {len(game.moves)} moves, {solved} positions "
            f"solved, {seconds:.2f} s ({a.turn.kind})"
        )
    print(
        f"analyze: {statistics.median(per_game):.2f} s a game (median of {games}; "
        f"mean {statistics.mean(per_game):.2f} s) at {DEFAULT_NODES:,} nodes a position"
    )
    fields = list(rows[-1])
    write_rows(out, rows, fields)
    return rows
