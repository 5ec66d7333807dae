"""Settling, for ``canfield escalate --settle``: the rows of a rung that a related
profile's decided row of the same deal already decides, written as attempts
made without a search (docs/relations.md, docs/statistics.md 2c).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from canfield.engine.profiles import parse_profile
from canfield.engine.version import __version__
from canfield.experiments.relations import settled
from canfield.experiments.sweep.attempts import RELATION_PREFIX, merge_attempts


def settle_rows(
    rows: pd.DataFrame,
    attempts: pd.DataFrame,
    todo: dict[str, list[int]],
    rung: int,
) -> list[dict]:
    """The attempts that settle rows of ``todo`` from related profiles' rows.

    A row is settled when a related profile's row of the same deal, as the
    sweep and the rungs before ``rung`` leave it, decides it
    (:func:`canfield.experiments.relations.settled`): won when the smaller
    profile won, lost when the larger lost. The attempt copies the row's
    columns with the verdict, ``banked`` every card for a win (52, or 104
    under two packs; a loss keeps the row's best line: a lower bound; the
    larger's count bounds it from above), no search (0 nodes, 0 seconds) and
    ``stop_reason`` ``relation:<profile>``.
    """
    wanted = {(d, p) for p, deals in todo.items() for d in deals}
    # only what stood when the rung began: a resumed rung must not settle from
    # rows its own searches decided before a kill (an uninterrupted run could not)
    before = attempts[(attempts["phase"] == "ladder") & (attempts["rung"] < rung)]
    now = merge_attempts(rows, before)
    found = settled(now[["deal", "profile", "result", "banked"]])
    found = found[
        [(int(d), u) in wanted for d, u in zip(found["deal"], found["unit"], strict=True)]
    ]
    found = found.drop_duplicates(["deal", "unit"], keep="first")
    if found.empty:
        return []
    base = now.set_index(["deal", "profile"])
    out = []
    for deal, unit, by, verdict in zip(
        found["deal"], found["unit"], found["source"], found["settled_as"], strict=True
    ):
        row = base.loc[(deal, unit)]
        won = verdict == "won"
        attempt = {c: _plain(row[c]) for c in rows.columns if c not in ("deal", "profile")}
        attempt |= {
            "deal": int(deal),
            "profile": unit,
            "result": verdict,
            "banked": parse_profile(unit).cards if won else int(row["banked"]),
            "seconds": 0.0,
            "nodes": 0,
            "peak_table_bytes": 0,
            "solution_length": 0,
            "budget_seconds": None,
            "budget_nodes": 0,
            "budget_memory": 0,
            "version": __version__,
            "stop_reason": f"{RELATION_PREFIX}{by}",
            "phase": "ladder",
            "rung": rung,
            "cpu_seconds": 0.0,
        }
        out.append(attempt)
    return out


def _plain(value):
    """A pandas cell as Arrow takes it: None for a missing value, Python scalars."""
    if value is None or (not isinstance(value, str) and pd.isna(value)):
        return None
    return value.item() if isinstance(value, np.generic) else value


__all__ = ["settle_rows"]
