"""The two-pack profile ``double`` (Variegated Demon): deal, notation, CLI and solver.

The engine's moves, positions, status and key are compared with the plain
reference in ``tests/test_core_vs_reference.py``; here: the layout of a deal,
the preset's fixed options, the text form, the command line, and the search
of ``solver/double_run.py`` against itself with rule P1 on and off and
against a brute force over the reference on late positions.
"""

from __future__ import annotations

import math
import random
import time

import numpy as np
import pytest
from cli_errors import assert_user_error
from reference_rules import (
    _auto_fill,
    builds_on,
    foundation_for,
    ref_apply,
    ref_banked,
    ref_from_snapshot,
    ref_initial,
    ref_snapshot,
)
from test_cli import run
from test_solver import brute_force

from canfield.engine import core_double
from canfield.engine.cards import cards_str, parse_cards, rank_of
from canfield.engine.deals import deal_cards
from canfield.engine.formats import position_from_text, position_to_text
from canfield.engine.position import Position, PositionError
from canfield.engine.profiles import ProfileError, parse_profile
from canfield.experiments.sweep.store import load_run
from canfield.solver import config, double_run
from canfield.solver.double_beam import score
from canfield.solver.double_run import beam_bytes, beam_probe, beam_width_cap, beams, expand
from canfield.solver.pruning import P1_HOME, prune_mask
from canfield.solver.search import Solver, solve_deal

# ---------------------------------------------------------------------------
# the preset and the deal
# ---------------------------------------------------------------------------


def test_preset_is_strict_with_any_moves_and_three_passes():
    p = parse_profile("double")
    strict = parse_profile("strict")
    assert (p.moves, p.passes, p.packs) == ("any", 3, 2)
    for name in ("draw", "space", "fill", "worry", "build", "wrap"):
        assert getattr(p, name) == getattr(strict, name), name


@pytest.mark.parametrize("text", ["double:worry=yes", "double:fill=free", "double:build=suit"])
def test_options_the_two_pack_kernels_do_not_play_are_refused(text):
    with pytest.raises(ProfileError, match="double is played only with"):
        parse_profile(text)
    assert "double is played only with" in assert_user_error(run("deal", "--profile", text, "1"))


@pytest.mark.parametrize("number", [0, 7, 2**64 - 1])
def test_deal_layout(number):
    cards = deal_cards(number, packs=2)
    pos = Position.from_deal(number, "double")
    rest = [c for c in cards if rank_of(c) != 0]
    assert len(rest) == 96
    assert pos.foundations() == [1] * 8 and pos.banked == 8
    assert pos.reserve() == rest[:13]
    assert pos.columns() == [[c] for c in rest[13:18]]
    assert pos.stock() == rest[18:] and len(pos.stock()) == 78 and pos.waste() == []
    assert pos.game.deal == tuple(cards)


def test_a_card_three_times_is_refused():
    pos = Position.from_deal(3, "double")
    snap = pos.snapshot()
    snap["stock"] = snap["stock"][:-1] + [snap["reserve"][-1]]
    with pytest.raises(PositionError, match="three times: in the reserve, stock/waste"):
        Position.from_parts("double", **snap)


def test_text_form_round_trips():
    pos = Position.from_deal(11, "double")
    for move in ["draw", "draw", "draw"]:
        pos = pos.apply(move)
    text = position_to_text(pos)
    assert "T5 " in text and text.count("C:") == 2
    back = position_from_text(text)
    assert back.snapshot() == pos.snapshot() and back.key() == pos.key()
    with pytest.raises(PositionError, match="no 'T5' line"):
        position_from_text(text.replace("profile double", "profile strict"))


# ---------------------------------------------------------------------------
# the command line
# ---------------------------------------------------------------------------


def test_cli_deal_prints_104_cards():
    out = run("deal", "--profile", "double", "5", "--show")
    assert out.exit_code == 0, out.output
    first = out.stdout.splitlines()[0]
    assert first == cards_str(deal_cards(5, packs=2)) and len(first.split()) == 104
    assert "banked 8/104" in out.stdout and "T5 " in out.stdout


def test_cli_solve_output_replays(tmp_path):
    out = run("solve", "--profile", "double", "4", "--nodes", "3000", "--budget", "60s")
    assert out.exit_code == 0, out.output
    assert "banked" in out.stdout and "/104" in out.stdout
    path = tmp_path / "line.txt"
    path.write_text(out.stdout)
    back = run("replay", str(path))
    assert back.exit_code == 0, back.output
    last = back.stdout.strip().splitlines()[-1]
    assert last.startswith("banked ") and "/104" in last


def test_cli_cards_of_a_two_pack_deal():
    text = cards_str(deal_cards(9, packs=2))
    out = run("replay", "--profile", "double", "--cards", text, "-", input="draw\nW>T1\n")
    ok = Position.from_deal(9, "double").apply("draw")
    if "W>T1" in {str(m) for m in ok.legal_moves()}:
        assert out.exit_code == 0, out.output
    else:
        assert_user_error(out, "move 2")


# ---------------------------------------------------------------------------
# the solver on late positions: P1 on/off, and a brute force over the reference
# ---------------------------------------------------------------------------


def late_parts(seed: int, left: int, trap: bool = False) -> dict:
    """A random late position of ``double``: ``left`` cards off the foundations,
    laid out in built columns, the reserve and the stock.

    ``trap``: one suit's top cards (both copies) are off, the two copies of
    the lowest of them at the bottom of the reserve, in the last pass: some
    such positions are lost.
    """
    rng = random.Random(seed)
    counts = [13] * 8
    off: list[int] = []
    buried: list[int] = []
    if trap:
        suit = rng.randrange(4)
        low = rng.randrange(8, 11)
        counts[2 * suit] = counts[2 * suit + 1] = low
        off = [suit * 13 + r for r in range(low + 1, 13) for _ in range(2)]
        buried = [suit * 13 + low] * 2
    while len(off) < left:
        f = rng.randrange(8)
        # keep the higher of a suit's two first, and the aces home (as dealt)
        if counts[f] > 1 and (f % 2 == 1 or counts[f] > counts[f + 1]):
            counts[f] -= 1
            off.append((f // 2) * 13 + counts[f])
    rng.shuffle(off)
    probe = ref_from_snapshot(
        parse_profile("double"),
        {
            "base": 0,
            "foundations": counts,
            "reserve": [],
            "columns": [[]] * 5,
            "stock": [],
            "waste": [],
        },
    )

    columns: list[list[int]] = [[] for _ in range(5)]
    rest = []
    for card in off:
        fits = [c for c in columns if c and builds_on(probe, card, c[-1])]
        empty = [c for c in columns if not c]
        if fits and rng.random() < 0.7:
            rng.choice(fits).append(card)
        elif empty and rng.random() < 0.5:
            rng.choice(empty).append(card)
        else:
            rest.append(card)
    n_res = rng.randint(0, min(3, len(rest)))
    stock = rest[n_res:]
    n_waste = rng.randint(0, len(stock))
    return {
        "base": 0,
        "foundations": counts,
        "reserve": buried + rest[:n_res],
        "columns": columns,
        "waste": stock[:n_waste],
        "stock": stock[n_waste:],
        "redeals": 2 if trap else rng.randrange(3),
    }


def replay_on_reference(parts: dict, moves: list[str]):
    state = ref_from_snapshot(parse_profile("double"), parts)
    _auto_fill(state)
    for move in moves:
        state = ref_apply(state, move)
    return state


# (seed, cards off beside a trap's, trap): a mix of won and lost positions
LATE = [(seed, 7 + seed % 5, False) for seed in range(12)] + [
    (seed, left, True) for seed in range(30) for left in (0, 12)
]


def test_solver_agrees_with_a_brute_force_over_the_reference():
    solver = Solver(memory=1 << 24)
    outcomes = {"won": 0, "lost": 0}
    for seed, left, trap in LATE:
        parts = late_parts(seed, left, trap)
        pos = Position.from_parts("double", **parts)
        r = solver.solve(pos, seconds=60, nodes=200_000)
        want = brute_force(pos, cap=2_000_000)
        assert (r.result, r.banked) == want, f"seed {seed}: {parts}"
        outcomes[r.result] += 1
        # every reported line replays on the engine and on the reference
        end = replay_on_reference(parts, r.best_line)
        assert ref_banked(end) == r.banked
        if r.result == "won":
            assert ref_snapshot(end)["foundations"] == [13] * 8
    assert outcomes["won"] and outcomes["lost"], outcomes


def test_p1_on_and_off_agree_and_p1_fires():
    fired = 0
    differ = 0
    for seed, left, trap in LATE + [(100 + s, 12, False) for s in range(8)]:
        pos = Position.from_parts("double", **late_parts(seed, left, trap))
        on = Solver(memory=1 << 24, prune="P1").solve(pos, seconds=60, nodes=200_000)
        off = Solver(memory=1 << 24, prune=False).solve(pos, seconds=60, nodes=200_000)
        assert off.pruned == 0
        assert (on.result, on.banked) == (off.result, off.banked), f"seed {seed}"
        fired += on.pruned
        differ += on.nodes != off.nodes
    assert fired > 0, "P1 never fired: the comparison proves nothing"
    assert differ > 0, "P1 changed no search"


def test_p1_waits_for_the_other_copy_of_the_card():
    """The two-pack condition: x goes home by force only when the lower
    foundation of its suit takes it; with the lower one behind, the other
    copy of x may still need the higher one (docs/solver.md, "Two packs")."""
    from canfield.solver.double_dfs import p1_home

    profile = parse_profile("double")
    five_c = parse_cards("5C")[0]
    # 4D 4D 4H 4H (everything that builds on 5C) are home in both cases
    behind = [4, 2, 13, 13, 13, 13, 4, 4]  # clubs at 4 and 2: 5C to the first
    level = [4, 4, 13, 13, 13, 13, 4, 4]
    for counts, want in ((behind, False), (level, True)):
        pos = Position.from_parts(
            profile,
            base=0,
            foundations=counts,
            reserve=[],
            columns=[[five_c], [], [], [], []],
            stock=_rest(counts, [five_c]),
            waste=[],
        )
        got = p1_home(pos.state, five_c, pos.game.arr, pos.game.rules)
        assert bool(got) == want, counts
        assert core_double.found_slot(pos.state, five_c, pos.game.arr) >= 0


def test_beam_probe_wins_are_real_and_it_never_says_lost():
    """The beam (solver/double_beam.py) drops positions, so its end proves
    nothing: it answers won or unknown, and every line it reports (won or
    best) replays on the reference to the cards it says it banked."""
    results = {"won": 0, "unknown": 0}
    for seed, left, trap in LATE:
        parts = late_parts(seed, left, trap)
        pos = Position.from_parts("double", **parts)
        r = beam_probe(pos, time.perf_counter(), 60.0, 5_000, 1 << 24, P1_HOME, 4)
        results[r["result"]] += 1
        assert r["nodes"] <= 5_000
        line, end = expand(pos, r["macros"])
        assert end.banked == r["banked"]
        ref_end = replay_on_reference(parts, line)
        assert ref_banked(ref_end) == r["banked"]
        if r["result"] == "won":
            assert ref_snapshot(ref_end)["foundations"] == [13] * 8
    # the lost trap positions must come back unknown, and the beam must win some
    assert results["won"] and results["unknown"], results


def test_beam_stage_keeps_the_budget_and_its_line_on_a_whole_deal():
    """On a whole deal the beam runs between the depth-first probes: the
    solve stays within its node budget, is never "lost" on a budget, and its
    best line (the beam's, when it banked most) replays through the engine."""
    pos = Position.from_deal(0, "double")
    nodes = 20_000
    r = Solver().solve(pos, seconds=60, nodes=nodes)
    assert r.result == "unknown" and r.nodes <= nodes
    ((_, width, share),) = [p for p in config.DOUBLE_PROBES if p[0] == "beam"]
    beams_alone = beams(pos, time.perf_counter(), 60.0, int(nodes * share), 1 << 26, P1_HOME, width)
    assert r.banked >= max(b["banked"] for b in beams_alone) > 8
    end = pos
    for move in r.best_line:
        end = end.apply(move)
    assert end.banked == r.banked


def test_a_deal_the_beam_wins_says_so_and_replays_to_104():
    """Deal 14 (three passes) is won by the beam probe within 200,000
    positions, where the depth-first searches alone found no win: the result
    names the beam as the stage that answered, and the solution replays."""
    pos = Position.from_deal(14, "double")
    r = Solver().solve(pos, seconds=300, nodes=200_000)
    assert (r.result, r.stage) == ("won", "beam")
    end = pos
    for move in r.moves:
        end = end.apply(move)
    assert end.is_won() and end.banked == 104
    # and on the plain reference rules, from the deal itself
    ref = ref_initial(deal_cards(14, 2), parse_profile("double"))
    for move in r.moves:
        ref = ref_apply(ref, str(move))
    assert ref_banked(ref) == 104


def test_the_beam_counts_the_stock_walk_left():
    """The beam's score (solver/double_beam.py) rewards stock cards the walk
    will still turn over: the same position with the pointer further into
    the pass, or one redeal later, scores lower. And the term bites on whole
    deals: with it the beam wins deals 0-11 that it wins none of without it
    (its weight zeroed), at the same 250 positions a depth."""
    pos = Position.from_deal(3, "double")
    g = pos.game
    weights = np.array(config.DOUBLE_BEAM_WEIGHTS, np.int64)
    start = score(pos.state, g.arr, g.rules, weights)
    walked = pos.state.copy()
    core_double.set_waste_ptr(walked, 30)
    redealt = pos.state.copy()
    core_double.set_redeals(redealt, 1)
    assert start > score(walked, g.arr, g.rules, weights) > score(redealt, g.arr, g.rules, weights)

    def wins(weights: tuple[int, ...]) -> list[int]:
        won = []
        for deal in range(12):
            p = Position.from_deal(deal, "double")
            r = beam_probe(p, time.perf_counter(), 600.0, 50_000, 1 << 26, P1_HOME, 250)
            if r["result"] == "won":
                line, end = expand(p, r["macros"])
                assert end.is_won()
                won.append(deal)
        return won

    with_walk = wins(config.DOUBLE_BEAM_WEIGHTS)
    original = config.DOUBLE_BEAM_WEIGHTS
    try:
        config.DOUBLE_BEAM_WEIGHTS = (*original[:3], 0)
        without_walk = wins(config.DOUBLE_BEAM_WEIGHTS)
    finally:
        config.DOUBLE_BEAM_WEIGHTS = original
    assert len(with_walk) >= 3 and len(without_walk) < len(with_walk), (with_walk, without_walk)


def test_the_beams_score_in_turn_and_a_later_score_wins_what_the_first_leaves():
    """The two-pack probe runs the beams of ``config.DOUBLE_BEAM_SCORES`` in
    turn, each on an equal share of what the ones before it left
    (solver/double_run.py ``beams``). On deals 6 and 9 the first score, on
    its share of 200,000 positions, ends unknown, and a later score wins
    (on deal 9 the fourth): the win replays on the engine and the reference
    rules. Counted: the deals a later score won."""
    nodes = 4 * 50_000
    later_wins = 0
    for deal in (6, 9):
        pos = Position.from_deal(deal, "double")
        width = beam_width_cap(16, nodes // 4)
        first = beam_probe(
            pos, time.perf_counter(), 600.0, nodes // 4, 1 << 26, P1_HOME, width,
            config.DOUBLE_BEAM_SCORES[0],
        )  # fmt: skip
        assert first["result"] == "unknown"
        runs = beams(pos, time.perf_counter(), 600.0, nodes, 1 << 26, P1_HOME, 16)
        assert runs[0]["nodes"] == first["nodes"] and runs[0]["result"] == "unknown"
        assert runs[-1]["result"] == "won" and sum(r["nodes"] for r in runs) <= nodes
        later_wins += len(runs) > 1
        line, end = expand(pos, runs[-1]["macros"])
        assert end.is_won()
        ref = ref_initial(deal_cards(deal, 2), parse_profile("double"))
        for move in line:
            ref = ref_apply(ref, str(move))
        assert ref_banked(ref) == 104
    assert later_wins == 2


def test_under_a_time_budget_each_beam_gets_its_share_of_what_is_left(monkeypatch):
    """Under a time budget alone the beams split what is left of the probe's
    time: each is handed an end an equal share of the time left after it
    (the first a quarter of the probe's 2 s, not the whole), and ends by
    it. On deal 18 none of the four wins in 2 s, so all four run."""
    pos = Position.from_deal(18, "double")
    beams(pos, time.perf_counter(), 60.0, 4_000, 1 << 24, P1_HOME, 16)  # compiled outside the clock
    calls: list[tuple[float, float, float]] = []
    probe = double_run.beam_probe

    def timed(position, t0, seconds, *rest):
        began = time.perf_counter() - t0
        r = probe(position, t0, seconds, *rest)
        calls.append((began, seconds, time.perf_counter() - t0))
        return r

    monkeypatch.setattr(double_run, "beam_probe", timed)
    runs = beams(pos, time.perf_counter(), 2.0, None, 1 << 27, P1_HOME, 16_000)
    assert len(config.DOUBLE_BEAM_SCORES) == 4 == len(calls)
    assert [r["result"] for r in runs] == ["unknown"] * 4
    for i, (began, ends, ended) in enumerate(calls):
        share = (2.0 - began) / (4 - i)
        assert abs(ends - (began + share)) < 0.01, (i, began, ends)
        assert ended < ends + 0.3, (i, ended, ends)


def test_under_a_time_budget_the_beam_sizes_itself_to_the_clock():
    """With a node budget the beam's width is fixed by the budget (rows stay
    the same on every machine); with a time budget alone it starts from a
    guessed rate and then follows the rate it measures: the width it ends
    with differs from the guess, stays within its bounds, and the probe
    still answers won or unknown within about its time."""
    pos = Position.from_deal(3, "double")
    ((_, cap, _),) = [p for p in config.DOUBLE_PROBES if p[0] == "beam"]
    fixed = beam_probe(pos, time.perf_counter(), 600.0, 60_000, 1 << 26, P1_HOME, cap)
    assert fixed["width"] == 60_000 // config.DOUBLE_BEAM_LAYERS
    seconds = 2.0
    guess = int(seconds * config.DOUBLE_BEAM_RATE) // config.DOUBLE_BEAM_LAYERS
    t0 = time.perf_counter()
    timed = beam_probe(pos, t0, seconds, None, 1 << 28, P1_HOME, cap)
    assert timed["result"] in ("won", "unknown")
    assert time.perf_counter() - t0 < seconds + 2.0
    assert config.DOUBLE_BEAM_MIN_WIDTH <= timed["width"] <= cap
    assert timed["width"] != guess, (timed["width"], guess)


def test_a_node_budget_widens_the_beam_up_to_its_memory_share():
    """Under a node budget the width is the budget's share over the beam's
    depths with no fixed cap (an escalation's bigger budget widens it);
    under a time budget the cap of ``DOUBLE_PROBES`` holds. Memory caps
    both: the scratch stays within its share of ``--memory`` and the table
    takes only the rest."""
    ((_, cap, share),) = [p for p in config.DOUBLE_PROBES if p[0] == "beam"]
    big = 30_000_000
    assert beam_width_cap(cap, None) == cap
    assert beam_width_cap(cap, big) == big // config.DOUBLE_BEAM_LAYERS > cap
    assert beam_width_cap(cap, 60_000) == cap  # a small budget: its own width is smaller
    pos = Position.from_deal(3, "double")
    nodes = 60_000
    asked = nodes // config.DOUBLE_BEAM_LAYERS
    roomy = beam_probe(pos, time.perf_counter(), 600.0, nodes, 1 << 28, P1_HOME, cap)
    assert roomy["width"] == asked
    memory = int(2 * beam_bytes(asked // 4) / config.DOUBLE_BEAM_MEMORY_SHARE)
    tight = beam_probe(pos, time.perf_counter(), 600.0, nodes, memory, P1_HOME, cap)
    assert tight["width"] < asked, (tight["width"], asked)  # the memory share bit
    assert beam_bytes(tight["width"]) <= memory * config.DOUBLE_BEAM_MEMORY_SHARE
    assert tight["peak_table_bytes"] + beam_bytes(tight["width"]) <= memory
    assert tight["result"] in ("won", "unknown")


def _rest(counts: list[int], placed: list[int]) -> list[int]:
    """The cards neither on the foundations ``counts`` nor in ``placed``."""
    cards = list(range(52)) * 2
    for f, n in enumerate(counts):
        for i in range(n):
            cards.remove((f // 2) * 13 + i)
    for c in placed:
        cards.remove(c)
    return cards


def test_foundation_for_takes_the_first_that_fits():
    state = ref_from_snapshot(
        parse_profile("double"),
        {
            "base": 0,
            "foundations": [3, 3, 1, 1, 1, 1, 1, 1],
            "reserve": [],
            "columns": [[]] * 5,
            "stock": [],
            "waste": [],
        },
    )
    assert foundation_for(state, parse_cards("4C")[0]) == 0
    state.foundations[0] = 4
    assert foundation_for(state, parse_cards("4C")[0]) == 1


# ---------------------------------------------------------------------------
# sweep, report and plots
# ---------------------------------------------------------------------------


def test_sweep_report_and_plots_count_104_cards(tmp_path):
    out = tmp_path / "run"
    swept = run(
        "sweep",
        "--profiles",
        "double",
        "--deals",
        "0:3",
        "--nodes",
        "2000",
        "--out",
        str(out),
        "--workers",
        "1",
    )
    assert swept.exit_code == 0, swept.output
    rows = load_run(out)
    assert list(rows["profile_full"].unique()) == [parse_profile("double").full()]
    assert (rows["banked"] >= 8).all() and (rows["banked"] <= 104).all()
    report = run("report", str(out))
    assert report.exit_code == 0, report.output
    assert "unknown=104" in report.stdout
    # the casino payout pays for both packs: 5 a card banked, 104 for the cards
    payout = (5 * rows["banked"] - 104).mean()
    assert f"{payout:.2f}" in report.stdout
    plots = run("plot", str(out), "--out", str(tmp_path / "plots"))
    assert plots.exit_code == 0, plots.output


def test_solvitaire_json_is_refused_for_two_packs():
    from canfield.engine.formats import position_from_solvitaire, position_to_solvitaire

    with pytest.raises(PositionError, match="one pack"):
        position_to_solvitaire(Position.from_deal(1, "double"))
    with pytest.raises(PositionError, match="one pack"):
        position_from_solvitaire({"tableau piles": [], "foundations": []}, "double")


def test_layered_search_is_refused_in_one_line():
    out = run("solve", "--profile", "double", "3", "--nodes", "100", "--strategy", "layers")
    assert "depth-first only" in assert_user_error(out)


def test_blind_players_refuse_two_packs_in_one_line(tmp_path):
    out = run(
        "sweep",
        "--player",
        "greedy",
        "--profiles",
        "double",
        "--deals",
        "0:1",
        "--out",
        str(tmp_path / "run"),
        "--workers",
        "1",
    )
    # refused with the sweep's options, before the run folder is made (it
    # used to fail at the first game, after the folder and the workers)
    line = assert_user_error(out)
    assert "do not play two packs" in line and "--player solver" in line
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize("memory", [1 << 20, 3 << 20])
def test_the_table_stays_within_the_memory_budget(memory):
    """Every stage's table (beam, probes, search) starts and grows within
    ``memory``: the first table was once sized for the node budget alone."""
    r = solve_deal(0, "double", seconds=60, nodes=400_000, memory=memory)
    assert r.result == "unknown" and r.stop_reason == "memory", (r.result, r.stop_reason)
    assert 0 < r.peak_table_bytes <= memory, r.peak_table_bytes


def test_the_kin_cap_wins_where_the_two_pack_beam_without_it_does_not(monkeypatch):
    """The two-pack beam keeps at most ``config.DOUBLE_BEAM_KIN_CAP``
    positions a depth that differ only in their columns. At 595,000
    positions (the beam's share of 700,000), the first score's beam ends
    unknown on double deal 46 without the cap and wins with it (the cap
    bites: that is the difference), the win replayed on the engine and on
    the plain reference rules."""
    assert config.DOUBLE_BEAM_KIN_CAP == 4
    pos = Position.from_deal(46, "double")
    nodes = 595_000

    def beam(cap: int) -> dict:
        monkeypatch.setattr(config, "DOUBLE_BEAM_KIN_CAP", cap)
        width = beam_width_cap(16_000, nodes)
        prune = prune_mask(True)
        return beam_probe(pos, time.perf_counter(), math.inf, nodes, 1 << 30, prune, width)

    free, capped = beam(0), beam(4)
    assert free["result"] == "unknown" and capped["result"] == "won"
    line, end = expand(pos, capped["macros"])
    assert end.is_won()
    ref = ref_initial(deal_cards(46, 2), parse_profile("double"))
    for move in line:
        ref = ref_apply(ref, str(move))
    assert ref_banked(ref) == 104


@pytest.mark.parametrize("probe", ["beam", "dfs"])
def test_a_timed_two_pack_search_counts_each_rehash_by_its_new_tables_bytes(monkeypatch, probe):
    """Both two-pack searches ask the rehash guard with the new table's
    bytes (``solver.budgets.rehash_in_time``): with a rehash priced at a
    second a byte, the first full table is never grown, and the search
    stops there, unknown for ``time``, long before its budget."""
    from canfield.solver import double_run
    from canfield.solver.pruning import ALL_RULES

    budget = 600.0  # far more than a cold compile and the search take
    asked = []
    guard = double_run.rehash_in_time

    def counting(t0, seconds, rate, slots, slot_bytes):
        asked.append(slots * slot_bytes)
        return guard(t0, seconds, rate, slots, slot_bytes)

    monkeypatch.setattr(config, "REHASH_SECONDS_PER_BYTE", 1.0)
    monkeypatch.setattr(double_run, "rehash_in_time", counting)
    pos = Position.from_deal(3, "double")
    run_it = double_run.beam_probe if probe == "beam" else double_run._search
    t0 = time.perf_counter()
    r = run_it(pos, t0, budget, None, 1 << 30, ALL_RULES, 4000 if probe == "beam" else 0)
    assert len(asked) == 1 and asked[0] == 2 * r["peak_table_bytes"]  # refused once, not grown
    assert (r["result"], r["stop_reason"]) == ("unknown", "time")
    assert time.perf_counter() - t0 < budget  # stopped by the guard, not the clock
