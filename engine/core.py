"""The fast rules core: numba kernels on a flat, exactly packed position.

Everything here is internal: the public API is :mod:`engine.position`, which
keeps numba types out of user code. ``tests/reference_rules.py`` is the slow,
obvious twin these kernels are checked against.

Layout (see ``docs/engine.md`` for the argument that it is exact)
------------------------------------------------------------------
``game`` (int64[GAME_LEN]) holds what never changes during play:
base rank, reserve size, stock size, the reserve cards (bottom first) and the
stock order (the order in which cards are turned after a redeal).

``rules`` (int64[N_RULES]) holds the profile's options as small integers.

``state`` (uint64[STATE_LEN]):

* word 0: four 4-bit foundation counts (C D H S), then the reserve count
  (4 bits at 16), the waste pointer ``p`` (6 bits at 20: one past the stock
  position of the waste top, 0 when the waste is empty) and the redeals used
  (4 bits at 26; kept 0 when passes are unlimited, since they change nothing).
* word 1: bit ``i`` set when stock position ``i`` has been played.
* words 2+2c and 3+2c: column ``c``. Length (6 bits), bottom card (6 bits at 6),
  then one "choice" per card above the bottom, 1 bit (``build=alt``: which of
  the two suits of the needed colour), 0 bits (``build=suit``) or 2 bits
  (``build=rank``: the suit). Choices past bit 63 spill into the second word.

Every column is one built run from its bottom card, so bottom card, length and
choices give every card in it; cards at equal heights have equal ranks.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from canfield.engine.uncounted import uncounted

# ---- rules vector indices and values --------------------------------------
R_DRAW, R_PASSES, R_MOVES, R_SPACE, R_FILL, R_WORRY, R_BUILD, R_WRAP = range(8)
N_RULES = 8
MOVES_WHOLE, MOVES_ANY = 0, 1
SPACE_WASTE, SPACE_ANY = 0, 1
FILL_AUTO, FILL_FREE = 0, 1
BUILD_ALT, BUILD_SUIT, BUILD_RANK = 0, 1, 2
WRAP_AK, WRAP_BASE = 0, 1

# ---- game vector ------------------------------------------------------------
G_BASE, G_NRES, G_NSTOCK = 0, 1, 2
G_RES = 3  # 13 slots
G_STOCK = 16  # 34 slots
GAME_LEN = 50

# ---- state words -------------------------------------------------------------
STATE_LEN = 10
COL0 = 2
N_COLS = 4

# ---- move encoding: src | dst << 4 | count << 8 -----------------------------
SRC_RESERVE, SRC_WASTE = 4, 5
SRC_FOUND0 = 6  # 6..9: foundation of suit 0..3 (worry)
SRC_DRAW, SRC_REDEAL = 10, 11
DST_FOUND = 4
MAX_MOVES = 512


@njit(cache=True, inline="always")
def encode_move(src, dst, count):
    return src | (dst << 4) | (count << 8)


@njit(cache=True, inline="always")
def move_src(m):
    return m & 15


@njit(cache=True, inline="always")
def move_dst(m):
    return (m >> 4) & 15


@njit(cache=True, inline="always")
def move_count(m):
    return m >> 8


# ---- header accessors --------------------------------------------------------
@njit(cache=True, inline="always")
def found_count(s, suit):
    return np.int64((s[0] >> np.uint64(4 * suit)) & np.uint64(15))


@njit(cache=True, inline="always")
def set_found_count(s, suit, n):
    sh = np.uint64(4 * suit)
    s[0] = (s[0] & ~(np.uint64(15) << sh)) | (np.uint64(n) << sh)


@njit(cache=True, inline="always")
def res_count(s):
    return np.int64((s[0] >> np.uint64(16)) & np.uint64(15))


@njit(cache=True, inline="always")
def set_res_count(s, n):
    s[0] = (s[0] & ~(np.uint64(15) << np.uint64(16))) | (np.uint64(n) << np.uint64(16))


@njit(cache=True, inline="always")
def waste_ptr(s):
    return np.int64((s[0] >> np.uint64(20)) & np.uint64(63))


@njit(cache=True, inline="always")
def set_waste_ptr(s, p):
    s[0] = (s[0] & ~(np.uint64(63) << np.uint64(20))) | (np.uint64(p) << np.uint64(20))


@njit(cache=True, inline="always")
def redeals(s):
    return np.int64((s[0] >> np.uint64(26)) & np.uint64(15))


@njit(cache=True, inline="always")
def set_redeals(s, n):
    s[0] = (s[0] & ~(np.uint64(15) << np.uint64(26))) | (np.uint64(n) << np.uint64(26))


@njit(cache=True, inline="always")
def stock_removed(s, i):
    return (s[1] >> np.uint64(i)) & np.uint64(1) != np.uint64(0)


@njit(cache=True, inline="always")
def popcount(x):
    """Set bits of the uint64 ``x`` (SWAR: no loop over the bits)."""
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@njit(cache=True, inline="always")
def live_below(s, ns, p):
    """Unplayed stock positions among ``0 .. p-1`` (``p <= ns``)."""
    return popcount(~s[1] & ((np.uint64(1) << np.uint64(p)) - np.uint64(1)))


@njit(cache=True, inline="always")
def banked(s):
    return found_count(s, 0) + found_count(s, 1) + found_count(s, 2) + found_count(s, 3)


# ---- cards --------------------------------------------------------------------
@njit(cache=True, inline="always")
def is_red(card):
    su = card // 13
    return su == 1 or su == 2


@njit(cache=True, inline="always")
def choice_bits(rules):
    b = rules[R_BUILD]
    if b == BUILD_ALT:
        return 1
    if b == BUILD_RANK:
        return 2
    return 0


@njit(cache=True, inline="always")
def card_choice(card, rules):
    """The choice a card stores when it sits above another card."""
    b = rules[R_BUILD]
    if b == BUILD_ALT:
        return (card // 13) >> 1  # C,D -> 0; H,S -> 1
    if b == BUILD_RANK:
        return card // 13
    return 0


@njit(cache=True)
def builds_on(x, y, game, rules):
    """Whether card ``x`` may be placed on card ``y`` in a column."""
    return builds_on_s(x, y, game[G_BASE], rules[R_BUILD], rules[R_WRAP])


@njit(cache=True)
def builds_on_s(x, y, base, build, wrap):
    """:func:`builds_on` with plain integers: hot loops call this one, since
    passing arrays to a call that is not inlined costs more than the test."""
    rx = x % 13
    ry = y % 13
    if rx != (ry + 12) % 13:
        return False
    if wrap == WRAP_BASE and ry == base:
        return False
    if build == BUILD_ALT:
        sx = x // 13
        sy = y // 13
        return (sx == 1 or sx == 2) != (sy == 1 or sy == 2)
    if build == BUILD_SUIT:
        return x // 13 == y // 13
    return True


@njit(cache=True)
def found_accepts(s, card, game):
    n = found_count(s, card // 13)
    if n >= 13:
        return False
    return card % 13 == (game[G_BASE] + n) % 13


@njit(cache=True, inline="always")
def found_top(s, suit, game):
    n = found_count(s, suit)
    if n == 0:
        return -1
    return suit * 13 + (game[G_BASE] + n - 1) % 13


# ---- columns --------------------------------------------------------------------
@njit(cache=True, inline="always")
def col_len(s, c):
    return np.int64(s[COL0 + 2 * c] & np.uint64(63))


@njit(cache=True, inline="always")
def col_bottom(s, c):
    return np.int64((s[COL0 + 2 * c] >> np.uint64(6)) & np.uint64(63))


@njit(cache=True, inline="always")
def get_choice(s, c, h, kb):
    """Stored choice of the card at height ``h >= 1`` of column ``c``."""
    pos = 12 + (h - 1) * kb
    w = COL0 + 2 * c
    if pos >= 64:
        pos -= 64
        w += 1
    mask = np.uint64((1 << kb) - 1)
    return np.int64((s[w] >> np.uint64(pos)) & mask)


@njit(cache=True, inline="always")
def set_choice(s, c, h, kb, v):
    pos = 12 + (h - 1) * kb
    w = COL0 + 2 * c
    if pos >= 64:
        pos -= 64
        w += 1
    mask = np.uint64((1 << kb) - 1) << np.uint64(pos)
    s[w] = (s[w] & ~mask) | (np.uint64(v) << np.uint64(pos))


@njit(cache=True)
def col_card(s, c, h, rules):
    """Card at height ``h`` (0 = bottom) of column ``c``; O(1) per call."""
    # Mirror (how a column word holds its cards; change together):
    # solver/bound.py _decode; solver/moves.py apply_macro and _place.
    bottom = col_bottom(s, c)
    if h == 0:
        return bottom
    kb = choice_bits(rules)
    ch = get_choice(s, c, h, kb) if kb > 0 else 0
    r = (bottom % 13 - h) % 13
    b = rules[R_BUILD]
    if b == BUILD_SUIT:
        return (bottom // 13) * 13 + r
    if b == BUILD_RANK:
        return ch * 13 + r
    red = is_red(bottom) != (h % 2 == 1)
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
def col_tops(s, rules):
    """The four column tops (-1 for an empty column).

    The column numbers are run-time values, not literals: numba compiles a
    callee once more for every literal argument it is handed.
    """
    c = s.shape[0] - s.shape[0]
    return (
        col_top(s, c, rules),
        col_top(s, c + 1, rules),
        col_top(s, c + 2, rules),
        col_top(s, c + 3, rules),
    )


@uncounted
def col_push(s, c, card, rules):
    """Put ``card`` on column ``c`` (legality is the caller's business)."""
    w = COL0 + 2 * c
    n = col_len(s, c)
    if n == 0:
        s[w] = np.uint64(1) | (np.uint64(card) << np.uint64(6))
        s[w + 1] = np.uint64(0)
        return
    kb = choice_bits(rules)
    if kb > 0:
        set_choice(s, c, n, kb, card_choice(card, rules))
    s[w] = (s[w] & ~np.uint64(63)) | np.uint64(n + 1)


@uncounted
def col_pop(s, c, k, rules):
    """Remove the top ``k`` cards of column ``c``."""
    w = COL0 + 2 * c
    n = col_len(s, c)
    m = n - k
    if m == 0:
        s[w] = np.uint64(0)
        s[w + 1] = np.uint64(0)
        return
    kb = choice_bits(rules)
    for h in range(m, n):
        if kb > 0:
            set_choice(s, c, h, kb, 0)
    s[w] = (s[w] & ~np.uint64(63)) | np.uint64(m)


@uncounted
def col_move(s, src, dst, k, rules):
    """Move the top ``k`` cards of column ``src`` onto column ``dst``."""
    n = col_len(s, src)
    m = col_len(s, dst)
    kb = choice_bits(rules)
    if m > 0 and kb <= 1:
        # one word per column holds every choice (12 + 51 bits): shift the
        # moved block of choices instead of moving card by card
        ws, wd = COL0 + 2 * src, COL0 + 2 * dst
        if kb == 1:
            if k == n:
                bits = (s[ws] >> np.uint64(12)) << np.uint64(1)
                bits |= np.uint64(card_choice(col_bottom(s, src), rules))
            else:
                bits = s[ws] >> np.uint64(12 + n - k - 1)
            bits &= (np.uint64(1) << np.uint64(k)) - np.uint64(1)
            s[wd] |= bits << np.uint64(12 + m - 1)
            if k < n:
                keep = np.uint64(12 + n - k - 1)
                s[ws] &= (np.uint64(1) << keep) - np.uint64(1)
        s[wd] = (s[wd] & ~np.uint64(63)) | np.uint64(m + k)
        if k == n:
            s[ws] = np.uint64(0)
            s[ws + 1] = np.uint64(0)
        else:
            s[ws] = (s[ws] & ~np.uint64(63)) | np.uint64(n - k)
        return
    for h in range(n - k, n):
        col_push(s, dst, col_card(s, src, h, rules), rules)
    col_pop(s, src, k, rules)


# ---- reserve, stock and waste ---------------------------------------------------
@njit(cache=True, inline="always")
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
    ns = game[G_NSTOCK]
    for i in range(waste_ptr(s), ns):
        if not stock_removed(s, i):
            return False
    return True


@njit(cache=True)
def can_redeal(s, game, rules):
    # Mirror (the stock rules; change together): solver/moves.py gen_macros
    # (its stock walk) and apply_macro; tests/reference_rules.py ref_apply
    # and _redeal_allowed.
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


# ---- moves ---------------------------------------------------------------------
@uncounted
def auto_fill(s, game, rules):
    """Fill empty columns from the reserve top while the profile says so."""
    if rules[R_FILL] != FILL_AUTO:
        return
    for c in range(N_COLS):
        if col_len(s, c) == 0 and res_count(s) > 0:
            card = reserve_top(s, game)
            set_res_count(s, res_count(s) - 1)
            col_push(s, c, card, rules)


@njit(cache=True)
def space_open(s, rules):
    """Whether empty columns may be filled by the player now.

    Returns 0 (no), 1 (waste top only) or 2 (any available card or unit).
    """
    if rules[R_FILL] == FILL_FREE:
        return 2
    if res_count(s) > 0:
        return 0
    return 2 if rules[R_SPACE] == SPACE_ANY else 1


@njit(cache=True, inline="always")
def column_top(i, t0, t1, t2, t3):
    """The top of column ``i`` from tops read once per position (numba has no
    cheap small arrays, so the four tops travel as scalars)."""
    return t0 if i == 0 else t1 if i == 1 else t2 if i == 2 else t3


@uncounted
def _add_card_moves(s, card, src, game, rules, out, n, space, t0, t1, t2, t3):
    """Moves of a single card from ``src`` to a foundation or any column.

    ``t0..t3`` are the column tops (-1 for an empty column): callers read them
    once per position, since the solver asks this for every stock position.
    """
    if src < SRC_FOUND0 and found_accepts(s, card, game):
        out[n] = encode_move(src, DST_FOUND, 1)
        n += 1
    base, build, wrap = game[G_BASE], rules[R_BUILD], rules[R_WRAP]
    for c in range(N_COLS):
        top = column_top(c, t0, t1, t2, t3)
        if top < 0:
            if space == 2 or (space == 1 and src == SRC_WASTE):
                out[n] = encode_move(src, c, 1)
                n += 1
        elif builds_on_s(card, top, base, build, wrap):
            out[n] = encode_move(src, c, 1)
            n += 1
    return n


@uncounted
def card_moves(s, game, rules, out):
    """Write every legal move but draw and redeal into ``out``; return how many.

    Order: reserve, waste, columns, foundation tops (worry).
    """
    # Mirror (which card may move where; change together): solver/moves.py
    # _card_moves, _single_moves and gen_macros; solver/bound.py bound_applies;
    # tests/reference_rules.py ref_legal_moves.
    # run-time zeros, not literals, so that callees compile once (see col_tops)
    n = s.shape[0] - s.shape[0]
    space = space_open(s, rules)
    t0, t1, t2, t3 = col_tops(s, rules)
    rt = reserve_top(s, game)
    if rt >= 0:
        n = _add_card_moves(s, rt, SRC_RESERVE + n, game, rules, out, n, space, t0, t1, t2, t3)
    wt = waste_top(s, game)
    if wt >= 0:
        n0 = n - n
        n = _add_card_moves(s, wt, SRC_WASTE + n0, game, rules, out, n, space, t0, t1, t2, t3)
    any_runs = rules[R_MOVES] == MOVES_ANY
    base, build, wrap = game[G_BASE], rules[R_BUILD], rules[R_WRAP]
    for c in range(N_COLS):
        L = col_len(s, c)
        if L == 0:
            continue
        top = column_top(c, t0, t1, t2, t3)
        if found_accepts(s, top, game):
            out[n] = encode_move(c, DST_FOUND, 1)
            n += 1
        k = 1
        while k <= L:
            unit = top if k == 1 else col_card(s, c, L - k, rules)
            for d in range(N_COLS):
                if d == c:
                    continue
                dt = column_top(d, t0, t1, t2, t3)
                if dt < 0:
                    if space == 2 and k < L:
                        out[n] = encode_move(c, d, k)
                        n += 1
                elif builds_on_s(unit, dt, base, build, wrap):
                    out[n] = encode_move(c, d, k)
                    n += 1
            # under moves=whole only the top card and the whole column leave
            k = k + 1 if any_runs or k == L else L
    if rules[R_WORRY] == 1:
        for su in range(4):
            ft = found_top(s, su, game)
            if ft >= 0:
                n = _add_card_moves(
                    s, ft, SRC_FOUND0 + su, game, rules, out, n, space, t0, t1, t2, t3
                )
    return n


@njit(cache=True)
def legal_moves(s, game, rules, out):
    """Write every legal atomic move into ``out``; return how many.

    Order: reserve, waste, columns, foundation tops (worry), then draw and
    redeal.
    """
    n = card_moves(s, game, rules, out)
    if not stock_empty(s, game):
        out[n] = encode_move(SRC_DRAW, 0, 0)
        n += 1
    elif can_redeal(s, game, rules):
        out[n] = encode_move(SRC_REDEAL, 0, 0)
        n += 1
    return n


@uncounted
def apply_move(s, m, game, rules):
    """Apply legal move ``m`` to ``s`` in place, then auto-fill."""
    # Mirror (what a move does to a position; change together):
    # solver/moves.py apply_macro and _place; solver/bound.py _decode;
    # tests/reference_rules.py ref_apply.
    src = move_src(m)
    dst = move_dst(m)
    k = move_count(m)
    if src == SRC_DRAW:
        do_draw(s, game, rules)
        return
    if src == SRC_REDEAL:
        do_redeal(s, rules)
        return
    if src < N_COLS:
        if dst == DST_FOUND:
            card = col_top(s, src, rules)
            set_found_count(s, card // 13, found_count(s, card // 13) + 1)
            col_pop(s, src, np.int64(1), rules)
        else:
            col_move(s, src, dst, k, rules)
        auto_fill(s, game, rules)
        return
    if src == SRC_RESERVE:
        card = reserve_top(s, game)
        set_res_count(s, res_count(s) - 1)
    elif src == SRC_WASTE:
        p = waste_ptr(s)
        card = game[G_STOCK + p - 1]
        s[1] |= np.uint64(1) << np.uint64(p - 1)
        set_waste_ptr(s, p - 1)
        normalise_waste_ptr(s)
    else:
        su = src - SRC_FOUND0
        card = found_top(s, su, game)
        set_found_count(s, su, found_count(s, su) - 1)
    if dst == DST_FOUND:
        set_found_count(s, card // 13, found_count(s, card // 13) + 1)
    else:
        col_push(s, dst, card, rules)
    auto_fill(s, game, rules)


@njit(cache=True)
def _waste_pointers(s, game, rules):
    """Every waste pointer that draws and redeals alone reach from ``s`` (its
    own first), each once: the waste tops a pass offers.

    The walk stops when the stock/waste state repeats (unlimited passes: the
    cycle need not pass through the start) or no draw or redeal is left.
    """
    # every (waste pointer, redeals) pair at most once; redeals has 4 bits
    cap = (game[G_NSTOCK] + 1) * 16
    seen = np.empty(cap, np.int64)  # waste pointer | redeals << 6
    ptrs = np.empty(cap, np.int64)
    n_seen = 0
    n_ptrs = 0
    t = s.copy()
    while n_seen < cap:
        here = waste_ptr(t) | (redeals(t) << 6)
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
    """Whether the waste top at any pointer in ``ptrs`` has a legal move in
    the layout of ``s`` (columns, foundations and reserve as in ``s``)."""
    t = s.copy()
    for j in range(ptrs.shape[0]):
        set_waste_ptr(t, ptrs[j])
        n = card_moves(t, game, rules, buf)
        for i in range(n):
            if move_src(buf[i]) == SRC_WASTE:
                return True
    return False


@njit(cache=True)
def _seen_key(keys, n, key):
    for i in range(n):
        same = True
        for w in range(key.shape[0]):
            if keys[i, w] != key[w]:
                same = False
                break
        if same:
            return True
    return False


@njit(cache=True)
def is_blocked(s, game, rules):
    """docs/rules.md section 4: no sequence of draws, redeals and moves
    between columns reaches a move that advances play.

    A move advances play when it takes a card from the reserve (a reserve
    move, or a column move whose space the reserve fills at once) or the
    waste, or brings the foundations above their count in ``s`` (under
    ``worry`` a card taken back and banked again does not). Draws and
    redeals never change the columns and column moves never change the
    stock, so the reachable positions are every column layout the column
    moves reach, each with every waste top a pass offers: explore the
    layouts breadth first (distinct up to column order, which changes no
    move), and in each look for a reserve or foundation move that advances
    and for a waste top, at any pointer of the pass, that has a move.
    """
    buf = np.empty(MAX_MOVES, np.int64)
    ptrs = _waste_pointers(s, game, rules)
    start_total = banked(s)
    kw = 9 if rules[R_BUILD] == BUILD_RANK else 5
    cap = 64
    layouts = np.empty((cap, s.shape[0]), np.uint64)
    keys = np.empty((cap, kw), np.uint64)
    key = np.empty(kw, np.uint64)
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
            if src == SRC_RESERVE or src == SRC_WASTE:
                return False
            if move_dst(m) == DST_FOUND and banked(u) + 1 > start_total:
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
                grown = np.empty((cap, s.shape[0]), np.uint64)
                grown[:n] = layouts[:n]
                layouts = grown
                grown_keys = np.empty((cap, kw), np.uint64)
                grown_keys[:n] = keys[:n]
                keys = grown_keys
            layouts[n] = v
            keys[n] = key
            n += 1
    return True


@njit(cache=True, inline="always")
def canonical_key(s, rules, key):
    """Pack ``s`` into ``key`` with columns sorted: the transposition-table key.

    Word 0 is the header (foundations, reserve, waste pointer, redeals) with
    the 34-bit played-stock mask above bit 30; then the column words in
    descending order. ``key`` has 5 words, or 9 for ``build=rank``.
    """
    key[0] = (s[0] & np.uint64((1 << 30) - 1)) | (s[1] << np.uint64(30))
    wide = rules[R_BUILD] == BUILD_RANK
    # sort the 4 columns descending by (word a, word b): a 5-comparator network
    # on scalars, since a temporary array per call costs a heap allocation
    i0, i1, i2, i3 = 0, 1, 2, 3
    if _col_less(s, i0, i1):
        i0, i1 = i1, i0
    if _col_less(s, i2, i3):
        i2, i3 = i3, i2
    if _col_less(s, i0, i2):
        i0, i2 = i2, i0
    if _col_less(s, i1, i3):
        i1, i3 = i3, i1
    if _col_less(s, i1, i2):
        i1, i2 = i2, i1
    if wide:
        key[1] = s[COL0 + 2 * i0]
        key[2] = s[COL0 + 2 * i0 + 1]
        key[3] = s[COL0 + 2 * i1]
        key[4] = s[COL0 + 2 * i1 + 1]
        key[5] = s[COL0 + 2 * i2]
        key[6] = s[COL0 + 2 * i2 + 1]
        key[7] = s[COL0 + 2 * i3]
        key[8] = s[COL0 + 2 * i3 + 1]
    else:
        key[1] = s[COL0 + 2 * i0]
        key[2] = s[COL0 + 2 * i1]
        key[3] = s[COL0 + 2 * i2]
        key[4] = s[COL0 + 2 * i3]


@njit(cache=True, inline="always")
def _col_less(s, a, b):
    wa = s[COL0 + 2 * a]
    wb = s[COL0 + 2 * b]
    return wa < wb or (wa == wb and s[COL0 + 2 * a + 1] < s[COL0 + 2 * b + 1])


def key_words(build_code: int) -> int:
    return 9 if build_code == BUILD_RANK else 5
