"""The information barrier: an Observation holds what a player can know, no more."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

from canfield.engine.notation import Move
from canfield.engine.observation import Observation, observe
from canfield.engine.position import Game, Position
from canfield.experiments.play import play_game
from canfield.experiments.players import GreedyPlayer


def _permute_hidden(pos: Position, seed: int, stock_too: bool = False) -> Position:
    """The same table with the face-down reserve (and maybe the stock) reordered."""
    snap = pos.snapshot()
    rng = random.Random(seed)
    res = snap["reserve"]
    hidden, top = res[:-1], res[-1:]
    rng.shuffle(hidden)
    stock = list(snap["stock"])
    if stock_too:
        rng.shuffle(stock)
    return Position.from_parts(
        pos.profile,
        base=snap["base"],
        foundations=snap["foundations"],
        reserve=hidden + top,
        columns=snap["columns"],
        stock=stock,
        waste=snap["waste"],
        redeals=snap["redeals"],
    )


def _midgame(deal: int, moves: int) -> Position:
    rec = play_game(deal, "strict", GreedyPlayer(), max_moves=moves)
    pos = Position.from_deal(deal, "strict")
    for m in rec.moves:
        pos = pos.apply(m)
    return pos


def _walk_types(value, path="obs", seen=None):
    """Yield (path, type) for every value reachable from ``value``."""
    seen = seen if seen is not None else set()
    if id(value) in seen:
        return
    seen.add(id(value))
    yield path, type(value)
    if isinstance(value, tuple | list | frozenset | set):
        for i, v in enumerate(value):
            yield from _walk_types(v, f"{path}[{i}]", seen)
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _walk_types(v, f"{path}[{k!r}]", seen)
    elif hasattr(value, "__dict__") or hasattr(value, "__dataclass_fields__"):
        for k, v in vars(value).items():
            yield from _walk_types(v, f"{path}.{k}", seen)


def test_dealt_position_shows_top_count_and_the_hidden_set():
    pos = Position.from_deal(2, "strict")
    obs = observe(pos)
    res = pos.reserve()
    assert obs.reserve_known == (res[-1],)
    assert obs.reserve_count == 13 and obs.hidden_reserve == 12
    assert obs.unknown == frozenset(res[:-1])
    assert obs.stock == tuple(pos.stock())
    assert obs.waste == () and obs.banked == 1
    assert obs.legal_moves() == pos.legal_moves()


@pytest.mark.parametrize("deal,moves", [(2, 0), (3, 25), (8, 60), (40, 40)])
def test_hidden_reserve_order_does_not_change_the_observation(deal, moves):
    pos = _midgame(deal, moves)
    assert len(pos.reserve()) >= 3, "pick a position with a hidden reserve order"
    obs = observe(pos)
    orders = set()
    for seed in range(5):
        other = _permute_hidden(pos, seed)
        orders.add(tuple(other.reserve()))
        assert observe(other) == obs
        assert hash(observe(other)) == hash(obs)
    assert orders - {tuple(pos.reserve())}, "the permutations must really differ"


def test_hidden_stock_order_does_not_change_a_stock_unknown_observation():
    pos = _midgame(3, 25)
    assert len(pos.stock()) >= 3
    obs = observe(pos, stock_known=False)
    assert obs.stock is None and obs.stock_count == len(pos.stock())
    assert set(pos.stock()) <= obs.unknown
    assert len(obs.unknown) == obs.hidden_reserve + obs.stock_count
    other = _permute_hidden(pos, 7, stock_too=True)
    assert other.stock() != pos.stock()
    assert observe(other, stock_known=False) == obs
    # with the stock known, the stock order is part of what is seen
    assert observe(other) != observe(pos)


def test_no_field_holds_a_hidden_order_or_a_position():
    pos = _midgame(8, 60)
    obs = observe(pos)
    hidden = set(pos.reserve()[:-1])
    assert hidden and obs.unknown == frozenset(hidden)
    card_fields = [obs.reserve_known, obs.waste, obs.stock, *obs.columns]
    for f in card_fields:
        assert not hidden & set(f), "a hidden reserve card is stored in an ordered field"
    allowed = (int, str, bool, type(None), tuple, frozenset, Move, Observation)
    for path, typ in _walk_types(obs):
        assert typ in allowed, f"{path} is a {typ.__name__}"
        assert typ not in (Position, Game, np.ndarray)
    # the deal number would give the deal away: it is not there
    assert not {"deal", "deal_number", "game", "position", "state"} & set(vars(obs))


def test_superior_shows_the_whole_reserve():
    pos = Position.from_deal(5, "superior")
    obs = observe(pos)
    assert obs.reserve_known == tuple(pos.reserve())
    assert obs.unknown == frozenset() and obs.hidden_reserve == 0
    assert observe(_permute_hidden(pos, 1)) != obs
    assert obs.sample(0) == pos


@pytest.mark.parametrize("stock_known", [True, False])
def test_samples_are_consistent_with_the_observation(stock_known):
    pos = _midgame(40, 40)
    obs = observe(pos, stock_known=stock_known)
    rng = random.Random(1)
    for _ in range(20):
        s = obs.sample(rng)
        assert observe(s, stock_known=stock_known) == obs
        assert s.legal_moves() == obs.legal_moves()
        assert s.game.deal_number is None and s.game.deal is None


def test_hidden_reserve_order_is_sampled_uniformly():
    obs = observe(Position.from_deal(2, "strict"))
    hidden = sorted(obs.unknown)
    rng = random.Random(5)
    n = 1200
    bottoms = Counter(obs.sample(rng).reserve()[0] for _ in range(n))
    assert set(bottoms) == set(hidden)
    expect = n / len(hidden)  # 100
    assert all(0.6 * expect < bottoms[c] < 1.45 * expect for c in hidden), bottoms
