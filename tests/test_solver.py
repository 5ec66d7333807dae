"""The solver against hand-built answers, a brute-force oracle and itself.

The brute force below walks every atomic move of the plain reference rules
(``tests/reference_rules.py``), draws and redeals included, so it shares no
code with the compiled search, its macro moves or its pruning.
"""

from __future__ import annotations

import random

import pytest
from reference_rules import (
    RefState,
    packs_of,
    ref_apply,
    ref_banked,
    ref_from_snapshot,
    ref_key,
    ref_legal_moves,
)

from canfield.engine.cards import parse_card, parse_cards
from canfield.engine.notation import Pick, parse_move
from canfield.engine.position import Position
from canfield.engine.profiles import PRESETS, parse_profile
from canfield.solver import config as solver_config
from canfield.solver.search import Solver, parse_bytes, parse_seconds, solve, solve_deal


def replay(deal: int, profile: str, moves: list[str]) -> Position:
    """Play notation lines from the dealt position through the engine, and
    through the reference rules too (:func:`ref_replay`): both must agree."""
    prof = parse_profile(profile)
    pick = None
    if moves and moves[0].startswith("pick"):
        first = parse_move(moves[0])
        assert isinstance(first, Pick)
        pick, moves = first.card, moves[1:]
    return replay_both(Position.from_deal(deal, prof, pick=pick), moves)


def replay_both(start: Position, moves: list[str]) -> Position:
    """``moves`` played from ``start`` by the engine and by the reference rules;
    the engine's end, after checking that both reach the same position."""
    pos = start
    for line in moves:
        pos = pos.apply(line)
    ref = ref_replay(start, moves)
    assert ref_key(ref) == ref_key(_ref_state(pos)), moves
    return pos


def ref_replay(start: Position, moves: list[str]) -> RefState:
    """Play notation lines from ``start`` through the plain reference rules
    (``tests/reference_rules.py``); ``ref_apply`` refuses an illegal line."""
    st = _ref_state(start)
    for i, line in enumerate(moves):
        try:
            st = ref_apply(st, line)
        except ValueError:
            pytest.fail(f"line {i + 1} ({line}) is illegal under the reference rules")
    return st


# ---- brute force over the reference rules -------------------------------------
def _ref_state(pos: Position) -> RefState:
    return ref_from_snapshot(pos.profile, pos.snapshot())


def brute_force(pos: Position, cap: int = 60_000) -> tuple[str, int] | None:
    """``('won'|'lost', most banked)`` over every atomic line; None past ``cap``."""
    start = _ref_state(pos)
    seen = {ref_key(start)}
    todo = [start]
    best = ref_banked(start)
    every = 52 * packs_of(pos.profile)  # 104 for double
    while todo:
        st = todo.pop()
        for mv in sorted(ref_legal_moves(st)):  # a set: sorted, for runs that repeat
            nxt = ref_apply(st, mv)
            k = ref_key(nxt)
            if k in seen:
                continue
            seen.add(k)
            b = ref_banked(nxt)
            if b == every:
                return "won", every
            best = max(best, b)
            todo.append(nxt)
            if len(seen) > cap:
                return None
    return "lost", best


def late_positions(profile: str, count: int, seed: int, stock_left: int = 16) -> list[Position]:
    """Positions deep in random, progress-seeking games: small search spaces."""
    rng = random.Random(seed)
    out: list[Position] = []
    deal = 1000 * seed
    while len(out) < count:
        deal += 1
        pos = Position.from_deal(deal, profile)
        for _ in range(400):
            moves = pos.legal_moves()
            if not moves:
                break
            good = [m for m in moves if m.dst == "F" or m.src == "R"]
            cols = [m for m in moves if not m.is_stock]
            pick = good or (cols if cols and rng.random() < 0.5 else moves)
            pos = pos.apply(rng.choice(pick))
        if len(pos.stock()) + len(pos.waste()) <= stock_left and pos.status() != "won":
            out.append(pos)
    return out


@pytest.mark.parametrize(
    "profile, stock_left, cap",
    [
        ("strict", 16, 60_000),
        ("hevagames", 16, 60_000),
        ("strict:passes=2", 16, 60_000),
        ("superior", 16, 30_000),
        ("storehouse", 16, 30_000),
        ("cardgames", 8, 6_000),  # worry: the brute force is slow, keep it small
    ],
)
def test_solver_matches_brute_force_on_late_positions(profile, stock_left, cap):
    compared = 0
    for pos in late_positions(profile, 12, seed=len(profile), stock_left=stock_left):
        truth = brute_force(pos, cap)
        if truth is None:
            continue
        for prune in (True, False):
            # a node cap, not the clock: the first solve of a fresh process may
            # compile (with bounds checks, 30 s and more on a loaded machine)
            r = Solver(memory=1 << 26, prune=prune).solve(pos, seconds=3600, nodes=5_000_000)
            assert (r.result, r.banked) == truth, (pos.show(), prune, r.result, r.banked, truth)
            assert replay_both(pos, r.best_line).banked == r.banked
        compared += 1
    assert compared >= 4


def test_pruning_on_and_off_agree_on_deals():
    """The pruning rules together must change neither the verdict nor the banked count."""
    on, off = Solver(1 << 27, prune=True), Solver(1 << 27, prune=False)
    both = 0
    for profile in ("strict", "hevagames"):
        for deal in range(0, 30):
            pos = Position.from_deal(deal, profile)
            a = on.solve(pos, seconds=60, nodes=40_000)
            b = off.solve(pos, seconds=60, nodes=40_000)
            if a.decided and b.decided:
                both += 1
                assert (a.result, a.banked) == (b.result, b.banked), (profile, deal)
            assert not (a.result == "won" and b.result == "lost")
            assert not (a.result == "lost" and b.result == "won")
    assert both >= 25


@pytest.mark.parametrize(
    "rule, profiles",
    [
        ("P1", ("strict", "hevagames")),
        ("E1", ("strict", "hevagames")),
        ("E2", ("strict", "hevagames")),
        ("B1", ("strict", "storehouse")),  # B1 does not apply to hevagames
    ],
)
def test_each_rule_on_and_off_agree_on_deals(rule, profiles):
    """Each rule alone: all rules on against all but this one."""
    others = [r for r in ("P1", "E1", "E2", "B1") if r != rule]
    on, off = Solver(1 << 27, prune=True), Solver(1 << 27, prune=others)
    both = differ_in_search = 0
    for profile in profiles:
        for deal in range(0, 25):
            pos = Position.from_deal(deal, profile)
            a = on.solve(pos, seconds=60, nodes=40_000)
            b = off.solve(pos, seconds=60, nodes=40_000)
            differ_in_search += (a.nodes, a.children) != (b.nodes, b.children)
            if a.decided and b.decided:
                both += 1
                assert (a.result, a.banked) == (b.result, b.banked), (profile, deal)
            assert {a.result, b.result} != {"won", "lost"}, (profile, deal)
    assert both >= 25
    assert differ_in_search > 0, f"switching {rule} off changed no search: it was never used"


# Rainbow (draw 1, one pass) rarely comes out: deal 1 is a known win.
REPLAY_DEALS = {"rainbow": ([1], 600_000)}


# double's wins replay in tests/test_double.py (late positions: few deals win at this budget)
@pytest.mark.parametrize("profile", sorted(p for p in PRESETS if PRESETS[p].packs == 1))
def test_solutions_replay_to_a_win_for_every_preset(profile):
    won = 0
    deals, nodes = REPLAY_DEALS.get(profile, (range(12), 30_000))
    for deal in deals:
        r = solve_deal(deal, profile, seconds=120, nodes=nodes)
        # a win's best line is its solution: replayed once (lines run to 14,000 moves)
        end = replay(deal, profile, r.best_line)
        assert end.banked == r.banked
        if r.result == "won":
            won += 1
            assert r.moves == r.best_line and end.is_won()
        if r.result == "lost":
            assert r.banked < 52
    assert won >= 1, f"no deal of {list(deals)} won under {profile}"


def test_tiny_budget_is_unknown_never_lost():
    # generous time (a cold numba cache compiles inside it): the nodes run out
    r = solve(Position.from_deal(0, "strict"), seconds=600, nodes=5)
    assert r.result == "unknown"
    assert r.stop_reason == "nodes"
    assert 1 <= r.banked < 52


def test_table_memory_budget_gives_unknown():
    # generous time: the budget that runs out must be the memory, not the clock
    r = Solver(memory=1 << 16, evict=False).solve(Position.from_deal(0, "strict"), seconds=120)
    assert r.result == "unknown" and r.stop_reason == "memory"
    assert r.peak_table_bytes <= 1 << 16


def test_deep_paths_grow_the_stack_and_change_nothing(monkeypatch):
    # hevagames deal 42 is won on a path over 20,000 moves deep by the full
    # search (a probe wins it on a short one); a stack that starts at 16
    # levels must grow to it and find the same verdict
    pos = Position.from_deal(42, "hevagames")
    big = Solver(memory=1 << 26, probes=False).solve(pos, seconds=60)
    monkeypatch.setattr(solver_config, "START_DEPTH", 16)
    small = Solver(memory=1 << 26, probes=False).solve(pos, seconds=60)
    assert big.result == small.result == "won"
    assert big.max_depth > 4096
    assert (small.nodes, small.banked, small.moves) == (big.nodes, big.banked, big.moves)


def test_path_deeper_than_the_limit_is_unknown_never_lost(monkeypatch):
    monkeypatch.setattr(solver_config, "MAX_DEPTH", 64)
    monkeypatch.setattr(solver_config, "START_DEPTH", 16)
    r = Solver(memory=1 << 26, probes=False).solve(Position.from_deal(42, "hevagames"), seconds=60)
    assert r.result == "unknown" and r.stop_reason == "depth"
    assert r.max_depth <= 64


def test_a_full_move_stack_grows_short_of_the_depth_limit(monkeypatch):
    # Every level of the path keeps its moves in one stack sized for
    # MOVES_PER_LEVEL a level. Deal 42's deep hevagames path (over 4,096
    # levels) holds more than one move a level, so with one a level the stack
    # fills first; it must grow on its own, not stop the solve as "depth"
    # while the path is far short of MAX_DEPTH (0.23.12 did: hevagames 1250
    # stopped at 72 million positions, 868,968 levels deep, and is won).
    pos = Position.from_deal(42, "hevagames")
    big = Solver(memory=1 << 26, probes=False).solve(pos, seconds=60)
    monkeypatch.setattr(solver_config, "START_DEPTH", 16)
    monkeypatch.setattr(solver_config, "MOVES_PER_LEVEL", 1)
    monkeypatch.setattr(solver_config, "MAX_DEPTH", 1 << 15)
    solver = Solver(memory=1 << 26, probes=False)
    small = solver.solve(pos, seconds=60)
    assert big.max_depth < 1 << 15
    assert (small.result, small.nodes, small.banked, small.moves) == (
        big.result,
        big.nodes,
        big.banked,
        big.moves,
    )
    # the stack grew past what the levels alone size it for: the growth
    # under test happened
    path = solver._main_path
    assert path.mstack.shape[0] > path.states.shape[0] * 1 + solver_config.MAX_MACROS


def _almost_won(profile: str = "strict") -> Position:
    # Everything banked but 5C (top of column 1), 4D and 5D (waste), with base 6.
    return Position.from_parts(
        profile,
        base=5,
        foundations=[12, 11, 13, 13],
        reserve=[],
        columns=[[parse_card("5C")], [], [], []],
        stock=[],
        waste=parse_cards("5D 4D"),
    )


def test_a_few_moves_from_a_win():
    pos = _almost_won()
    r = solve(pos, seconds=5)
    assert r.result == "won"
    end = replay_both(pos, r.moves)
    assert end.is_won()
    assert len([m for m in r.moves if not m.startswith(("draw", "redeal"))]) == 3


def test_already_blocked_position_is_lost_with_its_banked():
    # base 6; only hearts are left, and nothing builds on a heart. A draw-3
    # pass turns up 2H, 5H and KH: 6H (the card the hearts need) lies
    # first in the stock order and never comes to the top.
    pos = Position.from_parts(
        "strict",
        base=5,
        foundations=[13, 13, 0, 13],
        reserve=[],
        columns=[parse_cards("7H"), parse_cards("8H"), parse_cards("9H"), parse_cards("TH")],
        stock=parse_cards("JH QH KH"),
        waste=parse_cards("6H AH 2H 3H 4H 5H"),
    )
    assert pos.status() == "blocked"
    r = solve(pos, seconds=5)
    assert (r.result, r.banked) == ("lost", 39)


def test_only_the_waste_fills_a_space_under_strict():
    # Reserve gone, column 2 empty. Under strict only the waste top may enter
    # the space; under hevagames 5S may too, which frees 6H for its foundation.
    cards = dict(
        base=0,
        foundations=[13, 13, 5, 3],
        reserve=[],
        columns=[parse_cards("6H 5S"), [], parse_cards("KH"), parse_cards("KS")],
        stock=[],
        waste=parse_cards("4S 6S 7S 8S 9S TS JS QS 7H 8H 9H TH JH QH"),
    )
    strict = Position.from_parts("strict", **cards)
    lenient = Position.from_parts("hevagames", **cards)
    into_space = {str(m) for m in strict.legal_moves() if m.dst == "T2"}
    assert into_space == {"W>T2"}
    assert "T1>T2" in {str(m) for m in lenient.legal_moves()}
    for pos in (strict, lenient):
        truth = brute_force(pos, cap=200_000)
        r = solve(pos, seconds=10)
        assert (r.result, r.banked) == truth
        assert replay_both(pos, r.moves).is_won()
        assert r.result == "won"
        assert all(line.startswith(("W", "draw", "redeal")) for line in r.moves[:1])


def test_banked_of_a_lost_position_known_by_hand():
    # base A; clubs, diamonds and spades are complete, hearts hold AH. The
    # columns hold 5H, QH, 9H and 7H, and the waste 2H 3H 4H 6H 8H TH JH KH
    # (KH on top) with the stock empty. Every black card is banked, so no red
    # card can be built on, and no column is empty. Drawing three from the
    # redealt eight cards brings up only 4H, TH and KH: 2H never reaches the
    # waste top, nothing can be played but the stock, and 40 cards stay banked.
    cards = dict(
        base=0,
        foundations=[13, 13, 1, 13],
        reserve=[],
        columns=[parse_cards("5H"), parse_cards("QH"), parse_cards("9H"), parse_cards("7H")],
        stock=[],
        waste=parse_cards("2H 3H 4H 6H 8H TH JH KH"),
    )
    r = solve(Position.from_parts("strict", **cards), seconds=5)
    assert (r.result, r.banked) == ("lost", 40)
    # worry lets a foundation top come back down, but every top is a king or
    # AH and none of them fits a column: the same cards stay banked
    worry = Position.from_parts("cardgames", **cards)
    assert worry.profile.worry == "yes"
    w = solve(worry, seconds=5)
    assert (w.result, w.banked) == ("lost", 40)


def test_budget_strings():
    assert parse_seconds("10s") == 10.0
    assert parse_seconds("250ms") == pytest.approx(0.25)
    assert parse_seconds("2m") == 120.0
    assert parse_bytes("2GB") == 2 << 30
    assert parse_bytes("512MB") == 512 << 20
    for bad in ("ten", "-1s", "0"):
        with pytest.raises(ValueError):
            parse_seconds(bad)
    with pytest.raises(ValueError):
        parse_bytes("lots")


# ---- turned orders (Solver(turn=...)) -------------------------------------------
@pytest.mark.parametrize(
    "profile, nodes",
    [
        ("strict", 20_000),
        ("hevagames", 20_000),
        ("storehouse", 20_000),
        ("superior", 20_000),
        ("rainbow:passes=3", 200_000),
    ],
)
def test_a_turned_order_decides_as_the_usual_one(profile, nodes):
    """Any order searches the same tree: where the usual order and a turned
    one both decide a deal, verdict and banked agree; every turned win
    replays on the engine and the reference; and the turn must change the
    search (positions searched) on some deal, or the option does nothing."""
    compared, changed = {"won": 0, "lost": 0}, 0
    for deal in range(14):
        usual = solve_deal(deal, profile, seconds=600, nodes=nodes)
        turned = solve_deal(deal, profile, seconds=600, nodes=nodes, turn=128)
        assert turned.turn == 128 and usual.turn == 0
        if usual.decided and turned.decided:
            assert (turned.result, turned.banked) == (usual.result, usual.banked), deal
            compared[usual.result] += 1
        changed += turned.nodes != usual.nodes
        if turned.result == "won":
            assert replay(deal, profile, turned.moves).is_won()
    assert sum(compared.values()) >= 4, compared
    assert changed >= 1, "the turn changed no search"
    if profile in ("strict", "storehouse"):
        assert compared["lost"] >= 1 and compared["won"] >= 1, compared


def test_a_turned_order_wins_where_the_usual_one_is_still_searching():
    """Strict deal 36 at 300,000 positions: the usual order is still deep in
    a losing branch, the order turned by 192/256 wins (the win replays)."""
    usual = solve_deal(36, "strict", seconds=600, nodes=300_000)
    turned = solve_deal(36, "strict", seconds=600, nodes=300_000, turn=192)
    assert usual.result == "unknown"
    assert turned.result == "won" and turned.nodes < 300_000
    assert replay(36, "strict", turned.moves).is_won()


def test_a_turn_outside_its_search_is_refused():
    with pytest.raises(ValueError, match="0-255"):
        Solver(turn=256)
    with pytest.raises(ValueError, match="only the depth-first search"):
        Solver(turn=3, strategy="layers")
    with pytest.raises(ValueError, match="no turned order"):
        Solver(turn=3).solve(Position.from_deal(0, "double"), seconds=5, nodes=100)
