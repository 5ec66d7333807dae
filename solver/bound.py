"""Rule B1: an upper bound on the cards a position can still bank.

Internal to the searches (:mod:`solver.dfs`, :mod:`solver.layers`). The argument is in
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

import numpy as np
from numba import njit

from canfield.engine import core
from canfield.engine.uncounted import uncounted
from canfield.solver.macros import macro_atomic


@njit(cache=True)
def bound_applies(rules):
    """Whether rule B1 holds: single cards or whole columns leave a column, a
    column card never enters a space, and foundation cards never come back."""
    # Mirror (which card may move where; change together): engine/core.py
    # card_moves; solver/moves.py _card_moves; tests/reference_rules.py
    # ref_legal_moves; tests/reference_bound.py ref_bound_applies.
    return (
        rules[core.R_MOVES] == core.MOVES_WHOLE
        and rules[core.R_WORRY] == 0
        and rules[core.R_FILL] == core.FILL_AUTO
        and rules[core.R_SPACE] == core.SPACE_WASTE
    )


# workspace layout (int64): where each card lies, and per-position tables
W_COL, W_HEIGHT, W_ORDER = 0, 52, 104  # column (-1: not in one), height, order in its suit
W_BY_ORDER = 156  # card of suit su and order k at su * 13 + k
W_HI, W_FOUND = 208, 212  # highest frozen link per column, foundation counts
W_PARENTS = 216  # up to 4 cards each card may be built on, -1 padded
W_CARDS = W_PARENTS + 52 * 4  # the card at height h of column c at c * 64 + h
W_PMASK = W_CARDS + 64 * 4  # bit mask of the cards each card may be built on
W_EXPOSED = W_PMASK + 52  # mask of the cards that are, or may become, column tops now
WORK_LEN = W_EXPOSED + 1


@njit(cache=True)
def set_parents(ws, game, rules):
    """Record what never changes in a game: every card's order in its suit,
    and the cards each card may be built on under these rules."""
    base, build, wrap = game[core.G_BASE], rules[core.R_BUILD], rules[core.R_WRAP]
    for su in range(4):
        for k in range(13):
            card = su * 13 + (base + k) % 13
            ws[W_BY_ORDER + su * 13 + k] = card
            ws[W_ORDER + card] = k
    for x in range(52):
        n = 0
        ws[W_PMASK + x] = 0
        for sp in range(4):
            p = sp * 13 + (x % 13 + 1) % 13
            if core.builds_on_s(x, p, base, build, wrap):
                ws[W_PARENTS + 4 * x + n] = p
                ws[W_PMASK + x] |= 1 << p
                n += 1
        for i in range(n, 4):
            ws[W_PARENTS + 4 * x + i] = -1


@njit(cache=True, inline="always")
def _stuck(ws, card):
    """Whether ``card`` lies at or below its column's highest frozen link."""
    c = ws[W_COL + card]
    if c < 0:
        return False
    hi = ws[W_HI + c]
    return hi >= 1 and ws[W_HEIGHT + card] <= hi


@njit(cache=True, inline="always")
def _link_frozen(ws, x, c, hx):
    """Whether the link of ``x`` (at height ``hx`` of column ``c``) onto the
    card below it holds for ever, given the frozen links claimed in ``ws``."""
    if ws[W_PMASK + x] & ws[W_EXPOSED]:
        return False  # a parent is a column top, or off the tableau and not banked
    for i in range(4):
        p = ws[W_PARENTS + 4 * x + i]
        if p < 0:
            break
        if ws[W_ORDER + p] < ws[W_FOUND + p // 13]:
            continue  # banked, and it never comes back
        cp = ws[W_COL + p]
        if cp < 0:
            return False  # reserve, stock or waste: it may reach a column top
        if cp == c:
            if ws[W_HEIGHT + p] < hx:
                continue
            return False
        if ws[W_HEIGHT + p] >= ws[W_HI + cp]:
            return False  # not buried: it may become a column top
    su = x // 13
    no_home = False
    for kk in range(ws[W_FOUND + su], ws[W_ORDER + x]):
        y = ws[W_BY_ORDER + su * 13 + kk]
        cy = ws[W_COL + y]
        if cy < 0:
            continue
        if cy == c:
            if ws[W_HEIGHT + y] < hx:
                no_home = True
                break
        elif _stuck(ws, y):
            no_home = True
            break
    return no_home


@uncounted
def banked_bound(s, game, rules, ws):
    """Most cards ``s`` can ever have banked (rule B1); 52 when nothing is frozen.

    ``ws`` is a workspace of ``WORK_LEN`` int64 whose parents were set for
    this game with :func:`set_parents`.
    """
    _decode(s, game, rules, ws)
    return _settle(ws)


# inlined into the search loop: a numba call passes each array argument as
# its header, field by field (docs/solver.md, Speed: about 15% of the time)
@njit(cache=True, inline="always")
def bound_after_move(s, game, rules, ws, move, parent_bound, banked_card, builders):
    """:func:`banked_bound` of ``s``, reached by the atomic ``move`` from a
    position whose bound was ``parent_bound`` (-1: unknown).

    Most moves change the frozen set only through one link (``docs/solver.md``):

    * a single card ``x`` moved onto a column, banking nothing: ``x``'s new
      link;
    * a card banked (``banked_card``): the links of the cards built on it
      (``builders[banked_card]``, a mask), which lose a possible parent.

    If none of those links can be frozen even when every other link is
    claimed, the frozen set and the bound are the parent's, and the fixed
    point is not computed.
    """
    _decode(s, game, rules, ws)
    if parent_bound < 0:
        return _settle(ws)
    dst = core.move_dst(move)
    if dst == core.DST_FOUND:
        ks = builders[banked_card]
        for x in range(52):
            if ks == np.uint64(0):
                break
            if ks & np.uint64(1):
                c = ws[W_COL + x]
                if c >= 0 and ws[W_HEIGHT + x] >= 1 and _link_frozen(ws, x, c, ws[W_HEIGHT + x]):
                    return _settle(ws)
            ks >>= np.uint64(1)
        return parent_bound
    if core.move_count(move) == 1:
        hx = core.col_len(s, dst) - 1
        if hx < 1:
            return parent_bound  # x starts a column: no new link
        if not _link_frozen(ws, ws[W_CARDS + 64 * dst + hx], dst, hx):
            return parent_bound
    return _settle(ws)


# inlined into the search loop: a numba call passes each array argument as
# its header, field by field (docs/solver.md, Speed: about 15% of the time)
@njit(cache=True, inline="always")
def child_bound(child, parent, mac, parent_bound, game, rules, ws, builders):
    """Rule B1's bound of ``child``, made from ``parent`` (bound
    ``parent_bound``) by the macro move ``mac``."""
    a = macro_atomic(mac)
    banked_card = -1
    if core.move_dst(a) == core.DST_FOUND:  # only then is it read
        banked_card = _banked_card(child, parent, game)
    return bound_after_move(child, game, rules, ws, a, parent_bound, banked_card, builders)


@njit(cache=True, inline="always")
def _banked_card(s, parent, game):
    """The card ``s`` has on a foundation that ``parent`` had not (-1: none)."""
    for su in range(4):
        f = core.found_count(s, su)
        if f != core.found_count(parent, su):
            return su * 13 + (game[core.G_BASE] + f - 1) % 13
    return -1


@uncounted
def _decode(s, game, rules, ws):
    """Fill the per-position tables and claim every column's top link."""
    # Mirror (how a column word holds its cards, and what a move does to it;
    # change together): engine/core.py col_card, col_push, col_move and
    # apply_move; solver/moves.py apply_macro and _place;
    # tests/reference_rules.py ref_apply and builds_on (the suit a choice bit
    # picks under build=alt).
    banked = 0
    for su in range(4):
        f = core.found_count(s, su)
        ws[W_FOUND + su] = f
        for k in range(f):
            banked |= 1 << ws[W_BY_ORDER + su * 13 + k]
    for card in range(52):
        ws[W_COL + card] = -1
    alt = rules[core.R_BUILD] == core.BUILD_ALT
    covered = 0  # column cards under another card: never a top while so
    for c in range(core.N_COLS):
        w = s[core.COL0 + 2 * c]
        n = np.int64(w & np.uint64(63))
        card = np.int64((w >> np.uint64(6)) & np.uint64(63))
        rank = card % 13
        red = card // 13 == 1 or card // 13 == 2
        for h in range(n):
            if h > 0:
                if alt:
                    # one rank down, the other colour, the suit by its choice bit
                    rank = rank - 1 if rank > 0 else 12
                    red = not red
                    bit = (w >> np.uint64(12 + h - 1)) & np.uint64(1)
                    su = (2 if bit else 1) if red else (3 if bit else 0)
                    card = su * 13 + rank
                else:
                    card = core.col_card(s, c, h, rules)
            ws[W_COL + card] = c
            ws[W_HEIGHT + card] = h
            ws[W_CARDS + 64 * c + h] = card
            if h < n - 1:
                covered |= 1 << card
        ws[W_HI + c] = n - 1 if n >= 2 else 0
    ws[W_EXPOSED] = ((1 << 52) - 1) & ~covered & ~banked


@uncounted
def _settle(ws):
    """Lower the claims to the greatest fixed point; count what can be banked."""
    # lower each claim until it holds, and go round again while any moved
    changed = True
    while changed:
        changed = False
        for c in range(core.N_COLS):
            while ws[W_HI + c] >= 1:
                hx = ws[W_HI + c]
                x = ws[W_CARDS + 64 * c + hx]
                if _link_frozen(ws, x, c, hx):
                    break
                ws[W_HI + c] = hx - 1
                changed = True
    total = 0
    for su in range(4):
        f = ws[W_FOUND + su]
        total += f
        for kk in range(f, 13):
            if _stuck(ws, ws[W_BY_ORDER + su * 13 + kk]):
                break
            total += 1
    return total
