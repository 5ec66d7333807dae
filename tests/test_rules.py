"""docs/rules.md sections 1-4, rule by rule, through the public Position API.

Each test names the rule sentence it checks. Hand positions are built with
``hand_positions.hand``, which puts every card a test does not mention on the
foundations or under the waste, out of the way.
"""

from __future__ import annotations

import random

import pytest
from hand_positions import C, card, hand, moves

from canfield.engine.cards import RANKS, SUITS, card_str, cards_str, is_red, rank_of, suit_of
from canfield.engine.deals import deal_cards
from canfield.engine.notation import Move, NotationError, parse_move
from canfield.engine.position import IllegalMove, Position, PositionError
from canfield.engine.profiles import parse_profile

# The four hard columns of a blocked position: every top is a 3, every 2 is in
# the reserve or the stock, so nothing is ever playable except the 2s.
BLOCK_COLS = [
    "KS QH JC TD 9S 8H 7C 6D 5S 4H 3C",
    "KH QC JD TS 9H 8C 7D 6S 5H 4C 3D",
    "KD QS JH TC 9D 8S 7H 6C 5D 4S 3H",
    "3S",
]


# ---------------------------------------------------------------------------
# Section 1: the deal
# ---------------------------------------------------------------------------


def test_dealt_position_of_deal_0():
    cards = deal_cards(0)
    pos = Position.from_deal(0)
    # cards 1-13 are the reserve, card 13 its face-up top
    assert pos.reserve() == cards[:13]
    assert pos.card_at("R") == cards[12] == card("9H")
    # card 14 starts the first foundation and sets the base rank
    assert cards[13] == card("8C")
    assert RANKS[pos.game.base] == "8"
    assert pos.foundations() == [1, 0, 0, 0]
    assert pos.card_at("FC") == card("8C")
    assert pos.banked == 1
    # cards 15-18 are columns 1-4, one card each
    assert pos.columns() == [[cards[14]], [cards[15]], [cards[16]], [cards[17]]]
    assert cards_str(cards[14:18]) == "QS KH 5H 2C"
    # cards 19-52 are the stock (34 cards); the waste is empty
    assert pos.stock() == cards[18:] and len(pos.stock()) == 34
    assert pos.waste() == []
    # card 19 is the first one turned
    drawn = pos.apply("draw")
    assert drawn.waste() == cards[18:21]
    assert drawn.card_at("W") == cards[20]
    assert drawn.stock() == cards[21:]
    assert pos.status() == "playing"
    assert sorted(moves(pos)) == ["T1>T2", "draw"]  # QS on KH


def test_face_down_reserve_is_not_shown():
    pos = Position.from_deal(0)
    text = pos.show()
    assert "9H over 12 face down" in text
    for hidden in deal_cards(0)[:12]:
        assert card_str(hidden) not in text


def test_a_deal_from_its_cards_is_the_deal_from_its_number():
    cards = deal_cards(12345)
    by_number = Position.from_deal(12345, "hevagames")
    assert Position.from_deal(cards_str(cards), "hevagames") == by_number
    assert Position.from_deal(cards, "hevagames") == by_number


def test_dealing_rejects_bad_decks():
    from canfield.engine.cards import CardError
    from canfield.engine.deals import DealNumberError

    with pytest.raises(CardError):
        Position.from_deal(cards_str(deal_cards(0)[:51]))
    with pytest.raises(CardError):
        Position.from_deal("AC " * 52)
    with pytest.raises(DealNumberError):
        Position.from_deal(-1)
    with pytest.raises(DealNumberError):
        Position.from_deal(2**64)


# ---------------------------------------------------------------------------
# Section 2: foundations
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("rank", range(13))
def test_empty_foundation_takes_only_the_base_rank_of_its_suit(rank):
    # base 6 (seed 000 section 09): an available 6H starts hearts, AH does not
    top = card(RANKS[rank] + "H")
    pos = hand(
        base="6", columns=["KC", "", "", ""], waste=card_str(top), foundations=[1, 13, 0, 13]
    )
    assert pos.foundations()[2] == 0
    assert ("W>F" in moves(pos)) == (RANKS[rank] == "6")


def test_seed000_worked_example_base_6c():
    base6 = dict(base="6", foundations=[1, 13, 0, 13])
    # the 6C foundation next accepts 7C, and not 8C
    assert "W>F" in moves(hand(columns=["KH", "", "", ""], waste="7C", **base6))
    assert "W>F" not in moves(hand(columns=["KH", "", "", ""], waste="8C", **base6))
    # a column ending in AC takes an available KH: downward across the ace
    pos = hand(columns=["AC", "", "", ""], waste="KH", **base6)
    assert "W>T1" in moves(pos)
    after = pos.apply("W>T1")
    assert after.columns()[0] == C("AC KH")
    # after KC comes AC
    pos = hand(base="6", columns=["QH", "", "", ""], waste="AC", foundations=[8, 13, 0, 13])
    assert pos.card_at("FC") == card("KC")
    after = pos.apply("W>F")
    assert after.card_at("FC") == card("AC")
    # ... and the final card is 5C
    pos = hand(base="6", columns=["5C", "", "", ""], waste="6H", foundations=[12, 13, 0, 13])
    assert pos.card_at("FC") == card("4C")
    done = pos.apply("T1>F")
    assert done.foundations()[0] == 13
    assert done.card_at("FC") == card("5C")


def test_foundation_builds_up_in_suit_only():
    cols = ["5C", "5H", "5S", "9S"]
    pos = hand(base="A", columns=cols, waste="5D", foundations=[None, 3, None, None])
    # clubs, hearts and spades want their 5s, diamonds want 4D: 5D fits nowhere
    assert pos.foundations() == [4, 3, 4, 4]
    assert "W>F" not in moves(pos)
    pos = hand(base="A", columns=cols, waste="4D", foundations=[None, 3, None, None])
    assert "W>F" in moves(pos)


def test_foundation_is_complete_at_13_cards_one_below_the_base():
    pos = hand(base="T", columns=["9H", "", "", ""], foundations=[None, None, 12, None])
    assert pos.card_at("FH") == card("8H")
    done = pos.apply("T1>F")
    assert done.foundations()[2] == 13 and done.card_at("FH") == card("9H")
    assert done.is_won() and done.status() == "won"


def test_only_single_cards_go_to_a_foundation():
    with pytest.raises(NotationError):
        parse_move("T1>Fx2")
    pos = hand(base="A", columns=["3C 2H", "", "", ""], foundations=[2, None, 1, None])
    # 2H then 3C would both fit in turn, but only one card moves at a time
    assert moves(pos) >= {"T1>F"}
    after = pos.apply("T1>F")
    assert after.columns()[0] == C("3C")
    assert after.apply("T1>F").foundations()[:3] == [3, 13, 2]


# ---------------------------------------------------------------------------
# Section 2: columns
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "lower, upper, ok",
    [
        ("5H", "6C", True),
        ("5D", "6S", True),
        ("5C", "6H", True),
        ("5C", "6C", False),  # same colour
        ("5S", "6C", False),
        ("5D", "6H", False),
        ("4H", "6C", False),  # not one rank down
        ("7H", "6C", False),  # up
        ("6H", "6C", False),
        ("KH", "AC", True),  # wrap A->K: a red K on a black A
        ("KS", "AD", True),  # a black K on a red A
        ("KC", "AS", False),
        ("AH", "2S", True),
        ("QS", "KD", True),
        ("AC", "KD", False),  # no wrap upwards
    ],
)
def test_columns_build_down_alternating_colour_with_wrap(lower, upper, ok):
    pos = hand(base="8", columns=[upper, "", "", ""], waste=lower)
    assert ("W>T1" in moves(pos)) == ok
    # and a column holding the pair is a legal position exactly when the move is
    if ok:
        hand(base="8", columns=[f"{upper} {lower}", "", "", ""])
    else:
        with pytest.raises(PositionError, match="does not build on"):
            hand(base="8", columns=[f"{upper} {lower}", "", "", ""])


def test_wrap_is_the_ak_corner_for_every_base_rank():
    # base 7: a black 6 still goes on a red 7
    pos = hand(base="7", columns=["7H", "", "", ""], waste="6S")
    assert "W>T1" in moves(pos)
    # and K on A with base 7 too
    pos = hand(base="7", columns=["AD", "", "", ""], waste="KS")
    assert "W>T1" in moves(pos)


def test_seed002_run_across_the_corner_is_one_run():
    run = "3S 2H AC KD QS"
    pos = hand("hevagames", base="5", columns=[run, "AS", "4D", "9C"], rest="stock")
    assert pos.columns()[0] == C(run)
    # any tail may be split off and moved on its own: KD-QS onto the black AS
    assert "T1>T2x2" in moves(pos)
    after = pos.apply("T1>T2x2")
    assert after.columns()[0] == C("3S 2H AC")
    assert after.columns()[1] == C("AS KD QS")
    # the whole run moves as a unit onto a red 4
    assert "T1>T3x5" in moves(pos)
    assert pos.apply("T1>T3x5").columns()[2] == C("4D " + run)


def test_runs_may_be_longer_than_13_cards():
    long_run = "KS QH JC TD 9S 8H 7C 6D 5S 4H 3C 2D AS KH"
    pos = hand("strict", base="A", columns=[long_run, "AD", "9C", "9H"], waste="QC")
    assert len(pos.columns()[0]) == 14
    # the whole 14-card column moves onto a red A
    assert "T1>T2x14" in moves(pos)
    moved = pos.apply("T1>T2x14")
    assert moved.columns()[1] == C("AD " + long_run)
    # and keeps growing: QC on KH
    grown = moved.apply("W>T2")
    assert len(grown.columns()[1]) == 16
    assert grown.columns()[1][-1] == card("QC")


def test_every_column_is_one_built_run():
    with pytest.raises(PositionError, match="5C does not build on 6C"):
        hand(columns=["6C 5C", "", "", ""])
    with pytest.raises(PositionError, match="does not build on"):
        hand(columns=["KS QH JC 9D", "", "", ""])


# ---------------------------------------------------------------------------
# Section 2: reserve and waste
# ---------------------------------------------------------------------------


def test_reserve_top_goes_to_foundation_or_column_and_only_the_top():
    # reserve bottom..top: 5D 9H; 9H fits on TS, 5D would fit its foundation
    pos = hand(
        base="A", columns=["TS", "KC", "KD", "KH"], reserve="5D 9H", foundations=[None, 4, 5, None]
    )
    ms = moves(pos)
    assert "R>T1" in ms and "R>F" not in ms
    after = pos.apply("R>T1")
    assert after.reserve() == C("5D") and after.columns()[0] == C("TS 9H")
    # the next reserve card is now the top, and goes to its foundation
    assert "R>F" in moves(after)
    assert after.apply("R>F").reserve() == []


def test_nothing_is_ever_put_back_into_the_reserve_or_onto_the_waste():
    for text in ("T1>R", "W>R", "T1>W", "R>W", "FH>R"):
        with pytest.raises(NotationError):
            parse_move(text)
    rng = random.Random(1)
    for prof in ("strict", "cardgames", "superior"):
        pos = Position.from_deal(3, prof)
        for _ in range(150):
            legal = pos.legal_moves()
            assert all(m.dst in ("", "F", "T1", "T2", "T3", "T4") for m in legal)
            if not legal:
                break
            pos = pos.apply(rng.choice(legal))


def test_waste_top_goes_to_foundation_or_column_and_only_the_top():
    # waste bottom..top: 9H 5D; 5D fits on 6S and on its foundation, 9H is buried
    pos = hand(
        base="A", columns=["6S", "TC", "KD", "KH"], waste="9H 5D", foundations=[None, 4, None, None]
    )
    ms = moves(pos)
    assert {"W>F", "W>T1"} <= ms
    assert "W>T2" not in ms  # 9H on TC would fit, but 9H is not the top
    after = pos.apply("W>F")
    # removing the top uncovers the card turned before it
    assert after.card_at("W") == card("9H")
    assert "W>T2" in moves(after)


# ---------------------------------------------------------------------------
# Section 2: stock and redeal
# ---------------------------------------------------------------------------


def stock_position(profile="strict", stock="4C 9D JH 2S 7D QC"):
    """Columns that take nothing from the stock except JH (on QS)."""
    return hand(
        profile,
        base="A",
        columns=["QS", "KC", "KD", "KH"],
        stock=stock,
        foundations=[None, None, None, 1],
        rest="stock",
    )


def test_draw_turns_three_one_at_a_time_last_on_top():
    pos = stock_position()
    before = pos.stock()
    assert before[:6] == C("4C 9D JH 2S 7D QC")
    d1 = pos.apply("draw")
    assert d1.waste() == C("4C 9D JH")
    assert d1.card_at("W") == card("JH")  # the last one turned is the top
    assert d1.stock() == before[3:]
    d2 = d1.apply("draw")
    assert d2.waste() == C("4C 9D JH 2S 7D QC")
    assert d2.card_at("W") == card("QC")


@pytest.mark.parametrize("profile", ["strict:draw=1", "storehouse", "rainbow", "cardgames-draw1"])
def test_draw_one(profile):
    pos = hand(
        profile,
        base="2" if profile == "storehouse" else "A",
        columns=["QS", "KC", "KD", "KH"],
        stock="4C 9D JH",
        foundations=[None, None, None, 1],
        rest="stock",
    )
    d1 = pos.apply("draw")
    assert d1.waste() == C("4C") and d1.card_at("W") == card("4C")
    assert d1.apply("draw").waste() == C("4C 9D")


def test_only_the_waste_top_plays_and_removing_it_uncovers_the_one_before():
    d1 = stock_position().apply("draw")
    assert "W>T1" in moves(d1)  # JH on QS
    after = d1.apply("W>T1")
    assert after.waste() == C("4C 9D")
    assert after.card_at("W") == card("9D")


def test_short_final_packet_is_turned_as_it_stands():
    # draw 3 with 2 cards left in the stock
    pos = hand(
        "strict",
        base="A",
        columns=["QS", "KC", "KD", "KH"],
        waste="8C",
        stock="4C 9D",
        foundations=[None, None, None, 1],
    )
    assert pos.stock() == C("4C 9D")
    d = pos.apply("draw")
    assert d.stock() == []
    assert d.waste()[-3:] == C("8C 4C 9D")
    assert d.card_at("W") == card("9D")


def test_redeal_turns_the_waste_over_unshuffled():
    pos = stock_position()
    while pos.stock():
        pos = pos.apply("draw")
    waste = pos.waste()
    assert "redeal" in moves(pos) and "draw" not in moves(pos)
    again = pos.apply("redeal")
    assert again.waste() == []
    assert again.stock() == waste  # original order: the waste bottom is turned first
    assert again.apply("draw").waste() == waste[:3]


def test_playing_from_the_waste_reshapes_the_next_pass():
    pos = stock_position().apply("draw").apply("W>T1")  # JH out of the first packet
    while pos.stock():
        pos = pos.apply("draw")
    first = pos.apply("redeal").apply("draw")
    assert first.waste() == C("4C 9D 2S")  # 2S now tops the first packet


def test_draw_with_an_empty_stock_is_not_a_move():
    pos = stock_position()
    while pos.stock():
        pos = pos.apply("draw")
    assert "draw" not in moves(pos)
    with pytest.raises(IllegalMove, match="stock is empty"):
        pos.apply("draw")


def test_redeal_with_an_empty_waste_is_not_a_move():
    pos = hand("strict", base="A", columns=["KS", "KC", "KD", "KH"])
    assert pos.stock() == [] and pos.waste() == []
    assert "redeal" not in moves(pos) and "draw" not in moves(pos)
    with pytest.raises(IllegalMove, match="waste is empty"):
        pos.apply("redeal")


def test_redeal_only_when_the_stock_is_empty():
    pos = stock_position().apply("draw")
    assert "redeal" not in moves(pos)
    with pytest.raises(IllegalMove, match="stock is not empty"):
        pos.apply("redeal")


# ---------------------------------------------------------------------------
# Section 3: moves = whole / any
# ---------------------------------------------------------------------------


def run_position(profile):
    # T1 = 9C 8H 7S; 8H-7S could go on 9S (T2); 7S alone on 8D (T3);
    # the whole column on TD (T4)
    return hand(
        profile, base="A", columns=["9C 8H 7S", "9S", "8D", "TD"], reserve="KC", rest="stock"
    )


def test_strict_moves_a_top_card_or_a_whole_column_never_part_of_a_run():
    pos = run_position("strict")
    ms = moves(pos)
    assert "T1>T3" in ms  # top card alone
    assert "T1>T4x3" in ms  # whole column
    assert "T1>T2x2" not in ms  # part of a run
    with pytest.raises(IllegalMove, match="never part of a run"):
        pos.apply("T1>T2x2")
    after = pos.apply("T1>T4x3")
    assert after.columns()[3] == C("TD 9C 8H 7S")
    assert after.columns()[0] == C("KC")  # refilled from the reserve at once


@pytest.mark.parametrize("profile", ["hevagames", "cardgames", "solvitaire", "strict:moves=any"])
def test_any_moves_partial_runs(profile):
    pos = run_position(profile)
    ms = moves(pos)
    assert {"T1>T3", "T1>T4x3", "T1>T2x2"} <= ms
    after = pos.apply("T1>T2x2")
    assert after.columns()[:2] == [C("9C"), C("9S 8H 7S")]


def test_a_run_longer_than_the_column_is_illegal():
    pos = run_position("hevagames")
    with pytest.raises(IllegalMove, match="only 3 cards"):
        pos.apply("T1>T2x4")


# ---------------------------------------------------------------------------
# Section 3: spaces (space option) and fill
# ---------------------------------------------------------------------------


def space_position(profile, waste="5D"):
    # reserve gone, T4 empty; T1 = 9C 8H 7S; foundations' tops include 6H
    return hand(
        profile,
        base="A",
        columns=["9C 8H 7S", "KD", "KS", ""],
        waste=waste,
        foundations=[None, None, 6, None],
    )


def test_strict_space_takes_only_the_waste_top():
    pos = space_position("strict")
    assert pos.reserve() == [] and pos.columns()[3] == []
    into_space = {m for m in moves(pos) if m.endswith(">T4") or ">T4x" in m}
    assert into_space == {"W>T4"}
    with pytest.raises(IllegalMove, match="takes only the waste top"):
        pos.apply("T1>T4")


def test_strict_space_with_an_empty_waste_waits():
    pos = hand(
        "strict",
        base="A",
        columns=["9C 8H 7S", "KD", "KS", ""],
        stock="QH",
        foundations=[None, None, 6, None],
        rest="stock",
    )
    assert pos.waste() == []
    assert not any(">T4" in m for m in moves(pos))


def test_hevagames_space_takes_any_card_or_run():
    pos = space_position("hevagames")
    into_space = {m for m in moves(pos) if ">T4" in m}
    # the waste top, T1's top card and part of T1's run; the whole of T1, or
    # the lone Ks of T2/T3, would only be renumbered, so they are not moves.
    assert into_space == {"W>T4", "T1>T4", "T1>T4x2"}
    assert "FH>T4" not in moves(pos)  # no worry under hevagames


def test_cardgames_space_takes_a_foundation_top_too():
    pos = space_position("cardgames")
    into_space = {m for m in moves(pos) if ">T4" in m}
    assert {"W>T4", "T1>T4", "T1>T4x2", "FC>T4", "FD>T4", "FH>T4", "FS>T4"} <= into_space
    after = pos.apply("FH>T4")
    assert after.columns()[3] == C("6H") and after.foundations()[2] == 5


def test_auto_fill_from_the_reserve_before_any_other_move():
    pos = hand(
        "strict",
        base="A",
        columns=["5H", "KC", "KD", "KS"],
        reserve="3D 9S",
        foundations=[None, None, 4, None],
    )
    after = pos.apply("T1>F")
    assert after.columns()[0] == C("9S")
    assert after.reserve() == C("3D")


def test_auto_fill_of_several_spaces_and_running_out():
    pos = hand("strict", base="A", columns=["", "KC", "", "KS"], reserve="3D 9S")
    cols = pos.columns()
    assert {cols[0][0], cols[2][0]} == set(C("3D 9S"))
    assert pos.reserve() == []
    pos = hand("hevagames", base="A", columns=["", "KC", "", "KS"], reserve="9S")
    assert pos.reserve() == [] and [len(c) for c in pos.columns()] == [1, 1, 0, 1]


@pytest.mark.parametrize("profile", ["strict", "hevagames", "cardgames", "storehouse", "rainbow"])
def test_no_space_while_the_reserve_has_cards(profile):
    rng = random.Random(7)
    pos = Position.from_deal(11, profile)
    for _ in range(300):
        if pos.reserve():
            assert all(pos.columns())
        legal = pos.legal_moves()
        if not legal:
            break
        pos = pos.apply(rng.choice(legal))


def test_superior_fill_free_leaves_the_space_empty():
    pos = hand(
        "superior",
        base="A",
        columns=["5H", "9C 8H", "KD", "KS"],
        reserve="3D QC",
        waste="JD",
        foundations=[None, None, 4, None],
    )
    after = pos.apply("T1>F")
    assert after.columns()[0] == []
    assert after.reserve() == C("3D QC")
    ms = moves(after)
    # any available card: reserve top, waste top, a column's top card ...
    assert {"R>T1", "W>T1", "T2>T1"} <= ms
    # ... but never part of a run (moves=whole), and a whole column only renumbers
    assert "T2>T1x2" not in ms and "T3>T1" not in ms


def test_superior_shows_the_whole_reserve():
    pos = Position.from_deal(0, "superior")
    text = pos.show()
    assert cards_str(deal_cards(0)[:13]) in text
    assert "face down" not in text


# ---------------------------------------------------------------------------
# Section 3: worry, wrap, build, passes, layouts
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "profile, allowed",
    [
        ("strict", False),
        ("hevagames", False),
        ("cardgames", True),
        ("cardgames-draw1", True),
        ("strict:worry=yes", True),
        ("cardgames:worry=no", False),
    ],
)
def test_worry_only_where_allowed(profile, allowed):
    # hearts foundation top 5H could go back onto 6S
    pos = hand(
        profile,
        base="A",
        columns=["6S", "KC", "KD", "KH"],
        reserve="QC",
        foundations=[None, None, 5, None],
    )
    assert ("FH>T1" in moves(pos)) == allowed
    if allowed:
        after = pos.apply("FH>T1")
        assert after.columns()[0] == C("6S 5H")
        assert after.foundations()[2] == 4 and after.banked == pos.banked - 1
        # and it may be played back to the foundation later
        assert after.apply("T1>F").foundations()[2] == 5
    else:
        with pytest.raises(IllegalMove, match="never come back"):
            pos.apply("FH>T1")


def test_worry_can_empty_a_foundation_and_refill_it():
    pos = hand(
        "cardgames",
        base="A",
        columns=["2S", "KC", "KD", "KH"],
        reserve="QC",
        foundations=[None, None, 1, None],
    )
    after = pos.apply("FH>T1")
    assert after.foundations()[2] == 0 and after.card_at("FH") is None
    assert after.apply("T1>F").foundations()[2] == 1


def test_wrap_base_ranks_columns_from_the_base():
    # base 7: under wrap=base a black 6 never goes on a red 7 ...
    args = dict(base="7", columns=["7H", "AD", "QC", "QS"], waste="6S", reserve="KS")
    heva = moves(hand("hevagames", **args))
    solv = moves(hand("solvitaire", **args))
    hwb = moves(hand("hevagames:wrap=base", **args))
    assert "W>T1" in heva and "W>T1" not in solv and "W>T1" not in hwb
    # ... but a K goes on an A, because the base is not A
    assert "R>T2" in heva and "R>T2" in solv
    with pytest.raises(PositionError):
        hand("solvitaire", base="7", columns=["7H 6S", "", "", ""])


def test_wrap_base_with_base_ace_forbids_k_on_a():
    args = dict(base="A", columns=["AD", "QC", "QS", "5C"], reserve="KS")
    assert "R>T1" in moves(hand("hevagames", **args))
    assert "R>T1" not in moves(hand("solvitaire", **args))


@pytest.mark.parametrize(
    "lower, ok_suit, ok_rank",
    [
        ("5C", True, True),
        ("5S", False, True),
        ("5H", False, True),
        ("5D", False, True),
        ("4C", False, False),
        ("7C", False, False),
    ],
)
def test_build_suit_and_rank(lower, ok_suit, ok_rank):
    cols = ["6C", "QD", "QH", "QS"]
    store = hand("storehouse", base="2", columns=cols, reserve="KH", waste=lower)
    rainbow = hand("rainbow", base="2", columns=cols, reserve="KH", waste=lower)
    assert ("W>T1" in moves(store)) == ok_suit
    assert ("W>T1" in moves(rainbow)) == ok_rank
    if ok_rank:
        assert rainbow.apply("W>T1").columns()[0] == C("6C " + lower)


def test_build_suit_column_must_be_in_suit():
    with pytest.raises(PositionError):
        hand("storehouse", base="2", columns=["6C 5H", "", "", ""], rest="stock")
    hand("rainbow", base="2", columns=["6C 5H 4H 3S", "", "", ""], rest="stock")


def _to_end_of_stock(pos):
    while pos.stock():
        pos = pos.apply("draw")
    return pos


def test_rainbow_one_pass_refuses_the_redeal():
    pos = _to_end_of_stock(stock_position("rainbow"))
    assert pos.waste() and "redeal" not in moves(pos)
    with pytest.raises(IllegalMove, match="no passes left"):
        pos.apply("redeal")


@pytest.mark.parametrize("profile, passes", [("storehouse", 3), ("storehouse:passes=2", 2)])
def test_storehouse_passes(profile, passes):
    """The preset gives three passes (docs/rules.md section 3); ``passes=2`` two."""
    pos = hand(
        profile,
        base="2",
        columns=["QS", "KC", "KD", "KH"],
        stock="4C 9D JH",
        foundations=[None, None, None, 0],
        rest="stock",
    )
    assert f"pass         1 of {passes}" in pos.show()
    for used in range(1, passes):
        pos = _to_end_of_stock(pos)
        assert "redeal" in moves(pos)
        pos = pos.apply("redeal")
        assert pos.redeals() == used
    pos = _to_end_of_stock(pos)
    assert f"pass         {passes} of {passes}" in pos.show()
    assert "redeal" not in moves(pos)
    with pytest.raises(IllegalMove, match=f"passes={passes}"):
        pos.apply("redeal")


def test_rainbow_three_passes():
    pos = _to_end_of_stock(stock_position("rainbow:passes=3"))
    pos = _to_end_of_stock(pos.apply("redeal"))
    pos = _to_end_of_stock(pos.apply("redeal"))
    assert "redeal" not in moves(pos)


def test_storehouse_layout():
    cards = deal_cards(0)
    twos = [c for c in cards if rank_of(c) == 1]
    rest = [c for c in cards if rank_of(c) != 1]
    pos = Position.from_deal(0, "storehouse")
    assert RANKS[pos.game.base] == "2"
    assert pos.foundations() == [1, 1, 1, 1] and pos.banked == 4
    assert sorted(pos.card_at(f"F{s}") for s in SUITS) == sorted(twos)
    assert pos.reserve() == rest[:13]
    assert pos.columns() == [[c] for c in rest[13:17]]
    assert pos.stock() == rest[17:] and len(pos.stock()) == 31
    assert pos.profile.draw == 1 and pos.profile.passes == 3


def test_selective_layout():
    cards = deal_cards(0)
    five = cards[13:18]
    for pick in five:
        pos = Position.from_deal(0, "selective", pick=pick)
        assert pos.game.base == rank_of(pick)
        found = [0, 0, 0, 0]
        found[suit_of(pick)] = 1
        assert pos.foundations() == found
        assert pos.columns() == [[c] for c in five if c != pick]
        assert pos.reserve() == cards[:13]
        assert pos.stock() == cards[18:]
    with pytest.raises(PositionError, match="needs a base pick"):
        Position.from_deal(0, "selective")
    with pytest.raises(PositionError, match="is not one of the five"):
        Position.from_deal(0, "selective", pick=cards[0])


# ---------------------------------------------------------------------------
# Section 4: when an attempt ends
# ---------------------------------------------------------------------------


def test_won_when_all_52_are_on_the_foundations():
    pos = hand("strict", base="A", columns=["KS", "", "", ""])
    assert pos.banked == 51 and pos.status() == "playing"
    won = pos.apply("T1>F")
    assert won.banked == 52 and won.is_won() and won.status() == "won"


def test_blocked_position():
    pos = hand("strict", columns=BLOCK_COLS, reserve="2C 2D 2H 9C", stock="2S", rest="stock")
    assert sorted(moves(pos)) == ["draw"]
    # 2S is first in its packet of three: never the waste top under draw 3
    assert pos.status() == "blocked" and pos.is_blocked()
    # the same cards half-way through a pass are blocked too
    mid = pos.apply("draw").apply("draw")
    assert mid.status() == "blocked"


@pytest.mark.parametrize(
    "profile, stock",
    [
        ("strict", "4D 5C 2S"),  # 2S tops the first packet
        ("strict:draw=1", "2S"),  # every card comes to the top
        ("hevagames", "4D 5C 2S"),
    ],
)
def test_not_blocked_when_a_draw_brings_a_move(profile, stock):
    pos = hand(profile, columns=BLOCK_COLS, reserve="2C 2D 2H 9C", stock=stock, rest="stock")
    assert sorted(moves(pos)) == ["draw"]
    assert pos.status() == "playing" and not pos.is_blocked()


def test_not_blocked_while_a_card_move_exists():
    pos = hand("strict", columns=BLOCK_COLS, reserve="2C 2D 9C 2H", stock="2S", rest="stock")
    assert "R>F" in moves(pos)
    assert pos.status() == "playing"


def test_blocked_when_the_passes_run_out():
    pos = hand(
        "strict:passes=1", columns=BLOCK_COLS, reserve="2C 2D 2H 9C", stock="4D 5C 2S", rest="stock"
    )
    assert pos.status() == "playing"
    drawn = pos.apply("draw")
    assert "W>F" in moves(drawn)  # 2S tops the first packet
    buried = drawn.apply("draw")
    assert sorted(moves(buried)) == ["draw"]
    # no redeal will bring 2S back: blocked, though the stock is not empty
    assert buried.stock() and buried.status() == "blocked"
    # with unlimited passes the next pass brings 2S back
    unlimited = hand(
        "strict", columns=BLOCK_COLS, reserve="2C 2D 2H 9C", stock="4D 5C 2S", rest="stock"
    )
    assert unlimited.apply("draw").apply("draw").status() == "playing"


def test_blocked_with_no_stock_left():
    pos = hand("strict", columns=BLOCK_COLS, reserve="2C 2D 2H 2S 9C")
    assert pos.stock() == [] and pos.waste()
    assert sorted(moves(pos)) == ["redeal"]
    assert pos.status() == "blocked"


# Columns where a black 3 and a red 3 can only change places between columns:
# 3C may go from T1 onto 4D (T4) and back, 3D from T2 onto 4S (T3) and back.
SHUFFLE_COLS = [
    "KS QH JC TD 9S 8H 7C 6D 5S 4H 3C",
    "KH QC JD TS 9H 8C 7D 6S 5H 4C 3D",
    "KD QS JH TC 9D 8S 7H 6C 5D 4S",
    "4D",
]


def test_blocked_when_only_column_shuffles_remain():
    """Section 4: moves between columns alone do not advance play."""
    pos = hand(
        "strict", columns=SHUFFLE_COLS, reserve="2C 2D 2H 3H 3S 9C", stock="2S", rest="stock"
    )
    # card moves exist, but each only moves a 3 to the other red (black) 4
    assert sorted(moves(pos)) == ["T1>T4", "T2>T3", "draw"]
    assert pos.status() == "blocked" and pos.is_blocked()
    # and the shuffled layouts are blocked as well
    assert pos.apply("T1>T4").apply("T2>T3").status() == "blocked"


def test_not_blocked_when_a_shuffle_uncovers_a_foundation_card():
    """Section 4: blocked only if no sequence of column moves reaches a move
    that advances play. Moving 3C off 4H lets 4H go to its foundation."""
    pos = hand(
        "strict",
        columns=SHUFFLE_COLS,
        reserve="2C 2D 3S 9C",
        stock="2S",
        foundations=[1, 1, 3, 1],
        rest="stock",
    )
    assert not any(m.endswith(">F") for m in moves(pos))
    assert pos.status() == "playing"
    assert "T1>F" in moves(pos.apply("T1>T4"))


def test_not_blocked_when_a_shuffle_takes_a_reserve_card():
    """Emptying a column pulls the reserve top into it: that advances play."""
    cols = ["KS QH JC TD 9S 8H 7C 6D 5S 4H", *SHUFFLE_COLS[1:3], "3C"]
    pos = hand("strict", columns=cols, reserve="2C 2D 2H 3H 3S 4D 9C", stock="2S", rest="stock")
    # 3C onto 4H empties T4, and the reserve's 9C fills it
    assert sorted(moves(pos)) == ["T2>T3", "T4>T1", "draw"]
    assert pos.apply("T4>T1").reserve()[-1] == card("4D")
    assert pos.status() == "playing"
    # the same shuffle with the 3C on 4D in T4 leaves T4 non-empty: blocked
    kept = hand(
        "strict",
        columns=cols[:3] + ["4D 3C"],
        reserve="2C 2D 2H 3H 3S 9C",
        stock="2S",
        rest="stock",
    )
    assert "T4>T1" in moves(kept) and kept.status() == "blocked"


def test_worry_take_back_and_bank_again_does_not_advance():
    """Section 4 under worry: a card taken back from a foundation is a column
    move, and banking it again does not bring the foundations above their
    count when the exploration began."""
    pos = hand(
        "strict:worry=yes",
        columns=SHUFFLE_COLS,
        reserve="AC AS 2C 2D 3H 3S 9C",  # no black ace to go on 2H
        stock="2S",
        foundations=[0, 1, 2, 0],
        rest="stock",
    )
    assert "FH>T1" in moves(pos)
    back = pos.apply("FH>T1")
    assert "T1>F" in moves(back)
    assert pos.status() == "blocked"
    # from ``back`` the count to beat is one lower: banking 2H advances there
    assert back.status() == "playing"


def test_a_new_attempt_replays_the_identical_deal():
    first = Position.from_deal(42, "cardgames")
    rng = random.Random(0)
    pos = first
    for _ in range(30):
        pos = pos.apply(rng.choice(pos.legal_moves()))
    again = Position.from_deal(42, "cardgames")
    assert again == first and again.snapshot() == first.snapshot()


# ---------------------------------------------------------------------------
# Invariants over random play, checked against the rules as stated
# ---------------------------------------------------------------------------


def _builds(x: int, y: int, profile, base: int) -> bool:
    """docs/rules.md section 2/3 column building, written out independently."""
    if rank_of(x) != (rank_of(y) - 1) % 13:
        return False
    if profile.wrap == "base" and rank_of(y) == base:
        return False
    if profile.build == "suit":
        return suit_of(x) == suit_of(y)
    if profile.build == "rank":
        return True
    return is_red(x) != is_red(y)


@pytest.mark.parametrize(
    "profile, pick",
    [
        ("strict", None),
        ("hevagames", None),
        ("cardgames", None),
        ("solvitaire", None),
        ("storehouse", None),
        ("rainbow", None),
        ("superior", None),
        ("selective", "last"),
    ],
)
def test_invariants_in_random_play(profile, pick):
    prof = parse_profile(profile)
    rng = random.Random(profile)
    for deal in range(4):
        p = deal_cards(deal)[17] if pick else None
        pos = Position.from_deal(deal, prof, pick=p)
        for _ in range(200):
            snap = pos.snapshot()
            found = {
                s * 13 + (snap["base"] + i) % 13
                for s, n in enumerate(snap["foundations"])
                for i in range(n)
            }
            everything = list(found) + snap["reserve"] + snap["stock"] + snap["waste"]
            for col in snap["columns"]:
                everything += col
                for lower, upper in zip(col[1:], col, strict=False):
                    assert _builds(lower, upper, prof, snap["base"]), col
            assert sorted(everything) == list(range(52))
            legal = pos.legal_moves()
            assert len(set(legal)) == len(legal)
            for m in legal:
                assert m.dst != "F" or m.count == 1
                assert not m.src.startswith("F") or prof.worry == "yes"
            if not legal:
                break
            m = rng.choice(legal)
            nxt = pos.apply(m)
            if m.dst == "F":
                assert nxt.banked == pos.banked + 1
            elif m.src.startswith("F"):
                assert nxt.banked == pos.banked - 1
            else:
                assert nxt.banked == pos.banked
            assert len(nxt.reserve()) <= len(pos.reserve())
            pos = nxt


def test_illegal_move_objects_and_strings_agree():
    pos = Position.from_deal(0)
    with pytest.raises(IllegalMove):
        pos.apply(Move("T2", "T1", 1))
    with pytest.raises(IllegalMove, match="KH does not build on QS"):
        pos.apply("T2>T1")
    with pytest.raises(IllegalMove, match="5H does not go on its foundation"):
        pos.apply("T3>F")
