"""Position formats: the text form and Solvitaire JSON round-trip exactly."""

from __future__ import annotations

import json
import random

import pytest

from canfield.engine.formats import (
    position_from_solvitaire,
    position_from_text,
    position_to_solvitaire,
    position_to_text,
)
from canfield.engine.position import Position, PositionError


def _played(deal: int, profile: str, steps: int, seed: int) -> Position:
    rng = random.Random(seed)
    pos = Position.from_deal(deal, profile)
    for _ in range(steps):
        moves = pos.legal_moves()
        if not moves:
            break
        pos = pos.apply(rng.choice(moves))
    return pos


@pytest.mark.parametrize("profile", ["strict", "hevagames", "storehouse", "rainbow:passes=3"])
def test_text_and_solvitaire_round_trip(profile):
    for deal in range(6):
        pos = _played(deal, profile, 60, seed=deal)
        back = position_from_text(position_to_text(pos))
        assert back.snapshot() == pos.snapshot()
        assert back.profile == pos.profile
        assert [str(m) for m in back.legal_moves()] == [str(m) for m in pos.legal_moves()]
        data = json.loads(json.dumps(position_to_solvitaire(pos)))
        again = position_from_solvitaire(data, profile)
        assert again.snapshot()["columns"] == pos.snapshot()["columns"]
        assert again.stock() == pos.stock() and again.waste() == pos.waste()
        assert again.foundations() == pos.foundations() and again.reserve() == pos.reserve()


def test_solvitaire_cards_use_10_and_top_last():
    pos = Position.from_deal(0, "strict")
    data = position_to_solvitaire(pos)
    assert data["reserve"][-1] == "9H"  # deal 0's 13th card is the reserve top
    assert data["stock"][-1] == "3H"  # deal 0's 19th card is turned first
    assert data["foundations"][0] == ["8C"]
    assert any("10" in c for pile in data.values() for c in pile if isinstance(c, str))


@pytest.mark.parametrize(
    "text, message",
    [
        ("base 8\nT1 QS QS", "both in"),
        ("foundations C:1", "no 'base'"),
        ("base 8\nfoo bar", "unknown field"),
        ("base Z", "base rank"),
    ],
)
def test_bad_text_positions_say_what_is_wrong(text, message):
    with pytest.raises(PositionError, match=message):
        position_from_text(text)


def test_bad_solvitaire_json():
    with pytest.raises(PositionError, match="not valid JSON"):
        position_from_solvitaire("{nope")
    with pytest.raises(PositionError, match="tableau piles"):
        position_from_solvitaire({"foundations": []})


def test_a_solvitaire_deal_with_two_piles_of_one_suit_is_refused():
    """A second foundation pile of a suit would overwrite the first, and its
    cards would vanish from the position: the text form refuses it too."""
    data = position_to_solvitaire(Position.from_deal(9, "strict"))
    assert data["foundations"][1] == ["7D"]
    data["foundations"][0] = ["7D"]
    with pytest.raises(PositionError, match="more than 1 foundation pile of suit D"):
        position_from_solvitaire(data)


@pytest.mark.parametrize("where", ["tableau piles", "foundations"])
def test_a_solvitaire_card_that_is_not_a_string_is_refused(where):
    data = position_to_solvitaire(Position.from_deal(9, "strict"))
    data[where][0] = [5]
    with pytest.raises(PositionError, match="must be a list of cards"):
        position_from_solvitaire(data)
