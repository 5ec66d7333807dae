"""Dead code, stale ``noqa`` comments and import cycles fail the suite.

* vulture at 60% confidence over the package folders, with
  ``tests/vulture_whitelist.py`` for what it cannot see used;
* ruff's RUF100 (a ``noqa`` that silences nothing), on top of the configured
  rules so that a ``noqa`` for an enabled rule is judged fairly;
* no cycle among the project's own modules (``tests/import_graph.py``).
"""

from __future__ import annotations

import subprocess
import sys

import pytest
from import_graph import ROOT, find_cycles, import_graph

FOLDERS = ["canfield", "engine", "solver", "experiments"]


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=120
    )


def test_no_dead_code():
    pytest.importorskip("vulture")
    whitelist = "tests/vulture_whitelist.py"
    # click finds commands through their decorators, never by a call
    commands = "@click.command,@click.group,@*.command,@*.group"
    r = _run(
        "vulture", *FOLDERS, whitelist, "--min-confidence", "60", "--ignore-decorators", commands
    )
    assert r.returncode == 0, f"vulture finds unused code:\n{r.stdout}{r.stderr}"


def test_whitelist_names_what_exists():
    """An entry for a name since deleted or moved would hide nothing: running the
    whitelist imports each module and reads each attribute it names."""
    path = ROOT / "tests/vulture_whitelist.py"
    exec(compile(path.read_text(), str(path), "exec"), {})


def test_no_unused_noqa():
    r = _run("ruff", "check", "--extend-select", "RUF100", "--output-format", "concise", ".")
    assert r.returncode == 0, f"ruff finds noqa comments that silence nothing:\n{r.stdout}"


def test_import_graph_reads_every_kind_of_import(tmp_path):
    """Module-level, deferred, relative and ``from package import module``
    imports all make edges; ``if TYPE_CHECKING:`` imports do not."""
    for folder in ("canfield", "engine", "solver", "experiments"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "__init__.py").write_text("")
    (tmp_path / "engine/a.py").write_text("def f():\n    from canfield.solver import b\n")
    (tmp_path / "solver/b.py").write_text("from . import c\n")
    (tmp_path / "solver/c.py").write_text("import canfield.experiments.d\n")
    (tmp_path / "experiments/d.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from canfield.engine.a import f\n"
    )
    graph = import_graph(tmp_path)
    assert graph["canfield.engine.a"] == {"canfield.solver.b"}
    assert graph["canfield.solver.b"] == {"canfield.solver.c"}
    assert graph["canfield.solver.c"] == {"canfield.experiments.d"}
    assert graph["canfield.experiments.d"] == set()
    assert find_cycles(graph) == []
    (tmp_path / "experiments/d.py").write_text("from canfield.engine.a import f\n")
    assert find_cycles(import_graph(tmp_path)) == [
        [
            "canfield.engine.a",
            "canfield.solver.b",
            "canfield.solver.c",
            "canfield.experiments.d",
            "canfield.engine.a",
        ]
    ]


def test_import_graph_sees_the_project():
    graph = import_graph()
    assert {"canfield", "canfield.engine.core", "canfield.engine.position"} <= graph.keys()
    assert "canfield.engine.core" in graph["canfield.engine.position"]


def test_no_import_cycles():
    cycles = find_cycles(import_graph())
    assert not cycles, "import cycles:\n" + "\n".join(" -> ".join(c) for c in cycles)
