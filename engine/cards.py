"""Cards: indices, names and parsing.

A card is an ``int`` in ``0..51``: ``suit * 13 + rank`` with suits in the order
C D H S and ranks A..K as 0..12 (docs/rules.md section 1).
"""

from __future__ import annotations

from collections.abc import Iterable

RANKS = "A23456789TJQK"
SUITS = "CDHS"
SUIT_SYMBOLS = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}
N_CARDS = 52


class CardError(ValueError):
    """A card token or a list of cards that cannot be read."""


def make_card(rank: int, suit: int) -> int:
    return suit * 13 + rank


def rank_of(card: int) -> int:
    return card % 13


def suit_of(card: int) -> int:
    return card // 13


def is_red(card: int) -> bool:
    return suit_of(card) in (1, 2)


def card_str(card: int) -> str:
    """``card_str(0) == 'AC'``."""
    if not 0 <= card < N_CARDS:
        raise CardError(f"not a card index: {card}")
    return RANKS[rank_of(card)] + SUITS[suit_of(card)]


def parse_card(token: str) -> int:
    """Read one card: ``TD``, ``10d``, ``10♦`` and ``t♦`` all give the ten of diamonds."""
    t = token.strip()
    if len(t) < 2:
        raise CardError(f"unknown card {token!r}")
    rank_txt, suit_txt = t[:-1].upper(), t[-1]
    suit_txt = SUIT_SYMBOLS.get(suit_txt, suit_txt.upper())
    if rank_txt == "10":
        rank_txt = "T"
    if len(rank_txt) != 1 or rank_txt not in RANKS or suit_txt not in SUITS:
        raise CardError(f"unknown card {token!r}")
    return make_card(RANKS.index(rank_txt), SUITS.index(suit_txt))


def parse_cards(text: str | Iterable[str]) -> list[int]:
    """Read whitespace- or comma-separated card tokens."""
    tokens = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [parse_card(t) for t in tokens]


def cards_str(cards: Iterable[int]) -> str:
    return " ".join(card_str(c) for c in cards)


def parse_deck(text: str | Iterable[str], packs: int = 1) -> list[int]:
    """Read a full deal, top of the deck first: exactly 52 distinct cards, or
    with ``packs=2`` (``double``) 104 cards holding every card twice."""
    cards = parse_cards(text)
    if len(cards) != N_CARDS * packs:
        raise CardError(f"a deal needs {N_CARDS * packs} cards, got {len(cards)}")
    seen: dict[int, int] = {}
    for c in cards:
        seen[c] = seen.get(c, 0) + 1
        if seen[c] > packs:
            times = "twice" if packs == 1 else f"{seen[c]} times"
            raise CardError(f"card {card_str(c)} appears {times} in the deal")
    return cards
