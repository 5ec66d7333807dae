"""Building hand-made positions for the rules tests.

``hand()`` places the cards a test cares about and puts every other card
somewhere harmless: first on the foundations (as far as each suit can run
from the base without meeting a placed card), the rest under the waste or at
the end of the stock.
"""

from __future__ import annotations

from canfield.engine.cards import RANKS, parse_card, parse_cards
from canfield.engine.position import Position


def C(text: str) -> list[int]:
    """Cards from text, in the order written; ``''`` gives ``[]``."""
    return parse_cards(text) if text.strip() else []


def card(token: str) -> int:
    return parse_card(token)


def hand(
    profile: str = "strict",
    *,
    base: str = "A",
    columns: tuple[str, str, str, str] | list[str] = ("", "", "", ""),
    reserve: str = "",
    waste: str = "",
    stock: str = "",
    foundations: list[int | None] | None = None,
    rest: str = "waste",
    redeals: int = 0,
) -> Position:
    """A position from the interesting cards only.

    Parameters
    ----------
    profile : str
        Profile string.
    base : str
        Base rank letter (``'A'``, ``'6'``, ``'T'`` ...).
    columns : four strings
        Each column bottom to top.
    reserve : str
        Reserve bottom to top (the last card is the top).
    waste : str
        Waste bottom to top.
    stock : str
        Stock, the next card to turn first.
    foundations : list of int or None, or None
        Foundation counts in suit order C D H S; ``None`` (for one suit or for
        all) fills that suit as far as the cards not placed elsewhere allow.
    rest : ``'waste'`` or ``'stock'``
        Where the cards not placed anywhere else go: under the waste, or after
        the stock.
    """
    b = RANKS.index(base)
    cols = [C(c) for c in columns]
    res, wst, stk = C(reserve), C(waste), C(stock)
    used = set(res) | set(wst) | set(stk)
    for col in cols:
        used |= set(col)
    wanted = foundations if foundations is not None else [None] * 4
    foundations = []
    for su, want in enumerate(wanted):
        if want is None:
            want = 0
            while want < 13 and su * 13 + (b + want) % 13 not in used:
                want += 1
        foundations.append(want)
    on_found = {su * 13 + (b + i) % 13 for su in range(4) for i in range(foundations[su])}
    left = [c for c in range(52) if c not in used and c not in on_found]
    if rest == "waste":
        wst = left + wst
    else:
        stk = stk + left
    return Position.from_parts(
        profile,
        base=b,
        foundations=foundations,
        reserve=res,
        columns=cols,
        stock=stk,
        waste=wst,
        redeals=redeals,
    )


def moves(pos: Position) -> set[str]:
    """The legal moves of ``pos`` as notation strings."""
    return {str(m) for m in pos.legal_moves()}
