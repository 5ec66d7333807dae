"""Stored blind-player games analysed one by one (``canfield analyze RUN``).

The games come from ``games/`` of a run folder
(:mod:`canfield.experiments.sweep.games`); each is replayed from its deal and
given to :func:`.fate.analyse`.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import pandas as pd

from canfield.engine.notation import parse_move
from canfield.engine.position import Position
from canfield.experiments.view.decisions import decision_kind
from canfield.experiments.view.fate import DEFAULT_NODES, analyse


def analyse_games(
    games: pd.DataFrame,
    seconds: float = math.inf,
    nodes: int | None = DEFAULT_NODES,
    memory: int | None = None,
    progress: Callable[[], None] | None = None,
) -> pd.DataFrame:
    """Analyse each stored game (rows of :func:`.sweep.games.load_games`).

    Returns
    -------
    pandas.DataFrame
        One row per game: deal, profile, profile_full, player, stop_reason,
        moves, turn (:class:`.fate.Turn` kind), losing_move, played, winning,
        kind (of the losing move, when named), first, last, banked_start
        (most bankable at the deal), seconds, budget_nodes, budget_seconds,
        budget_memory, version.
    """
    rows = []
    for g in games.itertuples(index=False):
        start = Position.from_deal(int(g.deal), g.profile)
        moves = [parse_move(m) for m in str(g.moves).split()]
        a = analyse(start, moves, seconds, nodes, memory)
        t = a.turn
        rows.append(
            {
                "deal": int(g.deal),
                "profile": g.profile,
                "profile_full": g.profile_full,
                "player": g.player,
                "stop_reason": g.stop_reason,
                "moves": len(moves),
                "turn": t.kind,
                "losing_move": t.move,
                "played": t.played,
                "winning": t.winning,
                "kind": _kind(start, moves, t.move) if t.move else None,
                "first": t.first,
                "last": t.last,
                "banked_start": a.points[0].banked,
                "seconds": round(a.seconds, 3),
                "budget_nodes": nodes,
                "budget_seconds": None if math.isinf(seconds) else seconds,
                "budget_memory": memory,
                "version": a.version,
            }
        )
        if progress is not None:
            progress()
    df = pd.DataFrame(rows)
    if df.empty:
        return df
    # move numbers stay whole numbers where some games have none (not 77.0),
    # and "no time budget" is a missing float, as analysis.csv reads it back
    for col in ("losing_move", "first", "last"):
        df[col] = df[col].astype("Int64")
    df["budget_seconds"] = df["budget_seconds"].astype(float)
    return df


def _kind(start: Position, moves: list, number: int) -> str:
    """The kind of move ``number`` (1-based) of ``moves`` played from ``start``."""
    before = start
    for m in moves[: number - 1]:
        before = before.apply(m)
    playable = any(m.src == "W" for m in before.legal_moves())
    return decision_kind(moves[number - 1], playable)
