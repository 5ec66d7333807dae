"""A beam search for two packs (``double``): a probe that only looks for wins.

The depth-first search (:mod:`solver.double_dfs`) commits to its first moves
and spends any budget deep below them; on 104 cards it never comes back up
(docs/findings.md, "Two packs"). This probe goes down one macro move at a
time instead, keeping at each depth only the ``width`` best new positions
by :func:`score` (banked cards first). It is incomplete by design: a
position it drops may be the only way to a win, so its running out proves
nothing and the driver never reports it as "lost". Its wins are lines of
macro moves that the driver replays through the engine like any other.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from canfield.engine import core_double as cd
from canfield.engine.core import R_PASSES
from canfield.solver import config
from canfield.solver.beam import kin_admit, kin_table
from canfield.solver.double_dfs import apply_macro, gen_macros, tt_insert
from canfield.solver.stats import (
    EXHAUSTED,
    RUNNING,
    ST_BEST,
    ST_BESTLEN,
    ST_CHILDREN,
    ST_DEAD,
    ST_ENTRIES,
    ST_MAXDEPTH,
    ST_NODES,
    WON,
)


@njit(cache=True)
def score(s, game, rules, weights):
    """How promising ``s`` looks, by ``weights`` (``config.DOUBLE_BEAM_WEIGHTS``):
    points per card banked, minus points per card in the reserve and per
    stock card not yet played, plus points per stock card the walk will
    still turn over (this pass's cards past the pointer, and every stock
    card again for each pass left).

    The last term is what the beam needs most: positions at one depth may
    have walked the stock very differently far, and a position that took a
    card from deep in the walk has skipped the cards before it for this
    pass. Three passes are what two packs run short of (docs/findings.md,
    "Two packs"); on deals 0-39 this term lifted the beam from 0 to 23 wins
    at 1,000 positions a depth (docs/solver.md, "Two packs").
    """
    unplayed = 0
    ahead = 0
    p = cd.waste_ptr(s)
    for i in range(game[cd.G_NSTOCK]):
        if not cd.stock_removed(s, i):
            unplayed += 1
            if i >= p:
                ahead += 1
    passes = rules[R_PASSES]
    later = passes - 1 - cd.redeals(s) if passes != 0 else config.DOUBLE_BEAM_UNLIMITED_LATER
    return (
        weights[0] * cd.banked(s)
        - weights[1] * cd.res_count(s)
        - weights[2] * unplayed
        + weights[3] * (later * unplayed + ahead)
    )


#: slots of the ``at`` vector that carries a beam from one call to the next
AT_DEPTH, AT_N, AT_BEST_DEPTH, AT_BEST_INDEX, AT_KIN = range(5)
AT_LEN = 5
#: the bits of state word 0 a kin signature keeps: eight foundations (32),
#: the reserve's size (4), the waste pointer (7) and the redeals (4)
#: (engine.core_double's layout)
KIN_HEADER_BITS = 47


@njit(cache=True)
def beam_start(root, rules, layer, keys, used, at, stats):
    """Put ``root`` alone at depth 0; True when it is already won."""
    layer[0] = root
    key = np.empty(cd.KEY_WORDS, np.uint64)
    cd.canonical_key(root, rules, key)
    tt_insert(keys, used, key)
    stats[ST_ENTRIES] = 1
    stats[ST_BEST] = cd.banked(root)
    stats[ST_BESTLEN] = 0
    at[:] = 0
    at[AT_N] = 1
    return stats[ST_BEST] == cd.N_CARDS


@njit(cache=True)
def beam(
    layer, nxt, at, game, rules, prune, weights, pause, node_limit, keys, used, parent, macs, stats,
    buf, seen, kin_cap,
):  # fmt: skip
    """Go on from depth ``at[AT_DEPTH]`` (its ``at[AT_N]`` positions in
    ``layer``), keeping at most ``layer.shape[0]`` positions a depth, and
    at most ``kin_cap`` of them that differ only in their columns (the
    one-pack beam's kin cap, :func:`solver.beam.beam`; 0: no cap).

    ``parent[d, i]`` and ``macs[d, i]`` name position ``i`` of depth
    ``d + 1``: its parent's index at depth ``d`` and the macro move from it.
    It stops between two depths once ``pause`` positions were expanded in
    all, and anywhere at ``node_limit`` (the budget; the table
    ``keys``/``used`` needs room for that many positions). Returns WON
    (``at`` names the won position as the best), RUNNING (``pause``, the
    node limit or the depth was reached; call again) or
    EXHAUSTED (no new position left, which proves nothing here); ``at``
    names the most-banked position. ``layer`` then holds the last depth
    (the caller swaps nothing: the kernel copies the next depth back).
    """
    width = layer.shape[0]
    cap = width * buf.shape[0]
    cand_parent = np.empty(cap, np.int64)
    cand_mac = np.empty(cap, np.int64)
    cand_score = np.empty(cap, np.int64)
    moves = np.empty(buf.shape[0], np.int64)
    key = np.empty(cd.KEY_WORDS, np.uint64)
    child = np.empty(cd.STATE_LEN, np.uint64)
    sig, sig_n = kin_table(width)
    while at[AT_DEPTH] < parent.shape[0]:
        if stats[ST_NODES] >= min(pause, node_limit):
            return RUNNING
        d = at[AT_DEPTH]
        nc = 0
        for i in range(at[AT_N]):
            k = gen_macros(layer[i], game, rules, prune, moves, buf, seen, stats)
            if k <= 0:
                stats[ST_DEAD] += 1
                continue
            for j in range(k):
                child[:] = layer[i]
                apply_macro(child, moves[j], game, rules)
                stats[ST_CHILDREN] += 1
                cand_parent[nc] = i
                cand_mac[nc] = moves[j]
                cand_score[nc] = score(child, game, rules, weights)
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
            kin = kin_admit(child, KIN_HEADER_BITS, 3, sig, sig_n, kin_cap)
            if kin == -2:
                at[AT_KIN] += 1
                continue
            cd.canonical_key(child, rules, key)
            if not tt_insert(keys, used, key):
                continue
            if kin >= 0:
                sig_n[kin] += 1
            stats[ST_ENTRIES] += 1
            stats[ST_NODES] += 1
            nxt[m] = child
            parent[d, m] = cand_parent[o]
            macs[d, m] = cand_mac[o]
            b = cd.banked(child)
            if b > stats[ST_BEST]:
                stats[ST_BEST] = b
                stats[ST_BESTLEN] = d + 1
                at[AT_BEST_DEPTH] = d + 1
                at[AT_BEST_INDEX] = m
            m += 1
            if b == cd.N_CARDS:
                stats[ST_MAXDEPTH] = d + 1
                return WON
        if m == 0:
            return EXHAUSTED
        layer[:m] = nxt[:m]
        at[AT_N] = m
        at[AT_DEPTH] = d + 1
        stats[ST_MAXDEPTH] = d + 1
    return RUNNING


def line_of(parent: np.ndarray, macs: np.ndarray, depth: int, index: int) -> list[int]:
    """The macro moves from the root to position ``index`` at ``depth``."""
    line: list[int] = []
    i = index
    for d in range(depth - 1, -1, -1):
        line.append(int(macs[d, i]))
        i = int(parent[d, i])
    return line[::-1]
