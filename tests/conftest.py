"""Suite-wide hooks: the long tests start first, and the kernels compile
once, beside them, instead of once in each worker."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# Compiles (or loads) what the suite's solves run: one pack and two
# depth-first with the one-pack beam probe, one pack layered (the shared
# search runs the depth-first kernels).
WARM_UP = (
    "from canfield.solver.search import warm_up\n"
    "for strategy, packs in (('dfs', 1), ('dfs', 2), ('layers', 1)):\n"
    "    warm_up(strategy, packs, beam=True)\n"
)

_warming: subprocess.Popen | None = None


def _compiles_ahead(config: pytest.Config) -> bool:
    """In the controller of a run spread over xdist workers, with the JIT on."""
    return (
        not hasattr(config, "workerinput")
        and bool(getattr(config.option, "numprocesses", None))
        and not config.option.collectonly
        and os.environ.get("NUMBA_DISABLE_JIT", "0") in ("", "0")
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "long(seconds): a test of about `seconds` on two busy cores; such tests start first",
    )
    global _warming
    if _compiles_ahead(config):
        # From a cold cache each worker would compile the same kernels at its
        # first solve, 1-2 minutes each, often at the same time. The long
        # tests that start first compile nothing in this cache (they run
        # without the JIT, or in a cache of their own), so one process
        # compiles it beside them and the workers load what it wrote.
        _warming = subprocess.Popen(
            [sys.executable, "-c", WARM_UP],
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )


def pytest_unconfigure(config: pytest.Config) -> None:
    if _warming is not None and _warming.poll() is None:
        _warming.kill()  # a short run: the workers compiled what they needed


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Put the long tests first, longest first (the rest keep their order).

    pytest-xdist hands tests to its workers in collection order. A test of
    minutes collected late starts when the other worker has little left, and
    that worker then idles while it runs (the suite once took 18 minutes of
    which the last 8 were the no-JIT coverage run alone); started first, the
    long tests overlap with each other and with the short ones.
    """

    def seconds(item: pytest.Item) -> float:
        mark = item.get_closest_marker("long")
        return float(mark.args[0]) if mark else 0.0

    items.sort(key=lambda item: -seconds(item))
