"""The exact transposition table of the depth-first and layered searches.

Row ``i`` of a table is one slot: a non-zero tag (high hash bits, so most
mismatches cost one compare), the position's key with its waste pointer
taken out, and a mask of the waste pointers visited with that key (bit
``p``). Tag, key and mask share a row so that a probe touches one cache line.
Slots are found by open addressing with linear probing.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from canfield.solver.macros import PTR_MASK, PTR_SHIFT
from canfield.solver.pruning import dominators
from canfield.solver.stats import ST_DOMINATED, ST_ENTRIES

# the waste pointer in key word 0 (key word 0 is the position's word 0, and a
# macro move's stock fields share its bits)
PTR_BITS = np.uint64(PTR_MASK) << np.uint64(PTR_SHIFT)


def new_table(cap: int, kw: int) -> np.ndarray:
    """An empty table of ``cap`` slots (a power of two) for keys of ``kw`` words."""
    return np.zeros((cap, kw + 2), np.uint64)  # tag, key, visited pointers


@njit(cache=True, inline="always")
def _hash(key, k0):
    """Hash of a key whose word 0 is replaced by ``k0`` (pointer taken out)."""
    h = np.uint64(0x9E3779B97F4A7C15)
    for i in range(key.shape[0]):
        h ^= k0 if i == 0 else key[i]
        h *= np.uint64(0xBF58476D1CE4E5B9)
        h ^= h >> np.uint64(29)
    return h


@njit(cache=True)
def tt_visit(table, key, s, game, rules, use_e2, max_entries, stats):
    """Record a visit of ``key``; return 1 to expand it, 0 to skip it, -1 if full.

    A position ``s`` is skipped when a pointer whose visit makes this one
    needless was visited: the pointer itself, or with ``use_e2`` one that
    dominates it (rule E2; :func:`solver.pruning.dominators`, worked out only
    when the key was seen with other pointers). A skip other than a repeat
    is counted in ``ST_DOMINATED``.
    """
    cap = table.shape[0]
    kw = key.shape[0]
    p = (key[0] >> np.uint64(PTR_SHIFT)) & np.uint64(PTR_MASK)
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
                if use_e2 and seen & dominators(s, game, rules):
                    stats[ST_DOMINATED] += 1
                    return 0
                table[i, kw + 1] = seen | bit
                return 1
        i = (i + 1) & (cap - 1)


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
