"""notebooks/winnability.ipynb runs top to bottom on a run folder named as a user would.

Jupyter runs a notebook in its own folder (``notebooks/``), while the README
writes run folders from the repository root (``results/runs/main``): the
notebook must read a relative ``CANFIELD_RUNS`` from the root, and an absolute
one as it is.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

nbclient = pytest.importorskip("nbclient")
nbformat = pytest.importorskip("nbformat")

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK = ROOT / "notebooks" / "winnability.ipynb"
SAMPLE = ROOT / "results" / "sample"


def _check_outputs(nb, runs: Path) -> None:
    """No cell failed, the tables name both profiles, and the plots were drawn."""
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    errors = [o for o in outputs if o.get("output_type") == "error"]
    assert not errors, [f"{e['ename']}: {e['evalue']}" for e in errors]
    text = "".join(
        str(o.get("text", "")) + str(o.get("data", {}).get("text/plain", "")) for o in outputs
    )
    assert f"80 rows from {runs}" in text  # 40 deals x 2 profiles, from the folder asked for
    assert "strict" in text and "hevagames" in text
    images = [o for o in outputs if "image/png" in o.get("data", {})]
    assert len(images) >= 4


@pytest.fixture(autouse=True)
def _sample_present():
    if not (SAMPLE / "run.json").exists():
        pytest.fail("the sample run results/sample is missing")


def test_relative_runs_path_is_read_from_the_repository_root(tmp_path):
    """The README's way: ``CANFIELD_RUNS=results/sample jupyter nbconvert --execute ...``.

    nbconvert runs the kernel in ``notebooks/``, where ``results/sample`` does
    not exist; the notebook used to fail here with "results/sample is not a run folder".
    """
    pytest.importorskip("nbconvert")
    env = dict(os.environ, CANFIELD_RUNS="results/sample", MPLBACKEND="Agg")
    done = subprocess.run(
        [sys.executable, "-m", "nbconvert", "--to", "notebook", "--execute"]
        + ["--output-dir", str(tmp_path), "--output", "executed", str(NOTEBOOK)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    _check_outputs(nbformat.read(tmp_path / "executed.ipynb", as_version=4), SAMPLE)


def test_absolute_runs_path_is_read_as_it_is(tmp_path, monkeypatch):
    """A run folder outside the repository, given by its absolute path."""
    runs = tmp_path / "elsewhere"
    shutil.copytree(SAMPLE, runs)
    monkeypatch.setenv("CANFIELD_RUNS", str(runs))
    monkeypatch.setenv("MPLBACKEND", "Agg")
    nb = nbformat.read(NOTEBOOK, as_version=4)
    client = nbclient.NotebookClient(
        nb,
        timeout=300,
        kernel_name="python3",
        resources={"metadata": {"path": str(NOTEBOOK.parent)}},
    )
    client.execute()
    _check_outputs(nb, runs)
