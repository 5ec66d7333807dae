"""``canfield escalate``: ladder rungs on the unknown rows, the subsample, resume
after kill -9 (with a torn part), identical rows for 1 worker, 2 workers (the
killed and resumed run) and dask, and bad input (one error line, exit code 2,
nothing written).

The sweep is deals 20..39 of strict at 2,000 nodes: 12 are unknown; at 20K
nodes 3 of them are decided, at 200K 4 more (node budgets: the same on any
machine).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from canfield.engine.version import __version__
from canfield.experiments.cli.escalate import escalate_cmd
from canfield.experiments.relations import relation
from canfield.experiments.report_estimates import escalation_rows, estimates_table
from canfield.experiments.sweep.attempts import (
    ATTEMPT_COLUMNS,
    ATTEMPT_TIMING_COLUMNS,
    ESCALATION_COLUMNS,
    AttemptStore,
    merge_attempts,
)
from canfield.experiments.sweep.errors import SweepError
from canfield.experiments.sweep.escalation import draw_subsample, run_escalation
from canfield.experiments.sweep.escalation_settle import settle_rows
from canfield.experiments.sweep.escalation_spec import ESCALATE_JSON, parse_ladder, parse_nodes
from canfield.experiments.sweep.runner import run_sweep
from canfield.experiments.sweep.schema import COLUMNS, TIMING_COLUMNS
from canfield.experiments.sweep.spec import make_spec
from canfield.experiments.sweep.store import load_run

ROOT = Path(__file__).resolve().parents[1]
LADDER = "20K,200K"
KEEP = [c for c in COLUMNS if c not in TIMING_COLUMNS] + list(ESCALATION_COLUMNS)
ATTEMPT_KEEP = [c for c in ATTEMPT_COLUMNS if c not in ATTEMPT_TIMING_COLUMNS]


@pytest.fixture(scope="module")
def swept(tmp_path_factory) -> Path:
    """The sweep every test escalates a copy of."""
    out = tmp_path_factory.mktemp("esc") / "sweep"
    spec = make_spec("strict", "20:40", nodes=2000, memory="16MB")
    run_sweep(out, spec, workers=1, batch_size=5, progress=False, compact=False)
    return out


def copy(swept: Path, to: Path) -> Path:
    shutil.copytree(swept, to, ignore=shutil.ignore_patterns(".lock"))
    return to


def rows(run: Path) -> pd.DataFrame:
    return load_run(run)[KEEP].sort_values(["deal", "profile"]).reset_index(drop=True)


def attempts(run: Path) -> pd.DataFrame:
    df = AttemptStore(run).load()[ATTEMPT_KEEP]
    return df.sort_values(["phase", "rung", "deal"]).reset_index(drop=True)


def digest(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir())}


@pytest.fixture(scope="module")
def one_worker(swept, tmp_path_factory) -> Path:
    """The ladder run in this process, uninterrupted: the reference."""
    run = copy(swept, tmp_path_factory.mktemp("esc") / "w1")
    run_escalation(run, ladder=LADDER, memory="16MB", workers=1, progress=False)
    return run


# --------------------------------------------------------------------------- the ladder


def test_each_rung_solves_what_the_one_before_left_unknown(swept, one_worker):
    sweep = load_run(swept)
    a = AttemptStore(one_worker).load()
    unknown0 = set(sweep.loc[sweep["result"] == "unknown", "deal"])
    rung1, rung2 = a[a["rung"] == 1], a[a["rung"] == 2]
    assert set(rung1["deal"]) == unknown0 and len(unknown0) == 12
    assert set(rung2["deal"]) == set(rung1.loc[rung1["result"] == "unknown", "deal"])
    assert (rung1["budget_nodes"] == 20_000).all() and (rung2["budget_nodes"] == 200_000).all()
    decided1 = int((rung1["result"] != "unknown").sum())
    decided2 = int((rung2["result"] != "unknown").sum())
    assert decided1 > 0 and decided2 > 0  # both rungs decide something
    df = load_run(one_worker).set_index("deal")
    assert len(df) == 20 and (df["profile"] == "strict").all()
    assert (
        df.loc[list(unknown0), "attempts"] == [1 + (d in set(rung2["deal"])) for d in unknown0]
    ).all()
    by = df["decided_by"].value_counts().to_dict()
    assert by == {"sweep": 8, "ladder": decided1 + decided2, "": 12 - decided1 - decided2}
    for deal in rung2.loc[rung2["result"] != "unknown", "deal"]:
        row = df.loc[deal]
        assert (row["decided_rung"], row["decided_nodes"], row["budget_nodes"]) == (
            2,
            200_000,
            200_000,
        )
        assert row["result"] == row["phase1_result"] != "unknown"
    # a row still unknown keeps the most banked seen on any attempt
    for deal in df.index[df["result"] == "unknown"]:
        seen = [sweep.set_index("deal").loc[deal, "banked"], *a.loc[a["deal"] == deal, "banked"]]
        assert df.loc[deal, "banked"] == max(seen)
        assert df.loc[deal, "decided_by"] == "" and pd.isna(df.loc[deal, "decided_nodes"])


def test_sweep_parts_are_never_rewritten(swept, one_worker):
    assert digest(swept / "parts") == digest(one_worker / "parts")
    spec = json.loads((one_worker / ESCALATE_JSON).read_text())
    assert [r["nodes"] for r in spec["ladder"]] == [20_000, 200_000]


def test_rows_identical_on_dask(swept, one_worker, tmp_path):
    distributed = pytest.importorskip("distributed")
    run = copy(swept, tmp_path / "dask")
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        r = cli(
            "escalate",
            str(run),
            "--ladder",
            LADDER,
            "--memory",
            "16MB",
            "--scheduler",
            cluster.scheduler_address,
            "--batch",
            "3",
            "--no-progress",
        )
    assert r.returncode == 0, r.stderr
    pd.testing.assert_frame_equal(rows(one_worker), rows(run))


# --------------------------------------------------------------------------- kill -9


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "canfield.experiments.cli", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.mark.long(31)
def test_kill_9_at_2_workers_then_resume_gives_the_1_worker_rows(swept, one_worker, tmp_path):
    run = copy(swept, tmp_path / "killed")
    args = [
        sys.executable,
        "-m",
        "canfield.experiments.cli",
        "escalate",
        str(run),
        "--ladder",
        LADDER,
        "--memory",
        "16MB",
        "--workers",
        "2",
        "--batch",
        "1",
        "--no-progress",
    ]
    proc = subprocess.Popen(
        args,
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    store = AttemptStore(run)
    end = time.monotonic() + 120
    while len(store.part_files()) < 14 and time.monotonic() < end and proc.poll() is None:
        time.sleep(0.01)
    assert proc.poll() is None, f"escalate ended before the kill: {proc.stderr.read()}"
    os.killpg(proc.pid, signal.SIGKILL)  # the escalation and its workers, mid-rung
    proc.wait()
    parts = store.part_files()
    assert 14 <= len(parts) < 12 + 9
    # a torn part (half its bytes): detected, set aside and its attempt made again
    torn = parts[3]
    torn.write_bytes(torn.read_bytes()[: torn.stat().st_size // 2])
    r = cli(
        "escalate",
        str(run),
        "--ladder",
        LADDER,
        "--memory",
        "16MB",
        "--workers",
        "2",
        "--no-progress",
    )
    assert r.returncode == 0, r.stderr
    assert "set aside the torn attempts part" in r.stderr
    assert (store.damaged_dir / torn.name).exists()
    pd.testing.assert_frame_equal(rows(one_worker), rows(run))
    pd.testing.assert_frame_equal(attempts(one_worker), attempts(run))
    assert not list(store.path.glob(".*.tmp"))
    # a third run has nothing left to do
    r = cli("escalate", str(run), "--ladder", LADDER, "--no-progress")
    assert r.returncode == 0 and "(0 new)" in r.stderr and "(1 new)" not in r.stderr


# --------------------------------------------------------------------------- subsample


def test_subsample_is_seeded_drawn_after_the_ladder_and_resumable(one_worker, tmp_path):
    run = copy(one_worker, tmp_path / "sub")
    hard = sorted(load_run(run).query("result == 'unknown'")["deal"].astype(int))
    run_escalation(
        run, subsample=(3, 5), sub_nodes="300K", memory="16MB", workers=1, progress=False
    )
    spec = json.loads((run / ESCALATE_JSON).read_text())
    drawn = spec["subsample"]["deals"]["strict"]
    assert drawn == draw_subsample({"strict": hard}, 3, 5)["strict"]
    assert len(drawn) == 3 and set(drawn) <= set(hard) and drawn == sorted(drawn)
    assert draw_subsample({"strict": hard}, 3, 6) != draw_subsample({"strict": hard}, 3, 5)
    df = load_run(run).set_index("deal")
    assert sorted(df.index[df["in_subsample"]]) == drawn
    assert df["subsampled"].sum() == 3 and (df.loc[drawn, "attempts"] == 3).all()
    sub = AttemptStore(run).load().query("phase == 'subsample'")
    assert sorted(sub["deal"]) == drawn and (sub["budget_nodes"] == 300_000).all()
    # phase 1 is untouched by the subsample: the stratum stays
    assert (df.loc[drawn, "phase1_result"] == "unknown").all()
    # the same command again: nothing new; another draw or a new rung: refused
    again = run_escalation(run, subsample=(3, 5), sub_nodes="300K", workers=1, progress=False)
    assert [s.written for s in again.stages] == [0, 0, 0]
    for kwargs, words in (
        ({"subsample": (4, 5), "sub_nodes": "300K"}, "subsample was made with size 3"),
        ({"ladder": LADDER + ",1M"}, "would change that stratum"),
    ):
        with pytest.raises(SweepError, match=words):
            run_escalation(run, workers=1, progress=False, **kwargs)


# --------------------------------------------------------------------------- bad input


def test_parse_ladder_and_nodes():
    assert [r.nodes for r in parse_ladder("20K, 1M,1.5M", 1)] == [20_000, 10**6, 1_500_000]
    assert parse_ladder("10s,30s", 1)[1].seconds == 30.0
    assert parse_nodes("50000") == 50_000
    for bad in ("", "1X", "0", "-5K", "1.00001K", "K"):
        with pytest.raises(SweepError):
            parse_nodes(bad)


@pytest.mark.parametrize(
    "args, words",
    [
        (["--ladder", "1X"], "cannot read a node budget"),
        (["--ladder", "200K,20K"], "not larger than 200K nodes"),
        (["--ladder", "20K,20K"], "not larger"),
        (["--ladder", "1K"], "not larger than 2K nodes"),  # the sweep's own budget
        (["--ladder", "20K,,1M"], "empty rung"),
        (["--ladder", "5"], "not larger"),
        ([], "nothing to do"),
        (["--subsample", "3"], "needs --seed"),
        (["--subsample", "3", "--seed", "1"], "needs one budget"),
        (["--subsample", "3", "--seed", "1", "--nodes", "1M", "--budget", "10s"], "one budget"),
        (["--subsample", "0", "--seed", "1", "--nodes", "1M"], "must be positive"),
        (["--ladder", "20K", "--nodes", "1M"], "budget of --subsample"),
        (["--ladder", "20K", "--memory", "10"], "needs a unit"),
        (["--ladder", "20K", "--workers", "0"], "--workers must be positive"),
    ],
)
def test_bad_input_is_one_error_line(swept, tmp_path, args, words):
    run = copy(swept, tmp_path / "bad")
    before = digest(run / "parts")
    r = CliRunner().invoke(
        escalate_cmd,
        [str(run), *args, "--workers", "1"] if "--workers" not in args else [str(run), *args],
    )
    assert r.exit_code == 2, r.output
    assert r.stderr.count("\n") == 1 and r.stderr.startswith("error: ") and words in r.stderr
    assert digest(run / "parts") == before
    assert not (run / ESCALATE_JSON).exists() and not (run / "attempts").exists()


def test_not_a_solver_sweep(tmp_path, swept):
    cases = [(tmp_path / "nothing", "not a run folder")]
    (tmp_path / "file").write_text("x")
    cases.append((tmp_path / "file", "not a run folder"))
    (tmp_path / "empty").mkdir()
    cases.append((tmp_path / "empty", "no run.json"))
    player = tmp_path / "greedy"
    run_sweep(player, make_spec("strict", "0:2", player="greedy"), workers=1, progress=False)
    cases.append((player, "greedy player"))
    unfinished = copy(swept, tmp_path / "unfinished")
    spec = json.loads((unfinished / "run.json").read_text())
    spec["deal_stop"], spec["deals"] = 60, "20:60"
    (unfinished / "run.json").write_text(json.dumps(spec))
    cases.append((unfinished, "unfinished (20 of 40 rows)"))
    for path, words in cases:
        r = CliRunner().invoke(escalate_cmd, [str(path), "--ladder", "20K"])
        assert r.exit_code == 2 and r.stderr.startswith("error: ") and words in r.stderr, (
            path,
            r.stderr,
        )
        assert r.stderr.count("\n") == 1
        assert not (path / "attempts").exists()


def test_recorded_ladder_must_be_repeated(one_worker, tmp_path):
    run = copy(one_worker, tmp_path / "again")
    for ladder in ("200K", "20K,300K", "20K"):
        r = CliRunner().invoke(escalate_cmd, [str(run), "--ladder", ladder, "--workers", "1"])
        assert r.exit_code == 2 and "must repeat the recorded ladder 20K,200K" in r.stderr
    # --memory is the table of new rungs only: the recorded rungs keep theirs
    r = CliRunner().invoke(escalate_cmd, [str(run), "--ladder", LADDER, "--memory", "32MB"])
    assert r.exit_code == 0 and "(0 new)" in r.stderr
    recorded = json.loads((run / ESCALATE_JSON).read_text())["ladder"]
    assert [r["memory"] for r in recorded] == [16 << 20, 16 << 20]


def test_attempts_parts_that_disagree_are_an_error(one_worker, tmp_path):
    run = copy(one_worker, tmp_path / "twice")
    store = AttemptStore(run)
    first = store.part_files()[0]
    shutil.copy(first, store.path / "part-00900.parquet")
    assert len(store.load()) == len(AttemptStore(one_worker).load())  # identical copy: dropped
    changed = [r | {"banked": r["banked"] + 1} for r in pq.read_table(first).to_pylist()]
    store.write_part(901, changed)
    with pytest.raises(SweepError, match="disagree"):
        store.load()


@pytest.mark.long(31)
def test_an_attempts_part_with_a_value_no_escalation_writes_is_set_aside(one_worker, tmp_path):
    """A readable part whose rows hold what no escalation writes (a result
    that is no verdict) is damaged: report names it in one line, and
    escalate sets it aside and makes its attempts again, as for a torn part."""
    run = copy(one_worker, tmp_path / "odd")
    store = AttemptStore(run)
    # the last part, not the first: the load checks all the rows at once and
    # must still name the one part that holds the bad row
    parts = store.part_files()
    part = parts[-1]
    assert len(parts) > 1
    made = pq.read_table(part).to_pylist()
    store.write_part(int(part.stem[5:]), [made[0] | {"result": "foo"}, *made[1:]])
    with pytest.raises(SweepError, match="result 'foo' is not won, lost or unknown") as err:
        store.load()
    assert str(err.value).startswith(f"damaged attempts part {part}:")
    r = cli("report", str(run))
    assert r.returncode != 0 and "Traceback" not in r.stderr
    assert f"damaged attempts part {part}" in r.stderr.strip().splitlines()[-1]
    r = cli("escalate", str(run), "--ladder", LADDER, "--memory", "16MB", "--no-progress")
    assert r.returncode == 0, r.stderr
    assert (store.damaged_dir / part.name).exists()
    pd.testing.assert_frame_equal(attempts(one_worker), attempts(run))


# --------------------------------------------------------------------------- residue (phase 3)

RESIDUE = ["--residue", "3", "--seed", "7", "--nodes", "1M", "--memory", "16MB"]


@pytest.fixture(scope="module")
def subsampled(one_worker, tmp_path_factory) -> Path:
    """The ladder run with a finished subsample of every hard row (6 at 300K)."""
    run = copy(one_worker, tmp_path_factory.mktemp("esc") / "sub6")
    run_escalation(
        run, subsample=(6, 5), sub_nodes="300K", memory="16MB", workers=1, progress=False
    )
    return run


@pytest.fixture(scope="module")
def residue_run(subsampled, tmp_path_factory) -> Path:
    """The residue sample made in this process, uninterrupted: the reference."""
    run = copy(subsampled, tmp_path_factory.mktemp("esc") / "res")
    run_escalation(
        run, residue=(3, 7), sub_nodes="1M", memory="16MB", workers=1, progress=False, batch_size=1
    )
    return run


def test_residue_is_seeded_and_drawn_from_the_subsample_residue(subsampled, residue_run):
    before = load_run(subsampled)
    left = sorted(before.loc[before["in_subsample"] & (before["result"] == "unknown"), "deal"])
    assert len(left) > 3  # a residue to sample from
    spec = json.loads((residue_run / ESCALATE_JSON).read_text())
    drawn = spec["residue"]["deals"]["strict"]
    assert (
        drawn
        == draw_subsample({"strict": left}, 3, 7)["strict"]
        != (draw_subsample({"strict": left}, 3, 8)["strict"])
    )
    assert spec["residue"]["budget"]["nodes"] == 10**6 and spec["subsample"]["size"] == 6
    df = load_run(residue_run).set_index("deal")
    assert sorted(df.index[df["in_residue_sample"]]) == drawn
    assert df["residue_solved"].sum() == 3 and (df.loc[drawn, "attempts"] == 4).all()
    # the strata of phases 1 and 2 stay; what phase 3 decided says so
    assert (df.loc[drawn, "phase1_result"] == "unknown").all()
    assert (df.loc[drawn, "phase2_result"] == "unknown").all()
    decided = df.loc[drawn][df.loc[drawn, "result"] != "unknown"]
    assert (decided["decided_by"] == "residue").all()
    assert (decided["decided_nodes"] == 10**6).all()
    res = AttemptStore(residue_run).load().query("phase == 'residue'")
    assert sorted(res["deal"]) == drawn and (res["budget_nodes"] == 10**6).all()
    # the same command again: nothing new; another draw: refused
    r = CliRunner().invoke(escalate_cmd, [str(residue_run), *RESIDUE, "--workers", "1"])
    assert r.exit_code == 0 and "residue sample (1M nodes): 3/3 rows (0 new)" in r.stderr
    with pytest.raises(SweepError, match="residue sample was made with size 3"):
        run_escalation(residue_run, residue=(3, 8), sub_nodes="1M", progress=False)


def test_residue_resumes_after_a_kill(subsampled, residue_run, tmp_path):
    """What kill -9 leaves (parts are written atomically): some finished parts,
    a temporary file, and here a torn part too; the resume makes the same rows."""
    run = copy(residue_run, tmp_path / "killed")
    store = AttemptStore(run)
    parts = [p for p in store.part_files() if pq.read_table(p)["phase"][0].as_py() == "residue"]
    assert len(parts) == 3  # --batch 1: one part a row
    parts[2].unlink()
    parts[0].write_bytes(parts[0].read_bytes()[:100])
    (store.path / ".part-00999.parquet.tmp").write_bytes(b"half")
    r = CliRunner().invoke(escalate_cmd, [str(run), *RESIDUE, "--workers", "1"])
    assert r.exit_code == 0, r.output
    assert "set aside the torn attempts part" in r.stderr and "(2 new)" in r.stderr
    pd.testing.assert_frame_equal(rows(residue_run), rows(run))
    pd.testing.assert_frame_equal(attempts(residue_run), attempts(run))
    assert not list(store.path.glob(".*.tmp"))


def test_residue_out_of_order_is_one_error_line(one_worker, subsampled, tmp_path):
    unfinished = copy(subsampled, tmp_path / "unfinished")
    store = AttemptStore(unfinished)
    last = store.part_files()[-1]
    assert pq.read_table(last)["phase"][0].as_py() == "subsample"
    last.unlink()
    cases = [
        (one_worker, RESIDUE, "there is no subsample yet"),
        (unfinished, RESIDUE, "the subsample is unfinished"),
        (subsampled, ["--residue", "3", "--nodes", "1M"], "--residue needs --seed"),
        (subsampled, ["--residue", "0", "--seed", "1", "--nodes", "1M"], "must be positive"),
        (subsampled, ["--residue", "3", "--seed", "1"], "--residue needs one budget"),
        (subsampled, ["--subsample", "6", *RESIDUE], "give one per call"),
    ]
    for run, args, words in cases:
        run = copy(run, tmp_path / f"bad{cases.index((run, args, words))}")
        before = digest(run / "attempts"), (run / ESCALATE_JSON).read_bytes()
        r = CliRunner().invoke(escalate_cmd, [str(run), *args, "--workers", "1"])
        assert r.exit_code == 2, (args, r.output)
        assert r.stderr.count("\n") == 1 and r.stderr.startswith("error: ") and words in r.stderr
        assert (digest(run / "attempts"), (run / ESCALATE_JSON).read_bytes()) == before


# --------------------------------------------------------------------------- retries

RETRY = "1M"


def _unknown_rows(run: Path, column: str) -> list[int]:
    df = load_run(run)
    return sorted(df.loc[df[column] & (df["result"] == "unknown"), "deal"])


def test_retry_solves_what_the_residue_sample_left_unknown(subsampled, tmp_path):
    """--retry solves the residue sample's rows still unknown again with a
    bigger budget: the sample and the earlier phases stay as drawn, the rows
    it decides say so, the report names the stage, and the estimate's
    residual shrinks by the rows it decided (at least one here: a residue
    sample of 4 of the 6 rows at 400K holds one of deals 28, 36 and 38,
    which 1M decides)."""
    run = copy(subsampled, tmp_path / "retry")
    run_escalation(run, residue=(4, 7), sub_nodes="400K", memory="16MB", workers=1, progress=False)
    drawn = json.loads((run / ESCALATE_JSON).read_text())["residue"]["deals"]
    left = _unknown_rows(run, "in_residue_sample")
    assert left  # something to retry
    before = load_run(run).set_index("deal")
    table0 = estimates_table(before.reset_index().assign(label="strict"))
    r = CliRunner().invoke(escalate_cmd, [str(run), "--retry", RETRY, "--workers", "1"])
    assert r.exit_code == 0, r.output
    assert f"residue sample retry 1 ({RETRY} nodes): {len(left)}/{len(left)} rows" in r.stderr
    spec = json.loads((run / ESCALATE_JSON).read_text())
    assert spec["residue"]["retries"] == [
        {
            "budget": {"nodes": 10**6, "seconds": None, "memory": 16 * 2**20},
            "version": __version__,
            "turn": 0,
        }
    ]
    assert spec["residue"]["deals"] == drawn
    made = AttemptStore(run).load().query("phase == 'residue' and rung == 1")
    assert sorted(made["deal"]) == left and (made["budget_nodes"] == 10**6).all()
    df = load_run(run).set_index("deal")
    newly = [d for d in left if df.loc[d, "result"] != "unknown"]
    assert newly, "the retry decided nothing: the test does not show it working"
    assert (df.loc[newly, "decided_by"] == "residue").all()
    assert (df.loc[newly, "decided_nodes"] == 10**6).all()
    assert (df.loc[newly, "phase2_result"] == "unknown").all()
    untouched = [d for d in df.index if d not in left]
    keep = [c for c in KEEP if c != "deal"]
    pd.testing.assert_frame_equal(df.loc[untouched, keep], before.loc[untouched, keep])
    table1 = estimates_table(df.reset_index().assign(label="strict"))
    assert table1["residual_unknown"][0] == table0["residual_unknown"][0] - len(newly)
    stages = pd.DataFrame(escalation_rows(df.reset_index(), AttemptStore(run).load(), "r"))
    retried = stages[stages["stage"] == "residue sample, retry 1"]
    assert retried["rows"].tolist() == [len(left)] and retried["decided"].tolist() == [len(newly)]
    # again: resumed, nothing new; a budget not above the last one: refused
    r = CliRunner().invoke(escalate_cmd, [str(run), "--retry", RETRY, "--workers", "1"])
    assert r.exit_code == 0 and "(0 new)" in r.stderr
    files = _files(run)
    r = CliRunner().invoke(escalate_cmd, [str(run), "--retry", "500K", "--workers", "1"])
    assert r.exit_code == 2 and r.stderr.count("\n") == 1
    assert (
        f"is not larger than the residue sample's budget in the usual order with toolkit "
        f"{__version__}, 1M" in r.stderr
    )
    assert _files(run) == files


def test_a_retry_in_a_turned_order_may_keep_the_budget(subsampled, tmp_path):
    """--retry with --turn searches the rows still unknown in another order:
    at the residue sample's own budget it is allowed (the usual order at
    that budget is refused), it decides rows (strict deal 34, which the
    usual order leaves unknown at 400K, the order turned by 128/256 wins in
    351,405 positions), its rows and escalate.json record the turn, the report names it,
    and the same turn again at that budget resumes."""
    run = copy(subsampled, tmp_path / "turned")
    run_escalation(run, residue=(4, 7), sub_nodes="400K", memory="16MB", workers=1, progress=False)
    left = _unknown_rows(run, "in_residue_sample")
    assert 34 in left
    files = _files(run)
    r = CliRunner().invoke(escalate_cmd, [str(run), "--retry", "400K", "--workers", "1"])
    assert r.exit_code == 2 and "--turn not yet tried" in r.stderr
    assert _files(run) == files
    args = [str(run), "--retry", "400K", "--turn", "128", "--workers", "1"]
    r = CliRunner().invoke(escalate_cmd, args)
    assert r.exit_code == 0, r.output
    assert f"retry 1 (400K nodes, turn 128): {len(left)}/{len(left)} rows" in r.stderr
    spec = json.loads((run / ESCALATE_JSON).read_text())
    assert [x["turn"] for x in spec["residue"]["retries"]] == [128]
    made = AttemptStore(run).load().query("phase == 'residue' and rung == 1")
    assert (made["solver_options"] == "prune=all,probes=on,strategy=dfs,turn=128").all()
    df = load_run(run).set_index("deal")
    newly = [d for d in left if df.loc[d, "result"] != "unknown"]
    assert 34 in newly and (df.loc[newly, "decided_by"] == "residue").all()
    stages = pd.DataFrame(escalation_rows(df.reset_index(), AttemptStore(run).load(), "r"))
    assert "residue sample, retry 1, turn 128" in stages["stage"].tolist()
    r = CliRunner().invoke(escalate_cmd, args)
    assert r.exit_code == 0 and "(0 new)" in r.stderr


def test_a_turned_retry_of_two_packs_is_refused_before_any_solve(tmp_path):
    """Two packs have no turned order: ``--retry --turn`` on a sample of
    ``double`` rows is one error line before anything is solved or written
    (it used to fail at the first solve, after the compile)."""
    run = tmp_path / "double-2k"
    shutil.copytree(ROOT / "results" / "published" / "double-2k", run)
    files = _files(run)
    r = CliRunner().invoke(escalate_cmd, [str(run), "--retry", "400M", "--turn", "64"])
    assert r.exit_code == 2
    assert r.stderr.strip().splitlines() == [
        "error: --turn: two packs (double) have no turned order: they are searched in the usual "
        "order only"
    ]
    assert _files(run) == files


def test_a_retry_by_a_newer_version_may_spend_any_budget(subsampled, tmp_path):
    """A sample solved by an older toolkit version may be retried by this one
    at any budget, even below the old one's (another version may search with
    other rules or probes); once this version has retried it, a budget not
    above its own is refused again, and the same call resumes."""
    run = copy(subsampled, tmp_path / "newer")
    left = _unknown_rows(run, "in_subsample")
    assert left
    spec = json.loads((run / ESCALATE_JSON).read_text())
    assert spec["subsample"]["version"] == __version__
    spec["subsample"]["version"] = "0.0.1"  # as if an older toolkit had solved it
    (run / ESCALATE_JSON).write_text(json.dumps(spec))
    args = [str(run), "--retry", "200K", "--workers", "1"]  # below the sample's 300K
    r = CliRunner().invoke(escalate_cmd, args)
    assert r.exit_code == 0, r.output
    assert f"retry 1 (200K nodes): {len(left)}/{len(left)} rows" in r.stderr
    spec = json.loads((run / ESCALATE_JSON).read_text())
    assert [(x["budget"]["nodes"], x["version"]) for x in spec["subsample"]["retries"]] == [
        (200_000, __version__)
    ]
    made = AttemptStore(run).load().query("phase == 'subsample' and rung == 1")
    assert sorted(made["deal"]) == left and (made["version"] == __version__).all()
    r = CliRunner().invoke(escalate_cmd, args)
    assert r.exit_code == 0 and "(0 new)" in r.stderr
    files = _files(run)
    r = CliRunner().invoke(escalate_cmd, [str(run), "--retry", "150K", "--workers", "1"])
    assert r.exit_code == 2 and r.stderr.count("\n") == 1
    assert f"budget in the usual order with toolkit {__version__}, 200K" in r.stderr
    assert _files(run) == files


def test_retry_of_the_subsample_feeds_the_residue_sample(subsampled, tmp_path):
    """Before a residue sample is drawn, --retry retries the subsample; the
    residue sample is then drawn from what the retry left unknown, and not
    before the retry is finished."""
    run = copy(subsampled, tmp_path / "subretry")
    left = _unknown_rows(run, "in_subsample")
    r = CliRunner().invoke(escalate_cmd, [str(run), "--retry", "1M", "--workers", "1"])
    assert r.exit_code == 0, r.output
    df = load_run(run).set_index("deal")
    still = [d for d in left if df.loc[d, "result"] == "unknown"]
    newly = [d for d in left if d not in still]
    assert newly and still  # the retry decided some, and left a residue
    assert (df.loc[newly, "decided_by"] == "subsample").all()
    assert (df.loc[newly, "phase2_result"] != "unknown").all()
    # an unfinished retry holds the residue sample back
    torn = copy(run, tmp_path / "torn")
    AttemptStore(torn).part_files()[-1].unlink()
    r = CliRunner().invoke(escalate_cmd, [str(torn), *RESIDUE, "--workers", "1"])
    assert r.exit_code == 2 and "the subsample's retry 1 (1M nodes) is unfinished" in r.stderr
    run_escalation(
        run, residue=(len(still) + 5, 7), sub_nodes="2M", memory="16MB", workers=1, progress=False
    )
    spec = json.loads((run / ESCALATE_JSON).read_text())
    assert spec["residue"]["deals"]["strict"] == still


def test_retry_out_of_order_is_one_error_line(one_worker, subsampled, tmp_path):
    cases = [
        (one_worker, ["--retry", "1M"], "no subsample was drawn yet"),
        (subsampled, ["--retry", "300K"], "is not larger than the subsample's budget"),
        (subsampled, ["--turn", "64"], "give it with --retry"),
        (subsampled, ["--retry", "1M", *RESIDUE], "give it in a call of its own"),
        (subsampled, ["--retry", "lots"], "cannot read a node budget"),
    ]
    for i, (run, args, words) in enumerate(cases):
        run = copy(run, tmp_path / f"bad{i}")
        before = _files(run)
        r = CliRunner().invoke(escalate_cmd, [str(run), *args, "--workers", "1"])
        assert r.exit_code == 2, (args, r.output)
        assert r.stderr.count("\n") == 1 and r.stderr.startswith("error: ") and words in r.stderr
        assert _files(run) == before


# --------------------------------------------------------------------------- settling

PAIR = ["strict", "hevagames"]  # strict <= hevagames (docs/relations.md: moves, space)


@pytest.fixture(scope="module")
def pair(tmp_path_factory) -> Path:
    """strict and hevagames, deals 20..59 at 2,000 nodes: a related pair."""
    out = tmp_path_factory.mktemp("esc") / "pair"
    spec = make_spec(",".join(PAIR), "20:60", nodes=2000, memory="16MB")
    run_sweep(out, spec, workers=1, batch_size=10, progress=False, compact=False)
    return out


@pytest.fixture(scope="module")
def searched(pair, tmp_path_factory) -> Path:
    """The pair's ladder without settling: every row searched."""
    run = copy(pair, tmp_path_factory.mktemp("esc") / "searched")
    run_escalation(run, ladder=LADDER, memory="16MB", workers=1, progress=False)
    return run


def test_settling_fires_saves_solves_and_agrees_with_search(pair, searched, tmp_path):
    run = copy(pair, tmp_path / "settled")
    r = CliRunner().invoke(
        escalate_cmd,
        [str(run), "--ladder", LADDER, "--memory", "16MB", "--settle", "--workers", "1"],
    )
    assert r.exit_code == 0, r.output
    saved = [int(x) for x in re.findall(r"(\d+) settled by a related row: solves saved", r.stderr)]
    assert sum(saved) > 0  # it fires, and says how many solves it saved
    a, plain = AttemptStore(run).load(), AttemptStore(searched).load()
    by_relation = a[a["stop_reason"].str.startswith("relation:")]
    assert len(by_relation) == sum(saved)
    assert (by_relation[["nodes", "budget_nodes", "cpu_seconds"]] == 0).all().all()
    # fewer searches by exactly the rows settled (settled rows are never searched)
    assert len(a) - len(by_relation) < len(plain)
    # rung 1 has the same rows to do either way: each is searched or settled, once
    one, plain_one = a[a["rung"] == 1], plain[plain["rung"] == 1]
    assert len(one) == len(plain_one) and set(one["deal"]) == set(plain_one["deal"])
    df = load_run(run).set_index(["deal", "profile"])
    ref = load_run(searched).set_index(["deal", "profile"])
    for att in by_relation.itertuples():
        other = att.stop_reason.removeprefix("relation:")
        smaller, larger = (other, att.profile) if att.result == "won" else (att.profile, other)
        assert relation(smaller, larger) is not None
        # the related row was decided that way before the rung began
        assert df.loc[(att.deal, other), "result"] == att.result
        assert df.loc[(att.deal, other), "decided_rung"] < att.rung
        row = df.loc[(att.deal, att.profile)]
        assert row["decided_by"] == att.stop_reason and row["phase1_result"] == att.result
        assert row["decided_rung"] == att.rung and row["decided_nodes"] == 0
        # the search never says otherwise (it decides the same, or runs out)
        assert ref.loc[(att.deal, att.profile), "result"] in (att.result, "unknown")
    # every other row is as the search left it
    others = [k for k in df.index if not str(df.loc[k, "decided_by"]).startswith("relation:")]
    cols = ["result", "banked", "phase1_result"]
    pd.testing.assert_frame_equal(df.loc[others, cols], ref.loc[others, cols])


def test_settle_rows_only_where_the_relation_implies_it(pair):
    """Planted verdicts on the pair's rows: only a smaller win or a larger loss settles."""
    base = load_run(pair)[list(COLUMNS)].copy()
    empty = AttemptStore(pair).load()

    def plant(verdicts: dict[tuple[int, str], str]) -> pd.DataFrame:
        df = base.copy()
        for (deal, prof), result in verdicts.items():
            df.loc[(df["deal"] == deal) & (df["profile"] == prof), "result"] = result
        return df

    cases = [
        ({"strict": "won", "hevagames": "unknown"}, [("hevagames", "won", "strict")]),
        ({"strict": "unknown", "hevagames": "lost"}, [("strict", "lost", "hevagames")]),
        ({"strict": "lost", "hevagames": "unknown"}, []),  # a smaller loss proves nothing
        ({"strict": "unknown", "hevagames": "won"}, []),  # nor a larger win
        ({"strict": "unknown", "hevagames": "unknown"}, []),
    ]
    for planted, want in cases:
        df = plant({(20, p): r for p, r in planted.items()})
        todo = {p: [20] for p in PAIR}
        got = settle_rows(df, empty, todo, 1)
        assert [(g["profile"], g["result"], g["stop_reason"][9:]) for g in got] == want, planted
        assert all(g["deal"] == 20 and g["rung"] == 1 and g["phase"] == "ladder" for g in got)
        if got and got[0]["result"] == "lost":
            # a settled loss keeps its own best line; the larger's count bounds it
            assert got[0]["banked"] == int(
                df.query("deal == 20 and profile == 'strict'")["banked"].iloc[0]
            )
            merged = merge_attempts(df, pd.DataFrame(got))
            row = merged.query("deal == 20 and profile == 'strict'").iloc[0]
            larger = merged.query("deal == 20 and profile == 'hevagames'").iloc[0]
            assert row["decided_by"] == "relation:hevagames"
            assert row["banked_upper"] == larger["banked"] and row["phase1_result"] == "lost"
    # a row not asked for is never settled
    df = plant({(20, "strict"): "won", (20, "hevagames"): "unknown"})
    assert settle_rows(df, empty, {"hevagames": [21]}, 1) == []
    # a win found at rung 1 settles rows at rung 2, never at rung 1 itself
    # (a rung resumed after a kill settles from what stood when it began)
    df = plant({(20, "strict"): "unknown", (20, "hevagames"): "unknown"})
    strict = df.query("deal == 20 and profile == 'strict'").iloc[0].to_dict()
    won = strict | {"result": "won", "banked": 52, "phase": "ladder", "rung": 1, "cpu_seconds": 1.0}
    found = pd.DataFrame([won])
    assert settle_rows(df, found, {"hevagames": [20]}, 1) == []
    assert [g["stop_reason"] for g in settle_rows(df, found, {"hevagames": [20]}, 2)] == [
        "relation:strict"
    ]
    # a settled win banks every card of its game: 104 under two packs
    df = plant({(20, "strict"): "won", (20, "hevagames"): "unknown"})
    df["profile"] = df["profile"].map({"strict": "double:passes=2", "hevagames": "double"})
    got = settle_rows(df, empty, {"double": [20]}, 1)
    assert [(g["result"], g["banked"]) for g in got] == [("won", 104)]


def test_settling_turned_on_later_starts_at_the_first_rung_not_begun(pair, searched, tmp_path):
    run = copy(pair, tmp_path / "later")
    run_escalation(run, ladder="20K", memory="16MB", workers=1, progress=False)
    summary = run_escalation(
        run, ladder=LADDER, memory="16MB", workers=1, progress=False, settle=True
    )
    assert json.loads((run / ESCALATE_JSON).read_text())["settle_from"] == 2
    a = AttemptStore(run).load()
    by_relation = a[a["stop_reason"].str.startswith("relation:")]
    assert (by_relation["rung"] == 2).all()
    assert summary.stages[0].settled == 0 and summary.stages[1].settled == len(by_relation)
    # rung 1 is exactly the search's
    one = a[a["rung"] == 1]
    ref = AttemptStore(searched).load()
    assert len(one) == len(ref[ref["rung"] == 1])
    # a later call without --settle keeps settling (recorded), and adds nothing
    again = run_escalation(run, ladder=LADDER, workers=1, progress=False)
    assert [s.written for s in again.stages] == [0, 0]
    assert json.loads((run / ESCALATE_JSON).read_text())["settle_from"] == 2


def test_escalate_json_of_older_code_loads(one_worker, tmp_path):
    """A run escalated before the residue and settling existed (main-100k):
    escalate.json without their keys; it loads, and resumes with --settle."""
    run = copy(one_worker, tmp_path / "old")
    spec = json.loads((run / ESCALATE_JSON).read_text())
    for key in ("residue", "settle_from"):
        spec.pop(key)
    if spec.get("subsample"):
        spec["subsample"].pop("retries", None)
    (run / ESCALATE_JSON).write_text(json.dumps(spec))
    df = load_run(run)
    assert not df["in_residue_sample"].any() and (df["phase2_result"] == df["result"]).all()
    r = CliRunner().invoke(escalate_cmd, [str(run), "--ladder", LADDER, "--settle"])
    assert r.exit_code == 0 and "(0 new)" in r.stderr
    assert json.loads((run / ESCALATE_JSON).read_text())["settle_from"] == 3


def _files(run: Path) -> dict[str, str]:
    paths = sorted(p for p in run.rglob("*") if p.is_file() and p.name != ".lock")
    return {str(p.relative_to(run)): hashlib.sha256(p.read_bytes()).hexdigest() for p in paths}


def _made_by(run: Path, version: str, phase: str) -> None:
    """Rewrite ``run`` as if toolkit ``version`` had made its ``phase``."""
    spec = json.loads((run / ESCALATE_JSON).read_text())
    if phase == "ladder":
        spec["version"] = version
    else:
        spec[phase]["version"] = version
    (run / ESCALATE_JSON).write_text(json.dumps(spec))
    store = AttemptStore(run)
    for i, part in enumerate(store.part_files()):
        made = pq.read_table(part).to_pylist()
        if made[0]["phase"] == phase:
            part.unlink()
            store.write_part(i, [r | {"version": version} for r in made])


@pytest.mark.parametrize("where", ["escalate.json", "attempts"])
def test_an_unfinished_or_extended_phase_under_another_version_is_refused(
    one_worker, tmp_path, where
):
    """A phase's rows come from one solver: a ladder begun by another toolkit
    version is not resumed or extended (one line, exit 2, nothing written)."""
    run = copy(one_worker, tmp_path / "older")
    if where == "escalate.json":
        spec = json.loads((run / ESCALATE_JSON).read_text())
        spec["version"] = "0.0.1"
        (run / ESCALATE_JSON).write_text(json.dumps(spec))
    else:
        store = AttemptStore(run)
        first = store.part_files()[0]
        older = [r | {"version": "0.0.1"} for r in pq.read_table(first).to_pylist()]
        first.unlink()
        store.write_part(0, older)
    # rung 2 unfinished: its last part gone
    store = AttemptStore(run)
    last = store.part_files()[-1]
    assert pq.read_table(last)["rung"][0].as_py() == 2
    last.unlink()
    before = _files(run)
    for args in ([str(run), "--ladder", LADDER], [str(run), "--ladder", LADDER + ",1M"]):
        r = CliRunner().invoke(escalate_cmd, [*args, "--workers", "1"])
        assert r.exit_code == 2, r.output
        assert "escalated with toolkit 0.0.1" in r.stderr and r.stderr.count("\n") == 1
    assert _files(run) == before


def test_a_new_phase_may_follow_a_finished_one_of_another_version(one_worker, tmp_path):
    """The study's phases are made by the versions that began them (the
    sweep, rung 1 and the subsample of main-100k by three): a finished ladder
    of an older version is followed by a subsample of this one, which records
    its own version; that subsample, begun by another, is not resumed."""
    run = copy(one_worker, tmp_path / "mixed")
    _made_by(run, "0.0.1", "ladder")
    sub = ["--subsample", "2", "--seed", "5", "--nodes", "300K", "--workers", "1"]
    r = CliRunner().invoke(escalate_cmd, [str(run), "--ladder", LADDER, *sub])
    assert r.exit_code == 0, r.output
    assert "subsample (300K nodes): 2/2 rows (2 new)" in r.stderr
    spec = json.loads((run / ESCALATE_JSON).read_text())
    assert spec["version"] == "0.0.1" and spec["subsample"]["version"] == __version__
    made = AttemptStore(run).load()
    assert set(made.loc[made["phase"] == "ladder", "version"]) == {"0.0.1"}
    assert set(made.loc[made["phase"] == "subsample", "version"]) == {__version__}
    # the report says which toolkit made each stage
    table = pd.DataFrame(escalation_rows(load_run(run), made, "mixed"))
    assert set(table.loc[table["stage"] == "rung 1", "version"]) == {"0.0.1"}
    assert set(table.loc[table["stage"] == "subsample", "version"]) == {__version__}
    # an unfinished subsample another version began: refused, nothing written
    _made_by(run, "0.0.2", "subsample")
    store = AttemptStore(run)
    store.part_files()[-1].unlink()
    before = _files(run)
    r = CliRunner().invoke(escalate_cmd, [str(run), *sub])
    assert r.exit_code == 2 and "escalated with toolkit 0.0.2 (its subsample" in r.stderr
    assert _files(run) == before


def test_a_sample_size_per_profile(pair, searched, tmp_path):
    """``--subsample strict=3 --subsample hevagames=1``: each profile draws
    its own number (seeded as with one size); a profile not named draws none;
    a name that is not one of the run's profiles is one error line."""
    run = copy(searched, tmp_path / "sizes")
    hard = {
        p: sorted(g.loc[g["result"] == "unknown", "deal"].astype(int))
        for p, g in load_run(run).groupby("profile")
    }
    assert len(hard["strict"]) > 3 and len(hard["hevagames"]) > 1
    base = [str(run), "--seed", "4", "--nodes", "20K", "--workers", "1"]
    for sizes, words in (
        (["strict=3", "cardgames=1"], "the run's profiles are strict, hevagames"),
        (["strict=3", "strict:draw=3=2"], "given twice"),
        (["3", "strict=2"], "not both"),
        (["strict=x"], "cannot read a sample size"),
        (["strict=0"], "must be positive"),
    ):
        before = _files(run)
        args = [a for s in sizes for a in ("--subsample", s)]
        r = CliRunner().invoke(escalate_cmd, [*base, *args])
        assert r.exit_code == 2 and r.stderr.count("\n") == 1 and words in r.stderr, r.output
        assert _files(run) == before
    r = CliRunner().invoke(
        escalate_cmd, [*base, "--subsample", "strict:draw=3=3", "--subsample", "hevagames=1"]
    )
    assert r.exit_code == 0, r.output
    spec = json.loads((run / ESCALATE_JSON).read_text())
    assert spec["subsample"]["size"] == {"strict": 3, "hevagames": 1}
    drawn = spec["subsample"]["deals"]
    assert drawn["strict"] == draw_subsample(hard, 3, 4)["strict"]
    assert drawn["hevagames"] == draw_subsample(hard, 1, 4)["hevagames"]
    assert len(drawn["hevagames"]) == 1
    only = draw_subsample(hard, {"strict": 2}, 4)
    assert only == {"strict": draw_subsample(hard, 2, 4)["strict"], "hevagames": []}
    # the same sizes resume; others are refused
    r = CliRunner().invoke(
        escalate_cmd, [*base, "--subsample", "strict=3", "--subsample", "hevagames=1"]
    )
    assert r.exit_code == 0 and "(0 new)" in r.stderr, r.output
    r = CliRunner().invoke(escalate_cmd, [*base, "--subsample", "3"])
    assert r.exit_code == 2 and "strict=3 hevagames=1" in r.stderr
