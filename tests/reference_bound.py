"""The slow, obvious twin of rule B1 (``solver/bound.py``).

Written from the argument in ``docs/solver.md``, not from the kernel: every
link (a card lying on the card below it) starts out claimed as frozen, and a
claim is dropped when it cannot be justified from the other claims, until
nothing changes (a greatest fixed point). The kernel instead keeps only the
highest claimed link of each column; the two must agree on the bound.
"""

from __future__ import annotations

from reference_rules import RefState, builds_on

Link = tuple[int, int]  # (column, height of the upper card), height >= 1


def ref_bound_applies(state: RefState) -> bool:
    p = state.profile
    return p.moves == "whole" and p.worry == "no" and p.fill == "auto" and p.space == "waste"


def _suit_card(state: RefState, suit: int, order: int) -> int:
    return suit * 13 + (state.base + order) % 13


def ref_bound(state: RefState) -> int:
    """Most cards ``state`` can ever have banked, by rule B1."""
    cols = state.columns
    where = {card: (c, h) for c, col in enumerate(cols) for h, card in enumerate(col)}
    banked = {_suit_card(state, su, k) for su in range(4) for k in range(state.foundations[su])}
    frozen: dict[Link, bool] = {
        (c, h): True for c, col in enumerate(cols) for h in range(1, len(col))
    }

    def buried(card: int) -> bool:
        """A frozen link lies above the card in its column."""
        if card not in where:
            return False
        c, h = where[card]
        return any(frozen[(c, above)] for above in range(h + 1, len(cols[c])))

    def stuck(card: int) -> bool:
        """The card never leaves its place: it is buried or its own link is frozen."""
        return card in where and (buried(card) or frozen.get(where[card], False))

    def lies_below(card: int, x: int) -> bool:
        return card in where and where[card][0] == where[x][0] and where[card][1] < where[x][1]

    def justified(x: int) -> bool:
        suit, order = x // 13, (x % 13 - state.base) % 13
        earlier = [_suit_card(state, suit, k) for k in range(state.foundations[suit], order)]
        never_home = any(lies_below(y, x) or stuck(y) for y in earlier)
        parents = [p for p in range(52) if builds_on(state, x, p)]
        no_parent = all(p in banked or lies_below(p, x) or buried(p) for p in parents)
        return never_home and no_parent

    changed = True
    while changed:
        changed = False
        for link in frozen:
            if frozen[link] and not justified(cols[link[0]][link[1]]):
                frozen[link] = False
                changed = True

    total = 0
    for su in range(4):
        total += state.foundations[su]
        for k in range(state.foundations[su], 13):
            if stuck(_suit_card(state, su, k)):
                break
            total += 1
    return total
