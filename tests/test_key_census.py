"""The key census (``experiments/key_census.py``) reads the table's strings
back into the positions they store."""

from __future__ import annotations

from click.testing import CliRunner

from canfield.engine.position import Position
from canfield.experiments.key_census import census, main, read_slot
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
