"""The kernels as plain Python under coverage, and compiled with bounds checks.

Which tests run in each child run, and why, is in ``tests/jit_off.py``; the
children never run this module, and a suite started inside one skips it.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from jit_off import (
    BOUNDSCHECK_TESTS,
    FLOORS,
    NESTED,
    NOJIT_TESTS,
    coverage_table,
    run_with_boundscheck,
    run_without_jit,
)

pytestmark = pytest.mark.skipif(bool(os.environ.get(NESTED)), reason="inside a child run")


def _failure(name: str, proc: subprocess.CompletedProcess) -> str:
    tail = "\n".join((proc.stdout + proc.stderr).splitlines()[-40:])
    return f"the {name} run failed:\n{tail}"


def test_child_runs_never_include_this_module():
    assert not any("test_jit_off" in t for t in NOJIT_TESTS + BOUNDSCHECK_TESTS)


@pytest.mark.long(300)
def test_kernels_without_jit_pass_and_keep_their_coverage(tmp_path):
    pytest.importorskip("coverage")
    proc, percent = run_without_jit(tmp_path)
    assert proc.returncode == 0, _failure("NUMBA_DISABLE_JIT=1", proc)
    print("\nline coverage with NUMBA_DISABLE_JIT=1:\n" + coverage_table(percent))
    low = {f: (percent.get(f, 0.0), floor) for f, floor in FLOORS.items()}
    low = {f: v for f, v in low.items() if v[0] < v[1]}
    assert not low, f"coverage fell below its floor (got, floor): {low}"


def test_bounds_checks_really_switch_on(tmp_path):
    """The environment the bounds-check run uses makes numba raise on an
    index past the end (the default reads whatever memory is there)."""
    probe = (
        "import numpy as np\nfrom numba import njit\n"
        "f = njit(lambda a: a[5])\n"
        "try:\n    f(np.zeros(1))\nexcept IndexError:\n    print('checked')\n"
    )
    env = {**os.environ, "NUMBA_BOUNDSCHECK": "1", "NUMBA_CACHE_DIR": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True)
    assert out.stdout.strip() == "checked", out.stderr


@pytest.mark.long(265)
def test_kernels_with_bounds_checks(tmp_path):
    proc = run_with_boundscheck(tmp_path / "numba-cache")
    assert proc.returncode == 0, _failure("NUMBA_BOUNDSCHECK=1", proc)
