"""``canfield solve --threads N``: a portfolio of exact searches (``solver/portfolio.py``).

Every member is a complete, exact search, so the portfolio's verdict and
banked are those of a one-core solve; these tests check it on a deal of
every preset, check that banked on a lost deal is the same in every member,
and check the command line's options, records and errors.
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from canfield.engine.position import Position
from canfield.engine.profiles import PRESETS
from canfield.experiments.cli import main as cli
from canfield.solver.portfolio import CANDIDATES, cores, members, solve_portfolio
from canfield.solver.search import Solver, solve_deal

NODES = 40_000
MEMORY = 64 << 20


def _decided_deal(profile: str, probes: bool = True) -> tuple[int, object]:
    """The first deal of ``profile`` a one-core solve (with or without its
    probes) decides within ``NODES``."""
    for deal in range(12):
        r = solve_deal(deal, profile, float("inf"), NODES, MEMORY, probes=probes)
        if r.decided:
            return deal, r
    raise AssertionError(f"no {profile} deal among 0-11 decided in {NODES} positions")


# double has one search of its own (solver/double_run.py), not the portfolio's members
@pytest.mark.parametrize("profile", sorted(p for p in PRESETS if PRESETS[p].packs == 1))
def test_two_threads_give_the_verdict_and_banked_of_one(profile):
    deal, one = _decided_deal(profile)
    chosen = members(2, "dfs", True, PRESETS[profile].worry == "yes")
    two = solve_portfolio(
        lambda opts: solve_deal(deal, profile, float("inf"), NODES, **opts), chosen, MEMORY
    )
    assert (two.result, two.banked) == (one.result, one.banked)
    assert two.threads == 2 and two.member in {name for name, _ in chosen}
    if two.result == "won":
        assert two.banked == 52 and two.moves


def test_every_member_proves_a_loss_with_the_same_banked():
    # strict deal 19 is lost with 8 banked: each member alone must say so
    pos = Position.from_deal(19, "strict")
    answers = {
        name: Solver(MEMORY, strategy=s, probes=p).solve(pos, seconds=120)
        for name, s, p in CANDIDATES
    }
    assert {(r.result, r.banked) for r in answers.values()} == {("lost", 8)}, answers


def test_members_put_the_solve_as_asked_first_and_leave_out_layers_under_worry():
    assert [m for m, _ in members(3, "dfs", True, False)] == ["dfs", "dfs-no-probes", "layers"]
    assert [m for m, _ in members(2, "layers", True, False)] == ["layers", "dfs"]
    assert members(1, "dfs", False, True) == [
        ("dfs-no-probes", {"strategy": "dfs", "probes": False})
    ]
    with pytest.raises(ValueError, match="2 different searches"):
        members(3, "dfs", True, True)


needs_two = pytest.mark.skipif(cores() < 2, reason="this machine gives one core")


@needs_two
def test_solve_threads_records_the_threads_and_the_member():
    res = CliRunner().invoke(
        cli,
        ["solve", "2", "--threads", "2", "--strategy", "dfs", "--nodes", "5000", "--json"],
        catch_exceptions=False,
    )
    assert res.exit_code == 0, res.output
    row = json.loads(res.stdout.strip().splitlines()[-1])
    assert row["result"] == "won" and row["banked"] == 52
    assert row["threads"] == 2 and row["member"] in ("dfs", "dfs-no-probes")
    one = json.loads(
        CliRunner().invoke(cli, ["solve", "2", "--nodes", "5000", "--json"]).stdout.splitlines()[-1]
    )
    assert one["threads"] == 1 and one["member"] is None


@pytest.mark.parametrize(
    "args, message",
    [
        (["--threads", "0"], "--threads"),
        (["--threads", "64"], "core"),
        (["--threads", "two"], "--threads"),
    ],
)
def test_bad_threads_give_one_error_line(args, message):
    res = CliRunner().invoke(cli, ["solve", "2", "--nodes", "100", *args])
    assert res.exit_code == 2
    lines = res.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and message in lines[0], res.output


def test_sweeps_keep_one_process_per_core():
    res = CliRunner().invoke(
        cli, ["sweep", "--profiles", "strict", "--deals", "0:1", "--threads", "2"]
    )
    assert res.exit_code == 2 and "--threads" in res.output
