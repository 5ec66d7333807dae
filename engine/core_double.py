"""The rules core for two packs (``double``, Variegated Demon): numba kernels.

A separate set of kernels, not a generalised :mod:`engine.core`: the 52-card
kernels keep their fixed sizes (four columns, one word of played stock, one
word per column), which is where their speed comes from. This module exposes
the same function names with the same meaning, so :mod:`engine.position`
calls either through ``Game.core``. ``tests/reference_rules.py`` is the slow
twin these kernels are checked against. Supported: ``build=alt``,
``fill=auto``, ``worry=no`` (``engine.profiles`` refuses the rest for
``double``); ``draw``, ``passes``, ``moves``, ``space`` and ``wrap`` as in
:mod:`engine.core`.

Layout (see ``docs/engine.md``)
-------------------------------
``game`` (int64[GAME_LEN]): base rank, reserve size, stock size, the reserve
(bottom first, 13 slots) and the stock order (78 slots). Cards are
``suit * 13 + rank``: the two copies of a card are the same number, so no
state or key can tell which pack a card came from.

``state`` (uint64[STATE_LEN]):

* word 0: eight 4-bit foundation counts (slot ``2 * suit + j``, ``j`` = 0, 1),
  the reserve count (4 bits at 32), the waste pointer (7 bits at 36) and the
  redeals used (4 bits at 43; 0 under unlimited passes). The two foundations
  of a suit are kept with the first at least as high as the second: that is
  what "the first foundation that takes it" gives from the deal, and it makes
  the pair canonical without sorting.
* words 1-2: bit ``i`` of the 78-bit mask of played stock positions.
* words 3+2c and 4+2c: column ``c`` (0..4): length (7 bits), bottom card
  (6 bits at 7), then one choice bit per card above the bottom from bit 13,
  spilling into the second word (13 + 95 bits at most).

Moves use :mod:`engine.core`'s encoding; the fifth column is code
``COL4_CODE`` (12), a code the four-column core never uses.

The stock walk and the blocked test follow :mod:`engine.core`'s line by
line but call this module's accessors: numba binds a kernel's callees when
it compiles it, so sharing them would mean passing the accessors in (slower
for the 52-card path) or one generic layout (the same).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from canfield.engine.core import (
    BUILD_ALT,
    DST_FOUND,
    MAX_MOVES,
    MOVES_ANY,
    R_DRAW,
    R_MOVES,
    R_PASSES,
    R_SPACE,
    R_WRAP,
    SPACE_ANY,
    SRC_DRAW,
    SRC_REDEAL,
    SRC_RESERVE,
    SRC_WASTE,
    _seen_key,
    builds_on_s,
    encode_move,
    move_count,
    move_dst,
    move_src,
)

__all__ = ["MAX_MOVES", "N_CARDS", "N_COLS", "N_FOUND", "STATE_LEN", "GAME_LEN"]

N_CARDS = 104
N_COLS = 5
N_FOUND = 8
MAX_STOCK = 78
COL4_CODE = 12

G_BASE, G_NRES, G_NSTOCK = 0, 1, 2
G_RES = 3  # 13 slots
G_STOCK = 16  # 78 slots
GAME_LEN = G_STOCK + MAX_STOCK

COL0 = 3
STATE_LEN = COL0 + 2 * N_COLS
KEY_WORDS = 2 + 2 * N_COLS

_RES_SH, _PTR_SH, _RED_SH = 32, 36, 43
_CHOICE0 = 13  # bit of the first choice in a column's first word


# ---- moves ---------------------------------------------------------------------
@njit(cache=True, inline="always")
def col_code(c):
    """Move code of column ``c`` (0..4)."""
    return COL4_CODE if c == 4 else c


@njit(cache=True, inline="always")
def code_col(x):
    """Column of move code ``x``, or -1 when ``x`` names no column."""
    if x == COL4_CODE:
        return 4
    return x if x < 4 else -1


# ---- header ----------------------------------------------------------------------
@njit(cache=True, inline="always")
def _field(s, sh, bits):
    return np.int64((s[0] >> np.uint64(sh)) & np.uint64((1 << bits) - 1))


@njit(cache=True, inline="always")
def _set_field(s, sh, bits, v):
    mask = np.uint64((1 << bits) - 1) << np.uint64(sh)
    s[0] = (s[0] & ~mask) | (np.uint64(v) << np.uint64(sh))


@njit(cache=True)
def found_count(s, slot):
    """Cards on foundation ``slot`` (``2 * suit + j``)."""
    return _field(s, 4 * slot, 4)


@njit(cache=True)
def set_found_count(s, slot, n):
    _set_field(s, 4 * slot, 4, n)


@njit(cache=True)
def res_count(s):
    return _field(s, _RES_SH, 4)


@njit(cache=True)
def set_res_count(s, n):
    _set_field(s, _RES_SH, 4, n)


@njit(cache=True)
def waste_ptr(s):
    return _field(s, _PTR_SH, 7)


@njit(cache=True)
def set_waste_ptr(s, p):
    _set_field(s, _PTR_SH, 7, p)


@njit(cache=True)
def redeals(s):
    return _field(s, _RED_SH, 4)


@njit(cache=True)
def set_redeals(s, n):
    _set_field(s, _RED_SH, 4, n)


@njit(cache=True)
def stock_removed(s, i):
    w = 1 if i < 64 else 2
    return (s[w] >> np.uint64(i % 64)) & np.uint64(1) != np.uint64(0)


@njit(cache=True, inline="always")
def _set_played(s, i):
    w = 1 if i < 64 else 2
    s[w] |= np.uint64(1) << np.uint64(i % 64)


@njit(cache=True)
def banked(s):
    total = 0
    for f in range(N_FOUND):
        total += found_count(s, f)
    return total


# ---- cards and foundations ------------------------------------------------------
@njit(cache=True)
def builds_on(x, y, game, rules):
    """Whether card ``x`` may be placed on card ``y`` in a column."""
    return builds_on_s(x, y, game[G_BASE], BUILD_ALT, rules[R_WRAP])


@njit(cache=True)
def found_slot(s, card, game):
    """The foundation that takes ``card`` now (the first of its suit's two
    that does), or -1."""
    su = card // 13
    for j in range(2):
        n = found_count(s, 2 * su + j)
        if n < 13 and card % 13 == (game[G_BASE] + n) % 13:
            return 2 * su + j
    return -1


@njit(cache=True)
def found_top(s, slot, game):
    n = found_count(s, slot)
    if n == 0:
        return -1
    return (slot // 2) * 13 + (game[G_BASE] + n - 1) % 13


# ---- columns ----------------------------------------------------------------------
@njit(cache=True)
def col_len(s, c):
    return np.int64(s[COL0 + 2 * c] & np.uint64(127))


@njit(cache=True)
def col_bottom(s, c):
    return np.int64((s[COL0 + 2 * c] >> np.uint64(7)) & np.uint64(63))


@njit(cache=True, inline="always")
def _choice_at(h):
    """(word offset, bit) of the choice of the card at height ``h >= 1``."""
    pos = _CHOICE0 + h - 1
    return (0, pos) if pos < 64 else (1, pos - 64)


@njit(cache=True)
def col_card(s, c, h, rules):
    """Card at height ``h`` (0 = bottom) of column ``c``; O(1)."""
    bottom = col_bottom(s, c)
    if h == 0:
        return bottom
    off, bit = _choice_at(h)
    ch = (s[COL0 + 2 * c + off] >> np.uint64(bit)) & np.uint64(1)
    r = (bottom % 13 - h) % 13
    bottom_red = bottom // 13 == 1 or bottom // 13 == 2
    red = bottom_red != (h % 2 == 1)
    if red:
        su = 2 if ch else 1
    else:
        su = 3 if ch else 0
    return su * 13 + r


@njit(cache=True)
def col_top(s, c, rules):
    n = col_len(s, c)
    if n == 0:
        return -1
    return col_card(s, c, n - 1, rules)


@njit(cache=True)
def col_push(s, c, card, rules):
    """Put ``card`` on column ``c`` (legality is the caller's business)."""
    w = COL0 + 2 * c
    n = col_len(s, c)
    if n == 0:
        s[w] = np.uint64(1) | (np.uint64(card) << np.uint64(7))
        s[w + 1] = np.uint64(0)
        return
    off, bit = _choice_at(n)
    # alt building: the choice is which of the two suits of the colour
    s[w + off] |= np.uint64((card // 13) >> 1) << np.uint64(bit)
    s[w] = (s[w] & ~np.uint64(127)) | np.uint64(n + 1)


@njit(cache=True)
def col_pop(s, c, k, rules):
    """Remove the top ``k`` cards of column ``c`` (``rules`` as in engine.core)."""
    w = COL0 + 2 * c
    n = col_len(s, c)
    m = n - k
    if m == 0:
        s[w] = np.uint64(0)
        s[w + 1] = np.uint64(0)
        return
    for h in range(m, n):
        off, bit = _choice_at(h)
        s[w + off] &= ~(np.uint64(1) << np.uint64(bit))
    s[w] = (s[w] & ~np.uint64(127)) | np.uint64(m)


@njit(cache=True)
def col_move(s, src, dst, k, rules):
    """Move the top ``k`` cards of column ``src`` onto column ``dst``."""
    n = col_len(s, src)
    for h in range(n - k, n):
        col_push(s, dst, col_card(s, src, h, rules), rules)
    col_pop(s, src, k, rules)


# ---- reserve, stock and waste -------------------------------------------------------
@njit(cache=True)
def reserve_top(s, game):
    n = res_count(s)
    if n == 0:
        return -1
    return game[G_RES + n - 1]


@njit(cache=True)
def waste_top(s, game):
    p = waste_ptr(s)
    if p == 0:
        return -1
    return game[G_STOCK + p - 1]


@njit(cache=True)
def normalise_waste_ptr(s):
    """Point ``p`` just past the highest unplayed position below it."""
    p = waste_ptr(s)
    while p > 0 and stock_removed(s, p - 1):
        p -= 1
    set_waste_ptr(s, p)


@njit(cache=True)
def stock_empty(s, game):
    for i in range(waste_ptr(s), game[G_NSTOCK]):
        if not stock_removed(s, i):
            return False
    return True


@njit(cache=True)
def can_redeal(s, game, rules):
    if waste_ptr(s) == 0 or not stock_empty(s, game):
        return False
    passes = rules[R_PASSES]
    return passes == 0 or redeals(s) < passes - 1


@njit(cache=True)
def do_draw(s, game, rules):
    ns = game[G_NSTOCK]
    p = waste_ptr(s)
    turned = 0
    while p < ns and turned < rules[R_DRAW]:
        if not stock_removed(s, p):
            turned += 1
        p += 1
    set_waste_ptr(s, p)
    normalise_waste_ptr(s)


@njit(cache=True)
def do_redeal(s, rules):
    set_waste_ptr(s, 0)
    if rules[R_PASSES] != 0:
        set_redeals(s, redeals(s) + 1)


# ---- moves ---------------------------------------------------------------------------
@njit(cache=True)
def auto_fill(s, game, rules):
    """Fill empty columns, left to right, from the reserve top (fill=auto)."""
    for c in range(N_COLS):
        if col_len(s, c) == 0 and res_count(s) > 0:
            card = reserve_top(s, game)
            set_res_count(s, res_count(s) - 1)
            col_push(s, c, card, rules)


@njit(cache=True)
def space_open(s, rules):
    """0: no player fills a space now; 1: the waste top only; 2: any unit."""
    if res_count(s) > 0:
        return 0
    return 2 if rules[R_SPACE] == SPACE_ANY else 1


@njit(cache=True)
def single_card_moves(s, card, src, game, rules, out, n, space):
    """Moves of the single card ``card`` from ``src`` (reserve or waste)."""
    if found_slot(s, card, game) >= 0:
        out[n] = encode_move(src, DST_FOUND, 1)
        n += 1
    base, wrap = game[G_BASE], rules[R_WRAP]
    for c in range(N_COLS):
        top = col_top(s, c, rules)
        if top < 0:
            if space == 2 or (space == 1 and src == SRC_WASTE):
                out[n] = encode_move(src, col_code(c), 1)
                n += 1
        elif builds_on_s(card, top, base, BUILD_ALT, wrap):
            out[n] = encode_move(src, col_code(c), 1)
            n += 1
    return n


@njit(cache=True)
def card_moves(s, game, rules, out):
    """Every legal move but draw and redeal, into ``out``; returns how many.

    Order: reserve, waste, columns.
    """
    # Mirror (which card may move where; change together):
    # tests/reference_rules.py ref_legal_moves; solver/double.py.
    n = 0
    space = space_open(s, rules)
    rt = reserve_top(s, game)
    if rt >= 0:
        n = single_card_moves(s, rt, SRC_RESERVE, game, rules, out, n, space)
    wt = waste_top(s, game)
    if wt >= 0:
        n = single_card_moves(s, wt, SRC_WASTE, game, rules, out, n, space)
    any_runs = rules[R_MOVES] == MOVES_ANY
    base, wrap = game[G_BASE], rules[R_WRAP]
    for c in range(N_COLS):
        L = col_len(s, c)
        if L == 0:
            continue
        top = col_top(s, c, rules)
        if found_slot(s, top, game) >= 0:
            out[n] = encode_move(col_code(c), DST_FOUND, 1)
            n += 1
        k = 1
        while k <= L:
            unit = top if k == 1 else col_card(s, c, L - k, rules)
            for d in range(N_COLS):
                if d == c:
                    continue
                dt = col_top(s, d, rules)
                if dt < 0:
                    if space == 2 and k < L:
                        out[n] = encode_move(col_code(c), col_code(d), k)
                        n += 1
                elif builds_on_s(unit, dt, base, BUILD_ALT, wrap):
                    out[n] = encode_move(col_code(c), col_code(d), k)
                    n += 1
            # under moves=whole only the top card and the whole column leave
            k = k + 1 if any_runs or k == L else L
    return n


@njit(cache=True)
def legal_moves(s, game, rules, out):
    """Every legal atomic move into ``out``; returns how many (draw or redeal last)."""
    n = card_moves(s, game, rules, out)
    if not stock_empty(s, game):
        out[n] = encode_move(SRC_DRAW, 0, 0)
        n += 1
    elif can_redeal(s, game, rules):
        out[n] = encode_move(SRC_REDEAL, 0, 0)
        n += 1
    return n


@njit(cache=True)
def _bank(s, card, game):
    slot = found_slot(s, card, game)
    set_found_count(s, slot, found_count(s, slot) + 1)


@njit(cache=True)
def apply_move(s, m, game, rules):
    """Apply legal move ``m`` to ``s`` in place, then auto-fill."""
    # Mirror (what a move does; change together): tests/reference_rules.py
    # ref_apply; solver/double.py.
    src = move_src(m)
    if src == SRC_DRAW:
        do_draw(s, game, rules)
        return
    if src == SRC_REDEAL:
        do_redeal(s, rules)
        return
    dst = code_col(move_dst(m))
    c = code_col(src)
    if c >= 0:
        if dst < 0:
            card = col_top(s, c, rules)
            _bank(s, card, game)
            col_pop(s, c, 1, rules)
        else:
            col_move(s, c, dst, move_count(m), rules)
        auto_fill(s, game, rules)
        return
    if src == SRC_RESERVE:
        card = reserve_top(s, game)
        set_res_count(s, res_count(s) - 1)
    else:
        p = waste_ptr(s)
        card = game[G_STOCK + p - 1]
        _set_played(s, p - 1)
        set_waste_ptr(s, p - 1)
        normalise_waste_ptr(s)
    if dst < 0:
        _bank(s, card, game)
    else:
        col_push(s, dst, card, rules)
    auto_fill(s, game, rules)


# ---- the key ----------------------------------------------------------------------------
def key_words(build_code: int) -> int:
    return KEY_WORDS


@njit(cache=True)
def canonical_key(s, rules, key):
    """Pack ``s`` into ``key`` (12 words) with the columns sorted descending.

    Word 0: the header (47 bits) with the played mask's bits 64..77 above it;
    word 1: played bits 0..63; then the two words of each column. The two
    foundations of a suit are already ordered in the state. Nothing is hashed
    or dropped: equal keys, equal positions up to column order.
    """
    key[0] = (s[0] & np.uint64((1 << 47) - 1)) | (s[2] << np.uint64(47))
    key[1] = s[1]
    # insertion sort of the five (first word, second word) pairs, in place
    for c in range(N_COLS):
        a = s[COL0 + 2 * c]
        b = s[COL0 + 2 * c + 1]
        i = c
        while i > 0:
            pa = key[2 * i]
            pb = key[2 * i + 1]
            if pa > a or (pa == a and pb >= b):
                break
            key[2 + 2 * i] = pa
            key[3 + 2 * i] = pb
            i -= 1
        key[2 + 2 * i] = a
        key[3 + 2 * i] = b


# ---- blocked ----------------------------------------------------------------------------
@njit(cache=True)
def _waste_pointers(s, game, rules):
    """Every waste pointer that draws and redeals alone reach from ``s`` (its
    own first), each once: the waste tops a pass offers."""
    cap = (game[G_NSTOCK] + 1) * 16
    seen = np.empty(cap, np.int64)  # waste pointer | redeals << 7
    ptrs = np.empty(cap, np.int64)
    n_seen = 0
    n_ptrs = 0
    t = s.copy()
    while n_seen < cap:
        here = waste_ptr(t) | (redeals(t) << 7)
        for i in range(n_seen):
            if seen[i] == here:
                return ptrs[:n_ptrs]
        seen[n_seen] = here
        n_seen += 1
        new_ptr = True
        for i in range(n_ptrs):
            if ptrs[i] == waste_ptr(t):
                new_ptr = False
        if new_ptr:
            ptrs[n_ptrs] = waste_ptr(t)
            n_ptrs += 1
        if not stock_empty(t, game):
            do_draw(t, game, rules)
        elif can_redeal(t, game, rules):
            do_redeal(t, rules)
        else:
            break
    return ptrs[:n_ptrs]


@njit(cache=True)
def _waste_plays(s, game, rules, ptrs, buf):
    t = s.copy()
    for j in range(ptrs.shape[0]):
        set_waste_ptr(t, ptrs[j])
        n = card_moves(t, game, rules, buf)
        for i in range(n):
            if move_src(buf[i]) == SRC_WASTE:
                return True
    return False


@njit(cache=True)
def is_blocked(s, game, rules):
    """docs/rules.md section 4, as :func:`engine.core.is_blocked`: explore the
    column layouts the column moves reach and look in each for a move that
    takes a card from the reserve or the waste (at any pointer of the pass)
    or banks one."""
    buf = np.empty(MAX_MOVES, np.int64)
    ptrs = _waste_pointers(s, game, rules)
    cap = 64
    layouts = np.empty((cap, STATE_LEN), np.uint64)
    keys = np.empty((cap, KEY_WORDS), np.uint64)
    key = np.empty(KEY_WORDS, np.uint64)
    layouts[0] = s
    canonical_key(s, rules, keys[0])
    n = 1
    head = 0
    while head < n:
        u = layouts[head].copy()
        head += 1
        if _waste_plays(u, game, rules, ptrs, buf):
            return False
        nm = card_moves(u, game, rules, buf)
        for i in range(nm):
            m = buf[i]
            src = move_src(m)
            if src == SRC_RESERVE or src == SRC_WASTE or move_dst(m) == DST_FOUND:
                return False
            v = u.copy()
            apply_move(v, m, game, rules)
            if res_count(v) < res_count(u):
                return False  # the move emptied a column and the reserve filled it
            canonical_key(v, rules, key)
            if _seen_key(keys, n, key):
                continue
            if n == cap:
                cap *= 2
                grown = np.empty((cap, STATE_LEN), np.uint64)
                grown[:n] = layouts[:n]
                layouts = grown
                grown_keys = np.empty((cap, KEY_WORDS), np.uint64)
                grown_keys[:n] = keys[:n]
                keys = grown_keys
            layouts[n] = v
            keys[n] = key
            n += 1
    return True
