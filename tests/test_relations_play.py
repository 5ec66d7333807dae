"""Each argued containment of docs/relations.md, checked along random play.

From many deals, a game is played at random under the smaller profile. In
every position reached, the same table is set up under the larger profile,
both in the numba core (``Position.from_parts``) and in the plain reference
rules (``tests/reference_rules.py``); every legal move of the smaller must be
legal under the larger and lead to the same table, automatic reserve fills
included, at once or, after a sequence step (``draw``, ``fill``), through at
most two more moves of the larger (draws, or a move of the reserve top into
a column). The test counts the positions checked, those where the larger
profile had strictly more moves and the moves that needed more than one move
of the larger, and fails if the larger never had more moves, or if a
sequence step never added one: the two profiles must really differ along the
play.
"""

from __future__ import annotations

import random

import pytest
from reference_rules import ref_apply, ref_from_snapshot, ref_legal_moves, ref_snapshot

import canfield
from canfield.engine.cards import rank_of
from canfield.engine.deals import deal_cards
from canfield.engine.position import Position
from canfield.engine.profiles import UNLIMITED, parse_profile
from canfield.experiments.relations import SEQUENCE_STEPS, larger_line, relation

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
    ("strict", "superior"),  # fill: auto to free (a sequence step)
    ("strict:passes=3", "strict:draw=1"),  # draw: 3 to 1 (a sequence step); passes
    ("cardgames", "cardgames-draw1"),  # draw
    ("strict", "hevagames:draw=1,fill=free"),  # draw + moves + space + fill
    ("strict", "selective:moves=any"),  # layout (the start) + moves
    ("double", "double:draw=1"),  # draw, under two packs (engine/core_double.py)
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


def _added(legal, apply, snap, state, target: dict, keep: bool, most: int) -> int | None:
    """How few draws or reserve-to-column moves (at most ``most``) take
    ``state`` to ``target``; None if none do. Written over ``legal``, ``apply``
    and ``snap`` so that the core and the reference are searched alike."""
    if _table(snap(state), keep) == target:
        return 0
    found = [
        n + 1
        for m in legal(state)
        if m == "draw" or m.startswith("R>T")
        if most
        and (n := _added(legal, apply, snap, apply(state, m), target, keep, most - 1)) is not None
    ]
    return min(found) if found else None


def _core_legal(pos: Position) -> list[str]:
    return [str(m) for m in pos.legal_moves()]


def _check(pos: Position, large, where: str, sequence: bool) -> tuple[set[str], bool, int]:
    """Check one position reached under the smaller profile against ``large``.

    Returns the smaller's legal moves, whether the larger has strictly more,
    and how many of the smaller's moves took the larger more than one move
    (only a sequence step may: ``sequence``).
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
    most = 2 if sequence else 0
    longer = 0
    for m in sorted(moves_s):
        after = _table(pos.apply(m).snapshot(), keep)
        core_added = _added(
            _core_legal, Position.apply, Position.snapshot, big.apply(m), after, keep, most
        )
        assert core_added is not None, f"{where}, then {m}"
        # the reference applies every move too: its fill is written apart
        after = _table(ref_snapshot(ref_apply(ref_s, m)), keep)
        ref_added = _added(
            ref_legal_moves, ref_apply, ref_snapshot, ref_apply(ref_l, m), after, keep, most
        )
        assert ref_added == core_added, f"{where}, then {m}: {ref_added} against {core_added}"
        longer += core_added > 0
    return moves_s, len(moves_l) > len(moves_s), longer


def _base_to_foundation(pos: Position, moves: set[str]) -> set[str]:
    """The moves that bank a base-rank card."""
    base = pos.game.base
    return {m for m in moves if m.endswith(">F") and rank_of(pos.card_at(m.split(">")[0])) == base}


def _sequence(small: str, large: str) -> bool:
    """Whether the larger may need more moves than the smaller: a sequence step
    relates them, or (to show that the check fails) nothing does."""
    rel = relation(small, large)
    return rel is None or not rel.same_moves


def _random_play(
    pos: Position, large, steps: int, rng: random.Random, where: str, hold: bool
) -> list[int]:
    """Play ``steps`` random moves from ``pos``, checking every position;
    return [positions checked, positions with more moves under ``large``,
    smaller moves that took the larger more than one].
    ``hold``: never bank a base-rank card while another move exists."""
    counts = [0, 0, 0]
    played: list[str] = []
    sequence = _sequence(pos.profile.canonical(), large.canonical())
    for _ in range(steps):
        moves, more, longer = _check(pos, large, f"{where}, then {played}", sequence)
        counts[0] += 1
        counts[1] += more
        counts[2] += longer
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
        counts = [a + b for a, b in zip(counts, c, strict=True)]
        if move is not None:
            pos = pos.apply(move)
    return counts


@pytest.mark.parametrize(("small", "large"), PAIRS)
def test_smaller_moves_are_larger_moves(small, large):
    assert relation(small, large) is not None, "the pair must be one the module relates"
    rng = random.Random(f"{small}|{large}")
    checked = more = longer = 0
    for deal in [rng.randrange(2**32) for _ in range(DEALS_PER_PAIR)]:
        c, m, n = _check_deal(small, large, deal, rng)
        checked += c
        more += m
        longer += n
    print(
        f"{small} <= {large}: {checked} positions checked, {more} with more moves, "
        f"{longer} moves taking the larger more than one"
    )
    assert checked >= DEALS_PER_PAIR * 20
    steps = set(relation(small, large).arguments)
    # a draw of one adds no move, it changes what "draw" does; a layout adds a start
    if steps - SEQUENCE_STEPS - {"layout"}:
        assert more > 0, f"{large} never offered a move {small} lacks: the check shows nothing"
    if steps & SEQUENCE_STEPS:
        assert longer > 0, "no move needed the sequence step: its check shows nothing"


@pytest.mark.parametrize(
    ("small", "large"),
    [("hevagames", "strict"), ("strict:draw=1", "strict"), ("strict:fill=free", "strict")],
)
def test_the_check_catches_unrelated_pairs(small, large):
    """Pairs the module leaves unrelated fail the same check: it can fail."""
    assert relation(small, large) is None
    rng = random.Random(f"{small}|{large}")
    with pytest.raises(AssertionError):
        for deal in [rng.randrange(2**32) for _ in range(DEALS_PER_PAIR)]:
            _check_deal(small, large, deal, rng)


def _larger_start(deal: int, large: str) -> Position:
    """The deal under ``large``; a selective player picks deal card 14, the
    standard deal's base card."""
    pick = deal_cards(deal)[13] if parse_profile(large).layout == "selective" else None
    return Position.from_deal(deal, large, pick=pick)


@pytest.mark.parametrize(
    "large", ["superior", "strict:draw=1", "hevagames:draw=1,fill=free", "hevagames", "selective"]
)
def test_a_smaller_line_replays_under_the_larger(large):
    """``larger_line`` writes a `strict` line as a line of a profile a sequence
    step relates it to; replayed under that profile from the deal, it banks
    the same cards (wins stay wins). Counted: lines that needed added moves.
    Without a sequence step (`hevagames`) the line is the smaller's own."""
    same = relation("strict", large).same_moves
    lengthened = wins = 0
    for deal in (2, 3, 5, 0):
        r = canfield.solve(deal, profile="strict", nodes=LINE_NODES * 5, memory="64MB")
        line = r.moves or r.best_line
        out = larger_line(Position.from_deal(deal, "strict"), line, large)
        pos = _larger_start(deal, large)
        for m in out:
            pos = pos.apply(m)
        assert pos.banked == r.banked, (deal, large)
        rest = iter(out)  # every move of the smaller's line is kept, in order
        assert all(m in rest for m in line), (deal, large)
        lengthened += len(out) > len(line)
        wins += pos.is_won()
        if same:
            assert out == line
    assert (lengthened > 0) != same and wins > 0, (lengthened, wins)


def test_larger_line_refuses_what_it_cannot_write():
    start = Position.from_deal(2, "strict")
    with pytest.raises(ValueError, match="not contained"):
        larger_line(start, [], "strict:draw=1,fill=free,moves=any,worry=yes,build=suit")
    bad = next(m for m in ("T1>T2", "T2>T1", "T3>T4", "W>T1") if m not in _core_legal(start))
    with pytest.raises(ValueError):  # IllegalMove is a ValueError naming the move
        larger_line(start, [bad], "superior")


def test_the_standard_start_is_a_selective_start():
    """``layout``: picking deal card 14 lays out the standard deal exactly, and
    no other pick does (counted, so that the comparison can fail)."""
    same = other = 0
    for deal in range(40):
        standard = Position.from_deal(deal, "strict").snapshot()
        five = deal_cards(deal)[13:18]
        for i, card in enumerate(five):
            picked = Position.from_deal(deal, "selective", pick=card).snapshot()
            if i == 0:
                assert picked == standard, deal
                same += 1
            else:
                assert picked != standard, (deal, i)
                other += 1
    assert same == 40 and other == 160
