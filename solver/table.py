"""The exact transposition table of the depth-first and layered searches.

A slot holds one visited position, waste pointer included, as a compact
bit string of 32-bit words: bits 0-5 are the waste pointer plus one (0 marks
an empty slot), then each column of the key (``engine.core.canonical_key``,
columns sorted) as its 6-bit length and, unless empty, its bottom card and
one choice per card above it, then the key's header (foundations, reserve
count, redeals, played-stock mask). Only the bits a column uses are stored,
and the string is parsed column by column, so two slots hold the same bits
exactly when they hold the same position: no verdict rests on a hash. The
string takes at most 159 bits (51 cards in the columns under ``build=alt``:
6 + 4 x 12 + 47 + 58), so a slot is 5 words (20 bytes), or 7 (28 bytes)
for ``build=rank``, whose choices take 2 bits a card; the top bit of the
last word is left to ``FINISHED`` (``VISITED``). All 52 cards lie in the
columns only under ``worry``, which may take even the dealt base card back
from its foundation; the foundations and the reserve are then empty, so the
header's low part (foundations and reserve count, 20 bits) is zero and is
left out: the string is 140 bits, and it stays exact, since the column
lengths, read first, say whether the part is there.

Slots are found by open addressing with linear probing from a home slot
that a hash of the string (pointer left out) picks, so every pointer visited
with one key lies between its home and the next empty slot: the scan that
looks for the pointer also collects the others, which rule E2 needs. The
number of slots need not be a power of two, so a table fills its memory
budget.
"""

from __future__ import annotations

import time

import numpy as np
from numba import njit

from canfield.engine import core
from canfield.engine.cards import N_CARDS
from canfield.solver.atomics import cas_u32, load_acquire_u32, or_u32, store_release_u32
from canfield.solver.macros import PTR_MASK, PTR_SHIFT
from canfield.solver.pruning import dominators
from canfield.solver.stats import ST_DOMINATED, ST_ENTRIES, ST_EVICTED, ST_SLOT
from canfield.solver.table_memory import zeroed

#: Bits of a slot's first word holding the waste pointer plus one.
PTR_FIELD = 6
#: Scratch words a key buffer has after the key (the compact string, 4 x 64 bits).
PACK_WORDS = 4
# the key's header: word 0's foundations and reserve count (bits 0-19), then,
# above the waste pointer, its redeals and played-stock mask (bits 26-63)
_LOW_BITS = 20
_HIGH_SHIFT = 26
_PTR_BITS32 = np.uint32((1 << PTR_FIELD) - 1)
#: The top bit of a slot's last word, which no compact string reaches (159
#: bits at most in 160, 206 in 224): set by the shared search when the
#: position is finished (``tt_finish``), left out of hashes and comparisons.
FINISHED = np.uint32(1 << 31)
#: A slot of a table no other thread shares uses that bit for CLOCK
#: eviction (``tt_evict``): set when the position is entered or met again.
VISITED = FINISHED


def slot_words(kw: int) -> int:
    """32-bit words in a slot for keys of ``kw`` 64-bit words."""
    return 5 if kw == 5 else 7


@njit(cache=True, inline="always")
def key_bits(nw):
    """Bits a compact string may take in a slot of ``nw`` words: all but the
    last word's top bit, ``FINISHED`` (``VISITED``)."""
    return 32 * nw - 1


def slot_bytes(kw: int) -> int:
    """Bytes a slot takes for keys of ``kw`` words."""
    return 4 * slot_words(kw)


def new_table(cap: int, kw: int) -> np.ndarray:
    """An empty table of ``cap`` slots (any number up to 2**32) for keys of
    ``kw`` words, on memory the process kept from an earlier table when it
    can (:mod:`solver.table_memory`)."""
    if not 0 < cap <= 1 << 32:
        raise ValueError(f"a table has 1 to 2**32 slots, not {cap}")
    return zeroed((cap, slot_words(kw)), np.uint32)


@njit(cache=True)
def key_buffer(table):
    """A zeroed key for this table: the key's words, then the packing scratch."""
    kw = 5 if table.shape[1] == 5 else 9
    return np.zeros(kw + PACK_WORDS, np.uint64)


@njit(cache=True, inline="always")
def _put(out, pos, v, n):
    """Write the ``n`` (at most 64) low bits of ``v`` at bit ``pos`` of ``out``."""
    if n == 0:
        return pos
    w = pos >> 6
    o = pos & 63
    out[w] |= v << np.uint64(o)
    if o + n > 64:
        out[w + 1] |= v >> np.uint64(64 - o)
    return pos + n


@njit(cache=True, inline="always")
def _low(v, n):
    """The ``n`` low bits of ``v`` (n < 64)."""
    return v & ((np.uint64(1) << np.uint64(n)) - np.uint64(1))


@njit(cache=True, inline="always")
def pack_key(key, kw, kb, nbits):
    """Write the compact string of ``key[:kw]`` (pointer field left 0) into
    ``key[kw:]``; ``kb`` choice bits a card. Returns the bits used.

    Raises if the string passes ``nbits``, :func:`key_bits` of the slot (it
    cannot: see the module docstring; the check keeps a wrong width from
    truncating).
    """
    out = key[kw:]
    for i in range(PACK_WORDS):
        out[i] = 0
    pos = PTR_FIELD
    wide = kw > 5
    cards = 0
    for c in range(core.N_COLS):
        lo = key[1 + 2 * c] if wide else key[1 + c]
        n = np.int64(lo & np.uint64(63))
        cards += n
        pos = _put(out, pos, np.uint64(n), 6)
        if n == 0:
            continue
        # bottom card and choices: bits 6 .. 6 + need of the column's words
        need = 6 + (n - 1) * kb
        first = min(need, 58)
        pos = _put(out, pos, _low(lo >> np.uint64(6), first), first)
        if need > first:
            hi = key[2 + 2 * c]
            pos = _put(out, pos, _low(hi, need - first), need - first)
    k0 = key[0]
    if cards < N_CARDS:
        # with every card in the columns (worry only) this part is zero
        pos = _put(out, pos, _low(k0, _LOW_BITS), _LOW_BITS)
    pos = _put(out, pos, k0 >> np.uint64(_HIGH_SHIFT), 64 - _HIGH_SHIFT)
    if pos > nbits:
        raise ValueError("a compact key is wider than its slot")
    return pos


@njit(cache=True, inline="always")
def _mix(h, v):
    h ^= v
    h *= np.uint64(0xBF58476D1CE4E5B9)
    h ^= h >> np.uint64(29)
    return h


@njit(cache=True, inline="always")
def _home(h, cap):
    """Slot ``floor(cap * x / 2**32)`` for the hash's top 32 bits ``x``: any ``cap``."""
    return np.int64(((h >> np.uint64(32)) * np.uint64(cap)) >> np.uint64(32))


@njit(cache=True, inline="always")
def _hash_row(row):
    """Hash of a slot's (or a packed key's) words with the pointer field and
    the ``FINISHED`` (or ``VISITED``) bit cleared."""
    h = np.uint64(0x9E3779B97F4A7C15)
    last = row.shape[0] - 1
    for j in range(row.shape[0]):
        v = np.uint64(row[j])
        if j == 0:
            v &= ~np.uint64(_PTR_BITS32)
        if j == last:
            v &= ~np.uint64(FINISHED)
        h = _mix(h, v * np.uint64(0x94D049BB133111EB) + np.uint64(j))
    h ^= h >> np.uint64(31)
    return h


@njit(cache=True, inline="always")
def _same_words(table, i, out, nw):
    """Whether slot ``i`` holds ``out``'s words 1 .. nw-1 (``FINISHED`` or
    ``VISITED`` left out)."""
    for j in range(1, nw):
        v = table[i, j]
        if j == nw - 1:
            v &= ~FINISHED
        if v != out[j]:
            return False
    return True


# inlined into the search loop: a numba call passes each array argument as
# its header, field by field (docs/solver.md, Speed: about 15% of the time)
@njit(cache=True, inline="always")
def tt_visit(table, key, s, game, rules, use_e2, max_entries, stats):
    """Record a visit of ``key``; return 1 to expand it, 0 to skip it, -1 if full.

    ``key`` comes from :func:`key_buffer` (the canonical key, then scratch).
    A position ``s`` is skipped when a pointer whose visit makes this one
    needless was visited: the pointer itself, or with ``use_e2`` one that
    dominates it (rule E2; :func:`solver.pruning.dominators`, worked out only
    when the key was seen with other pointers). A skip other than a repeat
    is counted in ``ST_DOMINATED``.
    """
    cap = table.shape[0]
    nw = table.shape[1]
    kw = key.shape[0] - PACK_WORDS
    p = np.int64((key[0] >> np.uint64(PTR_SHIFT)) & np.uint64(PTR_MASK))
    pack_key(key, kw, core.choice_bits(rules), key_bits(nw))
    # the string as 32-bit words (little-endian), the pointer field still 0
    out = key[kw:].view(np.uint32)
    w0 = out[0]
    i = _home(_hash_row(out[:nw]), cap)
    seen = np.uint64(0)
    while True:
        t = table[i, 0]
        if t == 0:
            break
        if t & ~_PTR_BITS32 == w0 and _same_words(table, i, out, nw):
            q = np.int64(t & _PTR_BITS32) - 1
            if q == p:
                table[i, nw - 1] |= VISITED  # met again: tt_evict keeps it
                return 0
            seen |= np.uint64(1) << np.uint64(q)
        i += 1
        if i == cap:
            i = 0
    if use_e2 and seen != 0 and seen & dominators(s, game, rules):
        stats[ST_DOMINATED] += 1
        return 0
    if stats[ST_ENTRIES] >= max_entries:
        return -1
    table[i, 0] = w0 | np.uint32(p + 1)
    for j in range(1, nw - 1):
        table[i, j] = out[j]
    table[i, nw - 1] = out[nw - 1] | VISITED
    stats[ST_ENTRIES] += 1
    return 1


#: A slot's first word while a thread writes the slot (``tt_visit_shared``):
#: the pointer field all ones, which no waste pointer reaches.
BUSY = _PTR_BITS32


@njit(cache=True, inline="always")
def tt_visit_shared(table, key, s, game, rules, use_e2, max_entries, stats, helping):
    """:func:`tt_visit` on a table other threads write at the same time.

    The same slots, probes and answers, with one difference in how a slot
    is written: an empty slot is claimed with a compare-and-swap of its
    first word to ``BUSY``, its other words are written, and the first word
    is published last (release order; readers load it with acquire order).
    A reader that meets ``BUSY`` reads the slot again until it is published,
    and a writer that loses the swap reads the slot it lost. So a key is only
    ever compared with a whole slot, and no verdict rests on a torn one.
    Slots are never emptied, so two threads entering one position probe
    the same run of slots to the same first empty slot, and only one wins
    it: a position is entered once. ``max_entries`` is this thread's share
    of the table (the threads together keep its load below ``MAX_LOAD``,
    so every probe meets an empty slot).

    Returns 1 (entered: search it), 0 (skip it), -1 (this thread's share is
    full) or, with ``helping``, 2 for a position entered and not yet
    ``FINISHED``: still being searched by some thread, which a helper may
    search too. ``stats[ST_SLOT]`` is then the slot (also after 1).
    """
    cap = table.shape[0]
    nw = table.shape[1]
    kw = key.shape[0] - PACK_WORDS
    p = np.int64((key[0] >> np.uint64(PTR_SHIFT)) & np.uint64(PTR_MASK))
    pack_key(key, kw, core.choice_bits(rules), key_bits(nw))
    out = key[kw:].view(np.uint32)
    w0 = out[0]
    i = _home(_hash_row(out[:nw]), cap)
    seen = np.uint64(0)
    while True:
        t = load_acquire_u32(table, i, 0)
        if t == BUSY:
            continue  # being written: its first word comes within nanoseconds
        if t == 0:
            if use_e2 and seen != 0 and seen & dominators(s, game, rules):
                stats[ST_DOMINATED] += 1
                return 0
            if stats[ST_ENTRIES] >= max_entries:
                return -1
            if cas_u32(table, i, 0, np.uint32(0), BUSY) != 0:
                continue  # another thread took the slot first: read what it holds
            for j in range(1, nw):
                table[i, j] = out[j]
            store_release_u32(table, i, 0, w0 | np.uint32(p + 1))
            stats[ST_ENTRIES] += 1
            stats[ST_SLOT] = i
            return 1
        if t & ~_PTR_BITS32 == w0:
            if _same_words(table, i, out, nw):
                q = np.int64(t & _PTR_BITS32) - 1
                if q == p:
                    if helping and table[i, nw - 1] & FINISHED == 0:
                        stats[ST_SLOT] = i
                        return 2
                    return 0
                seen |= np.uint64(1) << np.uint64(q)
        i += 1
        if i == cap:
            i = 0


@njit(cache=True, inline="always")
def tt_finish(table, i):
    """Mark slot ``i`` ``FINISHED``: the thread that entered (or helped with)
    its position has searched every move of it it did not leave to another."""
    or_u32(table, i, table.shape[1] - 1, FINISHED)


@njit(cache=True)
def tt_slot(table, key, rules):
    """The slot holding ``key`` (its pointer included), or -1."""
    cap = table.shape[0]
    nw = table.shape[1]
    kw = key.shape[0] - PACK_WORDS
    p = np.int64((key[0] >> np.uint64(PTR_SHIFT)) & np.uint64(PTR_MASK))
    pack_key(key, kw, core.choice_bits(rules), key_bits(nw))
    out = key[kw:].view(np.uint32)
    w = out[0] | np.uint32(p + 1)
    i = _home(_hash_row(out[:nw]), cap)
    while table[i, 0] != 0:
        if table[i, 0] == w and _same_words(table, i, out, nw):
            return i
        i += 1
        if i == cap:
            i = 0
    return -1


@njit(cache=True)
def tt_rehash(old, new):
    """Move every entry of the old table into the (larger, empty) new one."""
    cap = new.shape[0]
    for i in range(old.shape[0]):
        if old[i, 0] == 0:
            continue
        j = _home(_hash_row(old[i]), cap)
        while new[j, 0] != 0:
            j += 1
            if j == cap:
                j = 0
        new[j, :] = old[i, :]


def grown(old: np.ndarray, new_cap: int, kw: int) -> tuple[np.ndarray, float]:
    """A new table of ``new_cap`` slots holding every entry of ``old``, and the
    seconds a slot the rehash took (what a time guard predicts the next one
    from: ``solver.budgets.rehash_in_time``)."""
    started = time.perf_counter()
    table = new_table(new_cap, kw)
    tt_rehash(old, table)
    return table, (time.perf_counter() - started) / new_cap


@njit(cache=True)
def _reinsert_all(table, start):
    """Put every entry back where a probe from its home finds it, in place,
    after slots were emptied (which breaks the runs of linear probing).

    ``start`` must be a slot that was empty *before* any was emptied: then no
    run of occupied slots went past it, so the walk from there meets each
    entry after its home. It takes each entry out and puts it in the first
    empty slot from its home: every slot between the two has been walked
    already (holds an entry in its place, or stays empty), so the entry
    lands at or before where it was, and a probe from its home finds it.
    """
    cap = table.shape[0]
    row = np.empty(table.shape[1], np.uint32)
    for k in range(1, cap + 1):
        i = (start + k) % cap
        if table[i, 0] == 0:
            continue
        row[:] = table[i, :]
        table[i, :] = 0
        j = _home(_hash_row(row), cap)
        while table[j, 0] != 0:
            j += 1
            if j == cap:
                j = 0
        table[j, :] = row


@njit(cache=True)
def tt_evict(table, states, depth, rules, stats, keep):
    """Make room in a full table by forgetting the entries the search has
    not met since the last eviction, never a position of its path.

    Each slot has one bit, ``VISITED``, set when its position is entered and
    each time it is met again (``tt_visit``). Every entry without it goes;
    when that leaves more than ``keep`` of the entries, so does an even
    spread of the others (chosen by a hash of the slot number: evicting a
    run of neighbouring slots would leave the rest of the table packed, and
    linear probing slow). The survivors lose the bit, so the next eviction
    takes those not met in between. The positions ``states[0 .. depth]``
    (the search's path) always stay. Returns the entries removed: 0 when
    nothing but the path could go.

    Sound because an entry only ever lets the search skip a position: a
    forgotten one is searched again when met (the search stays exhaustive),
    while the path's entries, which keep it from going round a cycle, stay.
    """
    cap = table.shape[0]
    nw = table.shape[1]
    key = key_buffer(table)
    path = np.empty(depth + 1, np.int64)
    for d in range(depth + 1):
        core.canonical_key(states[d], rules, key)
        path[d] = tt_slot(table, key, rules)
        if path[d] < 0:
            return 0  # the path is always in the table: leave it all alone
    path.sort()
    met = 0
    for i in range(cap):
        if table[i, 0] != 0 and table[i, nw - 1] & VISITED:
            met += 1
    entries = stats[ST_ENTRIES]
    want = entries - np.int64(keep * entries)
    # the share of the met entries that must go too, out of 2**24
    share = 0
    if met > 0 and want > entries - met:
        share = ((want - (entries - met)) << 24) // met
    start = 0
    while table[start, 0] != 0:
        start += 1  # a full table still has empty slots (MAX_LOAD < 1)
    gone = 0
    for i in range(cap):
        if table[i, 0] == 0:
            continue
        k = np.searchsorted(path, i)
        if k < path.shape[0] and path[k] == i:
            table[i, nw - 1] &= ~VISITED
            continue
        go = True
        if table[i, nw - 1] & VISITED:
            spread = (np.uint64(i) * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(40)
            go = np.int64(spread) < share
        if go:
            table[i, :] = 0
            gone += 1
        else:
            table[i, nw - 1] &= ~VISITED
    if gone == 0:
        return 0
    _reinsert_all(table, start)
    stats[ST_ENTRIES] -= gone
    stats[ST_EVICTED] += gone
    return gone
