"""The games of a blind players' sweep, stored so that ``canfield analyze`` can
explain them.

A player's row (:func:`.rows.play_row`) carries its moves under
:data:`GAME_KEY`; :func:`store_games` takes them out of the rows before the
part is written (the part's schema has no room for them) and writes them as
``games/games-NNNNN.parquet`` beside ``parts/``, numbered as the part. Parts
may later be merged or repaired; games are read by (deal, profile), the last
written winning, and a game replays to the same moves whenever it is played
again (each game is seeded from its deal number alone).
"""

from __future__ import annotations

import os
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

#: The row key that carries a game's moves, space-separated.
GAME_KEY = "game_moves"
#: The folder of a run that holds the games.
GAMES_DIR = "games"

GAMES_SCHEMA = pa.schema(
    [
        ("deal", pa.uint64()),
        ("profile", pa.string()),
        ("profile_full", pa.string()),
        ("player", pa.string()),
        ("player_options", pa.string()),
        ("stop_reason", pa.string()),
        ("banked", pa.int16()),
        ("version", pa.string()),
        ("moves", pa.string()),
    ]
)


def store_games(run: str | os.PathLike, index: int, rows: list[dict]) -> Path | None:
    """Take the moves out of ``rows`` (in place) and write them as games file ``index``.

    Returns the file written, or None when no row carried a game (the solver's rows).
    """
    games = [
        {**{k: r.get(k) for k in GAMES_SCHEMA.names if k != "moves"}, "moves": r.pop(GAME_KEY)}
        for r in rows
        if GAME_KEY in r
    ]
    if not games:
        return None
    folder = Path(run) / GAMES_DIR
    folder.mkdir(exist_ok=True)
    final = folder / f"games-{index:05d}.parquet"
    tmp = final.with_suffix(".tmp")
    pq.write_table(pa.Table.from_pylist(games, schema=GAMES_SCHEMA), tmp)
    os.replace(tmp, final)  # visible only once complete
    return final


def load_games(run: str | os.PathLike) -> pd.DataFrame:
    """Every stored game of the run folder ``run``, one per (deal, profile).

    Columns as :data:`GAMES_SCHEMA`; empty when the run stored none.
    """
    files = sorted((Path(run) / GAMES_DIR).glob("games-*.parquet"))
    if not files:
        return pd.DataFrame(columns=GAMES_SCHEMA.names)
    df = pd.concat([pq.read_table(f).to_pandas() for f in files], ignore_index=True)
    df = df.drop_duplicates(["deal", "profile"], keep="last")
    return df.sort_values(["profile", "deal"], kind="stable").reset_index(drop=True)
