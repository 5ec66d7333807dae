"""The Python API (``import canfield``): the README's example runs as written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import canfield

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
