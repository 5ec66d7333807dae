"""docs/rules.md section 1: deal numbers and their four test vectors."""

from __future__ import annotations

import pytest
from cli_errors import assert_user_error
from test_cli import run

from canfield.engine.cards import cards_str, parse_deck
from canfield.engine.deals import MAX_DEAL, DealNumberError, deal_cards, splitmix64

VECTORS = {
    0: "8S JH 9C 2S 2D QD 6S TC 3D AC JC 7C 9H 8C QS KH 5H 2C 3H 5C AH 6C 4S TD 5D 8H 8D "
    "AD QH TS QC JD 3S 4D 2H 9D 3C KD AS 7S 9S 7D JS 6H KS 4C 7H 5S 6D 4H KC TH",
    1: "7D 9C 4D 8H 8D 5S JD 6D 9S JC 5D KD 3C 2D JH 5H 7H 4H 2C AD 6S KC KH TH TS JS TD 8S "
    "QC 4S 6C 7C AS 5C AH KS 6H QS QH QD 9D 3D 3S AC 4C 2H 8C TC 3H 2S 9H 7S",
    12345: "6H 9H 6S 9S AS TC KD 8S 7D TD 2D 5C 8D 3D QD 7S 8C 3C 9C 9D 4C 4D JC QS TS 3S AD "
    "JD 8H 5D JS 4S TH KS AC 3H 7C 6D AH KC QH 4H 2C 5S KH 5H QC 2H 7H 6C JH 2S",
    2**63 - 1: "5C JC 8H AH TD 9H 2C TC 8S QH 3H 3C TS QC 8D AS 2D 7D 7H JS KH 3D 9S QD KC JH "
    "7C 5D 6D 9D AD 6S 6C 2S 4S 9C 5S 6H TH 4D AC 7S 8C KD 3S 4H JD 2H 4C QS 5H KS",
}


@pytest.mark.parametrize("number", sorted(VECTORS))
def test_rules_md_vectors(number):
    assert cards_str(deal_cards(number)) == VECTORS[number]


def test_vectors_are_permutations():
    for text in VECTORS.values():
        assert sorted(parse_deck(text)) == list(range(52))


def test_splitmix64_known_values():
    # SplitMix64 seeded with 0: the reference sequence of Vigna's splitmix64.c
    rng = splitmix64(0)
    assert next(rng) == 0xE220A8397B1DCDAF
    assert next(rng) == 0x6E789E6AA1B965F4
    assert next(rng) == 0x06C45D188009454F


@pytest.mark.parametrize("number", [0, 1, 2**32, 2**64 - 1])
def test_deal_range_edges_are_valid_and_distinct(number):
    cards = deal_cards(number)
    assert sorted(cards) == list(range(52))


def test_deals_differ_and_repeat():
    assert deal_cards(7) == deal_cards(7)
    assert len({tuple(deal_cards(n)) for n in range(50)}) == 50
    assert deal_cards(2**64 - 1) != deal_cards(2**64 - 2)


@pytest.mark.parametrize("bad", [-1, MAX_DEAL, 2**64, 2**70, -(2**64)])
def test_deal_number_out_of_range(bad):
    with pytest.raises(DealNumberError, match="0..2"):
        deal_cards(bad)


@pytest.mark.parametrize("bad", ["99999999999999999999999", str(MAX_DEAL)])
def test_bad_deal_number_on_the_command_line_is_one_error_line(bad):
    """``canfield deal N`` out of range says why in one ``error:`` line, exit 2."""
    with pytest.raises(DealNumberError) as raised:
        deal_cards(int(bad))
    assert assert_user_error(run("deal", bad)) == f"error: {raised.value}"


# docs/rules.md "Deal numbers for double": the deck 0..103 shuffled the same
# way, each index read as the card index % 52 (the two copies written alike)
DOUBLE_VECTORS = {
    0: "3D 8S JC 6C 4D 2H TC 7D AH 8D TD 6C AH KS JH KD 5D 9D 5S 9C 3H QH 5H JS QC TD 8C "
    "3H JH 2C AC 9C KS KH 4S 7H 5C 9H 6D 2D 2C 6S 3C KC AC QS JD 8H 4C 9H 5H 3D 6H QH 5C "
    "6D 8C AD 7C 7D 8D 6H TS 4S 8S QC 2D 7H 2S 2H 9D QS 5D KD 3S 4H 7C 4D JS 3S 7S 3C TC "
    "JD AS 2S JC KH QD 9S 4H 6S 4C AD 7S TH AS 8H TS 9S KC 5S QD TH",
    1: "6H 7H JC 8C KS 7D 6S 8C 6C 9C 5C TH KD JH AH QS TS 4D 3C 4C JC 9S JS KC 5S 3S 7S "
    "AC 8S 9C 8D 9D QD 3D 6C 7D AS AD AS 6D 6H KH 3H KC JS TD 5S 5D 2D 3S 2C 8H 7C 4S 8H "
    "2H JH 2S 9H 2C 5C 9S 5H 7C 3C 6S 2S AH TH 4S 9H QH 4C 4D QS QH 2H 9D 4H QC KS TC 7H "
    "6D 5D 5H AD TS 2D KH QD 3H 8S QC 3D 8D TD KD JD TC JD AC 4H 7S",
}


def _plain_two_pack_shuffle(number: int) -> list[int]:
    """The rules.md recipe written out once more, step by step, from the
    raw SplitMix64 outputs (independent of deal_cards' loop)."""
    outputs = splitmix64(number)
    deck = list(range(104))
    i = 103
    while i >= 1:
        j = next(outputs) % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
        i -= 1
    return [index % 52 for index in deck]


@pytest.mark.parametrize("number", sorted(DOUBLE_VECTORS))
def test_double_deal_vectors(number):
    assert cards_str(deal_cards(number, packs=2)) == DOUBLE_VECTORS[number]
    assert deal_cards(number, packs=2) == _plain_two_pack_shuffle(number)


@pytest.mark.parametrize("number", [0, 1, 99, 2**64 - 1])
def test_double_deals_hold_every_card_twice(number):
    cards = deal_cards(number, packs=2)
    assert sorted(cards) == sorted(list(range(52)) * 2)
    assert parse_deck(cards_str(cards), packs=2) == cards


def test_double_deals_differ_from_single_deals():
    assert deal_cards(5, packs=2)[:52] != deal_cards(5)
    assert len({tuple(deal_cards(n, packs=2)) for n in range(30)}) == 30
