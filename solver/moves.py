"""The search's moves: K+ macro moves generated best-first, and applied.

A macro move (:mod:`solver.macros`) is every card move that draws and
redeals alone can bring about, with the draws folded in. The generator here
gives the same moves as :func:`engine.core.card_moves` from every stock
position draws and redeals reach, and :func:`apply_macro` the same child as
:func:`engine.core.apply_move`; ``tests/test_kernel.py`` checks both.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from canfield.engine import core
from canfield.solver.macros import STOCK_FIELDS, macro_atomic, macro_ptr, stock_tag
from canfield.solver.pruning import P1_HOME, W1_WASTE, useless_in_tableau
from canfield.solver.rank_home import useless_waste_top, w1_applies


@njit(cache=True)
def builder_masks(game, rules, builders):
    """``builders[t]``: bit ``x`` set when card ``x`` may be built on card ``t``."""
    base, build, wrap = game[core.G_BASE], rules[core.R_BUILD], rules[core.R_WRAP]
    for t in range(52):
        m = np.uint64(0)
        for x in range(52):
            if core.builds_on_s(x, t, base, build, wrap):
                m |= np.uint64(1) << np.uint64(x)
        builders[t] = m


# inlined into the search loop: a numba call passes each array argument as
# its header, field by field (docs/solver.md, Speed: about 15% of the time)
@njit(cache=True, inline="always")
def gen_macros(s, game, rules, out, buf, scratch, prune, builders, back):
    """Write the macro moves of ``s`` into ``out``, best-first; return the count.

    ``back`` is the column move that would undo the move into ``s`` (or -1):
    it leads back to the parent, which is in the table, so it is not made.

    With rule P1 in ``prune``, a column top that is useless in the tableau and
    fits its foundation is the only move: it is written alone and -1 returned.
    Rule W1 does the same for the waste top and returns -2.
    """
    # what each column top and foundation takes, as 52-bit masks: the
    # tableau does not change while the stock turns, so read it once
    space = core.space_open(s, rules)
    base = game[core.G_BASE]
    fmask = np.uint64(0)
    for su in range(4):
        f = core.found_count(s, su)
        if f < 13:
            fmask |= np.uint64(1) << np.uint64(su * 13 + (base + f) % 13)
    t0, t1, t2, t3 = core.col_tops(s, rules)
    n_at = _card_moves(s, game, rules, buf, builders, fmask, space, t0, t1, t2, t3)
    p0 = core.waste_ptr(s)
    r0 = core.redeals(s)
    here = stock_tag(p0, r0)
    if prune & P1_HOME and rules[core.R_WORRY] == 0:
        for i in range(n_at):
            m = buf[i]
            src = core.move_src(m)
            if src < core.N_COLS and core.move_dst(m) == core.DST_FOUND:
                top = core.col_top(s, src, rules)
                if useless_in_tableau(s, top, game, rules):
                    out[0] = m | here
                    return -1
    if prune & W1_WASTE and w1_applies(rules) and useless_waste_top(s, game, rules):
        out[0] = core.encode_move(core.SRC_WASTE, core.DST_FOUND, 1) | here
        return -2
    # scores sort the moves (higher first); scratch holds them, then the
    # live stock positions, so that no array is allocated per node
    scores = scratch
    n = 0
    for i in range(n_at):
        m = buf[i]
        if m == back:
            continue
        out[n] = m | here
        scores[n] = _score(s, m, rules, np.int64(0))
        n += 1
    # Stock cycle: each waste top that draws and redeals alone bring up.
    # Work on the list of live stock positions: a draw advances an index.
    # Mirror (the stock rules; change together): engine/core.py do_draw,
    # do_redeal and can_redeal; tests/reference_rules.py ref_apply (draw,
    # redeal) and _redeal_allowed; apply_macro below (the waste move).
    # (solver/bound.py reads no stock: rule B1 holds for any stock.)
    ns = game[core.G_NSTOCK]
    live_at = out.shape[0]
    m_live = 0
    j = core.live_below(s, ns, p0)
    live = ~s[1] & ((np.uint64(1) << np.uint64(ns)) - np.uint64(1))
    i = 0
    while live != np.uint64(0):
        if live & np.uint64(1):
            scratch[live_at + m_live] = i
            m_live += 1
        live >>= np.uint64(1)
        i += 1
    draw = rules[core.R_DRAW]
    passes = rules[core.R_PASSES]
    r = r0
    takes_space = space >= 1  # waste cards: space 1 (waste only) or 2 (any)
    seen = np.uint64(1) << np.uint64(j)
    steps = 0
    while True:
        if j < m_live:
            j = min(j + draw, m_live)
        elif j > 0 and (passes == 0 or r < passes - 1):
            j = 0
            if passes != 0:
                r += 1
        else:
            break
        steps += 1
        bit = np.uint64(1) << np.uint64(j)
        if seen & bit:
            break  # the cycle repeats, or repeats with more redeals spent
        seen |= bit
        if j == 0:
            continue
        pos = scratch[live_at + j - 1]
        wt = game[core.G_STOCK + pos]
        start = n
        n = _single_moves(wt, core.SRC_WASTE, out, n, builders, fmask, takes_space, t0, t1, t2, t3)
        tag = stock_tag(pos + 1, r)
        for q in range(start, n):
            scores[q] = _score(s, out[q], rules, steps)
            out[q] = out[q] | tag
    # insertion sort by score, descending (stable: generation order breaks ties)
    for i in range(1, n):
        m = out[i]
        sc = scores[i]
        j = i - 1
        while j >= 0 and scores[j] < sc:
            out[j + 1] = out[j]
            scores[j + 1] = scores[j]
            j -= 1
        out[j + 1] = m
        scores[j + 1] = sc
    return n


@njit(cache=True, inline="always")
def _card_moves(s, game, rules, out, builders, fmask, space, t0, t1, t2, t3):
    """:func:`engine.core.card_moves` (same moves, same order) with the build
    tests read from the ``builders`` masks; ``tests/test_kernel.py`` checks it."""
    # Mirror (which card may move where; change together): engine/core.py
    # card_moves and _add_card_moves; tests/reference_rules.py ref_legal_moves,
    # _empty_column_takes and _run_sizes; solver/bound.py bound_applies (the
    # moves rule B1 assumes); _single_moves and gen_macros here.
    n = 0
    one = np.uint64(1)
    rt = core.reserve_top(s, game)
    if rt >= 0:
        n = _single_moves(rt, core.SRC_RESERVE, out, n, builders, fmask, space == 2, t0, t1, t2, t3)
    wt = core.waste_top(s, game)
    if wt >= 0:
        n = _single_moves(wt, core.SRC_WASTE, out, n, builders, fmask, space >= 1, t0, t1, t2, t3)
    any_runs = rules[core.R_MOVES] == core.MOVES_ANY
    for c in range(core.N_COLS):
        L = core.col_len(s, c)
        if L == 0:
            continue
        top = core.column_top(c, t0, t1, t2, t3)
        if fmask & (one << np.uint64(top)):
            out[n] = core.encode_move(c, core.DST_FOUND, 1)
            n += 1
        k = 1
        while k <= L:
            unit = top if k == 1 else core.col_card(s, c, L - k, rules)
            ubit = one << np.uint64(unit)
            for d in range(core.N_COLS):
                if d == c:
                    continue
                dt = core.column_top(d, t0, t1, t2, t3)
                if dt < 0:
                    if space == 2 and k < L:
                        out[n] = core.encode_move(c, d, k)
                        n += 1
                elif builders[dt] & ubit:
                    out[n] = core.encode_move(c, d, k)
                    n += 1
            # under moves=whole only the top card and the whole column leave
            k = k + 1 if any_runs or k == L else L
    if rules[core.R_WORRY] == 1:
        for su in range(4):
            ft = core.found_top(s, su, game)
            if ft >= 0:
                n = core._add_card_moves(
                    s, ft, core.SRC_FOUND0 + su, game, rules, out, n, space, t0, t1, t2, t3
                )
    return n


@njit(cache=True, inline="always")
def _single_moves(card, src, out, n, builders, fmask, to_space, t0, t1, t2, t3):
    """Moves of one reserve or waste card: its foundation, then columns 1-4."""
    bit = np.uint64(1) << np.uint64(card)
    if fmask & bit:
        out[n] = core.encode_move(src, core.DST_FOUND, 1)
        n += 1
    for c in range(core.N_COLS):
        top = core.column_top(c, t0, t1, t2, t3)
        if (top < 0 and to_space) or (top >= 0 and builders[top] & bit):
            out[n] = core.encode_move(src, c, 1)
            n += 1
    return n


@njit(cache=True, inline="always")
def _score(s, m, rules, steps):
    """Move ordering: reserve progress first, then foundations, then the rest."""
    src = core.move_src(m)
    dst = core.move_dst(m)
    k = core.move_count(m)
    sc = 0
    if src == core.SRC_RESERVE:
        sc += 400
    if dst == core.DST_FOUND:
        sc += 300
    if src < core.N_COLS and k == core.col_len(s, src):
        sc += 200 if core.res_count(s) > 0 else 100  # empties a column
    if src == core.SRC_WASTE:
        sc += 50 - steps
    if src >= core.SRC_FOUND0 and src < core.SRC_DRAW:
        sc -= 200
    return sc


# inlined into the search loop: a numba call passes each array argument as
# its header, field by field (docs/solver.md, Speed: about 15% of the time)
@njit(cache=True, inline="always")
def apply_macro(s, mac, game, rules):
    """Turn the stock to the macro's position and make its card move.

    The same as setting the waste pointer and redeals and calling
    :func:`engine.core.apply_move` (``tests/test_kernel.py`` checks it), with
    the common moves written out: the child of every move is made here.
    """
    # Mirror (what a move does to a position; change together): engine/core.py
    # apply_move, col_move and auto_fill; tests/reference_rules.py ref_apply
    # and _auto_fill; solver/bound.py _decode (the column words it reads).
    p = macro_ptr(mac)
    s[0] = (s[0] & ~np.uint64(STOCK_FIELDS)) | np.uint64(mac & STOCK_FIELDS)
    a = macro_atomic(mac)
    src, dst = core.move_src(a), core.move_dst(a)
    if rules[core.R_BUILD] == core.BUILD_RANK or src >= core.SRC_FOUND0:
        core.apply_move(s, a, game, rules)
        return
    # no waste or reserve move empties a column, so none needs an auto-fill
    if src == core.SRC_WASTE:
        card = game[core.G_STOCK + p - 1]
        s[1] |= np.uint64(1) << np.uint64(p - 1)
        q = p - 1
        while q > 0 and core.stock_removed(s, q - 1):
            q -= 1
        core.set_waste_ptr(s, q)
        _place(s, card, dst, rules)
        return
    if src == core.SRC_RESERVE:
        n = core.res_count(s)
        core.set_res_count(s, n - 1)
        _place(s, game[core.G_RES + n - 1], dst, rules)
        return
    w = core.COL0 + 2 * src
    n = core.col_len(s, src)
    if dst == core.DST_FOUND:
        card = core.col_top(s, src, rules)
        su = card // 13
        core.set_found_count(s, su, core.found_count(s, su) + 1)
        if n == 1:
            s[w] = np.uint64(0)
            s[w + 1] = np.uint64(0)
            core.auto_fill(s, game, rules)
        else:
            # the top's choice bit (if any) is cleared and the length cut
            s[w] = (s[w] & ~np.uint64(63)) | np.uint64(n - 1)
            if rules[core.R_BUILD] == core.BUILD_ALT:
                s[w] &= ~(np.uint64(1) << np.uint64(12 + n - 2))
        return
    k = core.move_count(a)
    core.col_move(s, src, dst, k, rules)
    if k == n:
        core.auto_fill(s, game, rules)


@njit(cache=True, inline="always")
def _place(s, card, dst, rules):
    """Put a reserve or waste card on its foundation or on a column."""
    if dst == core.DST_FOUND:
        su = card // 13
        core.set_found_count(s, su, core.found_count(s, su) + 1)
        return
    w = core.COL0 + 2 * dst
    n = core.col_len(s, dst)
    if n == 0:
        s[w] = np.uint64(1) | (np.uint64(card) << np.uint64(6))
        s[w + 1] = np.uint64(0)
        return
    if rules[core.R_BUILD] == core.BUILD_ALT:
        s[w] |= np.uint64((card // 13) >> 1) << np.uint64(12 + n - 1)
    s[w] = (s[w] & ~np.uint64(63)) | np.uint64(n + 1)
