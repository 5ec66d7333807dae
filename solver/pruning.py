"""Pruning rules P1, E1, E2 and E3 (``docs/solver.md``), and the masks that pick rules.

Rule B1 has a module of its own (:mod:`solver.bound`), and so do R1 and W1
(:mod:`solver.rank_home`). Each rule here is a
small compiled test the search loops and the move generator call.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from canfield.engine import core
from canfield.engine.uncounted import uncounted

# pruning rules, as bits of the ``prune`` mask
P1_HOME, E1_CYCLE, B1_BOUND, E2_POINTER, E3_PASS_POINTER = 1, 2, 4, 8, 16
R1_BURIED, W1_WASTE = 32, 64
ALL_RULES = P1_HOME | E1_CYCLE | B1_BOUND | E2_POINTER | E3_PASS_POINTER | R1_BURIED | W1_WASTE
#: Not a rule: the mask bit that tells the depth-first search its table is
#: shared with other threads (``solver.shared``).
SHARED_TABLE = 1 << 12
#: With it, a thread that ran out of moves while others search on: it helps
#: them by searching again the positions they entered and have not finished.
HELPING = 1 << 13
#: With it, a narrowed probe or the beam (their exhaustion proves nothing;
#: they look for wins only) lets rule B1 cut every position whose bound is
#: below 52, not only those that cannot beat the best; the full-width search
#: ignores it (``config.PROBE_CUTS_NO_WIN``).
WIN_ONLY = 1 << 14
#: Bits 16-23 of the mask: a thread of a shared search turns every move
#: list by this many 256ths of its length, so the threads start apart.
SPIN_SHIFT = 16


def shared_mask(prune: int, k: int, threads: int) -> int:
    """``prune`` for thread ``k`` of ``threads`` sharing one table."""
    return prune | SHARED_TABLE | ((k * 256 // threads) << SPIN_SHIFT)


#: The rules by their names in ``docs/solver.md``.
PRUNING_RULES = {
    "P1": P1_HOME,
    "E1": E1_CYCLE,
    "E2": E2_POINTER,
    "B1": B1_BOUND,
    "E3": E3_PASS_POINTER,
    "R1": R1_BURIED,
    "W1": W1_WASTE,
}


def prune_mask(prune: bool | str | Iterable[str]) -> int:
    """The kernel's mask for ``prune``: True (every rule), False (none), or rule
    names from ``docs/solver.md`` (``"P1,B1"`` or ``["P1", "B1"]``)."""
    if prune is True:
        return ALL_RULES
    if prune is False:
        return 0
    names = prune.split(",") if isinstance(prune, str) else list(prune)
    mask = 0
    for name in names:
        name = name.strip().upper()
        if not name:
            continue
        if name not in PRUNING_RULES:
            known = ", ".join(PRUNING_RULES)
            raise ValueError(f"unknown pruning rule {name!r} (known: {known})")
        mask |= PRUNING_RULES[name]
    return mask


@uncounted
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


@uncounted
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


@uncounted
def dominators(s, game, rules):
    """Rule E2: mask of the waste pointers whose visit makes a visit of ``s`` needless.

    With unlimited passes and after E1, a position on the stock cycle
    (pointer 0) is dominated by the same position at any pointer; one off the
    cycle, with ``j`` live cards in the waste, by the same position with ``i``
    live cards in the waste for every ``i <= j`` with ``i = j`` (mod draw),
    since draws from ``i`` reach ``j``; and by itself.
    """
    if rules[core.R_PASSES] != 0:
        return _pass_dominators(s, game, rules)
    p = core.waste_ptr(s)
    if p == 0:
        return ~np.uint64(0)
    draw = rules[core.R_DRAW]
    ns = game[core.G_NSTOCK]
    j = core.live_below(s, ns, p)
    mask = np.uint64(1) << np.uint64(p)
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


@uncounted
def _pass_dominators(s, game, rules):
    """Rule E3: with limited passes, mask of the waste pointers from which
    draws alone, within the same pass, reach the pointer of ``s``.

    With ``m`` live stock cards and ``i`` of them in the waste, draws go
    ``i, i+d, i+2d, ...`` and stop at ``m`` (a short last packet is turned
    as it stands), so ``i`` reaches ``j`` when ``i <= j`` and ``j - i`` is a
    multiple of ``d`` or ``j = m``. Pointer 0 is ``i = 0``. The table keeps
    the redeals in the key, so only pointers of the same pass are compared.
    """
    p = core.waste_ptr(s)
    draw = rules[core.R_DRAW]
    ns = game[core.G_NSTOCK]
    m = core.live_below(s, ns, ns)
    j = core.live_below(s, ns, p)
    mask = np.uint64(1) << np.uint64(p)
    if j % draw == 0 or j == m:
        mask |= np.uint64(1)
    live = ~s[1] & ((np.uint64(1) << np.uint64(p)) - np.uint64(1))
    i = 0
    q = 0
    while live != np.uint64(0):
        if live & np.uint64(1):
            i += 1
            if (j - i) % draw == 0 or j == m:
                mask |= np.uint64(1) << np.uint64(q + 1)
        live >>= np.uint64(1)
        q += 1
    return mask
