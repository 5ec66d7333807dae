"""The layered search: finish layers of progress in order, then forget them.

Internal to :mod:`solver.search` (``Solver(strategy="layers")``); the
argument is in ``docs/solver.md``.

Without ``worry`` the progress of a position, cards banked plus cards gone
from the reserve plus cards gone from the stock, never falls, and one macro
move raises it by at most 2 (a card from the waste or the reserve to its
foundation; a column emptied and auto-filled from the reserve). So when
every position of progress ``k`` has been expanded, nothing can reach
progress ``k`` again and its table is dropped: only the layers ``k``,
``k + 1`` and ``k + 2`` are ever held. Each layer has its own table (the same
rows and rule E2 as the depth-first search) and a stack of positions still to
expand. A log of 8 bytes a position (its parent's log number and the macro
move that made it) lets the best line and the solution be rebuilt.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from canfield.engine import core
from canfield.engine.position import Position
from canfield.engine.uncounted import uncounted
from canfield.solver.bound import WORK_LEN, banked_bound, bound_applies, child_bound, set_parents
from canfield.solver.config import MAX_MACROS
from canfield.solver.dfs import rule_setup
from canfield.solver.macros import (
    MACRO_BITS,
    MACRO_MASK,
    expand_macros,
    macro_atomic,
    macro_ptr,
    macro_redeals,
    stock_tag,
)
from canfield.solver.moves import apply_macro, gen_macros
from canfield.solver.pruning import B1_BOUND, E1_CYCLE, canon_stock
from canfield.solver.stats import (
    N_CODES,
    N_STATS,
    RUNNING,
    ST_BEST,
    ST_CHILDREN,
    ST_CUT,
    ST_DEAD,
    ST_NODES,
    ST_PRUNED,
    WON,
)
from canfield.solver.table import PACK_WORDS, key_buffer, tt_visit

# return codes beyond the depth-first search's
LAYER_DONE, GROW, BAD_PROGRESS = range(N_CODES, N_CODES + 3)
# statistics slots beyond the depth-first search's (the layered search keeps
# its own statistics vector)
ST_LOGLEN = N_STATS  # positions logged (log numbers given out)
ST_BESTID = N_STATS + 1  # log number of the position with the most cards banked
ST_NEED = N_STATS + 2  # after GROW: 0-2 a layer's table, 3-5 a layer's stack, 6 the log
N_LSTATS = N_STATS + 3
# what is known of the position being expanded (the parent of the children
# made): its log number, macro count, next macro, whether one is being
# expanded, its rule-B1 bound
P_ID, P_N, P_NEXT, P_ACTIVE, P_BOUND = range(5)
N_PARENT_INFO = 5
# a stack row's last word: the position's log number above its B1 bound
BOUND_BITS = 6
# a key's word 0: the position's 30-bit header, its played-stock mask above
# (engine.core.canonical_key)
HEADER_BITS = 30
HEADER_MASK = np.uint64((1 << HEADER_BITS) - 1)


def row_words(kw: int) -> int:
    """Words in a stack row when keys have ``kw`` words: the position's table
    key (columns sorted, waste pointer kept), then one word holding its log
    number and its rule-B1 bound (52 without B1)."""
    return kw + 1


@njit(cache=True, inline="always")
def _pack(num, bound):
    """A stack row's last word: log number ``num`` and B1 bound ``bound``."""
    return np.uint64(num) << np.uint64(BOUND_BITS) | np.uint64(bound)


@njit(cache=True)
def state_from_key(key, s):
    """The position whose :func:`engine.core.canonical_key` is ``key`` (its
    columns in the key's order) into ``s``."""
    s[0] = key[0] & HEADER_MASK
    s[1] = key[0] >> np.uint64(HEADER_BITS)
    wide = key.shape[0] > 5
    for c in range(core.N_COLS):
        if wide:
            s[core.COL0 + 2 * c] = key[1 + 2 * c]
            s[core.COL0 + 2 * c + 1] = key[2 + 2 * c]
        else:
            s[core.COL0 + 2 * c] = key[1 + c]
            s[core.COL0 + 2 * c + 1] = 0


@njit(cache=True)
def progress(s):
    """Cards banked, plus cards gone from the reserve and from the stock (less 13)."""
    return core.banked(s) - core.res_count(s) + core.popcount(s[1])


@njit(cache=True)
def layers_root(s0, game, rules, table, tstats, stack, stack_len, log, stats, prune, max_entries):
    """Put the root in layer slot 0: its table, its stack and the log (number 0)."""
    key = key_buffer(table)
    root = s0.copy()
    if prune & E1_CYCLE:
        canon_stock(root, game, rules)
    core.canonical_key(root, rules, key)
    no_e2 = prune < 0  # False, typed (bool, not a literal) as in the run
    tt_visit(table, key, root, game, rules, no_e2, max_entries, tstats)
    kw = key.shape[0] - PACK_WORDS
    stack[0, :kw] = key[:kw]
    bound = 52
    if prune & B1_BOUND and bound_applies(rules):
        ws = np.empty(WORK_LEN, np.int64)
        set_parents(ws, game, rules)
        bound = banked_bound(root, game, rules, ws)
    stack[0, kw] = _pack(0, bound)
    stack_len[0] = 1
    log[0] = -1
    stats[ST_LOGLEN] = 1
    stats[ST_BEST] = core.banked(root)
    stats[ST_BESTID] = 0


@njit(cache=True)
def layers_run(
    game,
    rules,
    tables,
    tstats,
    stacks,
    stack_len,
    max_entries,
    log,
    cur,
    cur_pi,
    parent_state,
    parent_info,
    parent_macros,
    stats,
    chunk,
    prune,
):
    """Expand positions of the layer in slot ``cur`` (progress ``cur_pi``).

    ``tables``, ``tstats`` and ``stacks`` hold the three live layers, slot
    ``(cur + d) % 3`` being progress ``cur_pi + d``. The position being
    expanded (``parent_state``, its macros ``parent_macros``, and ``parent_info``)
    survives a return, so that a GROW (``stats[ST_NEED]`` says what to enlarge; nothing
    was changed) resumes where it stopped. Returns RUNNING (``chunk`` nodes
    done), WON (``stats[ST_BESTID]`` is the won position), LAYER_DONE (the
    layer's stack is empty), GROW, or BAD_PROGRESS (a move changed progress
    by other than 0, 1 or 2: a bug).
    """
    buf = np.empty(core.MAX_MOVES, np.int64)
    scratch = np.empty(MAX_MACROS + 64, np.int64)
    key = key_buffer(tables[0])
    child = np.empty(core.STATE_LEN, np.uint64)
    use_e2, use_bound, builders, ws = rule_setup(game, rules, prune)
    return _layers_loop(
        game, rules, tables, tstats, stacks, stack_len, max_entries, log, cur, cur_pi,
        parent_state, parent_info, parent_macros, stats, chunk, prune, buf, scratch, key,
        child, use_e2, use_bound, builders, ws,
    )  # fmt: skip


@uncounted
def _layers_loop(
    game, rules, tables, tstats, stacks, stack_len, max_entries, log, cur, cur_pi,
    parent_state, parent_info, parent_macros, stats, chunk, prune, buf, scratch, key,
    child, use_e2, use_bound, builders, ws,
):  # fmt: skip
    kw = key.shape[0] - PACK_WORDS
    no_back = np.int64(-1)  # every child's parent is in a live table: no undo is skipped
    done = 0
    while done < chunk:
        if parent_info[P_ACTIVE] == 0:
            if stack_len[cur] == 0:
                return LAYER_DONE
            stack_len[cur] -= 1
            row = stacks[cur][stack_len[cur]]
            # expand the position with its columns in key order: the moves
            # logged refer to that order (line_of's caller maps them back)
            state_from_key(row[:kw], parent_state)
            done += 1
            stats[ST_NODES] += 1
            bound = np.int64(row[kw] & np.uint64((1 << BOUND_BITS) - 1))
            if bound <= stats[ST_BEST]:
                stats[ST_CUT] += 1  # rule B1, with the best known now
                continue
            n = gen_macros(
                parent_state, game, rules, parent_macros, buf, scratch, prune, builders, no_back
            )
            if n < 0:
                n = 1
                stats[ST_PRUNED] += 1  # P1 (-1) or W1 (-2)
            elif n == 0:
                stats[ST_DEAD] += 1
                continue
            parent_info[P_ID] = np.int64(row[kw] >> np.uint64(BOUND_BITS))
            parent_info[P_BOUND] = bound
            parent_info[P_N] = n
            parent_info[P_NEXT] = 0
            parent_info[P_ACTIVE] = 1
        i = parent_info[P_NEXT]
        if i >= parent_info[P_N]:
            parent_info[P_ACTIVE] = 0
            continue
        mac = parent_macros[i]
        for j in range(child.shape[0]):
            child[j] = parent_state[j]
        apply_macro(child, mac, game, rules)
        if prune & E1_CYCLE:
            canon_stock(child, game, rules)
        step = progress(child) - cur_pi
        if step < 0 or step > 2:
            return BAD_PROGRESS  # the argument of docs/solver.md fails: never expected
        slot = (cur + step) % 3
        # room first, so that a GROW leaves nothing half done
        if stack_len[slot] >= stacks[slot].shape[0]:
            stats[ST_NEED] = 3 + slot
            return GROW
        if stats[ST_LOGLEN] >= log.shape[0]:
            stats[ST_NEED] = 6
            return GROW
        core.canonical_key(child, rules, key)
        ins = tt_visit(
            tables[slot], key, child, game, rules, use_e2, max_entries[slot], tstats[slot]
        )
        if ins == -1:
            stats[ST_NEED] = slot
            return GROW
        parent_info[P_NEXT] = i + 1
        stats[ST_CHILDREN] += 1
        if ins == 0:
            continue
        num = stats[ST_LOGLEN]
        log[num] = (parent_info[P_ID] << MACRO_BITS) | mac
        stats[ST_LOGLEN] = num + 1
        b = core.banked(child)
        if b > stats[ST_BEST]:
            stats[ST_BEST] = b
            stats[ST_BESTID] = num
        if b == 52:
            stats[ST_BESTID] = num
            return WON
        u = 52
        if use_bound:
            u = child_bound(
                child, parent_state, mac, parent_info[P_BOUND], game, rules, ws, builders
            )
        w = stacks[slot]
        for j in range(kw):
            w[stack_len[slot], j] = key[j]
        w[stack_len[slot], kw] = _pack(num, u)
        stack_len[slot] += 1
    return RUNNING


def line_of(log: np.ndarray, num: int) -> list[int]:
    """The macro moves from the root to log entry ``num``, each as logged:
    with column numbers of its position's key order (see :func:`in_play_order`)."""
    out: list[int] = []
    while num > 0:
        entry = int(log[num])
        out.append(entry & MACRO_MASK)
        num = entry >> MACRO_BITS
    out.reverse()
    return out


def in_play_order(position: Position, macros: list[int], rules: np.ndarray) -> list[int]:
    """The logged macro moves with their column numbers turned into those of
    the positions the line actually reaches from ``position``.

    The layered search expands each position with its columns sorted (the
    key's order); a column number of a logged move names a column of that
    order. Columns are found again by their packed words (empty columns are
    interchangeable).
    """
    wide = int(rules[core.R_BUILD]) == core.BUILD_RANK
    key = np.zeros(9 if wide else 5, np.uint64)
    sorted_state = np.zeros(core.STATE_LEN, np.uint64)
    width = 2 if wide else 1  # words of a column the key keeps

    def columns(s: np.ndarray) -> list[list[int]]:
        return [s[core.COL0 + 2 * c : core.COL0 + 2 * c + width].tolist() for c in range(4)]

    out: list[int] = []
    pos = position
    for mac in macros:
        core.canonical_key(pos.state, rules, key)
        state_from_key(key, sorted_state)
        real, order = columns(pos.state), []
        for words in columns(sorted_state):
            order.append(next(i for i in range(4) if real[i] == words and i not in order))
        a = macro_atomic(mac)
        src, dst, count = core.move_src(a), core.move_dst(a), core.move_count(a)
        if src < core.N_COLS:
            src = order[src]
        if dst < core.N_COLS:
            dst = order[dst]
        mac = int(stock_tag(macro_ptr(mac), macro_redeals(mac)) | core.encode_move(src, dst, count))
        out.append(mac)
        _, pos = expand_macros(pos, [mac])
    return out
