"""The key census (``experiments/key_census.py``) reads the table's strings
back into the positions they store."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from canfield.engine import core
from canfield.engine.position import Position
from canfield.experiments.key_census import (
    CHOICE_BITS,
    Slot,
    census,
    main,
    read_slot,
    spread,
)
from canfield.solver.dfs_run import DfsRun, Path
from canfield.solver.pruning import prune_mask


def stored_slots(position: Position, nodes: int):
    run = DfsRun(position, Path(), prune_mask(True), 1 << 22)
    run.advance(0.0, float("inf"), nodes, 1 << 22)
    return [read_slot(r, 1) for r in run.table[run.table[:, 0] != 0]]


def test_the_root_reads_back_as_the_dealt_columns_and_reserve():
    pos = Position.from_deal(35, "strict")
    (root,) = stored_slots(pos, 1)
    dealt = sorted((len(c), c[0], 0) for c in pos.columns())
    assert sorted(root.columns) == dealt
    assert root.pointer == 0 and root.foundation_reserve != 0
    # a column of one card of the base's suit and rank (5C: clubs, rank 5)
    assert (1, 4, False) in root.tokens()


def test_a_longer_search_reads_back_every_position_it_entered():
    pos = Position.from_deal(35, "strict")
    slots = stored_slots(pos, 3000)
    assert len(slots) == 3000  # every entered position is stored once
    assert any(n > 1 for s in slots for n, _, _ in s.columns)  # columns were built
    # a column's length, bottom and choices account for every stored column
    assert all(ch < (1 << max(n - 1, 0)) for s in slots for n, _, ch in s.columns)
    c = census(pos, 3000)
    assert c["searched"] == c["distinct"] == 3000
    assert c["twin_merged"] <= c["distinct"] and c["without_pointer"] <= c["distinct"]
    assert c["token_shapes"] <= c["column_sets"] <= c["distinct"]
    # on a held-reserve search suits and pointers do merge some positions
    assert c["twin_merged"] < c["distinct"] and c["without_pointer"] < c["distinct"]


def test_the_command_prints_a_line_a_deal():
    r = CliRunner().invoke(main, ["--deal", "6", "--deal", "35", "--nodes", "2000"])
    assert r.exit_code == 0, r.output
    assert r.output.count("\n") == 2 and "strict 35: 2,000 positions" in r.output


def test_a_profile_it_cannot_read_is_one_line():
    for profile, said in (("rainbow", "alternating-colour"), ("bogus", "unknown profile")):
        r = CliRunner().invoke(main, ["--deal", "3", "--profile", profile, "--nodes", "10"])
        assert r.exit_code == 1 and said in r.output and "Traceback" not in r.output
        assert r.output.count("\n") == 1


def test_the_spread_reads_the_reserve_and_the_banked_count_of_every_stored_position():
    pos = Position.from_deal(64, "strict")
    (root,) = stored_slots(pos, 1)
    assert root.reserve_count == len(pos.snapshot()["reserve"]) == 13
    assert root.banked == sum(pos.snapshot()["foundations"]) == 1
    c = spread(pos, 20_000)
    assert c["stored"] == c["sampled"] == 20_000
    assert abs(sum(c["reserve"].values()) - 100) < 1e-9
    assert abs(sum(c["banked"].values()) - 100) < 1e-9
    # the search's own best count (kept by the kernel, not read from the
    # table) is the most any stored position banks: the header is read right
    assert max(c["banked"]) == c["best"] > 1
    assert min(c["reserve"]) < 13  # the search dug into the reserve
    # an even sample of a tenth reads a tenth
    assert spread(pos, 20_000, sample=2_000)["sampled"] == 2_000


def test_a_position_with_every_card_in_the_columns_reads_as_nothing_banked():
    # Under worry all 52 cards can lie in the columns; the table then leaves
    # the header's foundation/reserve part out, and the slot must say so.
    def run(top: int, other: int) -> list[int]:  # K down to A, the suits alternating
        return [(top if i % 2 == 0 else other) * 13 + 12 - i for i in range(13)]

    columns = [run(3, 2), run(2, 3), run(0, 1), run(1, 0)]
    pos = Position.from_parts(
        "cardgames", base=0, foundations=[0] * 4, reserve=[], columns=columns, stock=[], waste=[]
    )
    (root,) = stored_slots(pos, 1)
    assert sum(n for n, _, _ in root.columns) == 52
    assert root.foundation_reserve == root.reserve_count == root.banked == 0
    # What follows the columns is then the header's high part alone, whatever
    # its bits: none of them is read as a foundation or the reserve.
    full = tuple((13, bottom, 0) for bottom in (51, 38, 25, 12))
    high = Slot(pointer=0, columns=full, header=(1 << 20) - 1)
    assert high.foundation_reserve == high.reserve_count == high.banked == 0
    # with a card outside the columns the low part is there and is read
    short = Slot(pointer=0, columns=((12, 51, 0),) + full[1:], header=(9 << 16) | 0x3421)
    assert (short.reserve_count, short.banked) == (9, 1 + 2 + 4 + 3)


def test_the_command_prints_the_spread_in_two_lines_a_deal():
    r = CliRunner().invoke(main, ["--deal", "64", "--nodes", "3000", "--spread"])
    assert r.exit_code == 0, r.output
    first, second = r.output.splitlines()
    assert first.startswith("strict 64: 3,000 positions")
    assert ", 13: " in first.split("reserve count ")[1]  # the dealt reserve is among them
    assert second.startswith("strict 64: banked 1: ")


def test_a_memory_it_cannot_read_is_one_line():
    r = CliRunner().invoke(main, ["--deal", "64", "--nodes", "10", "--memory", "2XB"])
    assert r.exit_code == 1 and "--memory" in r.output and "Traceback" not in r.output
    assert r.output.count("\n") == 1


@pytest.mark.parametrize(
    ("profile", "deal", "choice_bits"), [("rainbow", 9, 2), ("storehouse", 3, 0)]
)
def test_the_spread_reads_the_other_building_rules_too(profile, deal, choice_bits):
    # rank-only building stores two choice bits a column card, building in
    # suit none: a wrong width would shift the header and misread it
    pos = Position.from_deal(deal, profile)
    assert CHOICE_BITS[int(pos.game.rules[core.R_BUILD])] == choice_bits
    c = spread(pos, 5_000)
    assert max(c["banked"]) == c["best"]  # the kernel's own best count
    assert min(c["banked"]) >= sum(pos.snapshot()["foundations"])  # never below the deal's
    assert max(c["reserve"]) == len(pos.snapshot()["reserve"]) == 13


def test_the_spread_refuses_two_packs_in_one_line():
    r = CliRunner().invoke(
        main, ["--deal", "3", "--profile", "double", "--nodes", "10", "--spread"]
    )
    assert r.exit_code == 1 and "one-pack" in r.output and "Traceback" not in r.output
    assert r.output.count("\n") == 1
