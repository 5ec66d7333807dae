"""The one-pack beam probe (solver/beam.py, solver/beam_run.py): where it
runs, that its wins are real and replay on the plain reference rules, that
it never turns a loss or a banked count, and that it bites: deals the
depth-first probes leave unknown at a budget are won with it."""

from __future__ import annotations

import math
import time
from collections import Counter

import numpy as np
import pytest
from reference_bound import ref_bound
from reference_rules import ref_apply, ref_banked, ref_initial
from test_bound import builder_games, ref_of

from canfield.engine import core
from canfield.engine.deals import deal_cards
from canfield.engine.position import Position
from canfield.engine.profiles import PRESETS, parse_profile
from canfield.solver import config
from canfield.solver.beam import AT_DEPTH, AT_KIN, AT_LEN, AT_N, beam, beam_start, cover, score
from canfield.solver.beam_run import (
    beam_applies,
    beam_bytes,
    beam_cascade,
    beam_probe,
    beam_table_slots,
    beam_width,
)
from canfield.solver.macros import expand_macros
from canfield.solver.pruning import WIN_ONLY, prune_mask
from canfield.solver.search import Solver, two_move_position
from canfield.solver.stats import N_STATS, RUNNING, ST_CUT, ST_NODES

BUILDS = config.BEAM_BUILDS


def _solve(deal: int, profile: str, nodes: int, beam: bool, monkeypatch) -> object:
    monkeypatch.setattr(config, "BEAM_BUILDS", BUILDS if beam else ())
    return Solver().solve(Position.from_deal(deal, profile), seconds=math.inf, nodes=nodes)


def _assert_wins_on_engine_and_reference(deal: int, moves, profile: str = "rainbow") -> None:
    """``moves`` played from ``deal`` win on the engine and, from the deal's
    cards, on the plain reference rules."""
    pos = Position.from_deal(deal, profile)
    for move in moves:
        pos = pos.apply(move)
    assert pos.is_won()
    ref = ref_initial(deal_cards(deal), parse_profile(profile))
    for move in moves:
        ref = ref_apply(ref, str(move))
    assert ref_banked(ref) == 52


def _probe_alone(pos: Position, cascade, monkeypatch) -> object:
    """The beam probe alone on ``pos`` with ``cascade``, at 750,000 positions
    (about 9,400 wide)."""
    monkeypatch.setattr(config, "BEAM_CASCADE", cascade)
    return beam_probe(pos, time.perf_counter(), math.inf, 750_000, 1 << 30, prune_mask(True))


def test_the_beam_runs_only_under_rank_only_building_or_free_spaces():
    def runs(profile: str) -> bool:
        return beam_applies(Position.from_deal(0, profile).game.rules)

    def cascade(profile: str) -> tuple:
        return beam_cascade(Position.from_deal(0, profile).game.rules)

    # selective (strict's building) needs a base pick to make a position
    ran = {name for name in PRESETS if name != "selective" and runs(name)}
    assert ran == {"rainbow", "superior"}
    assert runs("rainbow:passes=3") and runs("strict:build=rank") and runs("strict:fill=free")
    assert not runs("strict:draw=1")
    assert cascade("rainbow") == config.BEAM_CASCADE
    assert cascade("superior") == cascade("strict:fill=free") == config.BEAM_FREE_CASCADE
    assert all(weights[5] > 0 for weights, _, _ in config.BEAM_FREE_CASCADE)


def test_the_beam_wins_what_the_probes_leave_unknown_and_its_wins_replay(monkeypatch):
    """At 1,000,000 positions, rainbow deals 0, 13 and 19 are unknown to the
    depth-first search and its probes, and won by the beam (counted: every
    one must bite). Each win replays on the engine and, from the deal's
    cards, on the plain reference rules."""
    nodes = 1_000_000
    bites = 0
    for deal in (0, 13, 19):
        without = _solve(deal, "rainbow", nodes, False, monkeypatch)
        with_beam = _solve(deal, "rainbow", nodes, True, monkeypatch)
        assert without.result == "unknown", (deal, without.result)
        assert (with_beam.result, with_beam.stage) == ("won", "beam"), deal
        assert with_beam.nodes <= nodes
        bites += 1
        _assert_wins_on_engine_and_reference(deal, with_beam.moves)
    assert bites == 3


def test_the_beam_never_says_lost_and_keeps_the_verdict_and_banked(monkeypatch):
    """Rainbow deal 9 is lost. The beam alone runs dry on it and answers
    unknown (a probe's end proves nothing); the whole solve with and without
    the beam proves the same loss with the same banked count, the beam
    having run (its positions counted in the answer)."""
    pos = Position.from_deal(9, "rainbow")
    alone = beam_probe(pos, time.perf_counter(), 60.0, 200_000, 1 << 26, prune_mask(True))
    assert (alone.result, alone.reason, alone.stage) == ("unknown", "probe", "beam")
    assert alone.stats[0] > 0
    nodes = 3_000_000
    without = _solve(9, "rainbow", nodes, False, monkeypatch)
    with_beam = _solve(9, "rainbow", nodes, True, monkeypatch)
    assert without.result == with_beam.result == "lost"
    assert without.banked == with_beam.banked
    assert with_beam.nodes > without.nodes  # the beam's positions are in the count


@pytest.mark.parametrize("memory", [1 << 30, 1 << 24])
def test_the_beam_width_follows_its_budget_within_its_memory_share(memory):
    nodes = 4_000_000
    width = beam_width(math.inf, nodes, memory)
    asked = nodes // config.BEAM_LAYERS
    assert width <= asked
    assert beam_bytes(width) <= memory * config.BEAM_MEMORY_SHARE
    if beam_bytes(asked) <= memory * config.BEAM_MEMORY_SHARE:
        assert width == asked
    else:
        assert width < asked  # the memory share bit
    guess = int(3.0 * config.BEAM_RATE) // config.BEAM_LAYERS  # a time budget alone
    assert beam_width(3.0, None, 1 << 33) == guess


@pytest.mark.parametrize("kw", [3, 4])
def test_each_beam_table_has_room_for_its_budget_within_its_memory(kw):
    """Under a time budget alone a beam's table holds what
    ``config.BEAM_TABLE_RATE`` positions a second make in its time, not
    what ``BEAM_RATE``'s width guess makes: sized by the guess, 3 s held
    891,288 positions and superior deal 43's first beam, making more,
    ended the cascade for "memory" with most of 1 GiB unused (it bites:
    the guess's table fails the first assertion). Under a node budget the
    table holds the budget; a small memory caps both."""
    seconds, width = 3.0, beam_width(3.0, None, 1 << 30)
    big = 1 << 30
    slots = beam_table_slots(seconds, None, width, big, kw)
    assert slots * config.MAX_LOAD >= seconds * config.BEAM_TABLE_RATE + width
    assert slots * (8 * kw + 1) <= big
    assert seconds * config.BEAM_TABLE_RATE > 1_000_000 > seconds * config.BEAM_RATE
    nodes = 2_500_000
    slots = beam_table_slots(math.inf, nodes, width, big, kw)
    assert slots * config.MAX_LOAD >= nodes + width > slots / 2 * config.MAX_LOAD
    small = 1 << 22
    slots = beam_table_slots(seconds, None, width, small, kw)
    assert slots * (8 * kw + 1) <= small < 2 * slots * (8 * kw + 1)


def test_the_beam_keeps_to_a_time_budget():
    pos = Position.from_deal(2, "rainbow")
    t0 = time.perf_counter()
    r = beam_probe(pos, t0, 1.0, None, 1 << 28, prune_mask(True))
    assert r.result in ("won", "unknown")
    assert time.perf_counter() - t0 < 3.0


def test_the_beam_wins_a_two_move_position_and_its_line_replays():
    """Small enough to run as plain Python (tests/jit_off.py): the beam keeps
    the children of the root, wins three macro moves down and names that line."""
    pos = two_move_position("rainbow")
    r = beam_probe(pos, time.perf_counter(), 60.0, 100, 1 << 22, prune_mask(True))
    assert (r.result, r.stage) == ("won", "beam") and 2 <= r.stats[ST_NODES] <= 6
    moves, end = expand_macros(pos, r.macros)
    assert end.is_won() and len(moves) >= len(r.macros) == 3


def test_a_later_beam_of_the_cascade_wins_what_the_first_leaves(monkeypatch):
    """Each beam of ``config.BEAM_CASCADE`` runs with a table of its own until
    one wins. Rainbow deal 31 at 2,000,000 positions is unknown with the
    first score alone and won with the cascade (it bites), and the win
    replays on the engine and on the plain reference rules."""
    nodes = 2_000_000
    pos = Position.from_deal(31, "rainbow")
    cascade = config.BEAM_CASCADE
    first_score = tuple(b for b in cascade if b[0] == config.BEAM_WEIGHTS[0])
    assert len(cascade) > len(first_score) >= 1
    monkeypatch.setattr(config, "BEAM_CASCADE", first_score)
    first = Solver().solve(pos, seconds=math.inf, nodes=nodes)
    monkeypatch.setattr(config, "BEAM_CASCADE", cascade)
    every = Solver().solve(pos, seconds=math.inf, nodes=nodes)
    assert first.result == "unknown"
    assert (every.result, every.stage) == ("won", "beam") and every.nodes <= nodes
    _assert_wins_on_engine_and_reference(31, every.moves)


def _kin(pos: Position) -> tuple:
    """Everything but the columns, read through the engine's plain accessors
    (the twin of the kernel's signature of state bits)."""
    return (
        tuple(pos.foundations()),
        tuple(pos.reserve()),
        tuple(pos.waste()),
        tuple(pos.stock()),
        pos.redeals(),
    )


def _layers(
    deal: int, cap: int, width: int, depths: int, prune: int
) -> tuple[list, object, object]:
    """Run the first score's beam on rainbow ``deal`` one depth at a time:
    each depth's kept positions, and the beam's ``stats`` and ``at`` at the end."""
    pos = Position.from_deal(deal, "rainbow")
    g = pos.game
    kw = core.key_words(int(g.rules[core.R_BUILD]))
    keys = np.zeros((1 << 20, kw), np.uint64)
    used = np.zeros(1 << 20, np.bool_)
    layer = np.zeros((width, core.STATE_LEN), np.uint64)
    nxt = np.zeros_like(layer)
    parent = np.zeros((depths + 1, width), np.int64)
    macs = np.zeros_like(parent)
    at = np.zeros(AT_LEN, np.int64)
    stats = np.zeros(N_STATS, np.int64)
    w = np.array(config.BEAM_CASCADE[0][0], np.int64)
    beam_start(pos.state, g.rules, layer, keys, used, at, stats)
    layers = []
    while at[AT_DEPTH] < depths:
        # one depth a call: it pauses once any position was made past ``pause``
        code = beam(
            layer, nxt, at, g.arr, g.rules, np.int64(prune), w,
            stats[ST_NODES] + 1, 1 << 19, keys, used, parent, macs, stats, np.int64(cap),
        )  # fmt: skip
        layers.append([Position(g, layer[i].copy()) for i in range(at[AT_N])])
        if code != RUNNING:
            break
    return layers, stats, at


def _largest_kin_per_depth(deal: int, cap: int, width: int, depths: int) -> tuple[list[int], int]:
    """Run the first score's beam on rainbow ``deal`` one depth at a time
    and return, for each depth, the most positions kept that share
    everything but their columns, and how many positions the cap turned
    away in all."""
    layers, _, at = _layers(deal, cap, width, depths, prune_mask(True))
    largest = [max(Counter(_kin(p) for p in kept).values()) for kept in layers]
    return largest, int(at[AT_KIN])


def test_the_beam_keeps_out_every_position_that_cannot_win():
    """With ``WIN_ONLY`` (a solve sets it: ``config.PROBE_CUTS_NO_WIN``) rule B1 keeps every
    position whose bound is below 52 out of the beam. Checked against the
    plain twin of the bound (``tests/reference_bound.py``) on the positions
    kept at every fourth depth of rainbow deal 12: all 52 with it; without
    it the same beam keeps such positions (counted: the cut has something
    to bite on) and cuts none."""
    checked = below = 0
    for prune, want_below in ((prune_mask(True) | WIN_ONLY, False), (prune_mask(True), True)):
        layers, stats, _ = _layers(12, 4, 120, 60, prune)
        for depth, kept in enumerate(layers[3::4], 1):
            bounds = [ref_bound(ref_of(p)) for p in kept]
            if want_below:
                below += sum(b < 52 for b in bounds)
            else:
                assert bounds == [52] * len(bounds), 4 * depth
                checked += len(bounds)
        cut = int(stats[ST_CUT])
        assert (cut > 0) != want_below, cut
    assert checked >= 500 and below >= 20, (checked, below)


def test_the_beam_that_keeps_out_dead_positions_wins_what_the_other_leaves():
    """Rainbow deal 5, the beam probe alone at 1.5 million positions:
    unknown as before; won with the cut (``WIN_ONLY``; it bites), and the
    win replays on the engine and on the plain reference rules."""
    pos = Position.from_deal(5, "rainbow")
    runs = {}
    for on in (False, True):
        prune = prune_mask(True) | (WIN_ONLY if on else 0)
        runs[on] = beam_probe(pos, time.perf_counter(), math.inf, 1_500_000, 1 << 30, prune)
    assert runs[False].result == "unknown"
    assert (runs[True].result, runs[True].stage) == ("won", "beam")
    assert int(runs[True].stats[ST_CUT]) > 0
    moves, end = expand_macros(pos, runs[True].macros)
    assert end.is_won()
    _assert_wins_on_engine_and_reference(5, moves)


def test_the_kin_cap_keeps_at_most_its_number_of_column_arrangements_a_depth():
    """With the cap at 4, no depth of the beam keeps more than 4 positions
    that differ only in their columns (counted by the engine's accessors,
    not the kernel's bits), and the cap turned positions away; without it
    the same beam keeps more than 4 at some depths (the cap has something
    to bite on: those depths are counted and must exist)."""
    cap = config.BEAM_CASCADE[0][1]
    assert cap == 4
    capped, turned_away = _largest_kin_per_depth(7, cap, 400, 40)
    free, none_turned = _largest_kin_per_depth(7, 0, 400, 40)  # 0: no cap
    assert len(capped) >= 30 and max(capped) <= 4
    assert turned_away > 0 and none_turned == 0
    assert sum(n > 4 for n in free) >= 5


def test_the_kin_cap_wins_where_the_beam_without_it_runs_dry(monkeypatch):
    """Rainbow deal 147, the first score alone at 750,000 positions (a beam
    about 9,400 wide): without the cap its beam fills with one position's
    column arrangements and runs dry; with the cap it wins (it bites), and
    the win replays on the engine and on the plain reference rules."""
    pos = Position.from_deal(147, "rainbow")
    first = config.BEAM_WEIGHTS[0]
    assert (first, 4, 1.0) in config.BEAM_CASCADE

    free = _probe_alone(pos, ((first, 0, 1.0),), monkeypatch)  # 0: no cap
    capped = _probe_alone(pos, ((first, 4, 1.0),), monkeypatch)
    assert free.result == "unknown"
    assert (capped.result, capped.stage) == ("won", "beam")
    moves, end = expand_macros(pos, capped.macros)
    assert end.is_won()
    _assert_wins_on_engine_and_reference(147, moves)


def test_a_narrow_beam_first_wins_what_the_whole_width_leaves(monkeypatch):
    """Each score runs first a quarter as wide (``config.BEAM_NARROW_SHARE``),
    then at the probe's whole width. Rainbow deal 84 at 750,000 positions
    (about 9,400 wide): the first score at the whole width leaves it
    unknown, and so do the three scores at the whole width; the first score
    a quarter as wide wins it (it bites), and so does the configured
    cascade; each win replays on the engine and the plain reference rules."""
    pos = Position.from_deal(84, "rainbow")
    first = config.BEAM_WEIGHTS[0]
    cap = config.BEAM_KIN_CAP

    whole = tuple((w, cap, 1.0) for w in config.BEAM_WEIGHTS)
    assert _probe_alone(pos, whole[:1], monkeypatch).result == "unknown"
    assert _probe_alone(pos, whole, monkeypatch).result == "unknown"
    narrow = _probe_alone(pos, ((first, cap, config.BEAM_NARROW_SHARE),), monkeypatch)
    configured = _probe_alone(pos, config.BEAM_CASCADE, monkeypatch)
    for won in (narrow, configured):
        assert (won.result, won.stage) == ("won", "beam")
        moves, end = expand_macros(pos, won.macros)
        assert end.is_won()
        _assert_wins_on_engine_and_reference(84, moves)


def _cover_twin(pos: Position, depth: int) -> int:
    """The plain twin of ``solver.beam.cover``, read through the engine's
    accessors: for each suit's next ``depth`` cards, the cards lying on it in
    the reserve, the waste or its column (a card in the stock: 0)."""
    above = {}
    for pile in (pos.reserve(), pos.waste(), *pos.columns()):
        for i, card in enumerate(pile):
            above[card] = len(pile) - 1 - i  # each pile's last card is its top
    total = 0
    for suit, n in enumerate(pos.foundations()):
        for k in range(min(depth, 13 - n)):
            total += above.get(suit * 13 + (pos.game.base + n + k) % 13, 0)
    return total


@pytest.mark.parametrize("profile", ["rainbow", "strict", "superior"])
def test_the_cover_count_matches_its_plain_twin_along_random_games(profile):
    """The kernel's count of cards lying on the next needed cards equals the
    plain twin's at every depth 1-4 along random games, and the score's
    cover term is its weight times that count. Counted: positions where the
    count is not 0 and where a deeper look counts more (else the comparison
    proves little)."""
    buried = deeper = 0
    scratch = np.full(52, 99, np.int64)  # stale scratch must not leak into a count
    for trace in builder_games(profile, games=4, seed=3):
        for pos in trace[::2]:
            g, s = pos.game, pos.state
            counts = [int(cover(s, g.arr, g.rules, d, scratch)) for d in range(1, 5)]
            assert counts == [_cover_twin(pos, d) for d in range(1, 5)], pos.show()
            plain = np.array(config.BEAM_WEIGHTS[0], np.int64)
            weighted = plain.copy()
            weighted[5:] = (3, 2)
            drop = score(s, g.arr, g.rules, plain, scratch) - score(
                s, g.arr, g.rules, weighted, scratch
            )
            assert drop == 3 * counts[1]
            buried += counts[1] > 0
            deeper += counts[3] > counts[0]
    assert buried >= 50 and deeper >= 50, (buried, deeper)


def test_the_cover_beam_wins_what_the_other_beams_leave(monkeypatch):
    """The cascade's first beam scores how deep the next needed cards lie
    (``config.BEAM_COVER_WEIGHTS``). Rainbow deal 44 at 750,000 positions is
    unknown to the cascade without that beam and won with it (it bites), and
    the win replays on the engine and on the plain reference rules."""
    pos = Position.from_deal(44, "rainbow")
    cascade = config.BEAM_CASCADE
    assert cascade[0][0] == config.BEAM_COVER_WEIGHTS and config.BEAM_COVER_WEIGHTS[5] > 0
    others = tuple(b for b in cascade if b[0][5] == 0)
    assert len(others) == len(cascade) - 1
    assert _probe_alone(pos, others, monkeypatch).result == "unknown"
    won = _probe_alone(pos, cascade, monkeypatch)
    assert (won.result, won.stage) == ("won", "beam")
    moves, end = expand_macros(pos, won.macros)
    assert end.is_won()
    _assert_wins_on_engine_and_reference(44, moves)


def test_the_cover_beams_win_a_superior_deal_the_search_leaves(monkeypatch):
    """Under ``fill=free`` the beam runs its cover beams only. Superior deal
    195 at 2,000,000 positions is unknown without the beam and won by it
    (it bites), and the win replays on the engine and, from the deal's
    cards, on the plain reference rules."""
    pos = Position.from_deal(195, "superior")
    nodes = 2_000_000
    monkeypatch.setattr(config, "BEAM_FILLS", ())
    without = Solver().solve(pos, seconds=math.inf, nodes=nodes)
    monkeypatch.setattr(config, "BEAM_FILLS", (core.FILL_FREE,))
    with_beam = Solver().solve(pos, seconds=math.inf, nodes=nodes)
    assert without.result == "unknown"
    assert (with_beam.result, with_beam.stage) == ("won", "beam") and with_beam.nodes <= nodes
    _assert_wins_on_engine_and_reference(195, with_beam.moves, "superior")
