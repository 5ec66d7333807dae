"""The compiled search: depth-first, with an exact transposition table.

Internal to :mod:`solver.search`. The search runs in chunks of nodes so that
Python can check the clock between calls; all of its state lives in the arrays
of a :class:`numba`-free "workspace" tuple that Python owns.

Moves are "K+" macro moves (``docs/solver.md``): every card move that draws
and redeals alone can bring about, with the draws folded in. A macro is
encoded as ``atomic | p << 20 | redeals << 26``: the waste pointer and redeal
count to turn the stock to before the atomic card move.
"""

from __future__ import annotations

import numpy as np
from canfield.engine import core
from canfield.solver.bound import WORK_LEN, bound_after_move, bound_applies, set_parents
from canfield.solver.config import MAX_MACROS as MAX_MACROS_K
from numba import njit

# kernel return codes
RUNNING, WON, EXHAUSTED, TABLE_FULL, TOO_DEEP = 0, 1, 2, 3, 4

# stats vector slots
ST_NODES, ST_DEPTH, ST_MAXDEPTH, ST_BEST, ST_BESTLEN, ST_ENTRIES, ST_PRUNED, ST_DEAD = range(8)
ST_CHILDREN = 8  # children made (each applied, keyed and looked up)
ST_CUT = 9  # positions not expanded because rule B1 says they cannot beat the best
ST_DOMINATED = 10  # children skipped because rule E2 says a visited one dominates them
N_STATS = 11

# pruning rules (docs/solver.md), as bits of the ``prune`` mask
P1_HOME, E1_CYCLE, B1_BOUND, E2_POINTER = 1, 2, 4, 8
ALL_RULES = P1_HOME | E1_CYCLE | B1_BOUND | E2_POINTER

ATOMIC_MASK = (1 << 20) - 1


@njit(cache=True, inline="always")
def _hash(key, k0):
    """Hash of a key whose word 0 is replaced by ``k0`` (pointer taken out)."""
    h = np.uint64(0x9E3779B97F4A7C15)
    for i in range(key.shape[0]):
        h ^= k0 if i == 0 else key[i]
        h *= np.uint64(0xBF58476D1CE4E5B9)
        h ^= h >> np.uint64(29)
    return h


PTR_BITS = np.uint64(63) << np.uint64(20)  # the waste pointer in key word 0


@njit(cache=True)
def tt_visit(table, key, s, game, rules, use_e2, max_entries, stats):
    """Record a visit of ``key``; return 1 to expand it, 0 to skip it, -1 if full.

    Row ``i`` of ``table`` is one slot: a non-zero tag (high hash bits, so most
    mismatches cost one compare), the key with its waste pointer taken out,
    and a mask of the waste pointers visited with that key (bit ``p``). Tag,
    key and mask share a row so that a probe touches one cache line.

    A position ``s`` is skipped when a pointer whose visit makes this one
    needless was visited: the pointer itself, or with ``use_e2`` one that
    dominates it (rule E2; :func:`dominators`, worked out only when the key
    was seen with other pointers). A skip other than a repeat is counted in
    ``ST_DOMINATED``.
    """
    cap = table.shape[0]
    kw = key.shape[0]
    p = (key[0] >> np.uint64(20)) & np.uint64(63)
    bit = np.uint64(1) << p
    k0 = key[0] & ~PTR_BITS
    h = _hash(key, k0)
    tag = (h >> np.uint64(32)) | np.uint64(1)
    i = np.int64(h & np.uint64(cap - 1))
    while True:
        t = table[i, 0]
        if t == 0:
            if stats[ST_ENTRIES] >= max_entries:
                return -1
            table[i, 0] = tag
            table[i, 1] = k0
            for w in range(1, kw):
                table[i, w + 1] = key[w]
            table[i, kw + 1] = bit
            stats[ST_ENTRIES] += 1
            return 1
        if t == tag and table[i, 1] == k0:
            same = True
            for w in range(1, kw):
                if table[i, w + 1] != key[w]:
                    same = False
                    break
            if same:
                seen = table[i, kw + 1]
                if seen & bit:
                    return 0
                if use_e2 and seen & dominators(s, game, rules, True):
                    stats[ST_DOMINATED] += 1
                    return 0
                table[i, kw + 1] = seen | bit
                return 1
        i = (i + 1) & (cap - 1)


@njit(cache=True)
def dominators(s, game, rules, use_e2):
    """Mask of the waste pointers whose visit makes a visit of ``s`` needless.

    Rule E2 (unlimited passes, after E1): a position on the stock cycle
    (pointer 0) is dominated by the same position at any pointer; one off the
    cycle, with ``j`` live cards in the waste, by the same position with ``i``
    live cards in the waste for every ``i <= j`` with ``i = j`` (mod draw),
    since draws from ``i`` reach ``j``. Without E2, only the pointer itself.
    """
    p = core.waste_ptr(s)
    own = np.uint64(1) << np.uint64(p)
    if not use_e2:
        return own
    if p == 0:
        return ~np.uint64(0)
    draw = rules[core.R_DRAW]
    ns = game[core.G_NSTOCK]
    j = core.live_below(s, ns, p)
    mask = own
    live = ~s[1] & ((np.uint64(1) << np.uint64(p)) - np.uint64(1))
    i = 0
    q = 0
    while live != np.uint64(0):
        if live & np.uint64(1):
            i += 1
            if (j - i) % draw == 0:
                mask |= np.uint64(1) << np.uint64(q + 1)
        live >>= np.uint64(1)
        q += 1
    return mask


@njit(cache=True)
def useless_in_tableau(s, card, game, rules):
    """True when no card that could ever be built on ``card`` is off the foundations.

    Such a card can only ever go to its foundation (see ``docs/solver.md``,
    rule P1). Assumes worry is off, so foundation cards never come back.
    """
    base = game[core.G_BASE]
    r = card % 13
    if rules[core.R_WRAP] == core.WRAP_BASE and r == base:
        return True
    below = (r + 12) % 13
    for su in range(4):
        y = su * 13 + below
        if not core.builds_on(y, card, game, rules):
            continue
        rel = (below - base) % 13
        if core.found_count(s, su) <= rel:
            return False
    return True


@njit(cache=True)
def kid_masks(game, rules, kids):
    """``kids[t]``: bit ``x`` set when card ``x`` may be built on card ``t``."""
    base, build, wrap = game[core.G_BASE], rules[core.R_BUILD], rules[core.R_WRAP]
    for t in range(52):
        m = np.uint64(0)
        for x in range(52):
            if core.builds_on_s(x, t, base, build, wrap):
                m |= np.uint64(1) << np.uint64(x)
        kids[t] = m


@njit(cache=True)
def gen_macros(s, game, rules, out, buf, scratch, prune, kids, back):  # noqa: C901
    """Write the macro moves of ``s`` into ``out``, best-first; return the count.

    ``back`` is the column move that would undo the move into ``s`` (or -1):
    it leads back to the parent, which is in the table, so it is not made.

    With rule P1 in ``prune``, a column top that is useless in the tableau and fits its
    foundation is the only move (rule P1).
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
    n_at = _card_moves(s, game, rules, buf, kids, fmask, space, t0, t1, t2, t3)
    if prune & P1_HOME and rules[core.R_WORRY] == 0:
        for i in range(n_at):
            m = buf[i]
            src = core.move_src(m)
            if src < core.N_COLS and core.move_dst(m) == core.DST_FOUND:
                top = core.col_top(s, src, rules)
                if useless_in_tableau(s, top, game, rules):
                    out[0] = m | (core.waste_ptr(s) << 20) | (core.redeals(s) << 26)
                    return -1
    p0 = core.waste_ptr(s)
    r0 = core.redeals(s)
    here = (p0 << 20) | (r0 << 26)
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
    # stock cycle: each waste top that draws and redeals alone bring up.
    # Work on the list of live stock positions: a draw advances an index.
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
        n = _single_moves(wt, core.SRC_WASTE, out, n, kids, fmask, takes_space, t0, t1, t2, t3)
        tag = ((pos + 1) << 20) | (r << 26)
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


@njit(cache=True)
def _card_moves(s, game, rules, out, kids, fmask, space, t0, t1, t2, t3):  # noqa: C901
    """:func:`engine.core.card_moves` (same moves, same order) with the build
    tests read from the ``kids`` masks; ``tests/test_kernel.py`` checks it."""
    n = 0
    one = np.uint64(1)
    rt = core.reserve_top(s, game)
    if rt >= 0:
        n = _single_moves(rt, core.SRC_RESERVE, out, n, kids, fmask, space == 2, t0, t1, t2, t3)
    wt = core.waste_top(s, game)
    if wt >= 0:
        n = _single_moves(wt, core.SRC_WASTE, out, n, kids, fmask, space >= 1, t0, t1, t2, t3)
    any_runs = rules[core.R_MOVES] == core.MOVES_ANY
    for c in range(core.N_COLS):
        L = core.col_len(s, c)
        if L == 0:
            continue
        top = core._pick4(c, t0, t1, t2, t3)
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
                dt = core._pick4(d, t0, t1, t2, t3)
                if dt < 0:
                    if space == 2 and k < L:
                        out[n] = core.encode_move(c, d, k)
                        n += 1
                elif kids[dt] & ubit:
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
def _single_moves(card, src, out, n, kids, fmask, to_space, t0, t1, t2, t3):
    """Moves of one reserve or waste card: its foundation, then columns 1-4."""
    bit = np.uint64(1) << np.uint64(card)
    if fmask & bit:
        out[n] = core.encode_move(src, core.DST_FOUND, 1)
        n += 1
    for c in range(core.N_COLS):
        top = core._pick4(c, t0, t1, t2, t3)
        if (top < 0 and to_space) or (top >= 0 and kids[top] & bit):
            out[n] = core.encode_move(src, c, 1)
            n += 1
    return n


@njit(cache=True, inline="always")
def _banked_card(s, parent, game):
    """The card ``s`` has on a foundation that ``parent`` had not (-1: none)."""
    for su in range(4):
        f = core.found_count(s, su)
        if f != core.found_count(parent, su):
            return su * 13 + (game[core.G_BASE] + f - 1) % 13
    return -1


@njit(cache=True)
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


@njit(cache=True)
def child_bound(child, parent, mac, parent_bound, game, rules, ws, kids):
    """Rule B1's bound of ``child``, made from ``parent`` (bound
    ``parent_bound``) by the macro move ``mac``."""
    a = mac & ATOMIC_MASK
    banked_card = -1
    if core.move_dst(a) == core.DST_FOUND:  # only then is it read
        banked_card = _banked_card(child, parent, game)
    return bound_after_move(child, game, rules, ws, a, parent_bound, banked_card, kids)


@njit(cache=True)
def canon_stock(s, game, rules):
    """Rule E1: with unlimited passes, an on-cycle waste pointer becomes 0.

    With ``j`` of the ``m`` live stock cards in the waste, draws and redeals
    alone go round ``0, d, 2d, ..., m, 0, ...``; every position on that cycle
    reaches every other, so all of them have the same macro moves and the
    same children. They are one position for the search; 0 stands for them.
    """
    if rules[core.R_PASSES] != 0:
        return
    p = core.waste_ptr(s)
    if p == 0:
        return
    ns = game[core.G_NSTOCK]
    m = core.live_below(s, ns, ns)
    j = core.live_below(s, ns, p)
    if j == m or j % rules[core.R_DRAW] == 0:
        core.set_waste_ptr(s, 0)


@njit(cache=True)
def apply_macro(s, mac, game, rules):
    """Turn the stock to the macro's position and make its card move.

    The same as setting the waste pointer and redeals and calling
    :func:`engine.core.apply_move` (``tests/test_kernel.py`` checks it), with
    the common moves written out: the child of every move is made here.
    """
    p = (mac >> 20) & 63
    keep = ~((np.uint64(63) << np.uint64(20)) | (np.uint64(15) << np.uint64(26)))
    s[0] = (s[0] & keep) | np.uint64((p << 20) | (((mac >> 26) & 15) << 26))
    a = mac & ATOMIC_MASK
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


@njit(cache=True)
def rule_setup(game, rules, prune):
    """What the pruning rules need, worked out once per kernel call: whether
    E2 and B1 apply, the ``kids`` masks and B1's workspace."""
    use_e2 = (prune & E2_POINTER) != 0 and (prune & E1_CYCLE) != 0 and rules[core.R_PASSES] == 0
    use_bound = (prune & B1_BOUND) != 0 and bound_applies(rules)
    kids = np.empty(52, np.uint64)
    kid_masks(game, rules, kids)
    ws = np.empty(WORK_LEN, np.int64)
    if use_bound:
        set_parents(ws, game, rules)
    return use_e2, use_bound, kids, ws


@njit(cache=True)
def search(
    game,
    rules,
    states,
    mstack,
    mbase,
    nmoves,
    imove,
    ubound,
    table,
    max_entries,
    stats,
    best_path,
    chunk,
    prune,
    width,
):
    """Run up to ``chunk`` node expansions of the depth-first search.

    ``states[d]`` is the position at depth ``d``. The macro moves of all the
    positions on the path share one flat buffer: those of depth ``d`` are
    ``mstack[mbase[d] : mbase[d] + nmoves[d]]`` and ``imove[d]`` is the next
    one to try. Returns a code: RUNNING (call again), WON (the path is the
    last move tried at each depth), EXHAUSTED (every reachable position was
    seen: a proof), TABLE_FULL (grow the table and call again) or TOO_DEEP
    (grow the stack and call again; nothing was changed).

    ``width`` caps the moves searched below the root at the first ``width``
    of the ordering: a narrowed probe that looks for wins fast. Exhausting a
    narrowed search proves nothing; the full search passes ``MAX_MACROS_K``.
    """
    buf = np.empty(core.MAX_MOVES, np.int64)
    scratch = np.empty(MAX_MACROS_K + 64, np.int64)
    key = np.zeros(table.shape[1] - 2, np.uint64)
    max_depth = states.shape[0]
    room = mstack.shape[0]
    use_e2, use_bound, kids, ws = rule_setup(game, rules, prune)
    d = stats[ST_DEPTH]
    done = 0
    while done < chunk:
        if d < 0:
            return EXHAUSTED
        if imove[d] >= nmoves[d]:
            d -= 1
            stats[ST_DEPTH] = d
            continue
        top = mbase[d] + nmoves[d]
        if d + 2 > max_depth or top + MAX_MACROS_K > room:
            stats[ST_DEPTH] = d
            return TOO_DEEP
        mac = mstack[mbase[d] + imove[d]]
        imove[d] += 1
        child = states[d + 1]
        stats[ST_CHILDREN] += 1
        child[:] = states[d]
        # a column move that leaves its source non-empty is undone by the
        # reverse move, back to this position: the child need not make it
        back = -1
        a = mac & ATOMIC_MASK
        src, dst, k = core.move_src(a), core.move_dst(a), core.move_count(a)
        if src < core.N_COLS and dst < core.N_COLS and k < core.col_len(states[d], src):
            back = core.encode_move(dst, src, k)
        apply_macro(child, mac, game, rules)
        if prune & E1_CYCLE:
            canon_stock(child, game, rules)
        core.canonical_key(child, rules, key)
        ins = tt_visit(table, key, child, game, rules, use_e2, max_entries, stats)
        if ins == -1:
            imove[d] -= 1  # the child is made again once the table has grown
            stats[ST_CHILDREN] -= 1
            stats[ST_DEPTH] = d
            return TABLE_FULL
        if ins == 0:
            continue
        done += 1
        stats[ST_NODES] += 1
        d += 1
        stats[ST_DEPTH] = d
        if d > stats[ST_MAXDEPTH]:
            stats[ST_MAXDEPTH] = d
        b = core.banked(child)
        if b > stats[ST_BEST]:
            stats[ST_BEST] = b
            stats[ST_BESTLEN] = d
            for i in range(d):
                best_path[i] = mstack[mbase[i] + imove[i] - 1]
        if b == 52:
            return WON
        mbase[d] = top
        if use_bound:
            u = child_bound(child, states[d - 1], mac, ubound[d - 1], game, rules, ws, kids)
            ubound[d] = u
            if u <= stats[ST_BEST]:
                nmoves[d] = 0  # rule B1: nothing below here banks more than the best
                imove[d] = 0
                stats[ST_CUT] += 1
                continue
        n = gen_macros(
            child, game, rules, mstack[top : top + MAX_MACROS_K], buf, scratch, prune, kids, back
        )
        if n == -1:
            n = 1
            stats[ST_PRUNED] += 1
        elif n == 0:
            stats[ST_DEAD] += 1
        elif n > width:
            n = width
        nmoves[d] = n
        imove[d] = 0
    stats[ST_DEPTH] = d
    return RUNNING


@njit(cache=True)
def root_setup(
    s0, game, rules, states, mstack, mbase, nmoves, imove, ubound, table, max_entries, stats, prune
):
    """Put the root on the stack and in the table."""
    ubound[0] = -1  # the root's bound is not known: its children compute theirs
    key = np.zeros(table.shape[1] - 2, np.uint64)
    buf = np.empty(core.MAX_MOVES, np.int64)
    scratch = np.empty(MAX_MACROS_K + 64, np.int64)
    states[0, :] = s0
    if prune & E1_CYCLE:
        canon_stock(states[0], game, rules)
    s0 = states[0]
    core.canonical_key(s0, rules, key)
    no_e2 = prune < 0  # False, typed (bool, not a literal) as in the search
    tt_visit(table, key, s0, game, rules, no_e2, max_entries, stats)
    stats[ST_BEST] = core.banked(s0)
    stats[ST_BESTLEN] = 0
    mbase[0] = 0
    kids = np.empty(52, np.uint64)
    kid_masks(game, rules, kids)
    imove[0] = 0
    no_back = imove[0] - 1  # -1, typed as the search's own call types it: one compile
    n = gen_macros(s0, game, rules, mstack[0:MAX_MACROS_K], buf, scratch, prune, kids, no_back)
    if n == -1:
        n = 1
    nmoves[0] = n
    imove[0] = 0
    stats[ST_DEPTH] = 0
    stats[ST_NODES] = 1


@njit(cache=True)
def tt_rehash(old, new):
    """Move every entry of the old table into the (larger, empty) new one."""
    cap = new.shape[0]
    for i in range(old.shape[0]):
        if old[i, 0] == 0:
            continue
        h = _hash(old[i, 1:-1], old[i, 1])
        j = np.int64(h & np.uint64(cap - 1))
        while new[j, 0] != 0:
            j = (j + 1) & (cap - 1)
        new[j, :] = old[i, :]
