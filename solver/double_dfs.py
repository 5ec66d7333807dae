"""The depth-first search for two packs (``double``): numba kernels.

The one-pack search (:mod:`solver.dfs`, :mod:`solver.moves`, the compact
table) is built on :mod:`engine.core`'s fixed layout; two packs use
:mod:`engine.core_double`'s, so they have this smaller search of their own:
K+ macro moves as in ``docs/solver.md`` (no bare draws: every waste card a
pass brings up, each pointer taken the first time the stock walk reaches it),
an exact transposition table of whole 12-word keys, and rule P1 argued again
for two packs (``docs/solver.md``, "Two packs"). E1, E2, E3 and B1 are not
used here. A resumable kernel: all of its state lives in the arrays it is
handed, so the driver (:mod:`solver.double_run`) can check the clock, grow
the stack or the table, and call it again.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from canfield.engine import core_double as cd
from canfield.engine.core import (
    DST_FOUND,
    R_PASSES,
    R_WRAP,
    SRC_RESERVE,
    SRC_WASTE,
    WRAP_BASE,
    encode_move,
    move_count,
    move_dst,
    move_src,
)
from canfield.engine.uncounted import uncounted
from canfield.solver.pruning import P1_HOME
from canfield.solver.stats import (
    EXHAUSTED,
    RUNNING,
    ST_BEST,
    ST_BESTLEN,
    ST_CHILDREN,
    ST_DEAD,
    ST_DEPTH,
    ST_ENTRIES,
    ST_MAXDEPTH,
    ST_NODES,
    ST_PRUNED,
    TABLE_FULL,
    TOO_DEEP,
    WON,
)

#: More macro moves than a level has room for (never expected; never "lost").
TOO_MANY_MOVES = 5

# macro move: atomic code (bits 0-14), "turn the stock first" (bit 15), the
# waste pointer to turn to (bits 16-22) and the redeals then spent (bits 24-27)
_STOCK_FLAG = 1 << 15
_ATOMIC = _STOCK_FLAG - 1


@njit(cache=True, inline="always")
def macro_parts(mac):
    """(atomic move, turns the stock first, waste pointer, redeals) of a macro."""
    return mac & _ATOMIC, (mac & _STOCK_FLAG) != 0, (mac >> 16) & 127, (mac >> 24) & 15


@njit(cache=True)
def p1_home(s, x, game, rules):
    """Rule P1 for two packs: column top ``x`` goes home and nothing is lost.

    Both copies of every card that could be built on ``x`` are on the
    foundations, and the lower of the two foundations of ``x``'s suit takes
    ``x`` now (so the other copy of ``x``, wherever it is, still has a
    foundation that takes it: see docs/solver.md, "Two packs").
    """
    base = game[cd.G_BASE]
    su = x // 13
    rel = (x % 13 - base) % 13
    if cd.found_count(s, 2 * su + 1) != rel:
        return False
    if rules[R_WRAP] == WRAP_BASE and rel == 0:
        return True  # a base-rank card takes nothing
    below = (x % 13 + 12) % 13
    below_rel = (below - base) % 13
    for other in range(4):
        if not cd.builds_on(other * 13 + below, x, game, rules):
            continue
        # the lower foundation holds a card iff both copies of it are home
        if cd.found_count(s, 2 * other + 1) <= below_rel:
            return False
    return True


@njit(cache=True)
def gen_macros(s, game, rules, prune, out, buf, seen, stats):
    """Write the macro moves of ``s`` into ``out`` (foundation moves first);
    return how many, or -1 when ``out`` has no room."""
    return _gen_macros(s, game, rules, prune, out, buf, seen, stats, s.copy())


@uncounted
def _gen_macros(s, game, rules, prune, out, buf, seen, stats, t):
    """:func:`gen_macros` with ``t``, a scratch position, given (so the
    search loop allocates nothing)."""
    if prune & P1_HOME:
        for c in range(cd.N_COLS):
            x = cd.col_top(s, c, rules)
            if x >= 0 and p1_home(s, x, game, rules):
                out[0] = encode_move(cd.col_code(c), DST_FOUND, 1)
                stats[ST_PRUNED] += 1
                return 1
    cap = out.shape[0]
    n = cd.card_moves(s, game, rules, buf)
    if n > cap:
        return -1
    for i in range(n):
        out[i] = buf[i]
    # the stock walk: each waste pointer the first time draws and redeals reach it
    for i in range(seen.shape[0]):
        seen[i] = False
    seen[cd.waste_ptr(s)] = True
    space = cd.space_open(s, rules)
    unlimited = rules[R_PASSES] == 0
    for i in range(s.shape[0]):
        t[i] = s[i]
    while True:
        if not cd.stock_empty(t, game):
            cd.do_draw(t, game, rules)
        elif cd.can_redeal(t, game, rules):
            cd.do_redeal(t, rules)
        else:
            break
        p = cd.waste_ptr(t)
        if seen[p]:
            if unlimited:
                break  # round the cycle once: the walk repeats from here
            continue  # a later pass to the same pointer: dominated
        seen[p] = True
        wt = cd.waste_top(t, game)
        if wt < 0:
            continue
        k = cd.single_card_moves(t, wt, SRC_WASTE, game, rules, buf, 0, space)
        if n + k > cap:
            return -1
        tag = _STOCK_FLAG | (p << 16) | (cd.redeals(t) << 24)
        for i in range(k):
            out[n] = buf[i] | tag
            n += 1
    # best first (docs/solver.md, "Move ordering"): a stable insertion sort
    for i in range(n):
        buf[i] = _score(s, out[i], rules)
    for i in range(1, n):
        mac, sc = out[i], buf[i]
        j = i
        while j > 0 and buf[j - 1] < sc:
            out[j] = out[j - 1]
            buf[j] = buf[j - 1]
            j -= 1
        out[j] = mac
        buf[j] = sc
    return n


@njit(cache=True)
def _score(s, mac, rules):
    """Reserve progress first, then foundations, then moves that empty a
    column, then waste cards nearer the current pointer."""
    atomic, turns, ptr, red = macro_parts(mac)
    src = move_src(atomic)
    sc = 0
    if src == SRC_RESERVE:
        sc += 400
    if move_dst(atomic) == DST_FOUND:
        sc += 300
    c = cd.code_col(src)
    if c >= 0 and move_count(atomic) == cd.col_len(s, c):
        sc += 200 if cd.res_count(s) > 0 else 100
    if src == SRC_WASTE:
        sc += 50
        if turns:
            # pointers further round the stock need more draws; a redeal
            # spends one of the few passes
            sc -= 1 + (ptr - cd.waste_ptr(s)) % (cd.MAX_STOCK + 1) // 3
            sc -= 150 * (red - cd.redeals(s))
    return sc


@njit(cache=True)
def apply_macro(s, mac, game, rules):
    """Play macro ``mac`` on ``s`` in place: turn the stock, then the move."""
    atomic, turns, ptr, red = macro_parts(mac)
    if turns:
        # draws and redeals change only the pointer and the redeal count
        cd.set_waste_ptr(s, ptr)
        cd.set_redeals(s, red)
    cd.apply_move(s, atomic, game, rules)


@njit(cache=True, inline="always")
def _hash(key):
    h = np.uint64(0x9E3779B97F4A7C15)
    for w in range(key.shape[0]):
        h ^= key[w]
        h *= np.uint64(0xBF58476D1CE4E5B9)
        h ^= h >> np.uint64(29)
    return h


@uncounted
def tt_insert(keys, used, key):
    """Add ``key``; True when it was new. The table must have a free slot."""
    mask = keys.shape[0] - 1
    i = np.int64(_hash(key) & np.uint64(mask))
    while used[i]:
        same = True
        for w in range(key.shape[0]):
            if keys[i, w] != key[w]:
                same = False
                break
        if same:
            return False
        i = (i + 1) & mask
    used[i] = True
    for w in range(key.shape[0]):
        keys[i, w] = key[w]
    return True


@njit(cache=True)
def tt_rehash(keys, used, new_keys, new_used):
    for i in range(keys.shape[0]):
        if used[i]:
            tt_insert(new_keys, new_used, keys[i])


@njit(cache=True)
def start(states, moves, nmov, idx, keys, used, game, rules, prune, stats, buf, seen):
    """Set up the search at ``states[0]``; returns a code as :func:`run`."""
    key = np.empty(cd.KEY_WORDS, np.uint64)
    cd.canonical_key(states[0], rules, key)
    tt_insert(keys, used, key)
    stats[ST_ENTRIES] = 1
    stats[ST_BEST] = cd.banked(states[0])
    stats[ST_BESTLEN] = 0
    stats[ST_DEPTH] = 0
    if stats[ST_BEST] == cd.N_CARDS:
        return WON
    n = gen_macros(states[0], game, rules, prune, moves[0], buf, seen, stats)
    if n < 0:
        return TOO_MANY_MOVES
    nmov[0] = n
    idx[0] = 0
    return RUNNING


@njit(cache=True)
def run(
    states,
    moves,
    nmov,
    idx,
    keys,
    used,
    game,
    rules,
    prune,
    stats,
    best,
    node_limit,
    buf,
    seen,
    width,
):
    """Search on from where the last call stopped, until ``node_limit``
    positions were expanded in all, a win, or the search is exhausted.

    ``width`` > 0 makes it a probe: below the root only the first ``width``
    moves of each position (in the ordering's order) are searched, so its
    exhaustion proves nothing (the driver never reports it as lost).

    Returns RUNNING (limit reached), WON (``best`` holds the line),
    EXHAUSTED (every reachable position seen: lost), TABLE_FULL, TOO_DEEP
    (the driver grows the arrays and calls again) or TOO_MANY_MOVES.
    """
    key = np.empty(cd.KEY_WORDS, np.uint64)
    t = np.empty_like(states[0])
    return _run_loop(
        states, moves, nmov, idx, keys, used, game, rules, prune, stats, best, node_limit,
        buf, seen, width, key, t,
    )  # fmt: skip


@uncounted
def _run_loop(
    states, moves, nmov, idx, keys, used, game, rules, prune, stats, best, node_limit, buf,
    seen, width, key, t,
):  # fmt: skip
    depth = stats[ST_DEPTH]
    max_load = keys.shape[0] * 85 // 100
    while depth >= 0:
        if stats[ST_NODES] >= node_limit:
            stats[ST_DEPTH] = depth
            return RUNNING
        if idx[depth] >= nmov[depth]:
            depth -= 1
            continue
        if depth + 1 >= states.shape[0]:
            stats[ST_DEPTH] = depth
            return TOO_DEEP
        if stats[ST_ENTRIES] >= max_load:
            stats[ST_DEPTH] = depth
            return TABLE_FULL
        mac = moves[depth, idx[depth]]
        idx[depth] += 1
        child = states[depth + 1]
        for i in range(child.shape[0]):
            child[i] = states[depth, i]
        apply_macro(child, mac, game, rules)
        stats[ST_CHILDREN] += 1
        cd.canonical_key(child, rules, key)
        if not tt_insert(keys, used, key):
            continue
        stats[ST_ENTRIES] += 1
        stats[ST_NODES] += 1
        d = depth + 1
        if d > stats[ST_MAXDEPTH]:
            stats[ST_MAXDEPTH] = d
        b = cd.banked(child)
        if b > stats[ST_BEST]:
            stats[ST_BEST] = b
            stats[ST_BESTLEN] = d
            for level in range(d):
                best[level] = moves[level, idx[level] - 1]
            if b == cd.N_CARDS:
                stats[ST_DEPTH] = d
                return WON
        n = _gen_macros(child, game, rules, prune, moves[d], buf, seen, stats, t)
        if n < 0:
            stats[ST_DEPTH] = depth
            return TOO_MANY_MOVES
        nmov[d] = n if width == 0 else min(n, width)
        idx[d] = 0
        if n == 0:
            stats[ST_DEAD] += 1
        depth = d
    stats[ST_DEPTH] = -1
    return EXHAUSTED
