"""Rule B1: an upper bound on the cards a position can still bank.

Internal to the search (:mod:`solver.kernel`). The argument is in
``docs/solver.md``; ``tests/reference_bound.py`` is the plain twin this is
checked against.

Idea: under ``moves=whole`` a card leaves a column only alone from the top
(or with its whole column, which keeps its order). A card ``x`` lying on a
card ``u`` stays on ``u`` for ever when ``x`` can never go home (an earlier
card of its suit lies below it, or is itself stuck or buried) and every card
``x`` could be built on is banked, lies below ``x``, or is buried. Such
"frozen links" are found as a greatest fixed point; everything under one is
buried, and a suit's foundation never passes its first stuck or buried card.
"""

from __future__ import annotations

from numba import njit

from engine import core


@njit(cache=True)
def bound_applies(rules):
    """Whether rule B1 holds: single cards or whole columns leave a column, a
    column card never enters a space, and foundation cards never come back."""
    return (
        rules[core.R_MOVES] == core.MOVES_WHOLE
        and rules[core.R_WORRY] == 0
        and rules[core.R_FILL] == core.FILL_AUTO
        and rules[core.R_SPACE] == core.SPACE_WASTE
    )


@njit(cache=True, inline="always")
def _stuck(card, where_c, where_h, hi):
    """Whether ``card`` lies at or below its column's highest frozen link."""
    c = where_c[card]
    if c < 0:
        return False
    return hi[c] >= 1 and where_h[card] <= hi[c]


@njit(cache=True, inline="always")
def _buried(card, where_c, where_h, hi):
    """Whether a frozen link lies above ``card`` in its column."""
    c = where_c[card]
    if c < 0:
        return False
    return where_h[card] < hi[c]


@njit(cache=True)
def _link_frozen(s, x, c, hx, game, rules, where_c, where_h, hi):
    """Whether the link of ``x`` (at height ``hx`` of column ``c``) onto the
    card below it holds for ever, given the frozen links claimed in ``hi``."""
    base = game[core.G_BASE]
    su = x // 13
    k = (x % 13 - base) % 13
    no_home = False
    for kk in range(core.found_count(s, su), k):
        y = su * 13 + (base + kk) % 13
        cy = where_c[y]
        if cy < 0:
            continue
        if cy == c:
            if where_h[y] < hx:
                no_home = True
                break
        elif _stuck(y, where_c, where_h, hi):
            no_home = True
            break
    if not no_home:
        return False
    rp = (x % 13 + 1) % 13
    b, build, wrap = game[core.G_BASE], rules[core.R_BUILD], rules[core.R_WRAP]
    for sp in range(4):
        p = sp * 13 + rp
        if not core.builds_on_s(x, p, b, build, wrap):
            continue
        if (rp - base) % 13 < core.found_count(s, sp):
            continue  # banked, and it never comes back
        cp = where_c[p]
        if cp < 0:
            return False  # reserve, stock or waste: it may reach a column top
        if cp == c:
            if where_h[p] < hx:
                continue
            return False
        if not _buried(p, where_c, where_h, hi):
            return False
    return True


@njit(cache=True)
def banked_bound(s, game, rules, where_c, where_h, hi):
    """Most cards ``s`` can ever have banked (rule B1); 52 when nothing is frozen.

    ``where_c`` and ``where_h`` (int64[52]) and ``hi`` (int64[4]) are scratch:
    ``hi[c]`` ends as the height of column ``c``'s highest frozen link (0: none).
    """
    where_c[:] = -1
    for c in range(core.N_COLS):
        n = core.col_len(s, c)
        for h in range(n):
            card = core.col_card(s, c, h, rules)
            where_c[card] = c
            where_h[card] = h
        hi[c] = n - 1 if n >= 2 else 0
    # greatest fixed point: claim every column's top link, lower each claim
    # until it holds, and go round again while any claim moved
    changed = True
    while changed:
        changed = False
        for c in range(core.N_COLS):
            while hi[c] >= 1:
                x = core.col_card(s, c, hi[c], rules)
                if _link_frozen(s, x, c, hi[c], game, rules, where_c, where_h, hi):
                    break
                hi[c] -= 1
                changed = True
    base = game[core.G_BASE]
    total = 0
    for su in range(4):
        f = core.found_count(s, su)
        total += f
        for kk in range(f, 13):
            if _stuck(su * 13 + (base + kk) % 13, where_c, where_h, hi):
                break
            total += 1
    return total
