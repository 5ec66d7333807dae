"""docs/rules.md section 5: scores, with hand-computed values."""

from __future__ import annotations

import random

import pytest

from canfield.engine.notation import Move, Pick
from canfield.engine.position import Position
from canfield.engine.scores import (
    banked,
    cardgames_delta,
    cardgames_running,
    cardgames_score,
    casino_net,
    hevagames_score,
)


def test_banked_counts_the_dealt_base_card():
    assert banked(Position.from_deal(0)) == 1
    assert banked(Position.from_deal(0, "storehouse")) == 4


def test_hevagames_lost_game_is_ten_a_card():
    assert hevagames_score(1, False, 0, 0) == 10
    assert hevagames_score(17, False, 120, 300) == 170
    # no bonus without a win, however fast
    assert hevagames_score(51, False, 1, 1) == 510


def test_hevagames_win_bonus():
    # 520 + 1000 - 2*150 - 0.5*200 = 1120
    assert hevagames_score(52, True, 150, 200) == 1120
    # half seconds count: 520 + 1000 - 2*100 - 0.5*61 = 1289.5
    assert hevagames_score(52, True, 100, 61) == 1289.5
    # the bonus never goes negative: 2*400 + 0.5*600 = 1100 > 1000
    assert hevagames_score(52, True, 400, 600) == 520
    # exactly zero bonus
    assert hevagames_score(52, True, 250, 1000) == 520


def test_hevagames_rejects_nonsense():
    with pytest.raises(ValueError):
        hevagames_score(51, True, 10, 10)
    with pytest.raises(ValueError):
        hevagames_score(53, False, 10, 10)
    with pytest.raises(ValueError):
        hevagames_score(10, False, -1, 10)
    with pytest.raises(ValueError):
        hevagames_score(10, False, 1, -0.5)


def test_cardgames_deltas():
    assert cardgames_delta("W>F") == 10
    assert cardgames_delta("R>F") == 10
    assert cardgames_delta("T3>F") == 10
    assert cardgames_delta(Move("T1", "F", 1)) == 10
    assert cardgames_delta("FH>T2") == -15
    for nothing in ("draw", "redeal", "T1>T2", "T1>T2x3", "W>T4", "R>T1"):
        assert cardgames_delta(nothing) == 0
    with pytest.raises(ValueError):
        cardgames_delta(Pick(0))


def test_cardgames_score_by_hand():
    assert cardgames_score([]) == 0
    assert cardgames_score(["draw", "redeal", "T1>T2"]) == 0
    assert cardgames_score(["draw", "W>F", "T1>T2", "R>F"]) == 20
    # 4 cards up (40), one back (25), that one up again (35)
    assert cardgames_score(["W>F", "W>F", "R>F", "T1>F", "FS>T1", "T1>F"]) == 35


def test_cardgames_floor_applies_at_each_step():
    # 10, then -15 floors at 0 (not -5), then +10 counts from 0
    assert cardgames_running(["W>F", "FC>T1", "T1>F"]) == [10, 0, 10]
    assert cardgames_score(["W>F", "FC>T1", "T1>F"]) == 10
    # taking back with nothing scored stays at 0
    assert cardgames_running(["FD>T1", "FD>T2"]) == [0, 0]
    assert cardgames_running(["R>F", "R>F", "FH>T1", "W>F"]) == [10, 20, 5, 15]


def test_cardgames_delta_matches_the_banked_change_in_real_play():
    """+10 exactly when a move banks a card, -15 exactly when it unbanks one."""
    rng = random.Random(5)
    seen = {10: 0, -15: 0, 0: 0}
    for deal in range(6):
        pos = Position.from_deal(deal, "cardgames")
        for _ in range(300):
            legal = pos.legal_moves()
            if not legal:
                break
            m = rng.choice(legal)
            nxt = pos.apply(m)
            d = cardgames_delta(m)
            seen[d] += 1
            assert nxt.banked - pos.banked == {10: 1, -15: -1, 0: 0}[d], m
            pos = nxt
    assert all(seen.values()), seen


def test_casino_net():
    assert casino_net(1) == 5 - 52
    assert casino_net(11) == 3
    assert casino_net(52) == 208
    assert casino_net(52, price=50) == 210
    assert casino_net(10, price=50, per_card=5) == 0
    with pytest.raises(ValueError):
        casino_net(60)
