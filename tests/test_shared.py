"""``--strategy shared --threads N``: depth-first threads that split one
search over one table in shared memory (``solver/shared.py``).

The answer must be a one-core search's (verdict and banked) on a deal of
every one-pack preset; the threads must really split the work (each
expands a share, and together about as many positions as one core, not
twice as many); and the table they wrote at once must hold every position
once, whole (the compare-and-swap protocol of ``tt_visit_shared``).
"""

from __future__ import annotations

import json
import time

import numpy as np
import pytest
from click.testing import CliRunner
from test_threads import _decided_deal

from canfield.engine import core
from canfield.engine.position import Position
from canfield.engine.profiles import PRESETS
from canfield.experiments.cli import main as cli
from canfield.solver import config, shared
from canfield.solver.dfs_run import DfsRun, Path
from canfield.solver.portfolio import cores
from canfield.solver.pruning import SPIN_SHIFT, shared_mask
from canfield.solver.search import Solver, prune_mask, solve_deal
from canfield.solver.shared import search_shared
from canfield.solver.stats import ST_BEST, ST_HELPED, ST_NODES
from canfield.solver.table import new_table, slot_bytes

MEMORY = 64 << 20

needs_two = pytest.mark.skipif(cores() < 2, reason="two threads need two cores")


@pytest.mark.parametrize("profile", sorted(p for p in PRESETS if PRESETS[p].packs == 1))
def test_shared_search_gives_the_verdict_and_banked_of_one_core(profile):
    # the shared search runs no probes: compare it with one core's full search
    # (a probe may win a deal the full search leaves to a larger budget)
    deal, one = _decided_deal(profile, probes=False)
    two = solve_deal(deal, profile, 120.0, None, MEMORY, strategy="shared", threads=2)
    assert (two.result, two.banked) == (one.result, one.banked), (deal, two.stop_reason)
    assert two.stage == "shared2"
    if two.result == "won":  # replayed through the engine by the solver
        assert two.banked == 52 and two.moves


@needs_two
@pytest.mark.parametrize("profile, deal, banked", [("strict", 43, 11), ("strict", 19, 8)])
def test_two_threads_split_a_loss_proof(profile, deal, banked):
    """Each thread expands a real share of the tree, the two together about
    as many positions as one core (the table keeps them from doing each
    other's work), and the table holds each position once, whole."""
    pos = Position.from_deal(deal, profile)
    one = Solver(MEMORY, probes=False).solve(pos, seconds=120)
    assert (one.result, one.banked) == ("lost", banked)
    kw = core.key_words(int(pos.game.rules[core.R_BUILD]))
    table = new_table(MEMORY // slot_bytes(kw), kw)  # a table to read afterwards
    run = search_shared(pos, 2, time.perf_counter(), 120.0, None, MEMORY, prune_mask(True), table)
    assert (run.result, int(run.stats[ST_BEST])) == ("lost", banked)
    if deal == 43:  # long enough for a thread to run out first: it helped
        assert int(run.stats[ST_HELPED]) >= 1
    assert len(run.parts) == 2 and sum(run.parts) == int(run.stats[ST_NODES])
    # both worked: the one that finished first still expanded a tenth or more
    assert min(run.parts) >= 0.1 * one.nodes, run.parts
    # split, not duplicated (the table check below is exact): the orders
    # differ, so rule B1 cuts differently, more so when a busy machine lets
    # the thread with the turned order do most of the work (strict 43 took
    # 0.80 of one core's positions on a loaded machine, 2026-12-01)
    helped = int(run.stats[ST_HELPED])
    assert 0.7 * one.nodes <= sum(run.parts) <= 1.5 * one.nodes, (run.parts, one.nodes, helped)
    # each expanded position was entered by the thread that expanded it, or
    # searched again by a helper; the root, entered once before the threads
    # started, counts in each thread (and in each helper's restart)
    used = table[table[:, 0] != 0]
    assert 0.99 * (sum(run.parts) - helped) <= len(used) <= sum(run.parts) - helped - 1
    assert len(np.unique(used, axis=0)) == len(used)  # every entry once
    assert not (used[:, 0] == 63).any()  # none left half-written (BUSY)


@pytest.mark.parametrize("strategy", [["--strategy", "shared"], []])
def test_threads_split_one_search_on_the_command_line(strategy):
    """``--threads 2`` alone means the shared search (one pack)."""
    r = CliRunner().invoke(cli, ["solve", "--deal", "19", *strategy, "--threads", "2", "--json"])
    assert r.exit_code == 0, r.output
    row = json.loads(r.stdout.strip().splitlines()[-1])
    assert (row["result"], row["banked"]) == ("lost", 8)
    assert (row["strategy"], row["stage"], row["threads"]) == ("shared", "shared2", 2)


@pytest.mark.parametrize(
    "args, message",
    [
        (["solve", "0", "-p", "double", "--strategy", "shared"], "depth-first only, on one core"),
        (["sweep", "--deals", "0:2", "--strategy", "shared", "--out", "x"], "shared"),
    ],
)
def test_shared_where_it_does_not_run_is_one_error_line(args, message, tmp_path):
    # the sweep's --out is made absolute so that nothing lands in the checkout
    args = [str(tmp_path / a) if a == "x" else a for a in args]
    r = CliRunner().invoke(cli, args)
    assert r.exit_code == 2 and message in r.output
    assert "Traceback" not in r.output


def test_threads_above_one_need_the_shared_strategy():
    with pytest.raises(ValueError, match="shared"):
        Solver(MEMORY, strategy="dfs", threads=2)


def test_the_threads_table_grows_between_slices_and_the_proof_stands():
    """With no table given the threads start on a small one and grow it, all
    stopped, as one search does: strict deal 43 (1.8 million positions)
    outgrows the first table several times."""
    pos = Position.from_deal(43, "strict")
    run = search_shared(pos, 2, time.perf_counter(), 120.0, None, MEMORY, prune_mask(True))
    assert (run.result, int(run.stats[ST_BEST])) == ("lost", 11)
    first = config.START_SLOTS * slot_bytes(core.key_words(int(pos.game.rules[core.R_BUILD])))
    assert run.peak_bytes >= 16 * first  # at least two fourfold growths


def test_a_rehash_that_would_end_past_the_deadline_is_not_begun(monkeypatch):
    """The threads' table grows only when the rehash, predicted from the last
    one, ends in time (as one search's, ``solver.budgets.rehash_in_time``):
    with the guard refusing every rehash, the search stops on its first,
    full table, unknown for ``time``."""
    asked = []

    def refuse(t0, seconds, rate, slots, slot_bytes):
        asked.append(rate * slots)
        return False

    monkeypatch.setattr(shared, "rehash_in_time", refuse)
    pos = Position.from_deal(43, "strict")
    run = search_shared(pos, 2, time.perf_counter(), 120.0, None, MEMORY, prune_mask(True))
    first = config.START_SLOTS * slot_bytes(core.key_words(int(pos.game.rules[core.R_BUILD])))
    assert len(asked) == 1  # the guard was asked, once, and the search stopped there
    assert (run.result, run.reason) == ("unknown", "time")
    assert run.peak_bytes == first


def test_every_thread_cuts_against_the_best_count_any_thread_reached(monkeypatch):
    """Between slices each thread takes the largest best count of any thread
    (rule B1 then cuts against it): on strict deal 43 that raises some
    thread's count at least once, and the proof is one core's (lost, 11)."""
    raised = []
    share = shared._share_best

    def counting(runs):
        raised.append(share(runs))
        return raised[-1]

    monkeypatch.setattr(shared, "_share_best", counting)
    pos = Position.from_deal(43, "strict")
    run = search_shared(pos, 2, time.perf_counter(), 120.0, None, MEMORY, prune_mask(True))
    assert (run.result, int(run.stats[ST_BEST])) == ("lost", 11)
    assert len(raised) >= 2 and sum(raised) >= 1, raised


def test_a_thread_that_raises_fails_the_solve(monkeypatch):
    # a thread's exception was printed by threading and lost: the solve went
    # on with the threads left and answered (a compact key too wide for its
    # slot under strict:worry=yes printed thousands of tracebacks, then
    # "unknown")
    calls = []

    def broken(self, *limits):
        calls.append(self)
        if len(calls) == 2:
            raise RuntimeError("thread 2 broke")
        return original(self, *limits)

    original = shared.DfsRun.advance
    monkeypatch.setattr(shared.DfsRun, "advance", broken)
    with pytest.raises(RuntimeError, match="thread 2 broke"):
        Solver(1 << 24, strategy="shared", threads=2).solve(
            Position.from_deal(43, "strict"), seconds=60, nodes=2_000_000
        )
    assert len(calls) >= 2


def test_the_root_moves_are_turned_for_a_shared_thread_only():
    """The search's first step makes the root's moves (``root_setup`` leaves
    ``nmoves[0]`` at -1) and turns them for a thread of a shared search, as
    it turns every list below; a turned solve (``--turn``) and thread 0 keep
    the root's order."""
    pos = Position.from_deal(43, "strict")
    rules = prune_mask(True)

    def root_list(mask: int) -> list[int]:
        run = DfsRun(pos, Path(), mask, MEMORY)
        assert int(run.path.nmoves[0]) == -1  # not made yet
        run.advance(time.perf_counter(), 60.0, 2, MEMORY)  # the root's moves, one child
        n = int(run.path.nmoves[0])
        return [int(m) for m in run.path.mstack[:n]]

    plain = root_list(rules)
    n = len(plain)
    turn = (128 * n) >> 8
    assert turn > 0, plain  # a root with moves enough to turn
    assert root_list(shared_mask(rules, 1, 2)) == plain[turn:] + plain[:turn]
    assert root_list(shared_mask(rules, 0, 2)) == plain
    assert root_list(rules | (128 << SPIN_SHIFT)) == plain
