"""Each argued containment of docs/relations.md, checked along random play.

From many deals, a game is played at random under the smaller profile. In
every position reached, the same table is set up under the larger profile,
both in the numba core (``Position.from_parts``) and in the plain reference
rules (``tests/reference_rules.py``); every legal move of the smaller must be
legal under the larger and lead to the same table, automatic reserve fills
included. The test counts the positions checked and those where the larger
profile had strictly more moves, and fails if that never happened: the two
profiles must really differ along the play.
"""

from __future__ import annotations

import random

import pytest
from reference_rules import ref_apply, ref_from_snapshot, ref_legal_moves, ref_snapshot

import canfield
from canfield.engine.cards import rank_of
from canfield.engine.position import Position
from canfield.engine.profiles import UNLIMITED, parse_profile
from canfield.experiments.relations import relation

# (smaller, larger): every argument of docs/relations.md alone at least once,
# under the standard and the storehouse layouts, with fill=auto and fill=free
PAIRS = [
    ("strict", "strict:moves=any"),  # moves
    ("strict", "strict:space=any"),  # space
    ("strict", "hevagames"),  # moves + space
    ("hevagames", "cardgames"),  # worry
    ("solvitaire", "hevagames"),  # wrap
    ("strict:passes=2", "strict:passes=3"),  # passes, both limited
    ("strict:passes=2", "strict"),  # passes, limited to unlimited
    ("strict:draw=1,passes=1", "rainbow"),  # build: alt to rank
    ("storehouse:passes=2", "storehouse:build=rank"),  # build: suit to rank; passes 2 to 3
    ("superior", "superior:moves=any,worry=yes"),  # fill=free: moves + worry
]
#: Pairs whose random play never banks a base-rank card (while it has another
#: move): wrap=ak differs from wrap=base only on a base-rank card at a
#: column's top, which random play seldom leaves there.
HOLD_BASE = {("solvitaire", "hevagames")}
DEALS_PER_PAIR = 3
RANDOM_STEPS = 60  # a random game from the deal
LINE_NODES = 10_000  # the solver's budget for the line under the smaller profile
DETOUR_EVERY, DETOUR_STEPS = 15, 6  # random detours from the solver's line


def _progress(move: str) -> int:
    """Smaller is more progress, so that random games go deep."""
    if move.endswith(">F"):
        return 0
    if move.startswith("R>"):
        return 1
    if move in ("draw", "redeal"):
        return 3
    return 2


def _pick(moves: list[str], rng: random.Random, held: set[str] = frozenset()) -> str:
    moves = [m for m in moves if m not in held] or moves
    if rng.random() < 0.5:
        best = min(_progress(m) for m in moves)
        return rng.choice(sorted(m for m in moves if _progress(m) == best))
    return rng.choice(sorted(moves))


def _table(snap: dict, keep_redeals: bool) -> dict:
    """The snapshot without the redeal count when the larger profile has no
    pass limit: it keeps no count, and no rule reads one (docs/relations.md,
    passes)."""
    return snap if keep_redeals else {k: v for k, v in snap.items() if k != "redeals"}


def _check(pos: Position, large, where: str) -> tuple[set[str], bool]:
    """Check one position reached under the smaller profile against ``large``.

    Returns the smaller's legal moves and whether the larger has strictly more.
    """
    small = pos.profile
    keep = large.passes != UNLIMITED
    snap = pos.snapshot()
    # a snapshot's keys are from_parts' arguments; an unlimited profile keeps no count
    big = Position.from_parts(large, **{**snap, "redeals": snap["redeals"] if keep else 0})
    moves_s = {str(m) for m in pos.legal_moves()}
    moves_l = {str(m) for m in big.legal_moves()}
    ref_s = ref_from_snapshot(small, snap)
    ref_l = ref_from_snapshot(large, snap)
    assert ref_legal_moves(ref_s) == moves_s, where
    assert ref_legal_moves(ref_l) == moves_l, where
    assert moves_s <= moves_l, f"{where}: only under {small}: {moves_s - moves_l}"
    for m in sorted(moves_s):
        after = _table(pos.apply(m).snapshot(), keep)
        assert _table(big.apply(m).snapshot(), keep) == after, f"{where}, then {m}"
        # the reference applies every move too: its fill is written apart
        after = _table(ref_snapshot(ref_apply(ref_s, m)), keep)
        assert _table(ref_snapshot(ref_apply(ref_l, m)), keep) == after, f"{where}, then {m}"
    return moves_s, len(moves_l) > len(moves_s)


def _base_to_foundation(pos: Position, moves: set[str]) -> set[str]:
    """The moves that bank a base-rank card."""
    base = pos.game.base
    return {m for m in moves if m.endswith(">F") and rank_of(pos.card_at(m.split(">")[0])) == base}


def _random_play(
    pos: Position, large, steps: int, rng: random.Random, where: str, hold: bool
) -> list[int]:
    """Play ``steps`` random moves from ``pos``, checking every position;
    return [positions checked, positions with more moves under ``large``].
    ``hold``: never bank a base-rank card while another move exists."""
    counts = [0, 0]
    played: list[str] = []
    for _ in range(steps):
        moves, more = _check(pos, large, f"{where}, then {played}")
        counts[0] += 1
        counts[1] += more
        if not moves or pos.is_won():
            break
        held = _base_to_foundation(pos, moves) if hold else set()
        played.append(_pick(sorted(moves), rng, held))
        pos = pos.apply(played[-1])
    return counts


def _check_deal(small: str, large: str, deal: int, rng: random.Random) -> list[int]:
    """Random play from the deal, and along the solver's line under ``small``
    (its win or best line: it reaches the late positions, reserve gone and
    columns emptied, that random play seldom does) with random detours."""
    ps, pl = parse_profile(small), parse_profile(large)
    start = Position.from_deal(deal, ps)
    where = f"{small} <= {large}, deal {deal}"
    hold = (small, large) in HOLD_BASE
    counts = _random_play(start, pl, RANDOM_STEPS, rng, where, hold)
    r = canfield.solve(deal, profile=small, nodes=LINE_NODES, memory="16MB")
    pos = start
    for i, move in enumerate([*(r.moves or r.best_line), None]):
        if i % DETOUR_EVERY == 0:
            c = _random_play(pos, pl, DETOUR_STEPS, rng, f"{where}, line move {i}", hold)
        else:
            c = _random_play(pos, pl, 1, rng, f"{where}, line move {i}", hold)
        counts = [counts[0] + c[0], counts[1] + c[1]]
        if move is not None:
            pos = pos.apply(move)
    return counts


@pytest.mark.parametrize(("small", "large"), PAIRS)
def test_smaller_moves_are_larger_moves(small, large):
    assert relation(small, large) is not None, "the pair must be one the module relates"
    rng = random.Random(f"{small}|{large}")
    checked = more = 0
    for deal in [rng.randrange(2**32) for _ in range(DEALS_PER_PAIR)]:
        c, m = _check_deal(small, large, deal, rng)
        checked += c
        more += m
    print(f"{small} <= {large}: {checked} positions checked, {more} with more moves")
    assert checked >= DEALS_PER_PAIR * 20
    assert more > 0, f"{large} never offered a move {small} lacks: the check shows nothing"


@pytest.mark.parametrize(
    ("small", "large"),
    [("hevagames", "strict"), ("strict:draw=1", "strict"), ("strict", "strict:fill=free")],
)
def test_the_check_catches_unrelated_pairs(small, large):
    """Pairs the module leaves unrelated fail the same check: it can fail."""
    assert relation(small, large) is None
    rng = random.Random(f"{small}|{large}")
    with pytest.raises(AssertionError):
        for deal in [rng.randrange(2**32) for _ in range(DEALS_PER_PAIR)]:
            _check_deal(small, large, deal, rng)
