"""The columns of a sweep row and their Parquet types.

The store reads and writes parts with these; the row producers fill them.
Parts written before the player columns existed hold :data:`LEGACY_COLUMNS`
only, parts written before ``solver_options`` :data:`PLAYER_COLUMNS` (the store
upgrades both on load).
"""

from __future__ import annotations

import pyarrow as pa

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
