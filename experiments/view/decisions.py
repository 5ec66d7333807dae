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


def kinds_table(rows: pd.DataFrame) -> pd.DataFrame:
    """Games by how their fate turned, and the losing moves by kind.

    One row per (profile, player): games, then how many were won, lost from the
    deal, lost by a named move, lost between moves (unknowns between), still
    winnable at the end, unknown; then one column per kind of losing move.
    """
    out = []
    for (prof, player), g in rows.groupby(["profile", "player"], sort=False):
        named = g[g["turn"] == "move"]
        row = {
            "profile": prof,
            "player": player,
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
    """Merge ``rows`` into ``RUN/analysis.csv`` (a game analysed again replaces its row)."""
    path = Path(run) / ANALYSIS_FILE
    if path.is_file():
        old = pd.read_csv(path)
        rows = pd.concat([old, rows], ignore_index=True)
        rows = rows.drop_duplicates(["deal", "profile", "player"], keep="last")
    rows = rows.sort_values(["profile", "player", "deal"], kind="stable")
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
