"""Plain-text tables that fit a terminal.

A report table can be far wider than a terminal. :func:`fit_to_width` cuts it
into groups of columns, each printed as a table of its own that repeats the
first column (the row's label), so every group can be read alone.
"""

from __future__ import annotations

import pandas as pd


def _width(text: str) -> int:
    return max((len(line) for line in text.splitlines()), default=0)


def _render(table: pd.DataFrame) -> str:
    return table.to_string(index=False)


def fit_to_width(table: pd.DataFrame, width: int | None) -> str:
    """``table`` as text, cut into column groups no wider than ``width``.

    Parameters
    ----------
    table : DataFrame
        The table; its first column labels the rows and heads every group.
    width : int or None
        Characters per line; ``None`` prints the table whole.

    Returns
    -------
    str
        The groups, separated by blank lines. A column too wide to share a
        line with the label column gets a group of its own, wider than
        ``width``: a cell is never cut.
    """
    whole = _render(table)
    if width is None or _width(whole) <= width or table.shape[1] < 3:
        return whole
    key, rest = list(table.columns[:1]), list(table.columns[1:])
    groups: list[list] = [[]]
    for col in rest:
        trial = groups[-1] + [col]
        if groups[-1] and _width(_render(table[key + trial])) > width:
            groups.append([col])
        else:
            groups[-1] = trial
    return "\n\n".join(_render(table[key + group]) for group in groups)


__all__ = ["fit_to_width"]
