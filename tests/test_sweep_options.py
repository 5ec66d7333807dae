"""``canfield sweep`` options: what it refuses, what it records, and how an
older run folder resumes (issue 12, items 5, 7, 9, 10, 13)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

from canfield.engine.version import __version__
from canfield.experiments.cli import main
from canfield.experiments.sweep import rows as rows_module
from canfield.experiments.sweep import store as store_module
from canfield.experiments.sweep.errors import SweepError
from canfield.experiments.sweep.runner import run_sweep
from canfield.experiments.sweep.spec import (
    make_spec,
    parse_solver_options,
    solver_options,
    split_profiles,
    with_turn,
)
from canfield.experiments.sweep.store import RunFolder, load_run
from canfield.solver.config import DEFAULT_MEMORY

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "results" / "sample"
DEFAULTS = "prune=all,probes=on,strategy=dfs"


def sweep(*args: str):
    return CliRunner().invoke(main, ["sweep", *args, "--no-progress"])


def assert_one_error(res, message: str) -> None:
    assert res.exit_code == 2, res.output
    assert res.stderr.startswith("error: ") and res.stderr.count("\n") == 1, res.stderr
    assert "Traceback" not in res.stderr
    assert message in res.stderr, res.stderr


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    "args, message",
    [
        (["--budget", "50000"], "a time budget needs a unit: 50000s or 50000m?"),
        (["--nodes", "10", "--memory", "268435456"], "a memory size needs a unit: 268435456MB"),
        (["--workers", "2", "--scheduler", "tcp://127.0.0.1:9"], "--workers"),
        (["--prune", "P9"], "unknown pruning rule"),
        (
            ["-p", "strict:worry=yes", "--strategy", "layers"],
            "--strategy layers: the layered search needs worry=no",
        ),
        (["-p", "strict,double", "--strategy", "layers"], "two packs (double) are searched"),
        (["--player", "greedy", "--no-probes"], "options of --player solver"),
        (["--player", "random", "--prune", "none"], "options of --player solver"),
    ],
)
def test_bad_input_is_one_line_and_leaves_nothing(tmp_path, args, message):
    out = tmp_path / "r"
    assert_one_error(sweep("--deals", "0:2", *args, "--out", str(out)), message)
    assert not out.exists()


def test_scheduler_bogus_or_unreachable_leaves_nothing(tmp_path, monkeypatch):
    pytest.importorskip("distributed")
    monkeypatch.setattr("canfield.experiments.sweep.runner.DASK_CONNECT_TIMEOUT", "1s")
    for address in ("bogus", "tcp://127.0.0.1:9"):
        out = tmp_path / address.replace("/", "_").replace(":", "_")
        res = sweep("--deals", "0:2", "--nodes", "10", "--scheduler", address, "--out", str(out))
        assert_one_error(res, "cannot reach the dask scheduler")
        assert not out.exists()


def test_unwritable_out_is_one_line(tmp_path):
    (tmp_path / "afile").write_text("not a folder")
    res = sweep("--player", "greedy", "--deals", "0:2", "--out", str(tmp_path / "afile" / "run"))
    assert_one_error(res, "is a file")
    res = sweep("--player", "greedy", "--deals", "0:2", "--out", "/proc/canfield-sweep-run")
    assert_one_error(res, "cannot write the run folder /proc/canfield-sweep-run")


# --------------------------------------------------------------------------- profiles


def test_profiles_repeat_and_semicolons():
    want = ["storehouse:passes=2,space=any", "strict", "cardgames:worry=no"]
    assert split_profiles(["storehouse:passes=2,space=any", "strict;cardgames:worry=no"]) == want
    assert split_profiles("storehouse:passes=2,space=any;strict,cardgames:worry=no") == want
    # an option list never continues across ';'
    with pytest.raises(Exception, match="unknown profile"):
        split_profiles("strict;draw=1")


def test_short_p_repeated_on_the_command_line(tmp_path):
    out = tmp_path / "run"
    res = sweep(
        "-p", "storehouse:passes=2,space=any", "-p", "strict", "--player", "greedy",
        "--deals", "0:2", "--workers", "1", "--out", str(out),
    )  # fmt: skip
    assert res.exit_code == 0, res.output
    meta = json.loads((out / "run.json").read_text())
    assert meta["profiles"] == ["storehouse:passes=2,space=any", "strict"]
    assert len(load_run(out)) == 4


# --------------------------------------------------------------------------- solver options


def test_solver_options_recorded_in_run_json_and_rows(tmp_path):
    out = tmp_path / "run"
    res = sweep(
        "--deals", "0:3", "--nodes", "3000", "--memory", "16MB", "--prune", "e2,P1",
        "--no-probes", "--strategy", "layers", "--workers", "1", "--out", str(out),
    )  # fmt: skip
    assert res.exit_code == 0, res.output
    options = "prune=P1+E2,probes=off,strategy=layers"
    assert json.loads((out / "run.json").read_text())["solver_options"] == options
    df = load_run(out)
    assert (df["solver_options"] == options).all() and len(df) == 3
    # resumed without the options: the folder's are used, not the defaults
    res = sweep("--deals", "0:3", "--nodes", "3000", "--out", str(out))
    assert res.exit_code == 0 and "complete: 3/3" in res.stderr, res.output
    res = sweep("--deals", "0:3", "--nodes", "3000", "--probes", "--out", str(out))
    assert_one_error(res, "solver_options")


def test_default_memory_is_the_solvers():
    assert make_spec("strict", "0:2").memory == DEFAULT_MEMORY
    assert make_spec("strict", "0:2").solver_options == DEFAULTS
    assert make_spec("strict", "0:2", player="greedy").solver_options == ""


def test_folder_made_with_the_old_memory_default_resumes(tmp_path):
    """A run.json from before solver_options with the old 256MB default: a
    resume without --memory uses it; another --memory is refused."""
    out = tmp_path / "run"
    old = make_spec("strict", "0:2", nodes=2000, memory="256MB")
    run_sweep(out, old, workers=1, progress=False)
    meta = json.loads((out / "run.json").read_text())
    del meta["solver_options"]
    (out / "run.json").write_text(json.dumps(meta))
    res = sweep("--deals", "0:2", "--nodes", "2000", "--workers", "1", "--out", str(out))
    assert res.exit_code == 0 and "complete: 2/2" in res.stderr, res.output
    res = sweep("--deals", "0:2", "--nodes", "2000", "--memory", "1GB", "--out", str(out))
    assert_one_error(res, "memory 268435456 (run.json) vs 1073741824 (now)")


def test_committed_sample_resumes_without_memory(tmp_path):
    out = tmp_path / "sample"
    shutil.copytree(SAMPLE, out)
    args = ["--profiles", "strict,hevagames", "--deals", "0:40", "--nodes", "200000"]
    # made by an older toolkit: refused for its version alone, not its memory
    res = sweep(*args, "--out", str(out))
    assert_one_error(res, "version")
    assert "memory" not in res.stderr and "solver_options" not in res.stderr
    meta = json.loads((out / "run.json").read_text())
    meta["version"] = __version__
    (out / "run.json").write_text(json.dumps(meta))
    res = sweep(*args, "--out", str(out))
    assert res.exit_code == 0 and "complete: 80/80 rows" in res.stderr, res.output
    df = load_run(out)  # its parts predate solver_options: they load with the defaults
    assert len(df) == 80 and (df["solver_options"] == DEFAULTS).all()


# --------------------------------------------------------------------------- compile


def test_blind_players_do_not_compile_the_solver(tmp_path, monkeypatch):
    def no_compile(*_):
        raise AssertionError("a blind player compiled the solver")

    rows_module.warm_up_once.cache_clear()
    monkeypatch.setattr(rows_module, "warm_up", no_compile)
    spec = make_spec("strict", "0:2", player="greedy")
    assert run_sweep(tmp_path / "g", spec, workers=1, progress=False).complete


def test_a_cold_compile_is_announced(tmp_path, monkeypatch):
    monkeypatch.setattr("canfield.experiments.sweep.runner.is_compiled", lambda *_: False)
    res = sweep("--deals", "0:1", "--nodes", "100", "--workers", "1", "--out", str(tmp_path / "r"))
    assert res.exit_code == 0, res.output
    assert res.stderr.startswith("compiling the solver (first run only, about ")


def test_no_eta_before_the_first_rows():
    from canfield.experiments.sweep.progress import ResultTally, SweepProgress

    tally = ResultTally(["strict"], pd.DataFrame({"profile": [], "result": []}))
    bar = SweepProgress(400, 0, "sweep", tally)
    try:
        assert "0/400" in str(bar) and "<" not in str(bar)  # no "<ETA"
        row = {"profile": "strict", "result": "won"}
        tally.add([row] * 8)
        bar.add([row] * 8)
        tally.add([row] * 8)
        bar.add([row] * 8)
        assert "16/400" in str(bar) and "<" in str(bar)
    finally:
        bar.close()


# --------------------------------------------------------------------------- repair


def test_repair_solves_only_the_damaged_parts_rows(tmp_path, monkeypatch):
    monkeypatch.setattr(store_module, "COMPACT_ROWS", 4)
    out = tmp_path / "run"
    spec = make_spec("strict", "0:12", nodes=2000, memory="16MB")
    run_sweep(out, spec, workers=1, batch_size=2, progress=False)
    folder = RunFolder(out)
    parts = folder.part_files()
    assert len(parts) == 3  # a finished run: 12 rows in parts of at most 4
    before = folder.load()
    victim = parts[1]
    lost = set(pd.read_parquet(victim)["deal"])
    victim.write_bytes(victim.read_bytes()[:40])
    summary = run_sweep(out, spec, workers=1, batch_size=2, repair=True, progress=False)
    assert summary.rows_written == len(lost) == 4
    after = load_run(out)
    kept = after[~after["deal"].isin(lost)]
    old = before[~before["deal"].isin(lost)]
    assert (kept["seconds"].to_numpy() == old["seconds"].to_numpy()).all()  # not re-solved
    assert sorted(after["deal"]) == list(range(12))


def test_a_turned_order_in_solver_options():
    """The usual order (turn 0) adds nothing, so earlier rows' strings stay;
    a turn is written last and read back; only the depth-first search turns."""
    assert solver_options("all", True, "dfs", 0) == DEFAULTS
    turned = with_turn(DEFAULTS, 192)
    assert turned == DEFAULTS + ",turn=192"
    assert parse_solver_options(turned)["turn"] == 192
    assert parse_solver_options(DEFAULTS)["turn"] == 0
    assert with_turn("prune=P1+B1,probes=off,strategy=dfs", 7) == (
        "prune=P1+B1,probes=off,strategy=dfs,turn=7"
    )
    assert with_turn(turned, 0) == DEFAULTS
    for bad in ((256, "dfs"), (3, "layers")):
        with pytest.raises(SweepError, match="turn"):
            solver_options("all", True, bad[1], bad[0])
