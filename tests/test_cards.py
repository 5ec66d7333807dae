"""docs/rules.md section 1: card tokens."""

from __future__ import annotations

import pytest
from cli_errors import assert_user_error
from test_cli import run

from canfield.engine.cards import (
    CardError,
    card_str,
    cards_str,
    is_red,
    parse_card,
    parse_cards,
    parse_deck,
    rank_of,
    suit_of,
)
from canfield.engine.deals import deal_cards


def test_card_index_is_suit_times_13_plus_rank():
    assert parse_card("AC") == 0
    assert parse_card("KC") == 12
    assert parse_card("AD") == 13
    assert parse_card("AH") == 26
    assert parse_card("KS") == 51
    assert [card_str(c) for c in (0, 9, 25, 38, 51)] == ["AC", "TC", "KD", "KH", "KS"]


def test_every_card_round_trips():
    for c in range(52):
        assert parse_card(card_str(c)) == c
        assert rank_of(c) == c % 13 and suit_of(c) == c // 13


@pytest.mark.parametrize("token", ["TD", "10D", "td", "10d", "t♦", "10♦", "T♦", " TD "])
def test_ten_forms(token):
    assert parse_card(token) == parse_card("TD") == 22


@pytest.mark.parametrize(
    "token, expect",
    [("a♣", "AC"), ("q♦", "QD"), ("7♥", "7H"), ("K♠", "KS"), ("js", "JS"), ("2h", "2H")],
)
def test_symbols_and_lower_case(token, expect):
    assert card_str(parse_card(token)) == expect


def test_red_suits():
    assert [is_red(parse_card(t)) for t in ("5C", "5D", "5H", "5S")] == [False, True, True, False]


@pytest.mark.parametrize(
    "token", ["", "A", "1C", "11C", "0D", "AX", "ZH", "TT", "10", "♣", "A♣♣", "AC,", "1OH"]
)
def test_unknown_tokens(token):
    with pytest.raises(CardError):
        parse_card(token)


def test_card_str_rejects_non_cards():
    for bad in (-1, 52, 100):
        with pytest.raises(CardError):
            card_str(bad)


def test_parse_cards_separators():
    assert parse_cards("AC, 2C 3c\n4♣") == [0, 1, 2, 3]
    assert parse_cards(["TD", "10h"]) == [22, 35]
    assert parse_cards("") == []


def test_parse_deck_accepts_a_deal():
    cards = deal_cards(3)
    assert parse_deck(cards_str(cards)) == cards
    assert parse_deck(cards_str(cards).lower()) == cards


def test_parse_deck_errors():
    text = cards_str(range(52)).split()
    with pytest.raises(CardError, match="52 cards, got 51"):
        parse_deck(text[:51])
    with pytest.raises(CardError, match="52 cards, got 53"):
        parse_deck(text + ["AC"])
    with pytest.raises(CardError, match="AC appears twice"):
        parse_deck(["AC"] + text[1:51] + ["AC"])
    with pytest.raises(CardError, match="unknown card"):
        parse_deck(text[:51] + ["XX"])


def test_bad_card_on_the_command_line_is_one_error_line():
    """The command line reports a bad ``--cards`` deal with the reader's own
    reason, as one ``error:`` line and exit code 2, never a traceback."""
    text = cards_str(deal_cards(0)).replace("TH", "1H")
    with pytest.raises(CardError) as raised:
        parse_deck(text)
    line = assert_user_error(run("replay", "--cards", text, "-", input="draw\n"))
    assert line == f"error: {raised.value}"
