"""The Python API (``import canfield``): the README's example runs as written,
and bad arguments raise one clear ValueError or TypeError naming the argument,
as the command line refuses them (the same checks)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

import canfield
from canfield.engine.cards import card_str

README = Path(__file__).resolve().parents[1] / "README.md"


def _readme_example() -> str:
    text = README.read_text()
    section = text.split("## From Python", 1)[1]
    match = re.search(r"```python\n(.*?)```", section, re.S)
    assert match, "the README's 'From Python' section has no python block"
    return match.group(1)


def test_the_readme_example_runs(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    exec(compile(_readme_example(), "README.md", "exec"), {})
    out = capsys.readouterr().out
    assert "won 52 181" in out  # the comment beside the print says so
    df = canfield.load_run(tmp_path / "runs" / "api-demo")
    assert len(df) == 12 and set(df["profile"]) == {"strict", "hevagames:draw=1"}
    assert (df["budget_nodes"] == 20_000).all() and (df["version"] == canfield.__version__).all()


def test_solve_agrees_with_the_solver_and_checks_the_profile():
    from canfield.solver.search import solve_deal

    r = canfield.solve(20, profile="hevagames", nodes=20_000)
    same = solve_deal(20, "hevagames", 60, 20_000)
    assert (r.result, r.banked, r.nodes) == (same.result, same.banked, same.nodes)
    pos = canfield.deal(20, "hevagames")
    assert canfield.solve(pos, nodes=20_000).result == r.result
    with pytest.raises(ValueError, match="the position is hevagames, not strict"):
        canfield.solve(pos, profile="strict", nodes=10)


def test_the_api_names_are_documented():
    for name in canfield.__all__:
        obj = getattr(canfield, name)
        assert getattr(obj, "__doc__", None), name
    with pytest.raises(AttributeError):
        canfield.no_such_thing  # noqa: B018


# ---- bad arguments: one clear error naming the argument, before any solve ----------


@pytest.mark.parametrize(
    "kwargs, error, fragment",
    [
        ({"nodes": 0}, ValueError, "nodes must be a positive whole number"),
        ({"nodes": -5}, ValueError, "nodes must be a positive whole number"),
        ({"nodes": 1.5}, ValueError, "nodes must be a positive whole number"),
        ({"nodes": "2.5x"}, ValueError, "nodes: cannot read a node budget"),
        ({"budget": -1}, ValueError, "budget must be a positive duration"),
        ({"budget": 0}, ValueError, "budget must be a positive duration"),
        ({"budget": float("nan")}, ValueError, "budget must be a positive duration"),
        ({"budget": "10"}, ValueError, "needs a unit"),  # ten seconds, or --nodes 10?
        ({"memory": -1}, ValueError, "memory must be at least 1MiB"),
        ({"memory": 10}, ValueError, "memory must be at least 1MiB"),
        ({"memory": "1B"}, ValueError, "memory must be at least 1MiB"),
        ({"memory": 2.5e6 + 0.5}, ValueError, "memory must be a whole number of bytes"),
        ({"memory": [1]}, TypeError, "memory must be a size"),
        ({"memory": 1 << 62}, ValueError, "more than half of this machine's RAM"),
        ({"probes": "no"}, TypeError, "probes must be True or False"),
        ({"prune": 3}, TypeError, "prune must be True"),
        ({"prune": "P9"}, ValueError, "prune: unknown pruning rule"),
        ({"strategy": "bfs"}, ValueError, "strategy must be one of dfs"),
        ({"profile": 3}, TypeError, "profile must be a profile string"),
    ],
)
def test_solve_refuses_bad_arguments_as_the_command_line_does(kwargs, error, fragment):
    with pytest.raises(error, match=fragment):
        canfield.solve(5, **{"nodes": 20_000, **kwargs})


@pytest.mark.parametrize("target", [5.5, None, True, {"deal": 5}])
def test_a_deal_must_be_a_number_cards_or_card_indices(target):
    with pytest.raises(TypeError, match="target must be a deal number"):
        canfield.solve(target, nodes=20_000)
    with pytest.raises(TypeError, match="number must be a deal number"):
        canfield.deal(target)


def test_solve_reads_budgets_as_the_command_line_writes_them():
    want = canfield.solve(5, nodes=20_000)
    for kwargs in (
        {"nodes": "20K"},
        {"nodes": "20000"},
        {"nodes": np.int64(20_000)},
        {"nodes": 20_000, "memory": 1.5e8},  # a whole float: bytes
        {"nodes": 20_000, "memory": "64MB", "budget": "inf"},  # inf: no time budget
        {"nodes": 20_000, "prune": "all"},
    ):
        r = canfield.solve(np.int64(5), **kwargs)
        assert (r.result, r.banked, r.nodes) == (want.result, want.banked, want.nodes), kwargs


def test_deal_refuses_a_pick_its_profile_has_no_use_for():
    with pytest.raises(ValueError, match="pick: a base pick is only for the selective profile"):
        canfield.deal(5, pick="5H")
    with pytest.raises(TypeError, match="pick must be a card"):
        canfield.deal(5, "selective", pick=9)
    five = canfield.deal(5, "strict").game.deal[13:18]
    picked = canfield.deal(5, "selective", pick=card_str(five[0]))
    assert picked.game.pick == five[0]


@pytest.mark.parametrize(
    "kwargs, error, fragment",
    [
        ({"budget": -1}, ValueError, "budget must be a positive duration"),
        ({"budget": "nan"}, ValueError, "budget must be a positive duration"),
        ({"memory": 1}, ValueError, "memory must be at least 1MiB"),
        ({"nodes": "lots"}, ValueError, "nodes: cannot read a node budget"),
        ({"deals": [0, 5]}, ValueError, "deals must be consecutive deal numbers"),
        ({"deals": []}, ValueError, "deals names no deal"),
        ({"deals": "5:3"}, ValueError, "deals: bad deal range"),
        ({"deals": 3.5}, TypeError, "deals must be 'A:B'"),
        ({"profiles": []}, ValueError, "profiles names no profile"),
        ({"profiles": [3]}, TypeError, "profiles must be a profile string"),
        ({"profiles": "bogus"}, ValueError, "profiles: unknown profile 'bogus'"),
        ({"workers": 0}, ValueError, "workers must be at least 1"),
    ],
)
def test_sweep_refuses_bad_arguments_before_making_its_folder(tmp_path, kwargs, error, fragment):
    out = tmp_path / "run"
    with pytest.raises(error, match=fragment):
        canfield.sweep(out, **{"deals": "0:2", "nodes": 2000, "workers": 1, **kwargs})
    assert not out.exists()


def test_sweep_takes_deals_and_budgets_as_python_writes_them(tmp_path):
    for name, deals, span in (("list", [3, 4], (3, 5)), ("one", 7, (7, 8))):
        out = tmp_path / name
        canfield.sweep(out, deals=deals, nodes="2K", budget="inf", workers=1)
        spec = json.loads((out / "run.json").read_text())
        assert (spec["deal_start"], spec["deal_stop"]) == span
        # no time budget is null: run.json stays JSON (no Infinity)
        assert (spec["budget_seconds"], spec["budget_nodes"]) == (None, 2000)
        assert len(canfield.load_run(out)) == span[1] - span[0]


@pytest.mark.parametrize("move", [3, None, ("W", "F")])
def test_apply_refuses_what_is_not_a_move(move):
    pos = canfield.deal(5)
    with pytest.raises(TypeError, match="a move is a Move or its notation"):
        pos.apply(move)
    # a move object and its notation still play
    first = pos.legal_moves()[0]
    assert pos.apply(first) == pos.apply(str(first))
