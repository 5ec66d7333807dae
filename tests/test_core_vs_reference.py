"""Property tests: the numba core (``engine.position``) against the slow oracle.

Every preset of ``engine.profiles.PRESETS`` and a few override combinations are
played from random deals along random legal playouts. After every move the two
implementations must offer the same legal moves and show the same table; every
few moves they must agree on the status; and every position must survive a
round trip through ``Position.from_parts``. The canonical key is checked too:
equal exactly when positions are equal up to the order of the four columns.

A failure message carries everything needed to replay it: profile, deal
number, pick (selective) and the move list.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reference_rules import (
    N_COLUMNS,
    RefState,
    _auto_fill,
    builds_on,
    extend_run,
    ref_apply,
    ref_from_snapshot,
    ref_initial,
    ref_legal_moves,
    ref_snapshot,
    ref_status,
)

from canfield.engine.cards import card_str, rank_of
from canfield.engine.deals import deal_cards
from canfield.engine.position import Position
from canfield.engine.profiles import PRESETS, UNLIMITED, parse_profile

OVERRIDES = [
    "strict:worry=yes",
    "strict:draw=1",
    "hevagames:wrap=base",
    "strict:passes=2",
    "superior:moves=any",
    "cardgames:space=waste",
    "rainbow:passes=3",
    "double:passes=inf",
    "double:moves=whole,space=any",
    "double:draw=1,wrap=base",
    # option combinations no preset has, each played for a minute of long
    # games without a disagreement (docs/engine.md, Checked beyond the tests)
    "storehouse:worry=yes",
    "strict:build=rank",
]
PROFILES = list(PRESETS) + OVERRIDES

SETTINGS = settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

deals = st.integers(min_value=0, max_value=2**64 - 1)
picks = st.integers(min_value=0, max_value=4)
choices = st.lists(st.integers(min_value=0, max_value=2**16 - 1), min_size=40, max_size=150)


# ---------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------


def _progress_rank(move: str) -> int:
    """Smaller is more progress: foundation plays, then reserve, waste, columns."""
    if move.endswith(">F"):
        return 0
    if move.startswith("R>"):
        return 1
    if move.startswith("W>"):
        return 2
    if move.startswith("T"):
        return 3
    if move.startswith("F"):
        return 5  # worry: back from a foundation
    return 4  # draw / redeal


def greedy_move(moves: list[str], rng: random.Random, greedy: float) -> str:
    """With probability ``greedy`` a card move of the most progress, else any move."""
    if rng.random() >= greedy:
        return rng.choice(moves)
    cards = [m for m in moves if m not in ("draw", "redeal")] or moves
    best = min(_progress_rank(m) for m in cards)
    return rng.choice([m for m in cards if _progress_rank(m) == best])


def choose(moves: list[str], c: int) -> str:
    """Pick from the SORTED legal move list with one drawn integer.

    The low 3 bits choose a mode: 0-2 any move, 3-4 any non-stock move,
    5-7 one of the moves that make the most progress; the rest is the index.
    """
    mode, idx = c & 7, c >> 3
    pool = moves
    if mode >= 3:
        cards = [m for m in moves if m not in ("draw", "redeal")]
        if cards:
            pool = cards
            if mode >= 5:
                best = min(_progress_rank(m) for m in cards)
                pool = [m for m in cards if _progress_rank(m) == best]
    return pool[idx % len(pool)]


def canon(snap: dict) -> tuple:
    """A snapshot with the columns in a fixed order: equal iff keys must be equal."""
    return (
        snap["base"],
        tuple(snap["foundations"]),
        tuple(snap["reserve"]),
        tuple(sorted(tuple(c) for c in snap["columns"])),
        tuple(snap["stock"]),
        tuple(snap["waste"]),
        snap["redeals"],
    )


def rebuild(pos: Position, columns=None, **changes) -> Position:
    """``from_parts`` from ``pos``'s snapshot, same profile and game info."""
    snap = pos.snapshot()
    if columns is not None:
        snap["columns"] = columns
    snap.update(changes)
    g = pos.game
    return Position.from_parts(
        pos.profile,
        base=snap["base"],
        foundations=snap["foundations"],
        reserve=snap["reserve"],
        columns=snap["columns"],
        stock=snap["stock"],
        waste=snap["waste"],
        redeals=snap["redeals"],
        deal=g.deal,
        deal_number=g.deal_number,
        pick=g.pick,
    )


def stock_room(profile) -> int:
    """Most cards stock and waste hold together: 34, or 78 for two packs."""
    return 34 if profile.packs == 1 else 78


def engine_moves(pos: Position) -> list[str]:
    moves = [str(m) for m in pos.legal_moves()]
    assert len(moves) == len(set(moves)), f"engine lists a move twice: {sorted(moves)}"
    return sorted(moves)


class Game:
    """One deal played in lock step by the engine and the reference."""

    def __init__(self, profile: str, deal: int, pick: int = 0) -> None:
        self.profile_name = profile
        self.profile = parse_profile(profile)
        self.deal = deal
        self.pick = pick
        cards = deal_cards(deal, self.profile.packs)
        selective = self.profile.layout == "selective"
        self.pos = Position.from_deal(
            deal, self.profile, pick=cards[13 + pick] if selective else None
        )
        self.ref = ref_initial(cards, self.profile, pick=pick)
        self.history: list[str] = []
        self.seen: dict[tuple, tuple] = {}  # key -> canonical snapshot
        self.keys: dict[tuple, tuple] = {}  # canonical snapshot -> key

    def where(self) -> str:
        pick = f" pick={self.pick}" if self.profile.layout == "selective" else ""
        return (
            f"profile={self.profile_name} deal={self.deal}{pick} "
            f"after {len(self.history)} moves: {' '.join(self.history)}"
        )

    def check(self, status: bool = False, roundtrip: bool = True) -> list[str]:
        """Compare everything; return the (sorted) legal moves."""
        em = engine_moves(self.pos)
        rm = sorted(ref_legal_moves(self.ref))
        assert em == rm, (
            f"legal moves differ, {self.where()}\n"
            f"  engine only: {sorted(set(em) - set(rm))}\n"
            f"  reference only: {sorted(set(rm) - set(em))}"
        )
        es, rs = self.pos.snapshot(), ref_snapshot(self.ref)
        assert es == rs, f"snapshots differ, {self.where()}\n  engine: {es}\n  ref:    {rs}"
        if status:
            e, r = self.pos.status(), ref_status(self.ref)
            assert e == r, f"status differs, {self.where()}: engine {e}, reference {r}"
        # The canonical key within this game: equal iff equal up to column order.
        key, c = self.pos.key(), canon(es)
        assert self.seen.setdefault(key, c) == c, f"key collision, {self.where()}"
        assert self.keys.setdefault(c, key) == key, f"key not canonical, {self.where()}"
        if roundtrip:
            self.check_roundtrip(em)
        return em

    def check_roundtrip(self, moves: list[str]) -> None:
        pos = self.pos
        snap = pos.snapshot()
        back = rebuild(pos)
        assert back.snapshot() == snap, f"from_parts round trip, {self.where()}"
        assert engine_moves(back) == moves, f"from_parts changes the moves, {self.where()}"
        # from_parts makes a new stock order from waste+stock, so the header
        # word can differ once stock cards were played; the columns cannot.
        k, kb = pos.key(), back.key()
        head = pos.profile.packs  # header words before the columns: 1, or 2 for double
        assert kb[head:] == k[head:], f"from_parts changes the column key, {self.where()}"
        if len(snap["stock"]) + len(snap["waste"]) == len(pos.game.stock):
            assert kb == k, f"from_parts changes the key, {self.where()}"
        assert rebuild(back).key() == kb, f"from_parts not idempotent, {self.where()}"

    def play(self, move: str) -> None:
        self.history.append(move)
        self.pos = self.pos.apply(move)
        self.ref = ref_apply(self.ref, move)


def run_playout(profile: str, deal: int, pick: int, seq: list[int]) -> Game:
    g = Game(profile, deal, pick)
    moves = g.check(status=True)
    for i, c in enumerate(seq):
        if not moves:
            break
        g.play(choose(moves, c))
        moves = g.check(status=(i % 10 == 9))
    g.check(status=True)
    return g


# ---------------------------------------------------------------------------
# random deals, random playouts, every profile
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("profile", PROFILES)
@SETTINGS
@given(deal=deals, pick=picks, seq=choices)
def test_playout_agrees(profile: str, deal: int, pick: int, seq: list[int]) -> None:
    run_playout(profile, deal, pick, seq)


@pytest.mark.parametrize("profile", ["hevagames", "strict"])
def test_many_deep_games(profile: str) -> None:
    """Plain random games, mostly greedy, on many deals: reaches late-game positions."""
    rng = random.Random(20240611 + len(profile))
    reached = {"reserve empty": 0, "space": 0, "long run": 0, "won or blocked": 0}
    for _ in range(40):
        g = Game(profile, rng.randrange(2**64))
        moves = g.check(status=True)
        for step in range(500):
            if not moves:
                break
            g.play(greedy_move(moves, rng, 0.8))
            check_status = step % 10 == 9
            moves = g.check(status=check_status, roundtrip=step % 4 == 0)
            snap = g.pos.snapshot()
            reached["reserve empty"] += not snap["reserve"]
            reached["space"] += any(not col for col in snap["columns"])
            reached["long run"] += max(len(col) for col in snap["columns"]) > 13
            if check_status and g.pos.status() != "playing":
                reached["won or blocked"] += 1
                break
    assert reached["reserve empty"] and reached["space"] and reached["won or blocked"], reached


# ---------------------------------------------------------------------------
# arbitrary positions built with from_parts (long runs, spaces, worry)
# ---------------------------------------------------------------------------


def random_parts(rng: random.Random, profile) -> dict | None:
    """A random legal position under ``profile`` as from_parts arguments, or None.

    Two packs (``double``): base A, eight foundations with the higher of a
    suit's two first (the order play keeps them in), five columns.
    """
    packs = profile.packs
    base = rng.randrange(13) if packs == 1 else 0
    probe = RefState(profile=profile, base=base)
    foundations = [
        rng.choice([0, rng.randrange(14), 13 - rng.randrange(4)]) for _ in range(4 * packs)
    ]
    if packs == 2:
        foundations = [n for su in range(4) for n in sorted(foundations[2 * su : 2 * su + 2])[::-1]]
    free = list(range(52)) * packs
    for f, n in enumerate(foundations):
        for i in range(n):
            free.remove((f // packs) * 13 + (base + i) % 13)
    rng.shuffle(free)
    columns: list[list[int]] = []
    for _ in range(N_COLUMNS + packs - 1):
        target = rng.choice([0, 1, 2, rng.randrange(1, 15), rng.randrange(10, 53)])
        col: list[int] = []
        if target and free:
            col.append(free.pop())
            extend_run(probe, col, free, rng, lambda c, target=target: len(c) >= target)
        columns.append(col)
    rng.shuffle(columns)
    rest = len(free)
    most = stock_room(profile)
    if rest > 13 + most:
        return None
    lo, hi = max(0, rest - most), min(13, rest)
    n_res = rng.choice([lo, hi, rng.randint(lo, hi)])
    # Under fill=auto an empty column with reserve cards left is filled by
    # from_parts at once (and by the reference's auto-fill): both must agree.
    reserve, rest_cards = free[:n_res], free[n_res:]
    n_waste = rng.randint(0, len(rest_cards))
    passes = profile.passes
    return {
        "base": base,
        "foundations": foundations,
        "reserve": reserve,
        "columns": columns,
        "waste": rest_cards[:n_waste],
        "stock": rest_cards[n_waste:],
        "redeals": rng.randrange(passes) if passes != UNLIMITED else 0,
    }


def random_position(seed: int, profile_name: str) -> tuple[Position, RefState, dict]:
    profile = parse_profile(profile_name)
    rng = random.Random(seed)
    parts = None
    while parts is None:
        parts = random_parts(rng, profile)
    pos = Position.from_parts(profile, **parts)
    ref = ref_from_snapshot(profile, parts)
    _auto_fill(ref)
    return pos, ref, parts


@pytest.mark.parametrize("profile", PROFILES)
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_arbitrary_position_agrees(profile: str, seed: int) -> None:
    """Every legal move of a random hand-made position, one step deep."""
    pos, ref, parts = random_position(seed, profile)
    where = f"profile={profile} position seed={seed}: {parts}"
    assert pos.snapshot() == ref_snapshot(ref), f"from_parts/auto-fill differ, {where}"
    em, rm = engine_moves(pos), sorted(ref_legal_moves(ref))
    assert em == rm, f"legal moves differ, {where}\n  engine {em}\n  ref    {rm}"
    assert pos.snapshot() == ref_snapshot(ref), where
    assert pos.status() == ref_status(ref), where
    for move in em:
        a, b = pos.apply(move), ref_apply(ref, move)
        assert a.snapshot() == ref_snapshot(b), f"after {move}: {where}"
        assert engine_moves(a) == sorted(ref_legal_moves(b)), f"after {move}: {where}"


# ---------------------------------------------------------------------------
# the canonical key
# ---------------------------------------------------------------------------


def _mutations(pos: Position) -> dict[str, Position]:
    """Positions that differ from ``pos`` in one thing, each built with from_parts."""
    snap = pos.snapshot()
    out: dict[str, Position] = {}
    cols = snap["columns"]
    found = snap["foundations"]
    if snap["waste"]:  # same game: the stock/waste boundary moves by one card
        out["waste top back on the stock"] = rebuild(
            pos, waste=snap["waste"][:-1], stock=[snap["waste"][-1]] + snap["stock"]
        )
    if snap["stock"]:
        out["one more card on the waste"] = rebuild(
            pos, waste=snap["waste"] + [snap["stock"][0]], stock=snap["stock"][1:]
        )
    passes = pos.profile.passes
    if passes != UNLIMITED and passes > 1:
        r = (snap["redeals"] + 1) % passes
        out["another redeal count"] = rebuild(pos, redeals=r)
    total = len(snap["stock"]) + len(snap["waste"])
    room = stock_room(pos.profile)
    packs = pos.profile.packs
    for su in range(len(found)):
        if found[su]:
            top = (su // packs) * 13 + (snap["base"] + found[su] - 1) % 13
            f = list(found)
            f[su] -= 1
            if total < room:
                out[f"foundation {su} top to waste"] = rebuild(
                    pos, foundations=f, waste=snap["waste"] + [top]
                )
            elif len(snap["reserve"]) < 13:
                out[f"foundation {su} top to reserve"] = rebuild(
                    pos, foundations=f, reserve=snap["reserve"] + [top]
                )
            break
    probe = RefState(profile=pos.profile, base=snap["base"])
    for i, col in enumerate(cols):
        if len(col) >= 2 and total < room:
            new = [list(c) for c in cols]
            card = new[i].pop()
            out[f"column {i + 1} top to waste"] = rebuild(
                pos, columns=new, waste=snap["waste"] + [card]
            )
            # The same rank in another suit that also builds there, if it is in
            # the stock: swap the two (only the column's stored choice changes).
            for other in snap["stock"]:
                if (
                    other != card
                    and rank_of(other) == rank_of(card)
                    and builds_on(probe, other, col[-2])
                ):
                    swapped = [list(c) for c in cols]
                    swapped[i][-1] = other
                    stock = list(snap["stock"])
                    stock[stock.index(other)] = card  # one copy (two packs: two)
                    out[f"column {i + 1} top {card_str(card)}->{card_str(other)}"] = rebuild(
                        pos, columns=swapped, stock=stock
                    )
                    break
            break
    for i, col in enumerate(cols):
        for j, dst in enumerate(cols):
            if i != j and len(col) >= 2 and dst and builds_on(probe, col[-1], dst[-1]):
                new = [list(c) for c in cols]
                new[j].append(new[i].pop())
                out[f"top of column {i + 1} onto column {j + 1}"] = rebuild(pos, columns=new)
    if snap["reserve"] and total < room:
        out["reserve top to waste"] = rebuild(
            pos, reserve=snap["reserve"][:-1], waste=snap["waste"] + [snap["reserve"][-1]]
        )
    return out


def check_key_properties(pos: Position, perm: list[int], where: str) -> None:
    base = rebuild(pos)
    cols = base.snapshot()["columns"]
    permuted = rebuild(base, columns=[cols[p] for p in perm])
    assert permuted.key() == base.key(), f"column order changes the key: {where} perm={perm}"
    assert rebuild(permuted).key() == base.key(), where
    if pos.profile.packs == 2:
        # the two foundations of a suit are interchangeable: swapping any
        # pair keeps the key (from_parts takes them in either order)
        found = base.snapshot()["foundations"]
        for su in range(4):
            swapped = list(found)
            swapped[2 * su], swapped[2 * su + 1] = found[2 * su + 1], found[2 * su]
            assert rebuild(base, foundations=swapped).key() == base.key(), (
                f"swapping the two {su} foundations changes the key: {where}"
            )
    for what, other in _mutations(base).items():
        if canon(other.snapshot()) == canon(base.snapshot()):
            continue  # e.g. a foundation card to an empty waste under auto-fill
        assert other.key() != base.key(), f"same key after '{what}': {where}"


@pytest.mark.parametrize("profile", ["strict", "hevagames", "rainbow", "storehouse", "cardgames"])
@settings(max_examples=20, deadline=None)
@given(deal=deals, seq=choices, perm=st.permutations(range(4)))
def test_canonical_key_from_playout(profile: str, deal: int, seq: list[int], perm) -> None:
    g = Game(profile, deal)
    moves = g.check(roundtrip=False)
    for c in seq[:60]:
        if not moves:
            break
        g.play(choose(moves, c))
        moves = g.check(roundtrip=False)
    check_key_properties(g.pos, list(perm), g.where())


@pytest.mark.parametrize("profile", ["strict", "hevagames", "rainbow", "storehouse", "superior"])
@settings(max_examples=30, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1), perm=st.permutations(range(4)))
def test_canonical_key_arbitrary(profile: str, seed: int, perm) -> None:
    pos, _, parts = random_position(seed, profile)
    check_key_properties(pos, list(perm), f"profile={profile} seed={seed}: {parts}")


def test_key_directed_mutations() -> None:
    """A few hand-picked single changes on deal 0 (strict) each change the key."""
    g = Game("strict", 0)
    for move in "T1>T2 draw W>T4 draw draw W>F W>F T1>F draw draw draw W>F draw".split():
        g.play(move)
    g.check(status=True)
    pos = g.pos
    muts = _mutations(pos)
    assert {"waste top back on the stock", "one more card on the waste"} <= set(muts)
    assert any(name.startswith("foundation") for name in muts)
    assert any(name.startswith("reserve") for name in muts)
    keys = {rebuild(pos).key()} | {m.key() for m in muts.values()}
    assert len(keys) == len(muts) + 1
    # Every permutation of the columns gives one key.
    cols = pos.snapshot()["columns"]
    perms = [[0, 1, 2, 3], [3, 2, 1, 0], [1, 0, 3, 2], [2, 3, 0, 1], [1, 2, 3, 0]]
    assert len({rebuild(pos, columns=[cols[p] for p in perm]).key() for perm in perms}) == 1


# ---------------------------------------------------------------------------
# blocked (docs/rules.md section 4): only column shuffles left
# ---------------------------------------------------------------------------


def test_status_agrees_where_only_column_moves_remain() -> None:
    """Core and reference agree on the status of seeded random positions,
    among them positions that have legal card moves yet are blocked (every
    move only shuffles cards between columns and never leads to one that
    advances play): the case section 4's new sentence adds."""
    profiles = ["strict", "hevagames", "rainbow", "superior", "cardgames", "strict:worry=yes"]
    shuffles_only = {p: 0 for p in profiles}
    for profile in profiles:
        for seed in range(150):
            pos, ref, parts = random_position(seed, profile)
            status = pos.status()
            assert status == ref_status(ref), f"profile={profile} seed={seed}: {parts}"
            card_moves = [m for m in engine_moves(pos) if m not in ("draw", "redeal")]
            shuffles_only[profile] += status == "blocked" and bool(card_moves)
    assert sum(shuffles_only.values()) >= 5, shuffles_only


# ---------------------------------------------------------------------------
# double (two packs): the key under column permutations and foundation swaps
# ---------------------------------------------------------------------------


@settings(max_examples=20, deadline=None)
@given(deal=deals, seq=choices, perm=st.permutations(range(5)))
def test_double_key_from_playout(deal: int, seq: list[int], perm) -> None:
    g = Game("double", deal)
    moves = g.check(roundtrip=False)
    for c in seq:
        if not moves:
            break
        g.play(choose(moves, c))
        moves = g.check(roundtrip=False)
    check_key_properties(g.pos, list(perm), g.where())


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1), perm=st.permutations(range(5)))
def test_double_key_arbitrary(seed: int, perm) -> None:
    pos, _, parts = random_position(seed, "double")
    check_key_properties(pos, list(perm), f"profile=double seed={seed}: {parts}")


def test_double_deep_games_agree() -> None:
    """Mostly greedy random games of ``double`` reach late positions (reserve
    out, spaces, both foundations of a suit used, long runs) in lock step."""
    rng = random.Random(20261130)
    reached = {"reserve empty": 0, "space": 0, "second foundation": 0, "long run": 0, "ended": 0}
    for _ in range(12):
        g = Game("double", rng.randrange(2**64))
        moves = g.check(status=True)
        for step in range(600):
            if not moves:
                break
            g.play(greedy_move(moves, rng, 0.85))
            check_status = step % 25 == 24
            moves = g.check(status=check_status, roundtrip=step % 10 == 0)
            snap = g.pos.snapshot()
            reached["reserve empty"] += not snap["reserve"]
            reached["space"] += any(not col for col in snap["columns"])
            reached["second foundation"] += any(n > 1 for n in snap["foundations"][1::2])
            reached["long run"] += max(len(col) for col in snap["columns"]) > 8
            if check_status and g.pos.status() != "playing":
                reached["ended"] += 1
                break
    assert all(reached.values()), reached
