"""What a player at the table can know: the information barrier for blind play.

A :class:`Position` knows everything, including the order of the face-down
reserve cards. A player does not. :func:`observe` keeps only what is visible
or deducible at the table:

- everything face up: the base rank, foundation counts, the four columns, the
  reserve's top card and how many cards the reserve holds, the waste (every
  card in it has been seen turned, so its whole order is known);
- the stock: with ``stock_known=True`` its full order. Under the usual
  unlimited passes one pass through the stock before playing shows it (seed
  003: "a single pass through the stock before you move anything tells you
  which thirteen cards the demon is holding"), and the stock after a redeal is
  the waste turned over, all seen. With ``stock_known=False`` the order of the
  not-yet-turned stock is hidden (the first pass of a player who did not look);
  its cards join the unknown set and only its size is kept;
- the face-down reserve cards as a **set**: whatever is not visible elsewhere
  is there (or in the hidden stock). Their order is never stored.

Under ``superior`` (``profile.reserve_visible``) the whole reserve is face up
and its order is part of the observation.

An :class:`Observation` holds only ints, tuples, a frozenset, a profile string
and :class:`~engine.notation.Move` values: no Position, no Game, no deal number
(a deal number would give the whole deal away). :meth:`Observation.sample`
draws a full Position consistent with it, the hidden orders uniformly at random.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from canfield.engine.cards import card_str, rank_of, suit_of
from canfield.engine.notation import Move
from canfield.engine.position import Position


class ObservationError(ValueError):
    """An observation that does not describe a consistent table."""


@dataclass(frozen=True)
class Observation:
    """Everything a player may know; hashable and comparable.

    ``reserve_known`` lists the reserve cards whose place is known, bottom
    first, ending with the top card: just ``(top,)`` normally, the whole
    reserve under ``superior``, ``()`` when the reserve is empty. The other
    ``reserve_count - len(reserve_known)`` reserve cards lie below them, in an
    unknown order. ``stock`` is the stock order (next card to turn first) or
    ``None`` when hidden; ``unknown`` is the set of cards whose place is known
    only to be "face-down reserve or hidden stock".
    """

    profile: str
    base: int
    foundations: tuple[int, ...]
    columns: tuple[tuple[int, ...], ...]
    reserve_count: int
    reserve_known: tuple[int, ...]
    waste: tuple[int, ...]
    stock: tuple[int, ...] | None
    stock_count: int
    redeals: int
    unknown: frozenset[int]
    moves: tuple[Move, ...]
    banked: int

    # ---- reading -----------------------------------------------------------
    @property
    def reserve_top(self) -> int | None:
        return self.reserve_known[-1] if self.reserve_known else None

    @property
    def waste_top(self) -> int | None:
        return self.waste[-1] if self.waste else None

    @property
    def hidden_reserve(self) -> int:
        """How many reserve cards lie face down in an unknown order."""
        return self.reserve_count - len(self.reserve_known)

    @property
    def stock_known(self) -> bool:
        return self.stock is not None

    def legal_moves(self) -> list[Move]:
        """The legal moves: fixed by the visible table, computed at observe time."""
        return list(self.moves)

    def top(self, where: str) -> int | None:
        """The top card of ``R``, ``W`` or ``T1``..``T4`` (None if empty)."""
        if where == "R":
            return self.reserve_top
        if where == "W":
            return self.waste_top
        if where.startswith("T"):
            col = self.columns[int(where[1:]) - 1]
            return col[-1] if col else None
        raise ValueError(f"no top card at {where!r}")

    def foundation_next(self, suit: int) -> int | None:
        """The card its suit's foundation takes next (None when complete)."""
        n = self.foundations[suit]
        if n == 13:
            return None
        return suit * 13 + (self.base + n) % 13

    def is_last_rank(self, card: int) -> bool:
        """The rank one below the base: the last card of every foundation."""
        return rank_of(card) == (self.base - 1) % 13

    def goes_to_foundation(self, card: int) -> bool:
        return self.foundation_next(suit_of(card)) == card

    # ---- sampling ---------------------------------------------------------------
    def sample(self, rng: random.Random | int | None = None) -> Position:
        """A full position consistent with this observation.

        The face-down reserve order (and the hidden stock order, if any) is
        drawn uniformly at random from ``unknown``. The position carries no deal
        number.
        """
        if not isinstance(rng, random.Random):
            rng = random.Random(rng)
        pool = sorted(self.unknown)
        rng.shuffle(pool)
        nh = self.hidden_reserve
        reserve = pool[:nh] + list(self.reserve_known)
        stock = list(self.stock) if self.stock is not None else pool[nh:]
        return Position.from_parts(
            self.profile,
            base=self.base,
            foundations=list(self.foundations),
            reserve=reserve,
            columns=[list(c) for c in self.columns],
            stock=stock,
            waste=list(self.waste),
            redeals=self.redeals,
        )

    def show(self) -> str:
        """A short readable summary (for traces and debugging)."""
        cols = " | ".join(" ".join(card_str(c) for c in col) or "-" for col in self.columns)
        top = card_str(self.reserve_top) if self.reserve_top is not None else "-"
        wt = card_str(self.waste_top) if self.waste_top is not None else "-"
        return (
            f"banked {self.banked}  reserve {top} ({self.reserve_count})  waste {wt} "
            f"({len(self.waste)})  stock {self.stock_count}  cols {cols}"
        )


def observe(position: Position, stock_known: bool = True) -> Observation:
    """What a player at the table knows about ``position`` (see module doc)."""
    prof = position.profile
    if prof.packs == 2:
        # the unseen cards are a set of distinct cards here: two packs need a multiset
        raise ObservationError("the blind players do not play two packs (double) yet")
    reserve = position.reserve()
    if prof.reserve_visible:
        known = tuple(reserve)
    else:
        known = tuple(reserve[-1:])
    hidden = set(reserve[: len(reserve) - len(known)])
    stock = position.stock()
    if stock_known:
        stock_t: tuple[int, ...] | None = tuple(stock)
    else:
        stock_t = None
        hidden.update(stock)
    columns = tuple(tuple(c) for c in position.columns())
    foundations = tuple(position.foundations())
    obs = Observation(
        profile=prof.canonical(),
        base=int(position.game.base),
        foundations=foundations,
        columns=columns,
        reserve_count=len(reserve),
        reserve_known=known,
        waste=tuple(position.waste()),
        stock=stock_t,
        stock_count=len(stock),
        redeals=position.redeals(),
        unknown=frozenset(hidden),
        moves=tuple(position.legal_moves()),
        banked=position.banked,
    )
    _check_unknown_is_deducible(obs)
    return obs


def _check_unknown_is_deducible(obs: Observation) -> None:
    """The unknown set must be exactly the cards not visible anywhere else."""
    visible: set[int] = set()
    for su, n in enumerate(obs.foundations):
        visible.update(su * 13 + (obs.base + i) % 13 for i in range(n))
    for col in obs.columns:
        visible.update(col)
    visible.update(obs.reserve_known)
    visible.update(obs.waste)
    if obs.stock is not None:
        visible.update(obs.stock)
    deduced = frozenset(range(52)) - visible
    if deduced != obs.unknown:
        raise ObservationError("the unknown set is not the complement of the visible cards")
    n_hidden = obs.hidden_reserve + (0 if obs.stock is not None else obs.stock_count)
    if len(deduced) != n_hidden:
        raise ObservationError(f"{len(deduced)} unseen cards but {n_hidden} face-down places")
