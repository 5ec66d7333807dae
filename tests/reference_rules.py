"""A plain, slow reference implementation of the Canfield rules (docs/rules.md sections 2-4, 6).

This module is a test oracle for the fast engine. It is written from docs/rules.md
alone and favours clarity over speed: plain lists, one rule per helper, every
legal move enumerated by brute force. It never imports the fast engine.

Conventions
-----------
- A card is ``suit * 13 + rank`` (``engine.cards``); suits C D H S, ranks A..K.
- Every pile is a list from bottom to top, so the playable card is ``pile[-1]``,
  except ``stock``, which lists the cards in the order they will be turned
  (``stock[0]`` is turned next).
- A foundation is just a count ``0..13``: its cards are implied by the base rank.
- ``double`` (two packs): the two copies of a card are the same number; there
  are five columns and eight foundations, two per suit, listed C C D D H H S S;
  a card goes to the first of its suit's two that takes it.
- Moves are the notation strings of docs/rules.md section 6 (``draw``, ``W>F``,
  ``T1>T2x4``, ``FH>T2`` ...).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

from canfield.engine.cards import SUITS, is_red, rank_of, suit_of
from canfield.engine.profiles import UNLIMITED, Profile

N_COLUMNS = 4
FULL_FOUNDATION = 13


def packs_of(profile: Profile) -> int:
    """Packs in the game: 2 for ``double`` (docs/rules.md section 3), else 1."""
    return 2 if profile.preset == "double" else 1


@dataclass
class RefState:
    """A whole Canfield position, in plain Python data.

    Attributes
    ----------
    profile : Profile
        The rule options in force.
    base : int
        The base rank (rank index 0..12) shared by all four foundations.
    foundations : list[int]
        Cards on each foundation, in suit order C D H S (0..13).
    reserve : list[int]
        Reserve cards, bottom..top (``reserve[-1]`` is playable).
    columns : list[list[int]]
        The four columns, each bottom..top.
    stock : list[int]
        Stock cards, next to be turned first.
    waste : list[int]
        Waste cards, bottom..top (``waste[-1]`` is playable).
    redeals : int
        Redeals done so far (counted under every profile).
    """

    profile: Profile
    base: int
    foundations: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    reserve: list[int] = field(default_factory=list)
    columns: list[list[int]] = field(default_factory=lambda: [[] for _ in range(N_COLUMNS)])
    stock: list[int] = field(default_factory=list)
    waste: list[int] = field(default_factory=list)
    redeals: int = 0


# ---------------------------------------------------------------------------
# The deal
# ---------------------------------------------------------------------------


def ref_initial(cards: list[int], profile: Profile, pick: int | None = None) -> RefState:
    """Deal ``cards`` (top of the deck first) into the starting position.

    Parameters
    ----------
    cards : list[int]
        The 52 cards of the deal, top of the deck first.
    profile : Profile
        The rules; ``profile.layout`` chooses how the cards are laid out.
    pick : int or None
        Selective Canfield only: which of the five candidates (0..4) is the
        base card. Required there, ignored by the other layouts.

    Returns
    -------
    RefState
        The starting position, auto-filled if a column were empty.
    """
    cards = list(cards)
    packs = packs_of(profile)
    if sorted(cards) != sorted(list(range(52)) * packs):
        raise ValueError(f"a deal needs each of the cards 0..51 {packs} time(s)")
    layout = profile.layout
    foundations = [0, 0, 0, 0]

    if packs == 2:
        # Variegated Demon: the eight aces start the eight foundations; the
        # other 96 cards in deal order are 13 reserve, 5 columns, 78 stock.
        base = 0
        foundations = [1] * 8
        rest = [c for c in cards if rank_of(c) != 0]
        reserve = rest[0:13]
        columns = [[c] for c in rest[13:18]]
        stock = rest[18:]
    elif layout == "standard":
        reserve = cards[0:13]
        base_card = cards[13]
        columns = [[c] for c in cards[14:18]]
        stock = cards[18:52]
        base = rank_of(base_card)
        foundations[suit_of(base_card)] = 1
    elif layout == "storehouse":
        # The four 2s leave the deal first and open every foundation.
        base = 1
        foundations = [1, 1, 1, 1]
        rest = [c for c in cards if rank_of(c) != base]
        reserve = rest[0:13]
        columns = [[c] for c in rest[13:17]]
        stock = rest[17:48]
    elif layout == "selective":
        if pick is None:
            raise ValueError("selective needs a pick (0..4)")
        if not 0 <= pick <= 4:
            raise ValueError(f"pick must be 0..4, got {pick}")
        reserve = cards[0:13]
        candidates = cards[13:18]
        base_card = candidates[pick]
        # The four candidates not picked keep their deal order as columns 1-4.
        columns = [[c] for i, c in enumerate(candidates) if i != pick]
        stock = cards[18:52]
        base = rank_of(base_card)
        foundations[suit_of(base_card)] = 1
    else:
        raise ValueError(f"unknown layout {layout!r}")

    state = RefState(
        profile=profile,
        base=base,
        foundations=foundations,
        reserve=reserve,
        columns=columns,
        stock=stock,
        waste=[],
        redeals=0,
    )
    _auto_fill(state)
    return state


# ---------------------------------------------------------------------------
# Rule helpers
# ---------------------------------------------------------------------------


def foundation_top(state: RefState, suit: int) -> int | None:
    """The top card of the ``suit`` foundation, or None if it is empty."""
    count = state.foundations[suit]
    if count == 0:
        return None
    # The foundation holds base, base+1, ... base+count-1 (mod 13) of its suit.
    return suit * 13 + (state.base + count - 1) % 13


def foundation_for(state: RefState, card: int) -> int | None:
    """The index in ``state.foundations`` that takes ``card`` now, or None.

    One pack: the suit's foundation. Two packs: the first of the suit's two.
    """
    packs = packs_of(state.profile)
    for index in range(suit_of(card) * packs, (suit_of(card) + 1) * packs):
        count = state.foundations[index]
        # An empty foundation (count 0) wants the base rank itself; then up by
        # one, wrapping K -> A; full at 13.
        if count < FULL_FOUNDATION and rank_of(card) == (state.base + count) % 13:
            return index
    return None


def fits_foundation(state: RefState, card: int) -> bool:
    """Whether ``card`` may go onto a foundation of its suit now."""
    return foundation_for(state, card) is not None


def builds_on(state: RefState, x: int, y: int) -> bool:
    """Whether card ``x`` may be placed on card ``y`` in a column."""
    if rank_of(x) != (rank_of(y) - 1) % 13:
        return False
    build = state.profile.build
    if build == "alt" and is_red(x) == is_red(y):
        return False
    if build == "suit" and suit_of(x) != suit_of(y):
        return False
    # build == "rank": any suit.
    if state.profile.wrap == "base" and rank_of(y) == state.base:
        # Ranks count from the base without wrapping: nothing goes below the
        # lowest (base-rank) card.
        return False
    return True


def extend_run(state: RefState, column: list[int], free: list[int], rng, stop) -> None:
    """Test helper: grow ``column`` (non-empty) with random cards of ``free``
    that build on its top, until ``stop(column)`` or no card fits."""
    while free and not stop(column):
        fits = [c for c in free if builds_on(state, c, column[-1])]
        if not fits:
            break
        card = rng.choice(fits)
        free.remove(card)
        column.append(card)


def is_built_run(state: RefState, cards: list[int]) -> bool:
    """Whether ``cards`` (bottom..top) is one run built down under the current rules."""
    return all(builds_on(state, cards[i + 1], cards[i]) for i in range(len(cards) - 1))


def _empty_column_takes(state: RefState, kind: str) -> bool:
    """Whether an empty column may receive a unit coming from a ``kind`` source.

    ``kind`` is one of ``'reserve'``, ``'waste'``, ``'column'``, ``'foundation'``.
    """
    profile = state.profile
    if profile.fill == "free":
        # Superior: never auto-filled; takes any available card or unit.
        return True
    # fill=auto: while the reserve has cards no column stays empty; if we ever
    # see one here, it is about to be filled automatically, not by a move.
    if state.reserve:
        return False
    if profile.space == "waste":
        return kind == "waste"
    return True  # space=any


def _run_sizes(state: RefState, column: list[int]) -> list[int]:
    """How many top cards of ``column`` may be lifted as one unit."""
    n = len(column)
    if n == 0:
        return []
    if state.profile.moves == "whole":
        sizes = [1] if n == 1 else [1, n]
    else:
        sizes = list(range(1, n + 1))
    # Every reachable column is one built run, so this check never removes a
    # size in play; it keeps hand-made positions honest.
    return [k for k in sizes if is_built_run(state, column[n - k :])]


def _move_name(source: str, dest_col: int, k: int = 1) -> str:
    """Notation for moving ``k`` cards from ``source`` to column ``dest_col`` (0-based)."""
    name = f"{source}>T{dest_col + 1}"
    return name + (f"x{k}" if k >= 2 else "")


def _auto_fill(state: RefState) -> None:
    """fill=auto: fill empty columns from the reserve top, lowest column first (in place)."""
    if state.profile.fill != "auto":
        return
    while state.reserve:
        empty = [i for i, col in enumerate(state.columns) if not col]
        if not empty:
            return
        state.columns[empty[0]].append(state.reserve.pop())


def _redeal_allowed(state: RefState) -> bool:
    """Whether one more redeal is within the ``passes`` limit."""
    passes = state.profile.passes
    # passes counts passes through the stock, so passes - 1 redeals are allowed.
    return passes == UNLIMITED or state.redeals < passes - 1


# ---------------------------------------------------------------------------
# Moves
# ---------------------------------------------------------------------------


def ref_legal_moves(state: RefState) -> set[str]:
    """Every legal atomic move from ``state``, as notation strings.

    Parameters
    ----------
    state : RefState

    Returns
    -------
    set[str]
        Empty when the game is won or nothing at all can be done.
    """
    # Mirror (which card may move where; change together): engine/core.py
    # card_moves; solver/moves.py _card_moves and gen_macros; solver/bound.py
    # bound_applies.
    moves: set[str] = set()
    profile = state.profile
    cols = state.columns

    # Stock and waste.
    if state.stock:
        moves.add("draw")
    if not state.stock and state.waste and _redeal_allowed(state):
        moves.add("redeal")

    # Single cards to foundations: reserve top, waste top, column tops.
    if state.reserve and fits_foundation(state, state.reserve[-1]):
        moves.add("R>F")
    if state.waste and fits_foundation(state, state.waste[-1]):
        moves.add("W>F")
    for i, col in enumerate(cols):
        if col and fits_foundation(state, col[-1]):
            moves.add(f"T{i + 1}>F")

    # Units that may go to a column: (source name, cards bottom..top, kind,
    # source column index or None, whether the unit is its whole column).
    units: list[tuple[str, list[int], str, int | None, bool]] = []
    if state.reserve:
        units.append(("R", [state.reserve[-1]], "reserve", None, False))
    if state.waste:
        units.append(("W", [state.waste[-1]], "waste", None, False))
    for i, col in enumerate(cols):
        for k in _run_sizes(state, col):
            units.append((f"T{i + 1}", col[len(col) - k :], "column", i, k == len(col)))
    if profile.worry == "yes":
        for suit in range(4):
            top = foundation_top(state, suit)
            if top is not None:
                units.append((f"F{SUITS[suit]}", [top], "foundation", None, False))

    for source, unit, kind, from_col, whole in units:
        for j, dest in enumerate(cols):
            if j == from_col:
                continue
            if dest:
                ok = builds_on(state, unit[0], dest[-1])
            else:
                # A whole column into an empty one only renumbers it: not a move.
                ok = _empty_column_takes(state, kind) and not whole
            if ok:
                moves.add(_move_name(source, j, len(unit)))
    return moves


def _parse_column(text: str) -> int:
    """``'T3'`` -> 2; raises ValueError on anything else."""
    if len(text) != 2 or text[0] != "T" or text[1] not in "12345":
        raise ValueError(f"not a column: {text!r}")
    return int(text[1]) - 1


def ref_apply(state: RefState, move: str) -> RefState:
    """Play ``move`` and return the new position; ``state`` is left untouched.

    Parameters
    ----------
    state : RefState
    move : str
        A notation string from ``ref_legal_moves``.

    Returns
    -------
    RefState
        A new state, auto-filled under fill=auto.

    Raises
    ------
    ValueError
        If ``move`` is not legal in ``state``.
    """
    # Mirror (what a move does; change together): engine/core.py apply_move,
    # do_draw and do_redeal; solver/moves.py apply_macro and gen_macros (the
    # stock walk); solver/bound.py _decode.
    # Legality is decided in one place only: the brute-force move list.
    if move not in ref_legal_moves(state):
        raise ValueError(f"illegal move {move!r}")
    new = copy.deepcopy(state)

    if move == "draw":
        # Turn the packet one card at a time: the last turned ends on top.
        for _ in range(min(new.profile.draw, len(new.stock))):
            new.waste.append(new.stock.pop(0))
    elif move == "redeal":
        # Turning the waste over unshuffled: its bottom card is turned first.
        new.stock = new.waste
        new.waste = []
        new.redeals += 1
    else:
        source, dest = move.split(">")
        count = 1
        if "x" in dest:
            dest, k_txt = dest.split("x")
            count = int(k_txt)

        # Take the unit off its source.
        if source == "R":
            unit = [new.reserve.pop()]
        elif source == "W":
            unit = [new.waste.pop()]
        elif source.startswith("F"):
            suit = SUITS.index(source[1])
            top = foundation_top(new, suit)
            assert top is not None
            new.foundations[suit] -= 1
            unit = [top]
        else:
            col = new.columns[_parse_column(source)]
            unit = col[len(col) - count :]
            del col[len(col) - count :]

        # Put it down.
        if dest == "F":
            assert len(unit) == 1
            index = foundation_for(new, unit[0])
            assert index is not None
            new.foundations[index] += 1
        else:
            new.columns[_parse_column(dest)].extend(unit)

    _auto_fill(new)
    return new


# ---------------------------------------------------------------------------
# Reports
# ---------------------------------------------------------------------------


def ref_from_snapshot(profile: Profile, snap: dict) -> RefState:
    """A reference state holding the cards of a snapshot (the inverse of
    :func:`ref_snapshot`); no auto-fill is applied."""
    return RefState(
        profile=profile,
        base=snap["base"],
        foundations=list(snap["foundations"]),
        reserve=list(snap["reserve"]),
        columns=[list(c) for c in snap["columns"]],
        stock=list(snap["stock"]),
        waste=list(snap["waste"]),
        redeals=snap.get("redeals", 0),
    )


def ref_snapshot(state: RefState) -> dict:
    """The position as plain data, in the format shared with the fast engine."""
    return {
        "base": state.base,
        "foundations": list(state.foundations),
        "reserve": list(state.reserve),
        "columns": [list(col) for col in state.columns],
        "stock": list(state.stock),
        "waste": list(state.waste),
        "redeals": state.redeals if state.profile.passes != UNLIMITED else 0,
    }


def ref_banked(state: RefState) -> int:
    """Cards on the foundations (the dealt base card included)."""
    return sum(state.foundations)


def ref_key(state: RefState) -> tuple:
    """Everything a move can change: equal keys, equal positions (the seen
    sets of explorations and brute forces)."""
    redeals = state.redeals if state.profile.passes != UNLIMITED else 0
    return (
        tuple(state.foundations),
        tuple(state.reserve),
        tuple(tuple(col) for col in state.columns),
        tuple(state.stock),
        tuple(state.waste),
        redeals,
    )


def _advances(before: RefState, after: RefState, start_banked: int) -> bool:
    """docs/rules.md section 4: a move advances play when it takes a card
    from the reserve or the waste, or puts one on a foundation (under worry:
    brings the foundations above their count when the exploration began)."""
    return (
        len(after.reserve) < len(before.reserve)
        or len(after.stock) + len(after.waste) < len(before.stock) + len(before.waste)
        or ref_banked(after) > start_banked
    )


def ref_status(state: RefState) -> str:
    """``'won'``, ``'blocked'`` or ``'playing'``.

    Blocked means: no sequence of moves that do not advance play (draws,
    redeals, moves between columns and, under worry, cards taken back from a
    foundation or banked again without going above the starting count)
    reaches a position with a move that advances play. Explored by brute
    force over whole positions.
    """
    if ref_banked(state) == 52 * packs_of(state.profile):
        return "won"
    start_banked = ref_banked(state)
    seen = {ref_key(state)}
    todo = [state]
    while todo:
        current = todo.pop()
        for move in sorted(ref_legal_moves(current)):
            after = ref_apply(current, move)
            if _advances(current, after, start_banked):
                return "playing"
            key = ref_key(after)
            if key not in seen:
                seen.add(key)
                todo.append(after)
    return "blocked"


def ref_check_invariants(state: RefState) -> None:
    """Assert what must hold in every reachable position (a test helper).

    All 52 cards are present exactly once, foundation counts are 0..13, every
    column is one built run, and under fill=auto no column is empty while the
    reserve has cards.
    """
    packs = packs_of(state.profile)
    on_foundations = []
    for index, count in enumerate(state.foundations):
        suit = index // packs
        assert 0 <= count <= FULL_FOUNDATION, state.foundations
        on_foundations += [suit * 13 + (state.base + i) % 13 for i in range(count)]
    everything = on_foundations + state.reserve + state.stock + state.waste
    for col in state.columns:
        everything += col
        assert is_built_run(state, col), col
    assert sorted(everything) == sorted(list(range(52)) * packs), sorted(everything)
    if state.profile.fill == "auto" and state.reserve:
        assert all(state.columns), state.columns
