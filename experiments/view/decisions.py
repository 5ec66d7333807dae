"""Which kinds of decisions lose: the losing moves of many analysed games.

:func:`decision_kind` names the kind of a move; :func:`.games.analyse_games`
makes one row per analysed game; :func:`kinds_table` counts the losing moves
by kind. This module loads no solver, so the report stays light. ``canfield analyze RUN``
writes the rows to ``RUN/analysis.csv``, and the players' report shows the
table of every run folder that has one (:func:`decisions_section`).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

import pandas as pd

from canfield.engine.notation import Move

#: The file ``canfield analyze RUN`` writes in the run folder.
ANALYSIS_FILE = "analysis.csv"
#: The budget of each position's solve, as a row of ``analysis.csv`` names it:
#: verdicts at different budgets are not comparable, so rows are kept and
#: counted apart by these.
BUDGET_COLUMNS = ("budget_nodes", "budget_seconds", "budget_memory")
#: Move numbers of a row, missing where its turn names none.
WHOLE_COLUMNS = ("losing_move", "first", "last")
#: The players' report's title of :func:`decisions_section`'s table.
DECISIONS_TITLE = (
    "Where blind players lost (canfield analyze): games by how their fate turned, "
    "losing moves by kind"
)
#: Kinds of decision, in the order the table lists them.
KINDS = (
    "waste play",
    "column move",
    "reserve play",
    "column to foundation",
    "card back from a foundation",
    "draw past a playable card",
    "draw",
    "redeal",
)


def decision_kind(move: Move, waste_playable: bool = False) -> str:
    """The kind of the losing ``move``.

    ``waste_playable``: the waste top could have been played where the move
    was made; a draw there is a *draw past a playable card* (it covers it).
    """
    if move.src == "draw":
        return "draw past a playable card" if waste_playable else "draw"
    if move.src == "redeal":
        return "redeal"
    if move.src == "R":
        return "reserve play"
    if move.src == "W":
        return "waste play"
    if move.src.startswith("F"):
        return "card back from a foundation"
    return "column to foundation" if move.dst == "F" else "column move"


_UNITS = (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10))


def budget_text(nodes: object, seconds: object, memory: object) -> str:
    """A budget per position as the kinds table shows it: ``20000 nodes, 2s, 1024MiB``."""
    parts = []
    if not pd.isna(nodes):
        parts.append(f"{int(nodes)} nodes")
    if not pd.isna(seconds):
        parts.append(f"{float(seconds):g}s")
    if not pd.isna(memory):
        size = int(memory)
        unit, scale = next(((u, n) for u, n in _UNITS if size % n == 0), ("B", 1))
        parts.append(f"{size // scale}{unit}")
    return ", ".join(parts) or "none"


def kinds_table(rows: pd.DataFrame) -> pd.DataFrame:
    """Games by how their fate turned, and the losing moves by kind.

    One row per (profile, player, budget): games, then how many were won, lost
    from the deal, lost by a named move, lost between moves (unknowns between),
    still winnable at the end, unknown; then one column per kind of losing
    move. Rows without budget columns (hand-made tables) are one budget.
    """
    rows = rows.copy()
    for col in BUDGET_COLUMNS:
        if col not in rows:
            rows[col] = float("nan")
    keys = ["profile", "player", *BUDGET_COLUMNS]
    out = []
    for key, g in rows.groupby(keys, sort=False, dropna=False):
        prof, player, *budget = key
        named = g[g["turn"] == "move"]
        row = {
            "profile": prof,
            "player": player,
            "budget": budget_text(*budget),
            "games": len(g),
            "won": int((g["stop_reason"] == "won").sum()),
            "dealt lost": int((g["turn"] == "dealt_lost").sum()),
            "losing move named": len(named),
            "lost between moves": int((g["turn"] == "between").sum()),
            "still winnable": int(
                ((g["turn"] == "still_winnable") & (g["stop_reason"] != "won")).sum()
            ),
            "unknown": int((g["turn"] == "unknown").sum()),
        }
        for kind in KINDS:
            row[kind] = int((named["kind"] == kind).sum())
        out.append(row)
    return pd.DataFrame(out)


def write_rows(run: str | os.PathLike, rows: pd.DataFrame) -> Path:
    """Merge ``rows`` into ``RUN/analysis.csv``.

    A game analysed again at the same budget replaces its row; at another
    budget it is a row of its own (every row carries its budget, and
    :func:`kinds_table` counts each budget apart).
    """
    path = Path(run) / ANALYSIS_FILE
    if path.is_file():
        old = pd.read_csv(path)
        rows = pd.concat([old, rows], ignore_index=True)
        # one dtype a column, so equal budgets compare equal and move numbers
        # stay whole where some rows have none
        for col in (*BUDGET_COLUMNS, *WHOLE_COLUMNS):
            kind = "float" if col == "budget_seconds" else "Int64"
            rows[col] = pd.to_numeric(rows[col], errors="coerce").astype(kind)
        rows = rows.drop_duplicates(["deal", "profile", "player", *BUDGET_COLUMNS], keep="last")
    rows = rows.sort_values(["profile", "player", *BUDGET_COLUMNS, "deal"], kind="stable")
    tmp = path.with_suffix(".tmp")
    rows.to_csv(tmp, index=False)
    os.replace(tmp, path)
    return path


def decisions_section(run_paths: Iterable[str | os.PathLike]) -> pd.DataFrame:
    """The kinds table of every run folder that holds an ``analysis.csv``
    (empty when none does), for the players' report."""
    frames = [
        pd.read_csv(Path(p) / ANALYSIS_FILE)
        for p in run_paths
        if (Path(p) / ANALYSIS_FILE).is_file()
    ]
    if not frames:
        return pd.DataFrame()
    return kinds_table(pd.concat(frames, ignore_index=True))
