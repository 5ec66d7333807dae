"""docs/rules.md section 1: deal numbers and their four test vectors."""

from __future__ import annotations

import pytest
from test_cli import assert_user_error, run

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
