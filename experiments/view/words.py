"""Moves described in words: ``7H from the waste onto 8S in column 2``.

Each description reads the position *before* the move, where the moving card
and its destination are still in place.
"""

from __future__ import annotations

from canfield.engine.cards import SUITS, card_str
from canfield.engine.notation import Move
from canfield.engine.position import Position

_SUIT_NAMES = dict(zip(SUITS, ("clubs", "diamonds", "hearts", "spades"), strict=True))


def _place(src: str) -> str:
    if src == "R":
        return "the reserve"
    if src == "W":
        return "the waste"
    if src.startswith("T"):
        return f"column {src[1:]}"
    return f"the {_SUIT_NAMES[src[1]]} foundation"


def describe(before: Position, move: Move) -> str:
    """``move`` in words, read from the position ``before`` it.

    Parameters
    ----------
    before : Position
        The position the move is played in.
    move : Move
        A legal move there.
    """
    if move.src == "draw":
        n = min(before.profile.draw, len(before.stock()))
        after = before.apply(move)
        top = after.waste()[-1] if after.waste() else None
        shown = f"; {card_str(top)} on top of the waste" if top is not None else ""
        return f"draw {n} card{'s' if n != 1 else ''} from the stock{shown}"
    if move.src == "redeal":
        return f"turn the waste over: the stock starts pass {before.redeals() + 2}"
    if move.src.startswith("T"):
        col = before.columns()[int(move.src[1:]) - 1]
        unit = col[-move.count]
        card = card_str(unit)
        what = f"{card} and the {move.count - 1} card{'s' if move.count > 2 else ''} on it"
        what = card if move.count == 1 else what
    else:
        top = before.card_at(move.src)
        what = card_str(top) if top is not None else "?"
    if move.dst == "F":
        return f"{what} from {_place(move.src)} to its foundation"
    dst_col = before.columns()[int(move.dst[1:]) - 1]
    onto = f"onto {card_str(dst_col[-1])} in" if dst_col else "into the empty"
    return f"{what} from {_place(move.src)} {onto} column {move.dst[1:]}"


def describe_fill(cards: list[tuple[int, str]], left: int) -> str:
    """The automatic fill of empty columns from the reserve.

    Parameters
    ----------
    cards : list of (int, str)
        (column number, card) of each fill, in the order the engine made them.
    left : int
        Cards left in the reserve afterwards.
    """
    parts = [f"{card} into column {col}" for col, card in cards]
    what = "column" if len(cards) == 1 else "columns"
    return f"the reserve fills the empty {what}: {', '.join(parts)} ({left} left in the reserve)"
