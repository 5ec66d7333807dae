"""Plain-text tables that fit a terminal.

A report table can be far wider than a terminal. :func:`fit_to_width` cuts it
into groups of columns, each printed as a table of its own that repeats the
first column (the row's label), so every group can be read alone.
"""

from __future__ import annotations

import math

import pandas as pd

# Figures are cleaned to this many decimals before they are rounded for
# display, so one number reached by two float paths (100 * k / n, or
# 100 * (k / n)) prints alike: 1017 / 2000 is 50.85 either way, never 50.8
# in one table and 50.9 in the next.
_CLEAN_DECIMALS = 9


def fmt_number(x: float | None, digits: int = 1) -> str:
    """``x`` with ``digits`` decimals, or ``-`` for a missing or NaN figure.

    Parameters
    ----------
    x : float or None
        The figure.
    digits : int
        Decimals shown.

    Returns
    -------
    str
        The figure rounded after cleaning float noise, so that equal figures
        computed in different orders print the same.
    """
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "-"
    return f"{round(float(x), _CLEAN_DECIMALS):.{digits}f}"


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
