"""Scores (docs/rules.md section 5).

``banked`` is the measure every table reports; the others reproduce the
scores of the web versions the seeds describe, and the historical casino
tariff.

* :func:`banked` -- cards on the foundations, 1..52, the dealt base card(s)
  included (the same number as :attr:`engine.position.Position.banked`).
* :func:`hevagames_score` -- 10 a foundation card, plus a time and move bonus
  for a win.
* :func:`cardgames_score` -- +10 for each card the player puts on a
  foundation, -15 for each card taken back, never below 0.
* :func:`casino_net` -- what a casino player won or lost on one deal.
"""

from __future__ import annotations

from collections.abc import Iterable

from canfield.engine.notation import Move, Pick, parse_move

CARDGAMES_PUT = 10
CARDGAMES_TAKE = -15
#: Casino Canfield: the player pays this for the deck ...
CASINO_PRICE = 52
#: ... and gets this back for each card banked.
CASINO_PER_CARD = 5


def banked(position) -> int:
    """Cards on the foundations of ``position``.

    Parameters
    ----------
    position : engine.position.Position

    Returns
    -------
    int
        1..52: the dealt base card counts (four 2s under ``storehouse``).
    """
    return position.banked


def _check_banked(banked: int) -> None:
    if not 0 <= banked <= 52:
        raise ValueError(f"banked must be 0..52, got {banked}")


def hevagames_score(banked: int, won: bool, moves: int, seconds: float) -> float:
    """The hevagames score of one finished game.

    ``10 * banked``, and for a win ``max(0, 1000 - 2 * moves - 0.5 * seconds)``
    more.

    Parameters
    ----------
    banked : int
        Cards on the foundations at the end, the dealt base card included.
    won : bool
        Whether all 52 cards reached the foundations (requires ``banked == 52``).
    moves : int
        Moves made, every undo counted as a move.
    seconds : float
        Playing time.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        For counts out of range, or ``won`` with fewer than 52 cards banked.

    Examples
    --------
    >>> hevagames_score(17, False, 120, 300)
    170.0
    >>> hevagames_score(52, True, 150, 200)
    1120.0
    """
    _check_banked(banked)
    if moves < 0 or seconds < 0:
        raise ValueError("moves and seconds cannot be negative")
    if won and banked != 52:
        raise ValueError(f"a won game has 52 cards banked, not {banked}")
    bonus = max(0.0, 1000 - 2 * moves - 0.5 * seconds) if won else 0.0
    return float(10 * banked + bonus)


def _as_move(move: Move | str) -> Move:
    m = parse_move(move) if isinstance(move, str) else move
    if isinstance(m, Pick):
        raise ValueError("a base pick is not a move and has no score")
    return m


def cardgames_delta(move: Move | str) -> int:
    """What one move is worth under cardgames: +10, -15 or 0.

    A move to a foundation (``R>F``, ``W>F``, ``T3>F``) puts one card there;
    a move from a foundation (``FH>T2``, only where ``worry`` is allowed)
    takes one back. Draws, redeals and column moves score nothing, nor do the
    automatic reserve fills (they only ever go to a column).
    """
    m = _as_move(move)
    if m.dst == "F":
        return CARDGAMES_PUT
    if m.src.startswith("F"):
        return CARDGAMES_TAKE
    return 0


def cardgames_running(moves: Iterable[Move | str]) -> list[int]:
    """The cardgames score after each move of a game.

    The score is a running total floored at 0 **after every move**: a card
    taken back while the score is below 15 drops it to 0, not below, and the
    next card put up counts from there. (Flooring only at the end would give
    different numbers; docs/rules.md section 5 says only "never below 0", and a
    score that is never below 0 is one that is floored at each step.)

    Parameters
    ----------
    moves : iterable of Move or str
        The moves applied, in order, as :class:`~engine.notation.Move` objects
        or notation strings. They are not checked for legality: replay them
        through :meth:`Position.apply` for that.

    Returns
    -------
    list[int]
        One score per move.

    Examples
    --------
    >>> cardgames_running(["W>F", "FC>T1", "FC>T2", "T2>F"])
    [10, 0, 0, 10]
    """
    score = 0
    out = []
    for m in moves:
        score = max(0, score + cardgames_delta(m))
        out.append(score)
    return out


def cardgames_score(moves: Iterable[Move | str]) -> int:
    """The cardgames score at the end of a game (see :func:`cardgames_running`).

    The dealt base card was not put there by the player and scores nothing.

    Examples
    --------
    >>> cardgames_score(["draw", "W>F", "T1>T2", "R>F"])
    20
    >>> cardgames_score([])
    0
    """
    running = cardgames_running(moves)
    return running[-1] if running else 0


def casino_net(
    banked: int, price: float = CASINO_PRICE, per_card: float = CASINO_PER_CARD
) -> float:
    """The casino player's net result for one deal.

    The player pays ``price`` for the deck (52, or 50 in some accounts) and
    receives ``per_card`` for each card on a foundation at the end.

    Examples
    --------
    >>> casino_net(11)
    3
    >>> casino_net(52, price=50)
    210
    """
    _check_banked(banked)
    return per_card * banked - price
