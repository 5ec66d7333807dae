"""The columns of a sweep row and their Parquet types.

The store reads and writes parts with these; the row producers fill them.
Parts written before the player columns existed hold :data:`LEGACY_COLUMNS`
only, parts written before ``solver_options`` :data:`PLAYER_COLUMNS` (the store
upgrades both on load). :func:`bad_rows` says which rows of a part hold values
no sweep writes, so the store can refuse the part as damaged.
"""

from __future__ import annotations

import pandas as pd
import pyarrow as pa

from canfield.engine.profiles import ProfileError, parse_profile

#: Every column of a sweep row with its Parquet type, in file order.
SCHEMA = pa.schema(
    [
        ("deal", pa.uint64()),
        ("profile", pa.string()),
        ("profile_full", pa.string()),
        ("result", pa.string()),
        ("banked", pa.int16()),
        ("seconds", pa.float64()),
        ("nodes", pa.int64()),
        ("peak_table_bytes", pa.int64()),
        ("base_rank", pa.int8()),
        ("reserve_left", pa.int8()),
        ("solution_length", pa.int32()),
        ("budget_seconds", pa.float64()),
        ("budget_nodes", pa.int64()),
        ("budget_memory", pa.int64()),
        ("version", pa.string()),
        ("pick", pa.string()),
        ("stop_reason", pa.string()),
        ("player", pa.string()),
        ("player_options", pa.string()),
        ("moves", pa.int32()),
        ("cleared_reserve", pa.bool_()),
        ("solver_options", pa.string()),
    ]
)
#: Columns of a sweep row, in file order.
COLUMNS: tuple[str, ...] = tuple(SCHEMA.names)
#: The columns of parts written before players were added (loaded as the solver's).
LEGACY_COLUMNS: tuple[str, ...] = COLUMNS[: COLUMNS.index("stop_reason") + 1]
LEGACY_SCHEMA = pa.schema(list(SCHEMA)[: len(LEGACY_COLUMNS)])
#: The columns of parts written before ``solver_options`` (made with the defaults).
PLAYER_COLUMNS: tuple[str, ...] = COLUMNS[: COLUMNS.index("cleared_reserve") + 1]
PLAYER_SCHEMA = pa.schema(list(SCHEMA)[: len(PLAYER_COLUMNS)])
#: Columns that may differ between two runs of the same row (machine timing).
TIMING_COLUMNS: tuple[str, ...] = ("seconds", "peak_table_bytes")
#: The verdicts a row may hold.
RESULTS: tuple[str, ...] = ("won", "lost", "unknown")


def bad_rows(rows: pd.DataFrame) -> str | None:
    """What is wrong with the first row of ``rows`` that holds values no sweep
    writes, or None when every row is sound.

    The Parquet types already keep ``deal`` a non-negative integer (a
    negative one does not cast to ``uint64``); this checks what the types
    allow but a row never holds: no deal or profile, a profile that does not
    parse, a result other than :data:`RESULTS`, a ``banked`` outside 0 to
    the profile's cards (52, or 104 for two packs). Tallies, reports and
    resumes trust these, so a row that breaks one would be miscounted
    silently or crash them.

    Parameters
    ----------
    rows : pandas.DataFrame
        The rows of one part, cast to :data:`SCHEMA`, indexed from 0.

    Returns
    -------
    str or None
        e.g. ``row 2 (deal 7, profile strict): banked 99 is outside 0..52;
        3 bad rows``, the row counted from 1 in the part.
    """
    rows = rows.reset_index(drop=True)
    profiles = {p: _cards(p) for p in rows["profile"].dropna().unique()}
    cards = {p: c for p, c in profiles.items() if isinstance(c, int)}
    # NaN where the profile is missing or bad: such a row has no card count
    limit = rows["profile"].map(cards).astype("float64")
    known = limit.notna()
    banked = rows["banked"]
    checks = [
        (rows["deal"].isna(), lambda i: "no deal"),
        (~known, lambda i: profiles.get(rows["profile"][i], "no profile")),
        (
            ~rows["result"].isin(RESULTS),
            lambda i: f"result {_shown(rows['result'][i])} is not won, lost or unknown",
        ),
        (
            known & ~banked.between(0, limit).fillna(False).astype(bool),
            lambda i: f"banked {_shown(banked[i])} is outside 0..{int(limit[i])}",
        ),
    ]
    bad = pd.Series(False, index=rows.index)
    for mask, _ in checks:
        bad |= mask
    if not bad.any():
        return None
    first = int(bad.to_numpy().argmax())
    why = next(say(first) for mask, say in checks if mask[first])
    deal, profile = rows["deal"][first], rows["profile"][first]
    where = (
        f"row {first + 1} (deal {'?' if pd.isna(deal) else int(deal)},"
        f" profile {profile if isinstance(profile, str) else '?'})"
    )
    count = int(bad.sum())
    return f"{where}: {why}" + (f"; {count} bad rows" if count > 1 else "")


def _cards(profile: str) -> int | str:
    """The cards of ``profile`` (all banked when won), or why it is no profile."""
    if not profile.strip():
        return "no profile"  # parse_profile would read it as strict
    try:
        return parse_profile(profile).cards
    except ProfileError as exc:
        return str(exc)


def _shown(value: object) -> str:
    """``value`` as a message shows it: quoted text, a number, or ``empty``."""
    if isinstance(value, str):
        return repr(value)
    if value is None or pd.isna(value):
        return "empty"
    return str(int(value)) if float(value).is_integer() else str(value)
