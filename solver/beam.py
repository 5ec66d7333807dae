"""A beam search for one pack: a probe that only looks for wins.

The one-pack twin of :mod:`solver.double_beam`. The depth-first search
commits to its first moves and spends its budget below them; where a deal's
wins hide behind an early choice the ordering ranks low (`superior`'s spaces,
`rainbow`'s four parents of a card), it may never come back up. This probe
goes down one macro move at a time instead, keeping at each depth only the
``width`` best new positions by :func:`score`. It is incomplete by design: a
position it drops may be the only way to a win, so its running out proves
nothing and the driver never reports it as "lost". Its wins are lines of
macro moves that the driver replays through the engine like any other.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from canfield.engine import core
from canfield.solver.bound import WORK_LEN, bound_applies, child_bound, set_parents
from canfield.solver.config import MAX_MACROS
from canfield.solver.double_dfs import tt_insert
from canfield.solver.moves import apply_macro, builder_masks, gen_macros
from canfield.solver.pruning import B1_BOUND, E1_CYCLE, WIN_ONLY, canon_stock
from canfield.solver.stats import (
    EXHAUSTED,
    RUNNING,
    ST_BEST,
    ST_BESTLEN,
    ST_CHILDREN,
    ST_CUT,
    ST_DEAD,
    ST_ENTRIES,
    ST_MAXDEPTH,
    ST_NODES,
    WON,
)

#: slots of the ``at`` vector that carries a beam from one call to the next
#: (``AT_KIN``: positions the kin cap has turned away, in all)
AT_DEPTH, AT_N, AT_BEST_DEPTH, AT_BEST_INDEX, AT_KIN = range(5)
AT_LEN = 5

#: the bits of state word 0 a kin signature keeps: the foundations, the
#: reserve's size, the waste pointer and the redeals (engine.core's layout)
KIN_HEADER_BITS = 30


@njit(cache=True, inline="always")
def _kin_word(s, w, header_bits):
    """Word ``w`` of ``s``'s kin signature: word 0 keeps its header only."""
    if w == 0:
        return s[0] & ((np.uint64(1) << np.uint64(header_bits)) - np.uint64(1))
    return s[w]


@njit(cache=True, inline="always")
def kin_slot(s, header_bits, words, sig, sig_n):
    """The slot of ``s``'s kin signature (everything but its columns: the
    low ``header_bits`` of state word 0 and words ``1 .. words - 1``, the
    stock's played bits) in the open-addressed table ``sig`` of
    ``sig.shape[0]`` (a power of two) rows; ``sig_n`` is 0 where a row is
    free. Shared by the one- and two-pack beams (``solver.double_beam``)."""
    h = np.uint64(0)
    for w in range(words):
        h = (h ^ _kin_word(s, w, header_bits)) * np.uint64(0x9E3779B97F4A7C15)
    h ^= h >> np.uint64(29)
    mask = sig.shape[0] - 1
    slot = np.int64(h & np.uint64(mask))
    while sig_n[slot] != 0:
        same = True
        for w in range(words):
            if sig[slot, w] != _kin_word(s, w, header_bits):
                same = False
                break
        if same:
            return slot
        slot = (slot + 1) & mask
    for w in range(words):
        sig[slot, w] = _kin_word(s, w, header_bits)
    return slot


@njit(cache=True, inline="always")
def kin_admit(s, header_bits, words, sig, sig_n, kin_cap):
    """Whether the kin cap lets a depth keep ``s``: -1 with no cap (``kin_cap``
    0), -2 when ``kin_cap`` positions of its signature are kept already, else
    its slot (add 1 to ``sig_n[slot]`` once ``s`` is kept)."""
    if kin_cap <= 0:
        return -1
    slot = kin_slot(s, header_bits, words, sig, sig_n)
    return -2 if sig_n[slot] >= kin_cap else slot


@njit(cache=True, inline="always")
def kin_table(width):
    """An empty signature table for a depth of at most ``width`` positions."""
    hs = 1
    while hs < 2 * width:
        hs *= 2
    return np.zeros((hs, 3), np.uint64), np.zeros(hs, np.int64)


@njit(cache=True)
def cover(s, game, rules, depth, above):
    """How deep the cards the foundations need next are buried: over each
    suit's next ``depth`` cards, the cards lying on each (above it in the
    reserve, in the waste or in its column). A card still in the stock
    counts 0: the walk turns it over without anything being moved.
    ``above`` is 52 entries of scratch, handed down so that scoring every
    child of a beam allocates nothing."""
    above[:] = 0
    n = core.res_count(s)
    for j in range(n):
        above[game[core.G_RES + j]] = n - 1 - j
    on = 0
    for i in range(core.waste_ptr(s) - 1, -1, -1):
        if not core.stock_removed(s, i):
            above[game[core.G_STOCK + i]] = on
            on += 1
    for c in range(core.N_COLS):
        n = core.col_len(s, c)
        for h in range(n):
            above[core.col_card(s, c, h, rules)] = n - 1 - h
    total = 0
    for suit in range(4):
        f = core.found_count(s, suit)
        for k in range(min(depth, 13 - f)):
            total += above[suit * 13 + (game[core.G_BASE] + f + k) % 13]
    return total


@njit(cache=True)
def score(s, game, rules, weights, above):
    """How promising ``s`` looks, by ``weights``: points per card banked,
    minus points per card in the reserve and per stock card not yet played,
    plus points per stock card the walk will still turn over under limited
    passes (this pass's cards past the pointer and every unplayed card for
    each pass left), plus points per empty column, minus ``weights[5]``
    points per card lying on one of each suit's next ``weights[6]`` cards
    (:func:`cover`, ``above`` its scratch)."""
    unplayed = 0
    ahead = 0
    p = core.waste_ptr(s)
    for i in range(game[core.G_NSTOCK]):
        if not core.stock_removed(s, i):
            unplayed += 1
            if i >= p:
                ahead += 1
    passes = rules[core.R_PASSES]
    walk = 0
    if passes != 0:
        walk = (passes - 1 - core.redeals(s)) * unplayed + ahead
    spaces = 0
    for c in range(core.N_COLS):
        if core.col_len(s, c) == 0:
            spaces += 1
    buried = cover(s, game, rules, weights[6], above) if weights[5] != 0 else 0
    return (
        weights[0] * core.banked(s)
        - weights[1] * core.res_count(s)
        - weights[2] * unplayed
        + weights[3] * walk
        + weights[4] * spaces
        - weights[5] * buried
    )


@njit(cache=True)
def beam_start(root, rules, layer, keys, used, at, stats):
    """Put ``root`` alone at depth 0; True when it is already won."""
    layer[0] = root
    key = np.empty(keys.shape[1], np.uint64)
    core.canonical_key(root, rules, key)
    tt_insert(keys, used, key)
    stats[ST_ENTRIES] = 1
    stats[ST_BEST] = core.banked(root)
    stats[ST_BESTLEN] = 0
    at[:] = 0
    at[AT_N] = 1
    return stats[ST_BEST] == 52


@njit(cache=True)
def beam(
    layer, nxt, at, game, rules, prune, weights, pause, node_limit, keys, used, parent, macs, stats,
    kin_cap,
):  # fmt: skip
    """Go on from depth ``at[AT_DEPTH]`` (its ``at[AT_N]`` positions in
    ``layer``), keeping at most ``layer.shape[0]`` positions a depth, and
    at most ``kin_cap`` of them that differ only in their columns (0: no
    cap).

    Without the cap a wide beam fills with one position's column
    arrangements (under rank-only building a card has up to four parents),
    which share a fate: they run into the same dead end and the beam runs
    dry. The cap keeps the beam's width for positions that differ in what
    has been played (foundations, reserve, stock and waste).

    ``parent[d, i]`` and ``macs[d, i]`` name position ``i`` of depth
    ``d + 1``: its parent's index at depth ``d`` and the macro move from it.
    It stops between two depths once ``pause`` positions were expanded in
    all, and anywhere at ``node_limit`` (the table ``keys``/``used`` needs
    room for that many positions). Returns WON (``at`` names the won
    position as the best), RUNNING (call again) or EXHAUSTED (no new
    position left, which proves nothing here); ``at`` names the
    most-banked position.
    """
    width = layer.shape[0]
    cap = width * MAX_MACROS
    cand_parent = np.empty(cap, np.int64)
    cand_mac = np.empty(cap, np.int64)
    cand_score = np.empty(cap, np.int64)
    moves = np.empty(MAX_MACROS, np.int64)
    buf = np.empty(core.MAX_MOVES, np.int64)
    scratch = np.empty(MAX_MACROS + 64, np.int64)
    builders = np.empty(52, np.uint64)
    above = np.empty(52, np.int64)
    builder_masks(game, rules, builders)
    key = np.empty(keys.shape[1], np.uint64)
    child = np.empty(core.STATE_LEN, np.uint64)
    e1 = (prune & E1_CYCLE) != 0
    # with WIN_ONLY, rule B1 keeps out of the beam every position that
    # cannot win (its bound is below 52): their places go to ones that can
    cut = (prune & WIN_ONLY) != 0 and (prune & B1_BOUND) != 0 and bound_applies(rules)
    ws = np.empty(WORK_LEN, np.int64)
    if cut:
        set_parents(ws, game, rules)
    # the bounds of this depth's positions (-1: not known, made afresh) and
    # of the next's: a child's bound is mostly its parent's (B1's shortcut)
    bounds = np.full(width, -1, np.int64)
    nbounds = np.full(width, -1, np.int64)
    sig, sig_n = kin_table(width)
    while at[AT_DEPTH] < parent.shape[0]:
        if stats[ST_NODES] >= min(pause, node_limit):
            return RUNNING
        d = at[AT_DEPTH]
        nc = 0
        for i in range(at[AT_N]):
            k = gen_macros(layer[i], game, rules, moves, buf, scratch, prune, builders, -1)
            if k < 0:
                k = 1  # P1 or W1: the one move written
            if k == 0:
                stats[ST_DEAD] += 1
                continue
            for j in range(k):
                child[:] = layer[i]
                apply_macro(child, moves[j], game, rules)
                stats[ST_CHILDREN] += 1
                cand_parent[nc] = i
                cand_mac[nc] = moves[j]
                cand_score[nc] = score(child, game, rules, weights, above)
                nc += 1
        # best first; a stable sort keeps the move ordering among equals
        order = np.argsort(-cand_score[:nc], kind="mergesort")
        sig_n[:] = 0
        m = 0
        for o in order:
            if m == width or stats[ST_NODES] >= node_limit:
                break
            child[:] = layer[cand_parent[o]]
            apply_macro(child, cand_mac[o], game, rules)
            if e1:
                canon_stock(child, game, rules)
            kin = kin_admit(child, KIN_HEADER_BITS, 2, sig, sig_n, kin_cap)
            if kin == -2:
                at[AT_KIN] += 1
                continue
            u = -1
            if cut:
                p = cand_parent[o]
                u = child_bound(child, layer[p], cand_mac[o], bounds[p], game, rules, ws, builders)
                if u < 52:
                    # not in the table (its room is counted in kept positions)
                    stats[ST_CUT] += 1
                    continue
            core.canonical_key(child, rules, key)
            if not tt_insert(keys, used, key):
                continue
            if kin >= 0:
                sig_n[kin] += 1
            stats[ST_ENTRIES] += 1
            stats[ST_NODES] += 1
            nxt[m] = child
            nbounds[m] = u
            parent[d, m] = cand_parent[o]
            macs[d, m] = cand_mac[o]
            b = core.banked(child)
            if b > stats[ST_BEST]:
                stats[ST_BEST] = b
                stats[ST_BESTLEN] = d + 1
                at[AT_BEST_DEPTH] = d + 1
                at[AT_BEST_INDEX] = m
            m += 1
            if b == 52:
                stats[ST_MAXDEPTH] = d + 1
                return WON
        if m == 0:
            return EXHAUSTED
        layer[:m] = nxt[:m]
        bounds[:m] = nbounds[:m]
        at[AT_N] = m
        at[AT_DEPTH] = d + 1
        stats[ST_MAXDEPTH] = d + 1
    return RUNNING
