"""Sweeps: run folder, resume after kill -9, worker-count independence, dask, errors."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import psutil
import pytest
from click.testing import CliRunner

from canfield.experiments.cli import main
from canfield.experiments.cli.report import report_cmd
from canfield.experiments.cli.sweep import sweep_cmd
from canfield.experiments.sweep.errors import SweepError
from canfield.experiments.sweep.runner import plan_batches, run_sweep
from canfield.experiments.sweep.schema import COLUMNS, TIMING_COLUMNS
from canfield.experiments.sweep.spec import (
    MAX_LISTED_DEALS,
    make_spec,
    parse_deal_list,
    parse_deals,
    split_profiles,
)
from canfield.experiments.sweep.store import RunFolder, load_run

ROOT = Path(__file__).resolve().parents[1]
NODES = 3000  # node budgets are deterministic: rows never depend on the machine
DETERMINISTIC = [c for c in COLUMNS if c not in TIMING_COLUMNS]


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "canfield.experiments.cli", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )


def small_spec(deals: str = "0:12", profiles: str = "strict,hevagames"):
    return make_spec(profiles, deals, nodes=NODES, memory="16MB")


def frame(df: pd.DataFrame) -> pd.DataFrame:
    return df[DETERMINISTIC].sort_values(["deal", "profile"]).reset_index(drop=True)


# --------------------------------------------------------------------------- parsing


def test_a_deal_list_reads_deals_and_ranges_in_order_each_once():
    assert parse_deal_list("0:200") == range(0, 200)  # one range stays a range
    assert parse_deal_list("35") == range(35, 36)
    assert parse_deal_list("6,12,35") == [6, 12, 35]
    assert parse_deal_list("64, 0:3 ,1,64") == [64, 0, 1, 2]
    for bad in ("", "6,", ",6", "6,,12", "6,x", "0:3,5:5", "1,-2"):
        with pytest.raises(SweepError):
            parse_deal_list(bad)
    with pytest.raises(SweepError, match="more than"):
        parse_deal_list(f"0:{MAX_LISTED_DEALS},5")


def test_parse_deals():
    assert parse_deals("0:200") == range(0, 200)
    assert parse_deals("7") == range(7, 8)
    assert parse_deals(f"{2**64 - 1}") == range(2**64 - 1, 2**64)
    for bad in ("", "a:b", "5:5", "9:3", "-1:4", f"0:{2**64 + 1}", "1:2:3"):
        with pytest.raises(SweepError):
            parse_deals(bad)


def test_split_profiles_keeps_option_lists():
    assert split_profiles("strict,hevagames") == ["strict", "hevagames"]
    assert split_profiles("strict:draw=1,worry=yes,cardgames") == [
        "strict:draw=1,worry=yes",
        "cardgames",
    ]
    assert split_profiles(" strict , strict:moves=whole ") == ["strict"]
    assert split_profiles("cardgames:worry=no") == ["cardgames:worry=no"]
    with pytest.raises(SweepError, match="unknown profile"):
        split_profiles("strict,nosuch")
    with pytest.raises(SweepError):
        split_profiles(",")


def test_spec_defaults():
    s = make_spec("strict", "0:3")
    assert (s.budget_seconds, s.budget_nodes) == (10.0, None)
    s = make_spec("strict", "0:3", nodes=100)
    assert (s.budget_seconds, s.budget_nodes) == (None, 100)
    with pytest.raises(SweepError, match="time budget"):
        make_spec("strict", "0:3", budget="fast")


def test_plan_batches_skips_done_rows():
    spec = make_spec("strict,hevagames", "0:5", nodes=10)
    done = {(0, "strict"), (1, "strict"), (4, "hevagames")}
    batches = plan_batches(spec, done, 2)
    got = {(d, p) for p, ds in batches for d in ds}
    want = {(d, p) for d in range(5) for p in spec.profiles} - done
    assert got == want
    assert all(len(ds) <= 2 for _, ds in batches)


# --------------------------------------------------------------------------- run folder


def test_rows_and_resume(tmp_path):
    out = tmp_path / "run"
    spec = small_spec("0:6")
    s1 = run_sweep(out, spec, workers=1, batch_size=2, progress=False)
    assert s1.complete and s1.rows_written == 12
    meta = json.loads((out / "run.json").read_text())
    assert meta["profiles"] == ["strict", "hevagames"] and meta["deals"] == "0:6"
    assert meta["budget_nodes"] == NODES
    df = load_run(out)
    assert list(df.columns) == list(COLUMNS)
    assert len(df) == 12 and not df.duplicated(["deal", "profile"]).any()
    assert set(df["result"]) <= {"won", "lost", "unknown"}
    assert (df["budget_nodes"] == NODES).all() and df["budget_seconds"].isna().all()
    assert ((df["solution_length"] > 0) == (df["result"] == "won")).all()
    assert all(
        f.startswith(p.split(":")[0] + ":")
        for f, p in zip(df["profile_full"], df["profile"], strict=True)
    )
    # A finished run is compacted into one part; rerunning writes nothing.
    assert len(RunFolder(out).part_files()) == 1
    s2 = run_sweep(out, spec, workers=1, batch_size=2, progress=False)
    assert s2.rows_written == 0 and s2.complete
    pd.testing.assert_frame_equal(load_run(out), df)


def test_mismatched_arguments_are_refused(tmp_path):
    out = tmp_path / "run"
    run_sweep(out, small_spec("0:2", "strict"), workers=1, progress=False)
    with pytest.raises(SweepError, match="other arguments.*deals"):
        run_sweep(out, small_spec("0:3", "strict"), workers=1, progress=False)
    with pytest.raises(SweepError, match="profiles"):
        run_sweep(out, small_spec("0:2", "hevagames"), workers=1, progress=False)
    r = cli(
        "sweep",
        "--profiles",
        "strict",
        "--deals",
        "0:2",
        "--nodes",
        "99",
        "--memory",
        "16MB",
        "--out",
        str(out),
        "--no-progress",
    )
    assert r.returncode == 2
    assert r.stderr.count("\n") == 1 and r.stderr.startswith("error: ")
    assert "budget_nodes" in r.stderr


def test_duplicate_parts_deduplicated_or_refused(tmp_path):
    out = tmp_path / "run"
    run_sweep(
        out, small_spec("0:4", "strict"), workers=1, batch_size=2, progress=False, compact=False
    )
    folder = RunFolder(out)
    parts = folder.part_files()
    assert len(parts) == 2
    want = folder.load()
    # An identical copy (as a crash during compaction leaves) is dropped.
    shutil.copy(parts[0], folder.parts_dir / "part-00007.parquet")
    pd.testing.assert_frame_equal(folder.load(), want)
    # A copy that disagrees is an error naming both parts.
    bad = pd.read_parquet(parts[0])
    bad["banked"] = 99
    bad.to_parquet(folder.parts_dir / "part-00007.parquet")
    with pytest.raises(SweepError, match="part-00000.parquet, part-00007.parquet disagree"):
        folder.load()


def test_damaged_part_error_and_repair(tmp_path):
    out = tmp_path / "run"
    args = [
        "sweep",
        "--profiles",
        "strict",
        "--deals",
        "0:6",
        "--nodes",
        str(NODES),
        "--memory",
        "16MB",
        "--batch",
        "2",
        "--workers",
        "1",
        "--out",
        str(out),
        "--no-progress",
    ]
    spec = make_spec("strict", "0:6", nodes=NODES, memory="16MB")
    run_sweep(out, spec, workers=1, batch_size=2, progress=False, compact=False)
    folder = RunFolder(out)
    victim = folder.part_files()[1]
    victim.write_bytes(victim.read_bytes()[:40])  # truncated, as a disk error leaves it
    with pytest.raises(SweepError, match=f"damaged part .*{victim.name}.*--repair"):
        folder.load()
    r = cli(*args)
    assert r.returncode == 2
    assert r.stderr.count("\n") == 1 and victim.name in r.stderr and "Traceback" not in r.stderr
    rep = cli("report", str(out))
    assert rep.returncode == 2 and victim.name in rep.stderr
    r = cli(*args, "--repair")
    assert r.returncode == 0, r.stderr
    assert (folder.damaged_dir / victim.name).exists()
    df = load_run(out)
    assert sorted(df["deal"]) == list(range(6))


@pytest.mark.parametrize(
    "args, message",
    [
        (["--profiles", "strict,bogus", "--deals", "0:3"], "unknown profile 'bogus'"),
        (["--profiles", "strict:draw=2", "--deals", "0:3"], "draw must be 1 or 3"),
        (["--deals", "5:2"], "bad deal range"),
        (["--deals", "x"], "cannot read a deal range"),
        (["--deals", "0:3", "--budget", "soon"], "cannot read a time budget"),
        (["--deals", "0:3", "--budget", "-1s"], "must be positive"),
        (["--deals", "0:3", "--nodes", "0"], "node budget must be a positive"),
        (["--deals", "0:3", "--nodes", "2.5x"], "cannot read a node budget"),
        (["--deals", "0:3", "--memory", "lots"], "cannot read a memory size"),
    ],
)
def test_bad_input_is_one_line_exit_2(tmp_path, args, message):
    # as a user runs it: click's own usage errors are one line too
    res = CliRunner().invoke(main, ["sweep", *args, "--out", str(tmp_path / "r")])
    assert res.exit_code == 2, res.output
    assert res.stderr == f"error: {res.stderr[7:].strip()}\n"
    assert message in res.stderr
    assert not (tmp_path / "r").exists()


def test_a_node_budget_may_carry_a_suffix_as_in_escalate(tmp_path):
    """``--nodes 1.5K`` is 1,500 positions (as ``escalate --nodes`` reads it)."""
    res = CliRunner().invoke(
        sweep_cmd, ["--deals", "0:2", "--nodes", "1.5K", "--out", str(tmp_path / "r")]
    )
    assert res.exit_code == 0, res.output
    assert set(load_run(tmp_path / "r")["budget_nodes"]) == {1500}


def test_not_a_run_folder(tmp_path):
    (tmp_path / "junk").mkdir()
    (tmp_path / "junk" / "x.txt").write_text("hello")
    r = CliRunner().invoke(
        sweep_cmd, ["--deals", "0:2", "--nodes", "10", "--out", str(tmp_path / "junk")]
    )
    assert r.exit_code == 2 and "no run.json" in r.stderr
    r = CliRunner().invoke(report_cmd, [str(tmp_path / "nothing")])
    assert r.exit_code == 2 and "not a run folder" in r.stderr


# --------------------------------------------------------------------------- kill -9, Ctrl-C


def _start(
    out: Path,
    deals: str,
    workers: int,
    nodes: int = 20000,
    env: dict | None = None,
    profiles: str = "strict,hevagames",
) -> subprocess.Popen:
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "canfield.experiments.cli",
            "sweep",
            "--profiles",
            profiles,
            "--deals",
            deals,
            "--nodes",
            str(nodes),
            "--memory",
            "16MB",
            "--batch",
            "1",
            "--workers",
            str(workers),
            "--out",
            str(out),
            "--no-progress",
        ],
        cwd=ROOT,
        env={**os.environ, **(env or {})},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        # a terminal's Ctrl-C reaches a process whose SIGINT is at its default;
        # a suite started in the background inherits it ignored
        preexec_fn=_default_sigint,
    )


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _wait_parts(out: Path, n: int, proc: subprocess.Popen, timeout: float = 90) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if len(RunFolder(out).part_files()) >= n:
            return
        if proc.poll() is not None:
            pytest.fail(f"sweep ended early: {proc.stderr.read()}")
        time.sleep(0.05)
    pytest.fail("no parts appeared")


def test_kill_9_then_resume(tmp_path):
    out = tmp_path / "run"
    proc = _start(out, "0:30", workers=2)
    _wait_parts(out, 5, proc)
    os.killpg(proc.pid, signal.SIGKILL)  # the sweep and its workers, mid-batch
    proc.wait()
    partial = load_run(out)  # whatever was written is readable
    assert 5 <= len(partial) < 60
    assert not partial.duplicated(["deal", "profile"]).any()
    proc = _start(out, "0:30", workers=2)
    _, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err
    assert "complete: 60/60 rows" in err and f"({60 - len(partial)} new in" in err
    df = load_run(out)
    assert len(df) == 60 and not df.duplicated(["deal", "profile"]).any()
    assert set(zip(df["deal"], df["profile"], strict=True)) == {
        (d, p) for d in range(30) for p in ("strict", "hevagames")
    }
    kept = df.merge(partial, on=["deal", "profile"], suffixes=("", "_old"))
    assert len(kept) == len(partial)
    assert (kept["seconds"] == kept["seconds_old"]).all()  # old rows were not re-solved
    assert not list(RunFolder(out).parts_dir.glob(".*.tmp"))


def test_ctrl_c_stops_cleanly(tmp_path):
    out = tmp_path / "run"
    proc = _start(out, "0:200", workers=2)
    _wait_parts(out, 3, proc)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "interrupted" in err and "Traceback" not in err
    df = load_run(out)
    assert 3 <= len(df) < 400 and not df.duplicated(["deal", "profile"]).any()


def stop_group(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait()


def wait_for(test, timeout: float, what: str) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if test():
            return
        time.sleep(0.1)
    pytest.fail(f"timed out waiting for {what}")


def assert_quiet_interrupt(err: str) -> None:
    assert "Traceback" not in err and "Exception" not in err, err
    lines = err.strip().splitlines()
    assert lines[-1].startswith("interrupted: "), err  # and nothing after it


@pytest.mark.long(60)
def test_ctrl_c_during_a_cold_compile(tmp_path):
    # two packs: their kernels compile in about a third of the one-pack
    # kernels' time, and through the same held interrupt
    out = tmp_path / "run"
    cold = {"CANFIELD_NUMBA_CACHE": str(tmp_path / "cache")}
    proc = _start(out, "0:4", 2, nodes=200, env=cold, profiles="double")
    try:
        first = proc.stderr.readline()
        assert first.startswith("compiling the solver (first run only"), first
        time.sleep(3)  # well inside the compile
        proc.send_signal(signal.SIGINT)
        # held until the compile ends: an interrupt inside numba's ctypes
        # callbacks printed "Exception ignored ... no compiled object yet"
        _, err = proc.communicate(timeout=180)
    finally:
        stop_group(proc)
    assert proc.returncode == 130, err
    assert_quiet_interrupt(first + err)
    assert err.startswith("stopping once the compile ends"), err
    # the folder resumes (with the usual cache: the compile is not what is tested here)
    again = _start(out, "0:4", 2, nodes=200, profiles="double")
    _, err = again.communicate(timeout=300)
    assert again.returncode == 0 and "complete: 4/4 rows" in err, err
    assert len(load_run(out)) == 4


@pytest.mark.parametrize("delay", [0.5, 2.5])
def test_ctrl_c_while_workers_start(tmp_path, delay):
    out = tmp_path / "run"
    proc = _start(out, "0:200", 2, nodes=2000)
    try:
        wait_for(lambda: (out / "run.json").exists(), 60, "run.json")
        time.sleep(delay)  # workers importing, or loading their kernels
        os.killpg(proc.pid, signal.SIGINT)  # as a terminal's Ctrl-C: the whole group
        _, err = proc.communicate(timeout=60)
    finally:
        stop_group(proc)
    assert proc.returncode == 130, err
    assert_quiet_interrupt(err)


def test_workers_die_with_the_sweep(tmp_path):
    out = tmp_path / "run"
    proc = _start(out, "0:2000", 2, nodes=2000)
    try:
        parent = psutil.Process(proc.pid)
        workers: list[psutil.Process] = []

        def two_workers() -> bool:
            workers[:] = [
                p for p in parent.children() if "resource_tracker" not in " ".join(p.cmdline())
            ]
            return len(workers) >= 2

        wait_for(two_workers, 60, "two workers")
        wait_for(lambda: len(list((out / "parts").glob("part-*"))) >= 1, 120, "a part")
        os.kill(proc.pid, signal.SIGKILL)  # the sweep alone: its workers are not signalled
        proc.wait()
        gone, alive = psutil.wait_procs(workers, timeout=5)
        assert not alive, f"workers outlived the sweep: {[p.pid for p in alive]}"
    finally:
        stop_group(proc)


# --------------------------------------------------------------------------- workers, dask


@pytest.fixture(scope="module")
def one_worker_rows(tmp_path_factory) -> pd.DataFrame:
    """The deterministic columns of ``small_spec('0:12')`` solved in this process."""
    out = tmp_path_factory.mktemp("sweep") / "w1"
    run_sweep(out, small_spec("0:12"), workers=1, batch_size=5, progress=False)
    return frame(load_run(out))


def test_rows_identical_for_1_and_2_workers(tmp_path, one_worker_rows):
    run_sweep(tmp_path / "w2", small_spec("0:12"), workers=2, batch_size=3, progress=False)
    assert len(one_worker_rows) == 24
    pd.testing.assert_frame_equal(one_worker_rows, frame(load_run(tmp_path / "w2")))


def test_rows_identical_on_dask(tmp_path, one_worker_rows):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        r = cli(
            "sweep",
            "--profiles",
            "strict,hevagames",
            "--deals",
            "0:12",
            "--nodes",
            str(NODES),
            "--memory",
            "16MB",
            "--batch",
            "4",
            "--scheduler",
            cluster.scheduler_address,
            "--out",
            str(tmp_path / "dask"),
            "--no-progress",
        )
    assert r.returncode == 0, r.stderr
    pd.testing.assert_frame_equal(one_worker_rows, frame(load_run(tmp_path / "dask")))


def test_unreachable_scheduler_is_a_clear_error(tmp_path, monkeypatch):
    pytest.importorskip("distributed")
    monkeypatch.setattr("canfield.experiments.sweep.runner.DASK_CONNECT_TIMEOUT", "1s")
    r = CliRunner().invoke(
        sweep_cmd,
        [
            "--deals",
            "0:2",
            "--nodes",
            "10",
            "--scheduler",
            "tcp://127.0.0.1:9",
            "--out",
            str(tmp_path / "r"),
            "--no-progress",
        ],
    )
    assert r.exit_code == 2 and "cannot reach the dask scheduler" in r.stderr


def test_commands_are_on_the_canfield_group(tmp_path):
    from canfield.experiments.cli import main

    runner = CliRunner()
    for name in ("sweep", "report", "plot"):
        res = runner.invoke(main, [name, "--help"])
        assert res.exit_code == 0, res.output
    res = runner.invoke(main, ["sweep", "--deals", "0:x", "--out", str(tmp_path / "r")])
    assert res.exit_code == 2 and res.stderr.startswith("error: cannot read a deal range")
