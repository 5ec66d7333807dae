"""The compiled depth-first search: root setup and the search loop.

Internal to :mod:`solver.dfs_run`, which owns the arrays. The search runs in
chunks of nodes so that Python can check the clock between calls; all of its
state (the path arrays, the table, the statistics vector) lives in numpy
arrays Python passes in, so a call can stop anywhere and the next go on.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from canfield.engine import core
from canfield.engine.uncounted import uncounted
from canfield.solver.bound import WORK_LEN, bound_applies, child_bound, set_parents
from canfield.solver.config import MAX_MACROS
from canfield.solver.macros import macro_atomic, stock_tag
from canfield.solver.moves import apply_macro, builder_masks, gen_macros
from canfield.solver.pruning import (
    B1_BOUND,
    E1_CYCLE,
    E2_POINTER,
    E3_PASS_POINTER,
    HELPING,
    R1_BURIED,
    SHARED_TABLE,
    SPIN_SHIFT,
    WIN_ONLY,
    canon_stock,
)
from canfield.solver.rank_home import buried_builders_home, r1_applies
from canfield.solver.stats import (
    EXHAUSTED,
    RUNNING,
    ST_BEST,
    ST_BESTLEN,
    ST_CHILDREN,
    ST_CUT,
    ST_DEAD,
    ST_DEPTH,
    ST_HELPED,
    ST_HOMED,
    ST_MAXDEPTH,
    ST_NODES,
    ST_PRUNED,
    ST_SLOT,
    TABLE_FULL,
    TOO_DEEP,
    WON,
)
from canfield.solver.table import key_buffer, tt_finish, tt_visit, tt_visit_shared


@njit(cache=True)
def rule_setup(game, rules, prune):
    """What the pruning rules need, worked out once per kernel call: whether
    E2 and B1 apply, the ``builders`` masks and B1's workspace."""
    unlimited = rules[core.R_PASSES] == 0
    # E2 (unlimited passes, after E1) and E3 (limited passes) share the
    # table's pointer masks: pruning.dominators picks the rule by the passes
    use_e2 = ((prune & E2_POINTER) != 0 and (prune & E1_CYCLE) != 0 and unlimited) or (
        (prune & E3_PASS_POINTER) != 0 and not unlimited
    )
    use_bound = (prune & B1_BOUND) != 0 and bound_applies(rules)
    builders = np.empty(52, np.uint64)
    builder_masks(game, rules, builders)
    ws = np.empty(WORK_LEN, np.int64)
    if use_bound or (prune & R1_BURIED) != 0:
        set_parents(ws, game, rules)  # rule R1 reads B1's frozen links too
    return use_e2, use_bound, builders, ws


@njit(cache=True, nogil=True)
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
    slots,
    chunk,
    prune,
    width,
):
    """Run up to ``chunk`` node expansions of the depth-first search.

    ``states[d]`` is the position at depth ``d``. The macro moves of all the
    positions on the path share one flat buffer: those of depth ``d`` are
    ``mstack[mbase[d] : mbase[d] + nmoves[d]]`` and ``imove[d]`` is the next
    one to try; the first call makes the root's moves, which
    :func:`root_setup` leaves to it (``nmoves[0]`` is -1 until then).
    Returns a code: RUNNING (call again), WON (the path is the last move
    tried at each depth), EXHAUSTED (every reachable position was seen: a
    proof), TABLE_FULL (grow the table and call again) or TOO_DEEP (grow the
    stack and call again; nothing was changed).

    ``width`` caps the moves searched below the root at the first ``width``
    of the ordering: a narrowed probe that looks for wins fast. Exhausting a
    narrowed search proves nothing; the full search passes ``MAX_MACROS``.

    With ``SHARED_TABLE`` in ``prune`` the table is shared with other
    threads (:mod:`solver.shared`): ``slots[d]`` is the table slot of
    ``states[d]``, marked finished when the search leaves it; with
    ``HELPING`` as well, a position another thread entered and has not
    finished is searched again (unless it is on this path).
    """
    # the loop allocates nothing: its work arrays are made here
    buf = np.empty(core.MAX_MOVES, np.int64)
    scratch = np.empty(MAX_MACROS + 64, np.int64)
    key = key_buffer(table)
    use_e2, use_bound, builders, ws = rule_setup(game, rules, prune)
    return _search_loop(
        game, rules, states, mstack, mbase, nmoves, imove, ubound, table, max_entries,
        stats, best_path, slots, chunk, prune, width, buf, scratch, key, use_e2,
        use_bound, builders, ws,
    )  # fmt: skip


@uncounted(nogil=True)
def _search_loop(
    game, rules, states, mstack, mbase, nmoves, imove, ubound, table, max_entries,
    stats, best_path, slots, chunk, prune, width, buf, scratch, key, use_e2,
    use_bound, builders, ws,
):  # fmt: skip
    """The body of :func:`search`, given its work arrays."""
    max_depth = states.shape[0]
    room = mstack.shape[0]
    use_r1 = (prune & R1_BURIED) != 0 and r1_applies(rules)
    shared = (prune & SHARED_TABLE) != 0
    helping = (prune & HELPING) != 0
    # a narrowed probe looks for wins only: a bound below 52 rules one out
    win_only = (prune & WIN_ONLY) != 0 and width < MAX_MACROS
    spin = (prune >> SPIN_SHIFT) & 255
    d = stats[ST_DEPTH]
    done = 0
    while True:
        if d < 0:
            return EXHAUSTED
        # root_setup enters the root and leaves its moves to be made here
        # (nmoves -1), so that the move generator, inlined, is compiled once
        at_root = nmoves[d] < 0
        if at_root:
            child = states[d]
            top = mbase[d]
            back = -1
        else:
            if done >= chunk:
                break
            if imove[d] >= nmoves[d]:
                if shared and d > 0:
                    tt_finish(table, slots[d])
                d -= 1
                stats[ST_DEPTH] = d
                continue
            top = mbase[d] + nmoves[d]
            if d + 2 > max_depth or top + MAX_MACROS > room:
                stats[ST_DEPTH] = d
                return TOO_DEEP
            mac = mstack[mbase[d] + imove[d]]
            imove[d] += 1
            child = states[d + 1]
            stats[ST_CHILDREN] += 1
            for i in range(child.shape[0]):
                child[i] = states[d, i]
            # a column move that leaves its source non-empty is undone by the
            # reverse move, back to this position: the child need not make it
            back = -1
            a = macro_atomic(mac)
            src, dst, k = core.move_src(a), core.move_dst(a), core.move_count(a)
            if src < core.N_COLS and dst < core.N_COLS and k < core.col_len(states[d], src):
                back = core.encode_move(dst, src, k)
            apply_macro(child, mac, game, rules)
            if prune & E1_CYCLE:
                canon_stock(child, game, rules)
            core.canonical_key(child, rules, key)
            if shared:
                ins = tt_visit_shared(
                    table, key, child, game, rules, use_e2, max_entries, stats, helping
                )
                if ins == 2:
                    # in progress elsewhere: help with it, unless this path holds it
                    here = stats[ST_SLOT]
                    for i in range(d + 1):
                        if slots[i] == here:
                            ins = 0
                            break
                    if ins == 2:
                        stats[ST_HELPED] += 1
                        ins = 1
                if ins == 1:
                    slots[d + 1] = stats[ST_SLOT]
            else:
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
                u = child_bound(child, states[d - 1], mac, ubound[d - 1], game, rules, ws, builders)
                ubound[d] = u
                if u <= stats[ST_BEST] or (win_only and u < 52):
                    nmoves[d] = 0  # rule B1: nothing below here banks more than the best (or wins)
                    imove[d] = 0
                    stats[ST_CUT] += 1
                    continue
            if use_r1:
                c = buried_builders_home(child, game, rules, ws)
                if c >= 0:
                    # rule R1: the top goes home alone (after B1, which reads ws afresh)
                    here = stock_tag(core.waste_ptr(child), core.redeals(child))
                    mstack[top] = core.encode_move(c, core.DST_FOUND, 1) | here
                    nmoves[d] = 1
                    imove[d] = 0
                    stats[ST_HOMED] += 1
                    continue
        n = gen_macros(
            child, game, rules, mstack[top : top + MAX_MACROS], buf, scratch, prune, builders, back
        )
        if at_root:
            # the root's list is never narrowed, counted or turned, but for a
            # thread of a shared search, whose whole search is turned
            if n < 0:
                n = 1
            r = (spin * n) >> 8 if shared else 0
        else:
            if n < 0:
                stats[ST_PRUNED if n == -1 else ST_HOMED] += 1  # P1; W1
                n = 1
            elif n == 0:
                stats[ST_DEAD] += 1
            elif n > width:
                n = width
            r = (spin * n) >> 8
        if r:
            # a thread of a shared search: this list turned, a share of it on
            for i in range(n):
                scratch[i] = mstack[top + (i + r) % n]
            for i in range(n):
                mstack[top + i] = scratch[i]
        nmoves[d] = n
        imove[d] = 0
    stats[ST_DEPTH] = d
    return RUNNING


@njit(cache=True)
def root_setup(
    s0, game, rules, states, mstack, mbase, nmoves, imove, ubound, table, max_entries, stats, prune
):
    """Put the root on the stack and in the table; the search's first call
    makes its moves (``nmoves[0]`` is -1 until then)."""
    ubound[0] = -1  # the root's bound is not known: its children compute theirs
    key = key_buffer(table)
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
    nmoves[0] = -1
    imove[0] = 0
    stats[ST_DEPTH] = 0
    stats[ST_NODES] = 1
