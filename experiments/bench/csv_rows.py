"""Writing benchmark rows to a CSV file."""

from __future__ import annotations

import csv
from pathlib import Path


def write_rows(path: str | Path, rows: list[dict], fields: list[str] | None = None) -> Path:
    """Write ``rows`` (dicts) to ``path`` with a header, making its folder;
    the columns are ``fields``, or the first row's keys."""
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=fields or list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    return out
