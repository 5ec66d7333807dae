"""Tests of the reference rules oracle itself, on hand-made positions.

The oracle judges the fast engine, so it is checked here against the worked
examples and the pinned interpretations of docs/rules.md.
"""

from __future__ import annotations

import copy
import random

import pytest
from reference_rules import (
    RefState,
    builds_on,
    fits_foundation,
    foundation_top,
    is_built_run,
    ref_apply,
    ref_banked,
    ref_check_invariants,
    ref_initial,
    ref_legal_moves,
    ref_snapshot,
    ref_status,
)

from canfield.engine.cards import RANKS, parse_card, parse_cards
from canfield.engine.deals import deal_cards
from canfield.engine.profiles import PRESETS, parse_profile

DEAL0 = (
    "8S JH 9C 2S 2D QD 6S TC 3D AC JC 7C 9H 8C QS KH 5H 2C 3H 5C AH 6C 4S TD 5D 8H "
    "8D AD QH TS QC JD 3S 4D 2H 9D 3C KD AS 7S 9S 7D JS 6H KS 4C 7H 5S 6D 4H KC TH"
)


def C(text: str) -> list[int]:
    """Cards from text, in the order written."""
    return parse_cards(text) if text.strip() else []


def make(
    profile: str,
    base: str,
    foundations: list[int],
    reserve: str = "",
    columns: tuple[str, str, str, str] = ("", "", "", ""),
    stock: str = "",
    waste: str = "",
    redeals: int = 0,
) -> RefState:
    """A hand-made position; piles are written bottom..top, the stock next-first."""
    return RefState(
        profile=parse_profile(profile),
        base=RANKS.index(base),
        foundations=list(foundations),
        reserve=C(reserve),
        columns=[C(col) for col in columns],
        stock=C(stock),
        waste=C(waste),
        redeals=redeals,
    )


def _dest(move: str) -> str:
    """Destination part of a move ('' for draw/redeal)."""
    return move.partition(">")[2]


# ---------------------------------------------------------------------------
# Deal layouts
# ---------------------------------------------------------------------------


def test_deal0_vector():
    assert deal_cards(0) == C(DEAL0)


def test_deal0_standard():
    s = ref_initial(deal_cards(0), parse_profile("strict"))
    assert (
        ref_snapshot(s)
        == {
            "base": RANKS.index("8"),
            "foundations": [1, 0, 0, 0],  # 8C
            "reserve": C("8S JH 9C 2S 2D QD 6S TC 3D AC JC 7C 9H"),
            "columns": [C("QS"), C("KH"), C("5H"), C("2C")],
            "stock": C(DEAL0)[18:],
            "waste": [],
            "redeals": 0,
        }
    )
    assert s.reserve[-1] == parse_card("9H")
    assert s.stock[0] == parse_card("3H")
    assert len(s.stock) == 34
    assert ref_banked(s) == 1
    ref_check_invariants(s)


def test_deal0_superior_is_standard_layout():
    a = ref_initial(deal_cards(0), parse_profile("strict"))
    b = ref_initial(deal_cards(0), parse_profile("superior"))
    assert ref_snapshot(a) == ref_snapshot(b)


def test_deal0_storehouse():
    s = ref_initial(deal_cards(0), parse_profile("storehouse"))
    rest = [c for c in C(DEAL0) if c % 13 != 1]
    assert ref_snapshot(s) == {
        "base": 1,
        "foundations": [1, 1, 1, 1],
        "reserve": C("8S JH 9C QD 6S TC 3D AC JC 7C 9H 8C QS"),
        "columns": [C("KH"), C("5H"), C("3H"), C("5C")],
        "stock": rest[17:],
        "waste": [],
        "redeals": 0,
    }
    assert len(s.stock) == 31
    assert s.stock[0] == parse_card("AH")
    assert ref_banked(s) == 4
    ref_check_invariants(s)


def test_deal0_selective():
    profile = parse_profile("selective")
    s = ref_initial(deal_cards(0), profile, pick=2)  # candidates 8C QS KH 5H 2C
    snap = ref_snapshot(s)
    assert snap["base"] == RANKS.index("K")
    assert snap["foundations"] == [0, 0, 1, 0]  # KH on hearts
    assert snap["columns"] == [C("8C"), C("QS"), C("5H"), C("2C")]
    assert snap["reserve"] == C("8S JH 9C 2S 2D QD 6S TC 3D AC JC 7C 9H")
    assert snap["stock"] == C(DEAL0)[18:]
    s0 = ref_initial(deal_cards(0), profile, pick=0)
    assert ref_snapshot(s0)["columns"] == [C("QS"), C("KH"), C("5H"), C("2C")]
    assert ref_snapshot(s0)["base"] == RANKS.index("8")
    with pytest.raises(ValueError):
        ref_initial(deal_cards(0), profile)
    # pick is ignored outside selective
    a = ref_initial(deal_cards(0), parse_profile("strict"), pick=3)
    assert ref_snapshot(a) == ref_snapshot(ref_initial(deal_cards(0), parse_profile("strict")))


# ---------------------------------------------------------------------------
# Base rank and wrapping (seed 000 worked example: base 6C)
# ---------------------------------------------------------------------------


def test_base_6c_starts_foundations_at_six():
    s = make("strict", "6", [1, 0, 0, 0], columns=("AC", "9S", "9C", "2S"), waste="AH 6H")
    assert fits_foundation(s, parse_card("6H"))
    assert not fits_foundation(s, parse_card("AH"))
    assert "W>F" in ref_legal_moves(s)
    s2 = ref_apply(s, "W>F")
    assert s2.foundations == [1, 0, 1, 0]
    assert s2.waste == C("AH")
    # AH cannot start hearts; with 6H there it is not next either.
    assert "W>F" not in ref_legal_moves(s2)


def test_king_goes_on_ace():
    s = make("strict", "6", [1, 0, 0, 0], columns=("AC", "9S", "9C", "2S"), waste="KH")
    assert "W>T1" in ref_legal_moves(s)
    s2 = ref_apply(s, "W>T1")
    assert s2.columns[0] == C("AC KH")


def test_clubs_foundation_wraps_and_ends_at_five():
    order = C("7C 8C 9C TC JC QC KC AC 2C 3C 4C 5C")
    s = make("strict", "6", [1, 0, 0, 0], columns=("9H", "9D", "JD", "JH"))
    s.waste = list(reversed(order))  # 7C on top, 5C at the bottom
    for card in order:
        assert s.waste[-1] == card
        s = ref_apply(s, "W>F")
        assert foundation_top(s, 0) == card
    assert s.foundations[0] == 13
    assert foundation_top(s, 0) == parse_card("5C")
    # A full foundation takes nothing, not even the base rank again.
    assert not fits_foundation(s, parse_card("6C"))


def test_wrapped_run_builds():
    s = make("strict", "8", [1, 0, 0, 0])
    run = C("3S 2H AC KD QS")
    assert is_built_run(s, run)
    for lower, upper in zip(run, run[1:], strict=False):
        assert builds_on(s, upper, lower)
    # same colour, wrong rank, or up instead of down: no
    assert not builds_on(s, parse_card("KC"), parse_card("AS"))
    assert not builds_on(s, parse_card("QS"), parse_card("JD"))
    assert not builds_on(s, parse_card("5H"), parse_card("7S"))


def test_wrap_base_forbids_crossing_the_base():
    # base 7: a black 6 on a red 7
    ak = make("hevagames", "7", [0, 1, 0, 0])
    wb = make("solvitaire", "7", [0, 1, 0, 0])
    assert builds_on(ak, parse_card("6S"), parse_card("7H"))
    assert not builds_on(wb, parse_card("6S"), parse_card("7H"))
    # base 7: K on A is not a base crossing, so still allowed
    assert builds_on(wb, parse_card("KD"), parse_card("AS"))
    # base A: K on A is the crossing
    wa = make("solvitaire", "A", [1, 0, 0, 0])
    assert not builds_on(wa, parse_card("KD"), parse_card("AS"))
    assert builds_on(make("hevagames", "A", [1, 0, 0, 0]), parse_card("KD"), parse_card("AS"))
    # and as moves
    s = make(
        "solvitaire", "7", [0, 1, 0, 0], reserve="2C", columns=("7H", "9C", "TC", "JC"), waste="6S"
    )
    assert "W>T1" not in ref_legal_moves(s)
    s = make(
        "hevagames", "7", [0, 1, 0, 0], reserve="2C", columns=("7H", "9C", "TC", "JC"), waste="6S"
    )
    assert "W>T1" in ref_legal_moves(s)


def test_build_suit_and_rank():
    suit = make("storehouse", "2", [1, 1, 1, 1])
    assert builds_on(suit, parse_card("4C"), parse_card("5C"))
    assert not builds_on(suit, parse_card("4S"), parse_card("5C"))
    assert not builds_on(suit, parse_card("4H"), parse_card("5C"))
    rank = make("rainbow", "2", [1, 0, 0, 0])
    assert builds_on(rank, parse_card("4S"), parse_card("5C"))
    assert builds_on(rank, parse_card("4H"), parse_card("5C"))
    assert not builds_on(rank, parse_card("3H"), parse_card("5C"))


# ---------------------------------------------------------------------------
# Runs: strict (whole) vs hevagames (any)
# ---------------------------------------------------------------------------


def _run_position(profile: str) -> RefState:
    return make(
        profile, "8", [1, 0, 0, 0], reserve="9D", columns=("3S 2H AC KD QS", "AS", "KH", "4D")
    )


def test_strict_forbids_partial_runs():
    moves = ref_legal_moves(_run_position("strict"))
    assert "T1>T3" in moves  # QS alone on KH
    assert "T1>T4x5" in moves  # the whole column, 3S on 4D
    assert not any(m.startswith("T1>") and m.endswith(("x2", "x3", "x4")) for m in moves)
    assert "T1>T2x2" not in moves


def test_hevagames_allows_partial_runs():
    s = _run_position("hevagames")
    moves = ref_legal_moves(s)
    assert {"T1>T3", "T1>T4x5", "T1>T2x2"} <= moves
    s2 = ref_apply(s, "T1>T2x2")
    assert s2.columns[0] == C("3S 2H AC")
    assert s2.columns[1] == C("AS KD QS")
    s3 = ref_apply(s, "T1>T4x5")
    # column 1 emptied: refilled at once from the reserve
    assert s3.columns == [C("9D"), C("AS"), C("KH"), C("4D 3S 2H AC KD QS")]
    assert s3.reserve == []


def test_notation_x1_is_not_accepted():
    s = _run_position("hevagames")
    with pytest.raises(ValueError):
        ref_apply(s, "T1>T3x1")
    with pytest.raises(ValueError):
        ref_apply(s, "T1>T2x3")  # AC on AS: not a build
    with pytest.raises(ValueError):
        ref_apply(s, "nonsense")


# ---------------------------------------------------------------------------
# Empty columns
# ---------------------------------------------------------------------------


def _space_position(profile: str, reserve: str = "") -> RefState:
    return make(
        profile,
        "8",
        [1, 0, 0, 0],
        reserve=reserve,
        columns=("5C 4H", "JS", "QD", ""),
        waste="3S 9H",
        stock="2D",
    )


def test_strict_space_takes_only_the_waste_top():
    moves = ref_legal_moves(_space_position("strict"))
    to_t4 = {m for m in moves if _dest(m).startswith("T4")}
    assert to_t4 == {"W>T4"}


def test_hevagames_space_takes_any_but_not_a_whole_column():
    s = _space_position("hevagames")
    to_t4 = {m for m in ref_legal_moves(s) if _dest(m).startswith("T4")}
    # 4H alone, the waste top; not JS or QD (whole one-card columns), not T1x2
    assert to_t4 == {"W>T4", "T1>T4"}
    s2 = ref_apply(s, "T1>T4")
    assert s2.columns == [C("5C"), C("JS"), C("QD"), C("4H")]


def test_cardgames_space_takes_a_foundation_top():
    s = _space_position("cardgames")
    to_t4 = {m for m in ref_legal_moves(s) if _dest(m).startswith("T4")}
    assert to_t4 == {"W>T4", "T1>T4", "FC>T4"}


def test_superior_fill_free():
    s = _space_position("superior", reserve="2C 7D")
    moves = ref_legal_moves(s)
    to_t4 = {m for m in moves if _dest(m).startswith("T4")}
    # reserve top, waste top, a top card; not whole columns (moves=whole, space ignored)
    assert to_t4 == {"R>T4", "W>T4", "T1>T4"}
    s2 = ref_apply(s, "draw")
    assert s2.columns[3] == []  # never filled automatically
    assert s2.reserve == C("2C 7D")
    s3 = ref_apply(s, "R>T4")
    assert s3.columns[3] == C("7D")
    assert s3.reserve == C("2C")


def test_auto_fill_after_a_move():
    s = make(
        "strict",
        "9",
        [0, 0, 0, 0],
        reserve="2C 7D KS",
        columns=("9C", "5S", "QD", "JS"),
        stock="4H",
    )
    assert "T1>F" in ref_legal_moves(s)
    s2 = ref_apply(s, "T1>F")
    assert s2.foundations == [1, 0, 0, 0]
    assert s2.columns[0] == C("KS")
    assert s2.reserve == C("2C 7D")
    # QD onto KS is now possible and empties column 3, which takes 7D
    s3 = ref_apply(s2, "T3>T1")
    assert s3.columns == [C("KS QD"), C("5S"), C("7D"), C("JS")]
    assert s3.reserve == C("2C")


def test_auto_fill_lowest_column_first_and_no_move_to_empty_while_reserve():
    s = make(
        "strict", "9", [0, 0, 0, 0], reserve="2C 7D KS", columns=("9C", "", "", "JS"), stock="4H"
    )
    # while the reserve has cards an empty column is never a move target
    assert not any(_dest(m).startswith(("T2", "T3")) for m in ref_legal_moves(s))
    s2 = ref_apply(s, "draw")
    assert s2.columns == [C("9C"), C("KS"), C("7D"), C("JS")]
    assert s2.reserve == C("2C")


def test_initial_position_is_auto_filled_if_needed():
    # ref_initial never sees an empty column on a real deal; check the tail of
    # the reserve is untouched there.
    s = ref_initial(deal_cards(5), parse_profile("hevagames"))
    assert all(len(col) == 1 for col in s.columns)
    assert len(s.reserve) == 13


# ---------------------------------------------------------------------------
# Worry back
# ---------------------------------------------------------------------------


def test_worry_moves_only_with_worry_yes():
    cols = ("JS", "9D", "QC", "5S")
    base = dict(base="8", foundations=[1, 0, 3, 0], reserve="2D", columns=cols, stock="4C")
    no = make("strict", **base)
    yes = make("strict:worry=yes", **base)
    assert not any(m.startswith("F") for m in ref_legal_moves(no))
    worry = {m for m in ref_legal_moves(yes) if m.startswith("F")}
    # TH (hearts top: 8H 9H TH) on JS; the base card 8C on 9D
    assert worry == {"FH>T1", "FC>T2"}
    s2 = ref_apply(yes, "FH>T1")
    assert s2.foundations == [1, 0, 2, 0]
    assert s2.columns[0] == C("JS TH")
    s3 = ref_apply(yes, "FC>T2")
    assert s3.foundations == [0, 0, 3, 0]
    assert s3.columns[1] == C("9D 8C")
    # an empty foundation takes its base rank back
    assert "T2>F" in ref_legal_moves(s3)
    assert ref_apply(s3, "T2>F").foundations == [1, 0, 3, 0]


def test_nothing_goes_foundation_to_foundation():
    s = make("cardgames", "8", [1, 0, 3, 0], reserve="2D", columns=("JS", "9D", "QC", "5S"))
    assert not any(m.startswith("F") and m.endswith(">F") for m in ref_legal_moves(s))


# ---------------------------------------------------------------------------
# Stock and waste
# ---------------------------------------------------------------------------


def _stock_position(profile: str, stock: str, waste: str = "", redeals: int = 0) -> RefState:
    return make(
        profile,
        "8",
        [1, 0, 0, 0],
        reserve="2D",
        columns=("5C", "5S", "JC", "JS"),
        stock=stock,
        waste=waste,
        redeals=redeals,
    )


def test_draw_three_and_short_final_packet():
    s = _stock_position("strict", stock="4C 4S TC TS 2C", waste="QS")
    s2 = ref_apply(s, "draw")
    assert s2.waste == C("QS 4C 4S TC")
    assert s2.stock == C("TS 2C")
    s3 = ref_apply(s2, "draw")
    assert s3.waste == C("QS 4C 4S TC TS 2C")
    assert s3.stock == []
    assert "draw" not in ref_legal_moves(s3)
    assert "redeal" in ref_legal_moves(s3)


def test_draw_one():
    s = _stock_position("strict:draw=1", stock="4C 4S TC")
    s2 = ref_apply(s, "draw")
    assert s2.waste == C("4C") and s2.stock == C("4S TC")


def test_redeal_order():
    s = _stock_position("strict", stock="", waste="4C 4S TC TS 2C")
    assert ref_legal_moves(s) & {"draw", "redeal"} == {"redeal"}
    s2 = ref_apply(s, "redeal")
    assert s2.stock == C("4C 4S TC TS 2C")
    assert s2.waste == []
    assert s2.redeals == 1
    assert ref_snapshot(s2)["redeals"] == 0  # unlimited passes: not reported
    s3 = ref_apply(s2, "draw")
    assert s3.waste == C("4C 4S TC")
    # empty stock and empty waste: neither draw nor redeal
    assert not ref_legal_moves(_stock_position("strict", "")) & {"draw", "redeal"}


def test_limited_passes():
    # storehouse:passes=2, so one redeal
    s = make(
        "storehouse:passes=2",
        "2",
        [1, 1, 1, 1],
        reserve="9D",
        columns=("5C", "5S", "JC", "JH"),
        waste="KD 7H",
    )
    assert "redeal" in ref_legal_moves(s)
    s2 = ref_apply(s, "redeal")
    assert ref_snapshot(s2)["redeals"] == 1
    s3 = ref_apply(ref_apply(s2, "draw"), "draw")
    assert s3.stock == [] and "redeal" not in ref_legal_moves(s3)
    with pytest.raises(ValueError):
        ref_apply(s3, "redeal")
    # rainbow: one pass, no redeal at all
    r = make(
        "rainbow", "2", [1, 1, 1, 1], reserve="9D", columns=("5C", "5S", "JC", "JH"), waste="KD 7H"
    )
    assert "redeal" not in ref_legal_moves(r)
    # passes=3: two redeals
    p3 = parse_profile("rainbow:passes=3")
    r.profile = p3
    assert "redeal" in ref_legal_moves(r)
    r.redeals = 2
    assert "redeal" not in ref_legal_moves(r)


# ---------------------------------------------------------------------------
# Status
# ---------------------------------------------------------------------------


def test_blocked_when_nothing_ever_surfaces():
    s = _stock_position("strict", stock="4C 4S TC TS 2C")
    assert ref_legal_moves(s) == {"draw"}
    assert ref_status(s) == "blocked"


def test_blocked_card_buried_in_a_packet():
    # 9C would go to the clubs foundation, but with draw 3 it is never on top
    s = _stock_position("strict", stock="9C 4C 4S TC TS")
    assert ref_status(s) == "blocked"
    # one card later in the stock it surfaces at the end of the first packet
    assert ref_status(_stock_position("strict", stock="4C 4S 9C TC TS")) == "playing"
    # with draw 1 every card surfaces
    assert ref_status(_stock_position("strict:draw=1", stock="9C 4C 4S TC TS")) == "playing"
    # in the waste, reached only after a redeal
    assert ref_status(_stock_position("strict", stock="", waste="4C 4S 9C TC TS")) == "playing"


def test_blocked_cycle_not_through_the_start():
    # mid-pass start: draws never come back to this exact stock/waste split
    s = _stock_position("strict", stock="TC TS 2C", waste="4C 4S")
    assert ref_status(s) == "blocked"


def _shuffle_position(profile: str, foundations: list[int], reserve: str) -> RefState:
    """Base A; 3C may go from T1 onto 4D (T4) and back, 3D from T2 onto 4S (T3)
    and back; the 2s are in the reserve or buried under draw 3."""
    return make(
        profile,
        "A",
        foundations,
        reserve=reserve,
        columns=(
            "KS QH JC TD 9S 8H 7C 6D 5S 4H 3C",
            "KH QC JD TS 9H 8C 7D 6S 5H 4C 3D",
            "KD QS JH TC 9D 8S 7H 6C 5D 4S",
            "4D",
        ),
        stock="2S 5C KC 8D QD 6H TH 7S JS",
    )


def test_blocked_when_only_column_shuffles_remain():
    s = _shuffle_position("strict", [1, 1, 1, 1], "2C 2D 2H 3H 3S 9C")
    assert ref_legal_moves(s) == {"T1>T4", "T2>T3", "draw"}
    assert ref_status(s) == "blocked"


def test_playing_when_a_shuffle_uncovers_a_foundation_card():
    # with 2H and 3H banked, moving 3C off 4H lets 4H go home
    s = _shuffle_position("strict", [1, 1, 3, 1], "2C 2D 3S 9C")
    assert not any(m.endswith(">F") for m in ref_legal_moves(s))
    assert ref_status(s) == "playing"


def test_playing_when_a_shuffle_pulls_a_reserve_card():
    # moving T4's lone 4D would empty it, but no black 5 is a top; with 3C
    # alone in T4 (and 4D in the reserve) 3C onto 4H empties T4: the reserve fills it
    s = _shuffle_position("strict", [1, 1, 1, 1], "2C 2D 2H 3H 3S 4D 9C")
    s.columns[0].pop()  # 3C
    s.columns[3] = C("3C")
    assert "T4>T1" in ref_legal_moves(s)
    assert ref_status(s) == "playing"


def test_blocked_when_redeals_are_used_up():
    def pos(redeals: int) -> RefState:
        return make(
            "storehouse:passes=2",
            "2",
            [1, 1, 1, 1],
            reserve="9D",
            columns=("5C", "5S", "JC", "JH"),
            waste="3C KD 7H",
            redeals=redeals,
        )

    assert ref_status(pos(0)) == "playing"  # redeal, draw: 3C to the foundation
    assert ref_status(pos(1)) == "blocked"


def test_blocked_with_no_moves_at_all():
    s = _stock_position("strict", stock="")
    assert ref_legal_moves(s) == set()
    assert ref_status(s) == "blocked"


def test_playing_when_a_move_exists_now():
    s = _stock_position("strict", stock="4C", waste="9C")
    assert ref_status(s) == "playing"


def test_won():
    s = make("strict", "8", [13, 13, 13, 13])
    assert ref_banked(s) == 52
    assert ref_status(s) == "won"
    assert ref_legal_moves(s) == set()
    w = make("cardgames", "8", [13, 13, 13, 13])
    assert ref_status(w) == "won"


# ---------------------------------------------------------------------------
# No mutation, and random play keeps the invariants
# ---------------------------------------------------------------------------


def test_apply_never_mutates_its_input():
    s = ref_initial(deal_cards(0), parse_profile("hevagames"))
    rng = random.Random(1)
    for _ in range(200):
        moves = sorted(ref_legal_moves(s))
        if not moves:
            break
        before = copy.deepcopy(s)
        move = rng.choice(moves)
        new = ref_apply(s, move)
        assert s == before, move
        assert new is not s
        assert all(a is not b for a, b in zip(new.columns, s.columns, strict=True))
        s = new


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_random_play_keeps_invariants(preset: str):
    profile = parse_profile(preset)
    rng = random.Random(preset)
    for deal in range(3):
        pick = rng.randrange(5) if profile.layout == "selective" else None
        s = ref_initial(deal_cards(deal, profile.packs), profile, pick)
        for _ in range(150):
            ref_check_invariants(s)
            moves = sorted(ref_legal_moves(s))
            status = ref_status(s)
            assert status in ("playing", "blocked", "won")
            if status != "playing":
                break
            non_stock = [m for m in moves if m not in ("draw", "redeal")]
            # prefer real moves so games get somewhere
            move = rng.choice(non_stock) if non_stock and rng.random() < 0.7 else rng.choice(moves)
            for m in moves:
                ref_apply(s, m)  # every listed move applies
            s = ref_apply(s, move)
