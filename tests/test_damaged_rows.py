"""A sweep part that reads but holds values no sweep writes is a damaged part:
every reader refuses it in one line naming it, and ``--repair`` moves it aside."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from canfield.experiments.cli import main
from canfield.experiments.sweep import RunFolder, SweepSpec
from canfield.experiments.sweep.errors import SweepError
from canfield.experiments.sweep.runner import run_sweep
from canfield.experiments.sweep.spec import make_spec
from canfield.experiments.sweep.store import load_run

NODES = 3000  # node budgets are deterministic: rows never depend on the machine
SWEEP = ["--profiles", "strict", "--deals", "0:4", "--nodes", str(NODES), "--memory", "16MB"]
SWEEP += ["--batch", "2", "--workers", "1", "--no-progress"]


@pytest.fixture(scope="module")
def two_parts(tmp_path_factory) -> Path:
    """A finished sweep of strict deals 0-3 in two parts of two deals."""
    out = tmp_path_factory.mktemp("sweep") / "run"
    spec = make_spec("strict", "0:4", nodes=NODES, memory="16MB")
    run_sweep(out, spec, workers=1, batch_size=2, progress=False, compact=False)
    assert len(RunFolder(out).part_files()) == 2
    return out


def _copy(run: Path, dest: Path) -> Path:
    dest.mkdir()
    (dest / "run.json").write_bytes((run / "run.json").read_bytes())
    (dest / "parts").mkdir()
    for part in RunFolder(run).part_files():
        (dest / "parts" / part.name).write_bytes(part.read_bytes())
    return dest


def _rewrite(part: Path, edit: Callable[[pd.DataFrame], None]) -> None:
    """Rewrite ``part`` with ``edit`` applied: still a readable Parquet file."""
    rows = pq.read_table(part).to_pandas()
    edit(rows)
    pq.write_table(pa.Table.from_pandas(rows, preserve_index=False), part)


def _set(column: str, value: object, dtype: str | None = None):
    def edit(rows: pd.DataFrame) -> None:
        if dtype is not None:
            rows[column] = rows[column].astype(dtype)
        rows.loc[1, column] = value

    return edit


BAD_VALUES = {
    "result foo": (_set("result", "foo"), "result 'foo' is not won, lost or unknown"),
    "no result": (_set("result", None), "result empty"),
    "banked 99": (_set("banked", 99), "banked 99 is outside 0..52"),
    "banked -1": (_set("banked", -1), "banked -1 is outside 0..52"),
    "negative deal": (_set("deal", -3, "int64"), "column deal: Integer value -3"),
    "no deal": (_set("deal", float("nan"), "float64"), "no deal"),
    "unknown profile": (_set("profile", "nosuch"), "unknown profile 'nosuch'"),
    "text in banked": (
        _set("banked", "lots", "str"),
        "column banked: Failed to parse string: 'lots'",
    ),
}


@pytest.mark.parametrize("bad", BAD_VALUES, ids=list(BAD_VALUES))
def test_every_reader_refuses_a_part_with_a_bad_value(two_parts, tmp_path, bad):
    edit, why = BAD_VALUES[bad]
    run = _copy(two_parts, tmp_path / "run")
    victim = RunFolder(run).part_files()[1]
    _rewrite(victim, edit)
    with pytest.raises(SweepError, match=f"damaged part .*{victim.name}.*--repair"):
        RunFolder(run).load()
    assert [p for p, _ in RunFolder(run).check_parts()] == [victim]  # what --repair moves
    res = CliRunner().invoke(main, ["report", str(run)])
    assert res.exit_code == 2, res.output
    assert res.stderr.startswith("error: damaged part ") and res.stderr.count("\n") == 1
    assert victim.name in res.stderr and why in res.stderr and "--repair" in res.stderr


def test_resume_refuses_the_part_and_repair_solves_its_deals_again(two_parts, tmp_path):
    """The audit's run: one result ``foo``, one banked 99. Resuming crashed
    with a KeyError and the report counted a deal in no column."""
    run = _copy(two_parts, tmp_path / "run")
    want = load_run(two_parts)
    victim = RunFolder(run).part_files()[0]

    def edit(rows: pd.DataFrame) -> None:
        rows.loc[0, "result"] = "foo"
        rows.loc[1, "banked"] = 99

    _rewrite(victim, edit)
    damaged = victim.read_bytes()
    res = CliRunner().invoke(main, ["sweep", *SWEEP, "--out", str(run)])
    assert res.exit_code == 2, res.output
    assert res.stderr.count("\n") == 1 and victim.name in res.stderr
    assert "result 'foo'" in res.stderr and "2 bad rows" in res.stderr
    assert victim.read_bytes() == damaged  # refused, not touched

    res = CliRunner().invoke(main, ["sweep", *SWEEP, "--out", str(run), "--repair"])
    assert res.exit_code == 0, res.output
    assert (RunFolder(run).damaged_dir / victim.name).read_bytes() == damaged  # kept aside
    cols = ["deal", "profile", "result", "banked"]
    pd.testing.assert_frame_equal(load_run(run)[cols], want[cols])
    res = CliRunner().invoke(main, ["report", str(run)])
    assert res.exit_code == 0 and "foo" not in res.stdout


def _row(deal: int, profile: str, result: str, banked: int) -> dict:
    return {
        "deal": deal,
        "profile": profile,
        "profile_full": profile + ":...",
        "result": result,
        "banked": banked,
        "seconds": 0.01,
        "nodes": 10,
        "peak_table_bytes": 1 << 20,
        "base_rank": 0,
        "reserve_left": 0,
        "solution_length": 0,
        "budget_seconds": None,
        "budget_nodes": 1000,
        "budget_memory": 1 << 24,
        "version": "0.1.0",
        "pick": None,
        "stop_reason": "x",
    }


def test_banked_is_bounded_by_the_profiles_cards(tmp_path):
    """Two packs bank up to 104 cards, one pack 52."""
    folder = RunFolder(tmp_path / "run")
    folder.init(SweepSpec(("double", "strict"), 0, 2, None, 1000, 1 << 24))
    folder.write_part(0, [_row(0, "double", "won", 104), _row(0, "strict", "won", 52)])
    assert list(folder.load()["banked"]) == [104, 52]
    folder.write_part(1, [_row(1, "double", "lost", 105)])
    with pytest.raises(SweepError, match=r"part-00001.*deal 1, profile double.*0\.\.104"):
        folder.load()
    folder.write_part(1, [_row(1, "double", "lost", 60), _row(1, "strict", "lost", 60)])
    with pytest.raises(SweepError, match=r"part-00001.*deal 1, profile strict.*0\.\.52"):
        folder.load()
