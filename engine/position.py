"""Positions: the public face of the rules engine.

A :class:`Game` holds what a deal fixes (profile, base rank, reserve order,
stock order); a :class:`Position` is a game plus the packed state of
:mod:`engine.core`. Positions are immutable: :meth:`Position.apply` returns a
new one. Nothing here exposes numba types.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from canfield.engine import core, core_double
from canfield.engine.cards import RANKS, SUITS, card_str, parse_deck, rank_of, suit_of
from canfield.engine.deals import deal_cards
from canfield.engine.notation import Move, Pick, parse_move
from canfield.engine.profiles import CHOICES, Profile, parse_profile


class PositionError(ValueError):
    """A position or deal that is not a legal Canfield position."""


class IllegalMove(ValueError):
    """A move that the rules do not allow here; the message says why."""


def rules_array(profile: Profile) -> np.ndarray:
    """The kernels' rules vector of ``profile`` (``engine.core``'s ``R_*`` slots)."""
    r = np.zeros(core.N_RULES, np.int64)
    r[core.R_DRAW] = profile.draw
    r[core.R_PASSES] = profile.passes
    for idx, name in (
        (core.R_MOVES, "moves"),
        (core.R_SPACE, "space"),
        (core.R_FILL, "fill"),
        (core.R_WORRY, "worry"),
        (core.R_BUILD, "build"),
        (core.R_WRAP, "wrap"),
    ):
        r[idx] = CHOICES[name].index(getattr(profile, name))
    return r


def kernels(profile: Profile):
    """The kernel module that plays ``profile``: :mod:`engine.core_double`
    for two packs, else :mod:`engine.core` (the same function names)."""
    return core_double if profile.packs == 2 else core


@dataclass(frozen=True, eq=False)
class Game:
    """What stays fixed during play: profile, base rank, reserve, stock order.

    ``reserve`` lists the reserve bottom first (the last is the top card);
    ``stock`` lists the stock-and-waste cards in the order a full pass turns
    them. ``deal`` is the 52-card deal it came from, when it came from one.
    """

    profile: Profile
    base: int
    reserve: tuple[int, ...]
    stock: tuple[int, ...]
    deal: tuple[int, ...] | None = None
    deal_number: int | None = None
    pick: int | None = None
    arr: np.ndarray = field(init=False, repr=False)
    rules: np.ndarray = field(init=False, repr=False)
    #: the kernel module that plays this game: engine.core, or
    #: engine.core_double for two packs (same function names)
    core: object = field(init=False, repr=False)

    def __post_init__(self) -> None:
        k = kernels(self.profile)
        if len(self.reserve) > 13:
            raise PositionError(f"the reserve holds at most 13 cards, got {len(self.reserve)}")
        most = k.GAME_LEN - k.G_STOCK
        if len(self.stock) > most:
            raise PositionError(
                f"stock and waste hold at most {most} cards together, got {len(self.stock)}"
            )
        g = np.zeros(k.GAME_LEN, np.int64)
        g[k.G_BASE] = self.base
        g[k.G_NRES] = len(self.reserve)
        g[k.G_NSTOCK] = len(self.stock)
        g[k.G_RES : k.G_RES + len(self.reserve)] = self.reserve
        g[k.G_STOCK : k.G_STOCK + len(self.stock)] = self.stock
        object.__setattr__(self, "arr", g)
        object.__setattr__(self, "rules", rules_array(self.profile))
        object.__setattr__(self, "core", k)

    @property
    def n_cards(self) -> int:
        """Cards in play: 52, or 104 for two packs."""
        return self.profile.cards


def deal_layout(cards: Sequence[int], profile: Profile, pick: int | None = None) -> dict:
    """Lay out a 52-card deal under ``profile`` (docs/rules.md sections 1 and 3).

    ``pick`` is the chosen base card for ``selective`` (one of deal cards 14-18).
    Returns reserve, base card(s) on foundations, columns and stock.
    """
    cards = list(cards)
    if profile.layout == "double":
        # the eight aces leave the deal first and open the eight foundations
        rest = [c for c in cards if rank_of(c) != 0]
        return {
            "base": 0,
            "foundations": [1] * 8,
            "reserve": rest[:13],
            "columns": [[c] for c in rest[13:18]],
            "stock": rest[18:],
            "founded": [c for c in cards if rank_of(c) == 0],
        }
    if profile.layout == "storehouse":
        twos = [c for c in cards if rank_of(c) == 1]
        rest = [c for c in cards if rank_of(c) != 1]
        return {
            "base": 1,
            "foundations": [1, 1, 1, 1],
            "reserve": rest[:13],
            "columns": [[c] for c in rest[13:17]],
            "stock": rest[17:],
            "founded": twos,
        }
    if profile.layout == "selective":
        five = cards[13:18]
        if pick is None:
            raise PositionError(
                "selective needs a base pick: one of " + " ".join(card_str(c) for c in five)
            )
        if pick not in five:
            raise PositionError(
                f"pick {card_str(pick)} is not one of the five cards "
                + " ".join(card_str(c) for c in five)
            )
        base_card = pick
        cols = [c for c in five if c != pick]
    else:
        base_card = cards[13]
        cols = cards[14:18]
    found = [0, 0, 0, 0]
    found[suit_of(base_card)] = 1
    return {
        "base": rank_of(base_card),
        "foundations": found,
        "reserve": cards[:13],
        "columns": [[c] for c in cols],
        "stock": cards[18:],
        "founded": [base_card],
    }


class Position:
    """An immutable Canfield position under one profile."""

    __slots__ = ("game", "state")

    def __init__(self, game: Game, state: np.ndarray) -> None:
        self.game = game
        self.state = state

    # ---- construction -------------------------------------------------------
    @classmethod
    def from_deal(
        cls,
        deal: int | str | Sequence[int],
        profile: Profile | str | None = None,
        pick: int | None = None,
    ) -> Position:
        """The dealt position of a deal number, a card string or a card list."""
        prof = parse_profile(profile)
        number = None
        if isinstance(deal, int):
            number = deal
            cards = deal_cards(deal, prof.packs)
        elif isinstance(deal, str):
            cards = parse_deck(deal, prof.packs)
        else:
            cards = parse_deck([card_str(c) for c in deal], prof.packs)
        lay = deal_layout(cards, prof, pick)
        return cls.from_parts(
            prof,
            base=lay["base"],
            foundations=lay["foundations"],
            reserve=lay["reserve"],
            columns=lay["columns"],
            stock=lay["stock"],
            waste=[],
            deal=tuple(cards),
            deal_number=number,
            pick=pick if prof.layout == "selective" else None,
        )

    @classmethod
    def from_parts(
        cls,
        profile: Profile | str | None,
        *,
        base: int,
        foundations: Sequence[int],
        reserve: Sequence[int],
        columns: Sequence[Sequence[int]],
        stock: Sequence[int],
        waste: Sequence[int],
        redeals: int = 0,
        deal: tuple[int, ...] | None = None,
        deal_number: int | None = None,
        pick: int | None = None,
    ) -> Position:
        """Any legal position: validated, packed and auto-filled.

        ``stock`` lists the next card to turn first; ``waste`` lists bottom to
        top. Raises :class:`PositionError` naming what is wrong.
        """
        prof = parse_profile(profile)
        packs = prof.packs
        k = kernels(prof)
        if not 0 <= base < 13:
            raise PositionError(f"base rank must be 0..12, got {base}")
        n_found = 4 * packs
        if len(foundations) != n_found or any(not 0 <= n <= 13 for n in foundations):
            raise PositionError(f"foundations must be {n_found} counts of 0..13")
        if len(columns) != k.N_COLS:
            raise PositionError(f"a position has {k.N_COLS} columns, got {len(columns)}")
        if packs == 2:
            # the two foundations of a suit are interchangeable: higher first
            foundations = [
                n for su in range(4) for n in sorted(foundations[2 * su : 2 * su + 2])[::-1]
            ]
        seen: dict[int, list[str]] = {}

        def claim(card: int, where: str) -> None:
            places = seen.setdefault(card, [])
            if len(places) == packs == 1:
                raise PositionError(f"card {card_str(card)} is both in {places[0]} and {where}")
            if len(places) == packs:
                every = ", ".join([*places, where])
                raise PositionError(f"card {card_str(card)} is there three times: in {every}")
            places.append(where)

        for f, n in enumerate(foundations):
            su = f // packs
            for i in range(n):
                claim(su * 13 + (base + i) % 13, f"foundation {SUITS[su]}")
        for c in reserve:
            claim(c, "the reserve")
        for c in list(waste) + list(stock):
            claim(c, "stock/waste")
        for i, col in enumerate(columns):
            for c in col:
                claim(c, f"column {i + 1}")
        if sum(len(p) for p in seen.values()) != 52 * packs:
            missing = [card_str(c) for c in range(52) for _ in range(packs - len(seen.get(c, [])))]
            raise PositionError("cards missing from the position: " + " ".join(missing))
        passes = prof.passes
        if passes and not 0 <= redeals < passes:
            raise PositionError(f"redeals must be 0..{passes - 1} with passes={passes}")
        game = Game(
            prof,
            base,
            tuple(reserve),
            tuple(list(waste) + list(stock)),
            deal,
            deal_number,
            pick,
        )
        s = np.zeros(k.STATE_LEN, np.uint64)
        for f, n in enumerate(foundations):
            k.set_found_count(s, f, n)
        k.set_res_count(s, len(reserve))
        k.set_waste_ptr(s, len(waste))
        k.set_redeals(s, redeals if passes else 0)
        for i, col in enumerate(columns):
            for h, c in enumerate(col):
                if h and not k.builds_on(c, col[h - 1], game.arr, game.rules):
                    raise PositionError(
                        f"column {i + 1}: {card_str(c)} does not build on {card_str(col[h - 1])}"
                    )
                k.col_push(s, i, c, game.rules)
        k.auto_fill(s, game.arr, game.rules)
        return cls(game, s)

    # ---- reading ---------------------------------------------------------------
    @property
    def profile(self) -> Profile:
        return self.game.profile

    @property
    def banked(self) -> int:
        return int(self.game.core.banked(self.state))

    def foundations(self) -> list[int]:
        """Cards on each foundation: C D H S, or for two packs C C D D H H S S
        (the higher of a suit's two first)."""
        k = self.game.core
        return [int(k.found_count(self.state, f)) for f in range(4 * self.profile.packs)]

    def reserve(self) -> list[int]:
        return list(self.game.reserve[: int(self.game.core.res_count(self.state))])

    def columns(self) -> list[list[int]]:
        s, r, k = self.state, self.game.rules, self.game.core
        return [
            [int(k.col_card(s, c, h, r)) for h in range(int(k.col_len(s, c)))]
            for c in range(k.N_COLS)
        ]

    def _live_stock(self) -> list[tuple[int, int]]:
        s, k = self.state, self.game.core
        return [(i, c) for i, c in enumerate(self.game.stock) if not k.stock_removed(s, i)]

    def waste(self) -> list[int]:
        p = int(self.game.core.waste_ptr(self.state))
        return [c for i, c in self._live_stock() if i < p]

    def stock(self) -> list[int]:
        p = int(self.game.core.waste_ptr(self.state))
        return [c for i, c in self._live_stock() if i >= p]

    def redeals(self) -> int:
        return int(self.game.core.redeals(self.state))

    def snapshot(self) -> dict:
        """Plain lists of everything on the table (the reference's format)."""
        return {
            "base": self.game.base,
            "foundations": self.foundations(),
            "reserve": self.reserve(),
            "columns": self.columns(),
            "stock": self.stock(),
            "waste": self.waste(),
            "redeals": self.redeals(),
        }

    def key(self) -> tuple[int, ...]:
        """The exact canonical key: equal iff equal up to column order."""
        kern = self.game.core
        k = np.zeros(kern.key_words(int(self.game.rules[core.R_BUILD])), np.uint64)
        kern.canonical_key(self.state, self.game.rules, k)
        return tuple(int(x) for x in k)

    # ---- play ---------------------------------------------------------------------
    def legal_moves(self) -> list[Move]:
        buf = np.empty(core.MAX_MOVES, np.int64)
        n = self.game.core.legal_moves(self.state, self.game.arr, self.game.rules, buf)
        return [Move.from_code(int(m)) for m in buf[:n]]

    def apply(self, move: Move | str) -> Position:
        """The position after ``move``; raises :class:`IllegalMove` with the reason."""
        if isinstance(move, str):
            move = parse_move(move)
        if not isinstance(move, Move | Pick):
            raise TypeError(f"a move is a Move or its notation (e.g. 'W>F'), not {move!r}")
        if isinstance(move, Pick):
            raise IllegalMove("a base card is picked only before the first move (selective)")
        if move not in self.legal_moves():
            raise IllegalMove(explain_illegal(self, move))
        s = self.state.copy()
        self.game.core.apply_move(s, move.code(), self.game.arr, self.game.rules)
        return Position(self.game, s)

    def is_won(self) -> bool:
        return self.banked == self.game.n_cards

    def is_blocked(self) -> bool:
        return not self.is_won() and bool(
            self.game.core.is_blocked(self.state, self.game.arr, self.game.rules)
        )

    def status(self) -> str:
        """``'won'``, ``'blocked'`` or ``'playing'`` (docs/rules.md section 4)."""
        if self.is_won():
            return "won"
        return "blocked" if self.is_blocked() else "playing"

    def card_at(self, where: str) -> int | None:
        """The top card of ``R``, ``W``, ``T1``..``T4`` or ``FC``..``FS``."""
        if where == "R":
            r = self.reserve()
            return r[-1] if r else None
        if where == "W":
            w = self.waste()
            return w[-1] if w else None
        if where.startswith("T"):
            col = self.columns()[int(where[1:]) - 1]
            return col[-1] if col else None
        su = SUITS.index(where[1])
        t = int(core.found_top(self.state, su, self.game.arr))
        return t if t >= 0 else None

    def show(self) -> str:
        """A readable layout of the table."""
        g = self.game
        title = f"Canfield  {g.profile.canonical()}"
        if g.deal_number is not None:
            title += f"  deal {g.deal_number}"
        lines = [title, f"base rank {RANKS[g.base]}   banked {self.banked}/{g.n_cards}"]
        fparts = []
        packs = g.profile.packs
        for f, n in enumerate(self.foundations()):
            top = g.core.found_top(self.state, f, g.arr)
            fparts.append(f"{SUITS[f // packs]}:{card_str(int(top)) if n else '--'}({n})")
        lines.append("foundations  " + "  ".join(fparts))
        res = self.reserve()
        if res and g.profile.reserve_visible:
            # Superior Canfield: the whole reserve is face up (bottom first, top last).
            lines.append(f"reserve      {' '.join(card_str(c) for c in res)}  ({len(res)} cards)")
        elif res:
            hidden = f" over {len(res) - 1} face down" if len(res) > 1 else ""
            lines.append(f"reserve      {card_str(res[-1])}{hidden}  ({len(res)} cards)")
        else:
            lines.append("reserve      (empty)")
        w = self.waste()
        wtxt = " ".join(card_str(c) for c in w[-3:]) if w else "(empty)"
        more = f"  (+{len(w) - 3} below)" if len(w) > 3 else ""
        lines.append(f"stock        {len(self.stock())} cards")
        lines.append(f"waste        {wtxt}{more}")
        if g.profile.passes:
            lines.append(f"pass         {self.redeals() + 1} of {g.profile.passes}")
        for i, col in enumerate(self.columns()):
            lines.append(f"T{i + 1}           " + (" ".join(card_str(c) for c in col) or "(empty)"))
        return "\n".join(lines)

    def draw(self, ax=None, title: str | None = None):
        """A picture of the table with matplotlib, for notebooks and papers.

        Parameters
        ----------
        ax : matplotlib Axes, optional
            Draw here; a new figure when None.
        title : str, optional

        Returns
        -------
        canfield.experiments.draw.Drawing
            ``.fig``, ``.ax``, ``.boxes`` (every card's rectangle) and
            ``.save(path)``; a notebook shows it as a picture.
        """
        # loaded on first use: the engine never imports matplotlib by itself
        from canfield.experiments.draw import draw_snapshot

        return draw_snapshot(
            self.snapshot(),
            reserve_visible=self.profile.reserve_visible,
            passes=self.profile.passes,
            status=self.status(),
            ax=ax,
            title=title,
        )

    def __repr__(self) -> str:
        return f"Position({self.profile.canonical()}, banked={self.banked})"

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Position)
            and self.snapshot() == other.snapshot()
            and self.profile == other.profile
        )

    __hash__ = None  # type: ignore[assignment]


def explain_illegal(pos: Position, move: Move) -> str:
    """Why ``move`` is not legal in ``pos``: one sentence for the user."""
    prof = pos.profile
    if move.src == "draw":
        return "the stock is empty (redeal first)" if not pos.stock() else "draw is not possible"
    if move.src == "redeal":
        if pos.stock():
            return "the stock is not empty yet"
        if not pos.waste():
            return "the waste is empty"
        return f"no passes left (passes={prof.passes})"
    names = {"R": "the reserve", "W": "the waste"}
    n_cols = len(pos.columns())
    for end in (move.src, move.dst):
        if end.startswith("T") and int(end[1:]) > n_cols:
            return f"there is no column {end[1:]} under {prof.canonical()} (columns 1-{n_cols})"
    if move.src.startswith("F") and prof.worry == "no":
        return f"cards never come back from a foundation under {prof.canonical()}"
    card = pos.card_at(move.src)
    if card is None:
        where = names.get(move.src) or (
            f"column {move.src[1:]}" if move.src.startswith("T") else f"foundation {move.src[1]}"
        )
        return f"{where} is empty"
    unit = card
    if move.src.startswith("T"):
        col = pos.columns()[int(move.src[1:]) - 1]
        if move.count > len(col):
            return f"column {move.src[1:]} has only {len(col)} card{'' if len(col) == 1 else 's'}"
        if prof.moves == "whole" and move.count not in (1, len(col)):
            return (
                f"{prof.canonical()} moves only a column's top card or the whole column, "
                "never part of a run"
            )
        unit = col[-move.count]
    if move.dst == "F":
        packs = prof.packs
        counts = pos.foundations()[suit_of(card) * packs : (suit_of(card) + 1) * packs]
        open_counts = [n for n in counts if n < 13]
        if not open_counts:
            return f"the {SUITS[suit_of(card)]} foundation is complete"
        need = " or ".join(
            card_str(suit_of(card) * 13 + (pos.game.base + n) % 13) for n in open_counts
        )
        return f"{card_str(card)} does not go on its foundation (it needs {need})"
    dst_col = pos.columns()[int(move.dst[1:]) - 1]
    if dst_col:
        return f"{card_str(unit)} does not build on {card_str(dst_col[-1])}"
    if move.src.startswith("T") and move.count == len(pos.columns()[int(move.src[1:]) - 1]):
        return "moving a whole column into an empty column changes nothing"
    if prof.fill == "auto" and pos.reserve():
        return "an empty column is filled from the reserve at once"
    if prof.fill == "auto" and prof.space == "waste" and move.src != "W":
        return f"under {prof.canonical()} an empty column takes only the waste top"
    return "not a legal move here"
