"""Rules R1 and W1 (``docs/solver.md``): cards sent home alone under ``build=rank``.

Both are P1's argument with a wider premise. P1 sends a column top home
when every card that could be built on it is banked; under rank-only
building that asks for all four cards a rank down, which is rare. R1 also
counts a builder that rule B1's frozen links bury for ever; W1 sends the
waste top home under ``draw=1``, where taking a waste card out changes no
later draw.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from canfield.engine import core
from canfield.engine.uncounted import uncounted
from canfield.solver.bound import (
    W_COL,
    W_FOUND,
    W_HEIGHT,
    W_HI,
    W_ORDER,
    W_PMASK,
    banked_bound,
    bound_applies,
)
from canfield.solver.pruning import useless_in_tableau


@njit(cache=True)
def r1_applies(rules):
    """Whether rule R1 holds: rank-only building and B1's frozen links."""
    return rules[core.R_BUILD] == core.BUILD_RANK and bound_applies(rules)


@njit(cache=True)
def w1_applies(rules):
    """Whether rule W1 holds: rank-only building, one card a draw, no worry."""
    # the argument holds under any build; kept to build=rank so that the
    # searches (and published rows) of the other profiles stay as they were
    return (
        rules[core.R_BUILD] == core.BUILD_RANK
        and rules[core.R_DRAW] == 1
        and rules[core.R_WORRY] == 0
    )


@njit(cache=True, inline="always")
def _fits(s, card, game):
    """Whether ``card`` is the next card of its foundation."""
    return (card % 13 - game[core.G_BASE]) % 13 == core.found_count(s, card // 13)


@uncounted
def useless_waste_top(s, game, rules):
    """Rule W1: the waste top fits its foundation and no card that could be
    built on it is off the foundations (``docs/solver.md``)."""
    w = core.waste_top(s, game)
    return w >= 0 and _fits(s, w, game) and useless_in_tableau(s, w, game, rules)


@uncounted
def buried_builders_home(s, game, rules, ws):
    """Rule R1: a column (0-3) whose top goes home alone, or -1.

    The top ``x`` fits its foundation, P1 does not already send it (some
    card that could be built on ``x`` is off the foundations), and every such
    card lies in a column, above that column's bottom, at or below its
    highest frozen link (rule B1): it only ever moves with its whole column,
    never as a column's bottom card, so it is never put on ``x``. ``ws`` is
    B1's workspace, its parents set (:func:`solver.bound.set_parents`); it is
    overwritten.
    """
    decoded = False
    for c in range(core.N_COLS):
        if core.col_len(s, c) == 0:
            continue
        x = core.col_top(s, c, rules)
        if not _fits(s, x, game) or useless_in_tableau(s, x, game, rules):
            continue
        if not decoded:
            banked_bound(s, game, rules, ws)  # where each card lies, and the frozen links
            decoded = True
        if _builders_buried(ws, x):
            return c
    return -1


@njit(cache=True)
def _builders_buried(ws, x):
    """Whether every card that could be built on ``x`` is banked or buried
    above its column's bottom (``ws`` decoded and settled)."""
    below = (x % 13 + 12) % 13
    xbit = np.int64(1) << np.int64(x)
    for su in range(4):
        y = su * 13 + below
        if ws[W_PMASK + y] & xbit == 0:
            continue  # y may not be built on x
        if ws[W_ORDER + y] < ws[W_FOUND + su]:
            continue  # banked: it never comes back
        c = ws[W_COL + y]
        if c < 0:
            return False  # reserve, stock or waste: it may reach a column top
        h = ws[W_HEIGHT + y]
        if h < 1 or h > ws[W_HI + c]:
            return False  # a column's bottom card, or not under a frozen link
    return True
