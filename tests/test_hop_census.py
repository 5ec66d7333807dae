"""The hop census (``experiments/hop_census.py``): its hops are legal,
reversible moves of the engine, and its counts merge only hop-equivalent
positions."""

from __future__ import annotations

import random

from click.testing import CliRunner

from canfield.engine import core
from canfield.engine.position import Position
from canfield.experiments.hop_census import census, hop_normal, main


def _walk(deal: int, profile: str, steps: int, rng: random.Random) -> list[Position]:
    """Positions of a random line, column-to-column moves preferred (they
    build the columns where hops live)."""
    pos, seen = Position.from_deal(deal, profile), []
    for _ in range(steps):
        moves = [str(m) for m in pos.legal_moves()]
        if not moves:
            break
        builds = [m for m in moves if not m.endswith(">F") and m != "redeal"]
        pos = pos.apply(rng.choice(builds if builds and rng.random() < 0.8 else moves))
        seen.append(pos)
    return seen


def test_hops_are_legal_reversible_moves_that_reach_the_normal_form():
    rng = random.Random(2026)
    fired = 0
    for profile in ("rainbow", "strict"):
        build = int(Position.from_deal(0, profile).game.rules[core.R_BUILD])
        for deal in range(12):
            for pos in _walk(deal, profile, 80, rng):
                normal, hops = hop_normal(pos.columns(), build)
                fired += bool(hops)
                here = pos
                for src, dst in hops:
                    move = f"T{src + 1}>T{dst + 1}"
                    assert move in {str(m) for m in here.legal_moves()}, (deal, move)
                    here = here.apply(move)
                    # the hop back is legal at once: the two positions reach each other
                    assert f"T{dst + 1}>T{src + 1}" in {str(m) for m in here.legal_moves()}
                    assert here.columns()[src], "a hop emptied its column"
                assert here.columns() == normal
                assert here.banked == pos.banked and here.reserve() == pos.reserve()
                assert hop_normal(normal, build) == (normal, [])  # a fixed point
    assert fired >= 20, f"hops fired in {fired} positions only: the test shows little"


def test_the_census_merges_hop_pairs_and_no_more_than_forgotten_suits():
    c = census(Position.from_deal(0, "rainbow"), 20_000)
    assert c["searched"] == c["distinct"] == 20_000
    # forgetting suits merges every hop pair (a hop keeps the columns' ranks)
    assert c["twin_merged"] <= c["hop_merged"] < c["distinct"]


def test_the_command_prints_a_line_a_deal_and_refuses_in_suit_building():
    r = CliRunner().invoke(main, ["--deal", "0", "--deal", "9", "--nodes", "2000"])
    assert r.exit_code == 0, r.output
    assert r.output.count("\n") == 2 and "rainbow 9: 2,000 positions" in r.output
    r = CliRunner().invoke(main, ["--profile", "storehouse", "--deal", "0", "--nodes", "10"])
    assert r.exit_code == 1 and "rank-only" in r.output and r.output.count("\n") == 1
