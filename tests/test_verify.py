"""``canfield solve --verify`` and ``canfield bench verify``: losses re-proven rule by rule."""

from __future__ import annotations

import csv
import json
from types import SimpleNamespace

from click.testing import CliRunner

from canfield.engine.profiles import parse_profile
from canfield.experiments.cli import main
from canfield.experiments.cli import solve as solve_cli
from canfield.solver.pruning import PRUNING_RULES
from canfield.solver.verify import applicable_rules, verify_loss


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def test_each_rule_applies_where_docs_solver_md_says():
    assert applicable_rules(parse_profile("strict")) == ["P1", "E1", "E2", "B1"]
    # partial runs and any card into a space: no B1; worry: no P1 (nor B1)
    assert applicable_rules(parse_profile("hevagames")) == ["P1", "E1", "E2"]
    assert applicable_rules(parse_profile("cardgames")) == ["E1", "E2"]
    # limited passes: E3 instead of E1 and E2; draw 1: E2 has nothing to do
    assert applicable_rules(parse_profile("storehouse")) == ["P1", "B1", "E3"]
    assert applicable_rules(parse_profile("strict:draw=1")) == ["P1", "E1", "B1"]
    # rank-only building: R1 (B1's frozen links) and W1 (draw 1)
    assert applicable_rules(parse_profile("rainbow")) == ["P1", "B1", "E3", "R1", "W1"]
    assert applicable_rules(parse_profile("rainbow:draw=3")) == ["P1", "B1", "E3", "R1"]
    # two packs: P1 argued again, no other rule (passes=3 once listed E3,
    # whose re-proof only repeated the proof)
    assert applicable_rules(parse_profile("double")) == ["P1"]


def test_a_loss_is_re_proven_without_each_rule_and_all():
    res = run("solve", "20", "--nodes", "50000", "--verify", "--json")
    assert res.exit_code == 0, res.output
    obj = json.loads(res.stdout)
    assert (obj["result"], obj["banked"]) == ("lost", 14)
    v = obj["verify"]
    assert [p["off"] for p in v["reproofs"]] == ["P1", "E1", "E2", "B1", "all"]
    assert all((p["result"], p["banked"]) == ("lost", 14) for p in v["reproofs"])
    assert v["needed"] == [] and not v["all_off_needed"] and v["contradictions"] == []
    # switching a rule off changed the search (the re-proofs are not the same solve)
    assert len({p["nodes"] for p in v["reproofs"]} | {obj["nodes"]}) > 1


def test_a_rule_is_needed_when_the_proof_without_it_runs_out():
    # strict deal 137 is lost in about 40,000 positions with B1 (and without E1
    # or E2 alone), and still unknown after 2 million without B1
    res = run("solve", "137", "--nodes", "60000", "--verify")
    assert res.exit_code == 0, res.output
    out = res.stdout
    assert "lost  banked 16/52" in out.splitlines()[1]
    assert "without B1: unknown (nodes)" in out and ": needed" in out
    assert "# verify: the proof needed B1; with every rule off it was not re-proven" in out
    as_json = json.loads(run("solve", "137", "--nodes", "60000", "--verify", "--json").stdout)
    assert as_json["verify"]["needed"] == ["B1"] and as_json["verify"]["all_off_needed"]


def test_only_a_loss_is_re_proven():
    res = run("solve", "2", "--nodes", "50000", "--verify")
    assert res.exit_code == 0 and "only a lost verdict is re-proven" in res.stdout
    obj = json.loads(run("solve", "2", "--nodes", "50000", "--verify", "--json").stdout)
    assert obj["result"] == "won" and obj["verify"] is None
    # without --verify the JSON has no verify key at all (as before)
    assert "verify" not in json.loads(run("solve", "2", "--nodes", "50000", "--json").stdout)


def test_verify_with_rules_already_off_is_a_usage_error():
    res = run("solve", "20", "--verify", "--prune", "P1")
    assert res.exit_code == 2
    assert res.stderr.startswith("error: ") and "--verify" in res.stderr
    assert len(res.stderr.strip().splitlines()) == 1


def test_a_contradicting_re_proof_is_an_error_exit_1(monkeypatch):
    real = solve_cli._run_threads

    def broken(job, seconds, nodes, opts, threads):
        r = real(job, seconds, nodes, opts, threads)
        if opts["prune"] != [r for r in PRUNING_RULES if r != "B1"]:  # without B1 "wins"
            return r
        r.result = "won"
        return r

    monkeypatch.setattr(solve_cli, "_run_threads", broken)
    res = run("solve", "20", "--nodes", "50000", "--verify")
    assert res.exit_code == 1
    assert "without B1: won" in res.stdout and "CONTRADICTION" in res.stdout
    assert res.stderr.startswith("error: --verify") and "deal 20: B1" in res.stderr
    assert len(res.stderr.strip().splitlines()) == 1


def test_another_banked_count_is_a_contradiction_too():
    def solve_with(prune):
        banked = 9 if prune is False else 8
        return SimpleNamespace(
            result="lost", banked=banked, nodes=1, seconds=0.0, stop_reason="exhausted"
        )

    v = verify_loss(parse_profile("strict"), 8, solve_with)
    assert v.contradictions == ["all"] and v.needed == []

    def unknown_above(prune):
        # a budget that runs out is no contradiction, a line banking more is
        banked = 9 if prune is False else 5
        return SimpleNamespace(
            result="unknown", banked=banked, nodes=1, seconds=0.0, stop_reason="nodes"
        )

    v = verify_loss(parse_profile("strict"), 8, unknown_above)
    assert v.contradictions == ["all"] and v.needed == ["P1", "E1", "E2", "B1"]


def test_bench_verify_re_proves_the_published_losses(tmp_path):
    out = tmp_path / "verify.csv"
    res = run("bench", "verify", "--deals", "0:30", "--nodes", "50000", "--out", str(out))
    assert res.exit_code == 0, res.output
    rows = list(csv.DictReader(out.open()))
    # deals 4 and 20 are the published strict losses among 0-29: a solve and five re-proofs each
    assert [r["deal"] for r in rows] == ["4"] * 6 + ["20"] * 6
    assert {r["off"] for r in rows} == {"none", "P1", "E1", "E2", "B1", "all"}
    assert all(r["result"] == "lost" and r["contradicts"] in ("", "False") for r in rows)
    assert {r["profile_full"] for r in rows} == {parse_profile("strict").full()}
    assert {r["budget_nodes"] for r in rows} == {"50000"} and all(r["version"] for r in rows)
    assert "without B1: re-proven 2 of 2" in res.stdout


def test_bench_verify_bad_options_are_one_line():
    for args in (["--also", "six"], ["--deals", "0-10"], ["--run", "no/such/run"]):
        res = run("bench", "verify", *args)
        assert res.exit_code == 2, (args, res.output)
        assert res.stderr.startswith("error: ") and len(res.stderr.strip().splitlines()) == 1
