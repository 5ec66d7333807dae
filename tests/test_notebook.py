"""notebooks/winnability.ipynb runs top to bottom on the committed sample run."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

nbclient = pytest.importorskip("nbclient")
nbformat = pytest.importorskip("nbformat")

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK = ROOT / "notebooks" / "winnability.ipynb"


def test_notebook_runs(monkeypatch):
    if not (ROOT / "results" / "sample" / "run.json").exists():
        pytest.fail("the sample run results/sample is missing")
    monkeypatch.delenv("CANFIELD_RUNS", raising=False)
    monkeypatch.setenv("MPLBACKEND", "Agg")
    nb = nbformat.read(NOTEBOOK, as_version=4)
    client = nbclient.NotebookClient(
        nb,
        timeout=300,
        kernel_name="python3",
        resources={"metadata": {"path": str(NOTEBOOK.parent)}},
    )
    client.execute()
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    text = "".join(
        str(o.get("text", "")) + str(o.get("data", {}).get("text/plain", "")) for o in outputs
    )
    assert "rows from" in text and "strict" in text and "hevagames" in text
    images = [o for o in outputs if "image/png" in o.get("data", {})]
    assert len(images) >= 4
    assert os.environ.get("CANFIELD_RUNS") is None
