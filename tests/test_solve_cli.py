"""``canfield solve``: verdicts, JSON, batch files, and one-line errors."""

from __future__ import annotations

import json
import subprocess
import sys

from click.testing import CliRunner

from canfield.engine.cards import cards_str
from canfield.engine.deals import deal_cards
from canfield.engine.formats import position_to_solvitaire, position_to_text
from canfield.engine.position import Position
from canfield.experiments.cli import main


def run(*args: str, input: str | None = None):
    # read results from .stdout: on a cold numba cache stderr says it compiles
    return CliRunner().invoke(main, ["solve", *args], input=input)


def test_solve_prints_a_solution_that_replay_accepts(tmp_path):
    res = run("--deal", "2", "--budget", "5s")
    assert res.exit_code == 0, res.output
    assert "won" in res.stdout.splitlines()[1]
    path = tmp_path / "sol.txt"
    path.write_text(res.stdout)  # the whole output, unchanged
    rep = CliRunner().invoke(main, ["replay", "--profile", "strict", "--deal", "2", str(path)])
    assert rep.exit_code == 0, rep.output
    assert "52/52" in rep.output and "won" in rep.output


def test_selective_solution_replays_with_its_pick(tmp_path):
    res = run("--deal", "1", "--profile", "selective", "--budget", "10s")
    assert res.exit_code == 0, res.output
    assert "won" in res.stdout.splitlines()[1]
    path = tmp_path / "sol.txt"
    path.write_text(res.stdout)
    rep = CliRunner().invoke(main, ["replay", "--profile", "selective", "--deal", "1", str(path)])
    assert rep.exit_code == 0, rep.output
    assert "52/52" in rep.output


def test_solve_json_fields():
    res = run("--deal", "4", "--json")
    assert res.exit_code == 0, res.output
    obj = json.loads(res.stdout)
    for key in (
        "deal",
        "profile",
        "result",
        "banked",
        "moves",
        "nodes",
        "seconds",
        "peak_table_bytes",
    ):
        assert key in obj
    assert (obj["deal"], obj["profile"], obj["result"], obj["banked"]) == (4, "strict", "lost", 1)


def test_tiny_budget_json_says_unknown():
    obj = json.loads(run("--deal", "0", "--nodes", "10", "--json").stdout)
    assert obj["result"] == "unknown" and obj["moves"] == []


def test_file_of_deals_and_positions_gives_one_json_line_each(tmp_path):
    pos = Position.from_deal(3, "strict")
    (tmp_path / "p.json").write_text(json.dumps(position_to_solvitaire(pos)))
    (tmp_path / "p.txt").write_text(position_to_text(pos))
    lines = [cards_str(deal_cards(2)), str(tmp_path / "p.json"), str(tmp_path / "p.txt")]
    batch = tmp_path / "batch.txt"
    batch.write_text("\n".join(lines) + "\n")
    res = run("--file", str(batch), "--json", "--budget", "5s")
    assert res.exit_code == 0, res.output
    objs = [json.loads(x) for x in res.stdout.splitlines()]
    assert [o["result"] for o in objs] == ["won", "won", "won"]
    assert objs[1]["banked"] == objs[2]["banked"] == 52


def test_bad_input_is_one_line_and_nonzero(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("AS AS\n")
    cases = [
        ["--deal", "x"],
        ["--deal", "0", "--profile", "nonsense"],
        ["--deal", "0", "--budget", "soon"],
        ["--cards", "AS KS"],
        ["--file", str(bad)],
        ["--deal", "0", "--cards", "AS"],
    ]
    for args in cases:
        proc = subprocess.run(
            [sys.executable, "-m", "canfield.experiments.cli", "solve", *args],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert proc.returncode != 0, args
        assert "Traceback" not in proc.stderr + proc.stdout, args
        assert len(proc.stderr.strip().splitlines()) == 1, (args, proc.stderr)


def test_prune_option_switches_rules_and_keeps_the_verdict():
    outs = {}
    for rules in ("all", "none", "P1,E1,E2"):
        res = run("--deal", "9", "--prune", rules, "--json")
        assert res.exit_code == 0, res.output
        outs[rules] = json.loads(res.stdout.splitlines()[-1])
    assert {(o["result"], o["banked"]) for o in outs.values()} == {("lost", 7)}
    assert outs["none"]["nodes"] > outs["all"]["nodes"]
    assert outs["none"]["dominated"] == 0 and outs["P1,E1,E2"]["cut"] == 0


def test_unknown_pruning_rule_is_one_line_and_exit_2():
    res = run("--deal", "9", "--prune", "Q7")
    assert res.exit_code == 2
    assert "unknown pruning rule 'Q7'" in res.output
    assert "Traceback" not in res.output


def test_layered_strategy_gives_the_same_proof():
    outs = {}
    for strategy in ("dfs", "layers"):
        # a node budget: the layers' depth-first share (a tenth) cannot decide
        # it; no probes, whose tables would be the peak of both
        res = run(
            "--deal", "19", "--strategy", strategy, "--nodes", "400000", "--no-probes", "--json"
        )  # fmt: skip
        assert res.exit_code == 0, res.output
        outs[strategy] = json.loads(res.stdout.splitlines()[-1])
    assert {(o["result"], o["banked"]) for o in outs.values()} == {("lost", 8)}
    assert outs["layers"]["strategy"] == "layers"
    # with the compact depth-first table (about 24 bytes a position) the layers'
    # stacks and log no longer make them smaller on this deal: both stay near
    # 338,822 positions' worth (docs/solver.md)
    assert max(o["peak_table_bytes"] for o in outs.values()) < 12 << 20


def test_probes_win_fast_and_can_be_switched_off():
    # hevagames deal 12: the two-move probe, given 5% of 4M positions, wins
    # it in under 200,000; the full search alone is far from a win at 400,000
    outs = {}
    for flag, nodes in (("--probes", "4000000"), ("--no-probes", "400000")):
        res = run("--deal", "12", "--profile", "hevagames", "--nodes", nodes, flag, "--json")
        assert res.exit_code == 0, res.output
        outs[flag] = json.loads(res.stdout.splitlines()[-1])
    assert (outs["--probes"]["result"], outs["--probes"]["stage"]) == ("won", "probe2")
    assert (outs["--no-probes"]["result"], outs["--no-probes"]["stage"]) == ("unknown", "dfs")
    human = run("--deal", "12", "--profile", "hevagames", "--nodes", "4000000")
    assert "found by probe2" in human.stdout


def test_layered_strategy_with_worry_is_one_line_and_exit_2():
    res = run("--deal", "3", "--profile", "cardgames", "--strategy", "layers")
    assert res.exit_code == 2
    assert "worry=no" in res.output
    assert "Traceback" not in res.output


# Deal 20 is lost under strict (14 banked) and won under hevagames, both within
# 20,000 positions, so a position file solved under the wrong profile shows.
def _deal20_files(tmp_path, profile_line: str | None):
    pos = Position.from_deal(20, "hevagames")
    text = position_to_text(pos)
    data = position_to_solvitaire(pos)
    if profile_line is None:
        text = "\n".join(x for x in text.splitlines() if not x.startswith("profile"))
    else:
        text = text.replace("profile hevagames", f"profile {profile_line}")
        data["profile"] = profile_line
    (tmp_path / "p.txt").write_text(text)
    (tmp_path / "p.json").write_text(json.dumps(data))
    return tmp_path / "p.txt", tmp_path / "p.json"


def test_a_position_file_is_solved_under_its_own_profile(tmp_path):
    for path in _deal20_files(tmp_path, "hevagames"):
        for how in (["--position", str(path)], ["--file", "-"]):
            res = run(*how, "--json", "--nodes", "20000", input=f"{path}\n")
            assert res.exit_code == 0, res.output
            obj = json.loads(res.stdout)
            assert (obj["profile"], obj["result"], obj["banked"]) == ("hevagames", "won", 52)


def test_a_file_without_a_profile_takes_the_option_or_strict(tmp_path):
    for path in _deal20_files(tmp_path, None):
        obj = json.loads(run("--position", str(path), "--json", "--nodes", "20000").stdout)
        assert (obj["profile"], obj["result"], obj["banked"]) == ("strict", "lost", 14)
        res = run("--position", str(path), "--profile", "hevagames", "--json", "--nodes", "20000")
        obj = json.loads(res.stdout)
        assert (obj["profile"], obj["result"]) == ("hevagames", "won")


def test_a_profile_conflict_or_unknown_file_profile_is_one_error_line(tmp_path):
    for path in _deal20_files(tmp_path, "hevagames"):
        res = run("--position", str(path), "--profile", "strict", "--nodes", "20000")
        assert res.exit_code == 2, res.output
        assert "says profile hevagames but strict was asked for" in res.output
        # an explicit profile that agrees is fine
        agree = run("--position", str(path), "--profile", "hevagames", "--nodes", "20000")
        assert agree.exit_code == 0, agree.output
    bad = tmp_path / "b"
    bad.mkdir()
    for path in _deal20_files(bad, "nosuch"):
        res = run("--position", str(path), "--nodes", "20000")
        assert res.exit_code == 2, res.output
        assert "nosuch" in res.output and "Traceback" not in res.output


# ---- where each result came from ------------------------------------------------------


def test_each_result_names_its_file_line_and_deal_or_position(tmp_path):
    pos_path = tmp_path / "p.txt"
    pos_path.write_text(position_to_text(Position.from_deal(3, "strict")))
    cards = cards_str(deal_cards(2))
    batch = tmp_path / "batch.txt"
    batch.write_text(f"# three solves\n4\n\n{cards}\n{pos_path}\n")
    res = run("--file", str(batch), "--json", "--nodes", "20000")
    assert res.exit_code == 0, res.output
    sources = [json.loads(x)["source"] for x in res.stdout.splitlines()]
    assert sources == [
        {"deal": 4, "file": str(batch), "line": 2},
        {"cards": cards, "file": str(batch), "line": 4},
        {"position": str(pos_path), "file": str(batch), "line": 5},
    ]
    human = run("--file", str(batch), "--nodes", "20000").stdout
    headers = [x for x in human.splitlines() if x.startswith("# file")]
    assert headers[0].startswith(f"# file {batch}  line 2  deal 4  profile strict  lost")
    assert headers[1].startswith(f"# file {batch}  line 4  cards {cards}  profile strict")
    assert headers[2].startswith(f"# file {batch}  line 5  position {pos_path}  profile strict")
    single = json.loads(run("--deal", "4", "--json", "--nodes", "20000").stdout)
    assert single["source"] == {"deal": 4}


def test_a_file_with_nothing_to_solve_is_an_error(tmp_path):
    for text in ("", "# only a comment\n\n"):
        empty = tmp_path / "empty.txt"
        empty.write_text(text)
        res = run("--file", str(empty))
        assert res.exit_code == 2 and res.stdout == ""
        assert res.stderr == f"error: {empty} names no deal or position to solve\n"


def test_the_deal_number_may_be_positional_and_the_profile_short():
    a = json.loads(run("4", "-p", "strict", "--json").stdout)
    b = json.loads(run("--deal", "4", "--profile", "strict", "--json").stdout)
    assert (a["deal"], a["result"], a["banked"], a["nodes"]) == (4, "lost", 1, b["nodes"])
    res = run("4", "--deal", "4")
    assert res.exit_code == 2 and "exactly one of" in res.stderr


# ---- replay reads what solve wrote ------------------------------------------------------


def _replay(*args: str, input: str | None = None):
    return CliRunner().invoke(main, ["replay", *args], input=input)


def test_a_hevagames_solution_replays_from_its_header_alone(tmp_path):
    res = run("7", "-p", "hevagames", "--nodes", "2000000")
    assert res.exit_code == 0, res.output
    assert res.stdout.splitlines()[1].startswith("# deal 7  profile hevagames  won")
    sol = tmp_path / "sol.txt"
    sol.write_text(res.stdout)
    for extra in ([], ["--deal", "7"], ["-p", "hevagames"], ["--cards", cards_str(deal_cards(7))]):
        rep = _replay(*extra, str(sol))
        assert rep.exit_code == 0, (extra, rep.output)
        assert rep.output == "banked 52/52  won\n"
    for extra, fragment in (
        (["--deal", "8"], "solved on deal 7, not on the deal or position given"),
        (["-p", "strict"], "solved under profile hevagames, not strict"),
    ):
        rep = _replay(*extra, str(sol))
        assert rep.exit_code == 2 and rep.stdout == "", rep.output
        assert rep.stderr.count("\n") == 1 and fragment in rep.stderr, rep.stderr


def test_a_selective_solution_replays_with_the_pick_of_its_header(tmp_path):
    for pick in ([], ["--pick", "5H"]):
        res = run("1", "-p", "selective", "--budget", "10s", *pick)
        assert res.exit_code == 0, res.output
        assert "won" in res.stdout.splitlines()[1]
        sol = tmp_path / "sol.txt"
        sol.write_text(res.stdout)
        rep = _replay(str(sol))
        assert rep.exit_code == 0, (pick, rep.output)
        assert rep.output == "banked 52/52  won\n"


def test_a_position_solution_replays_from_its_header_or_position(tmp_path):
    txt, js = _deal20_files(tmp_path, "hevagames")
    for path in (txt, js):
        res = run("--position", str(path), "--nodes", "20000")
        assert res.exit_code == 0, res.output
        assert res.stdout.splitlines()[1].startswith(f"# position {path}  profile hevagames  won")
        sol = tmp_path / "sol.txt"
        sol.write_text(res.stdout)
        for extra in ([], ["--position", str(path)]):
            rep = _replay(*extra, str(sol))
            assert rep.exit_code == 0, (extra, rep.output)
            assert rep.output == "banked 52/52  won\n"
        rep = _replay("--deal", "21", str(sol))
        assert rep.exit_code == 2 and "solved on position" in rep.stderr


def test_replay_file_holds_one_deal_or_position_like_solve_file(tmp_path):
    txt, _ = _deal20_files(tmp_path, "hevagames")
    one = tmp_path / "one.txt"
    one.write_text(f"# a position, as solve --file reads it\n{txt}\n")
    rep = _replay("--file", str(one), "-", input="draw\n")
    assert rep.exit_code == 0, rep.output
    two = tmp_path / "two.txt"
    two.write_text(f"4\n{txt}\n")
    rep = _replay("--file", str(two), "-", input="draw\n")
    assert rep.exit_code == 2 and rep.stdout == ""
    assert rep.stderr == (
        f"error: {two} holds 2 deals or positions; replay takes a file with exactly one\n"
    )


def test_turn_option_is_recorded_and_refused_outside_dfs():
    res = run("--deal", "36", "--nodes", "300000", "--turn", "192", "--json")
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout.splitlines()[-1])
    assert (out["result"], out["turn"]) == ("won", 192)
    human = run("--deal", "36", "--nodes", "300000", "--turn", "192")
    assert "turned 192/256" in human.stdout
    for args in (
        ["--turn", "256"],
        ["--turn", "5", "--strategy", "layers"],
        ["--turn", "5", "-p", "double"],
    ):
        res = run("--deal", "3", "--nodes", "1000", *args)
        assert res.exit_code == 2, (args, res.output)
        assert res.stderr.count("\n") == 1 and "Traceback" not in res.output


def test_a_node_budget_alone_sets_no_time_limit_as_in_sweep(monkeypatch):
    """``--nodes`` without ``--budget`` searches to the node budget on any
    machine (no 10 s cut, as ``sweep``); ``--budget`` still applies when given,
    and with neither the solve gets the 10 s default."""
    from canfield.experiments.cli import solve as solve_cli

    seen = []
    real = solve_cli._run

    def spy(job, seconds, nodes, opts):
        seen.append((seconds, nodes))
        return real(job, seconds, nodes, opts)

    monkeypatch.setattr(solve_cli, "_run", spy)
    for args, want in (
        (("--nodes", "2000"), (float("inf"), 2000)),
        (("--nodes", "2000", "--budget", "5s"), (5.0, 2000)),
        ((), (10.0, None)),
    ):
        res = run("--deal", "9", *args, "--json")
        assert res.exit_code == 0, res.output
        assert seen[-1] == want, (args, seen[-1])
    assert len(seen) == 3
