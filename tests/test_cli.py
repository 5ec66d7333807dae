"""The ``canfield`` command line: output, and one-line errors on bad input."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys
from pathlib import Path

import click
import pytest
from cli_errors import assert_user_error
from click.testing import CliRunner

from canfield.engine.cards import cards_str
from canfield.engine.deals import deal_cards
from canfield.engine.position import Position
from canfield.engine.version import __version__
from canfield.experiments.cli import main

ROOT = Path(__file__).resolve().parents[1]
DEAL0 = (
    "8S JH 9C 2S 2D QD 6S TC 3D AC JC 7C 9H 8C QS KH 5H 2C 3H 5C AH 6C 4S TD 5D 8H 8D "
    "AD QH TS QC JD 3S 4D 2H 9D 3C KD AS 7S 9S 7D JS 6H KS 4C 7H 5S 6D 4H KC TH"
)
# deal 0, strict: the third card drawn is 8D (base 8), the one under it 8H
BANK_TWO = "draw\ndraw\ndraw\nW>F   # 8D\nW>F   # 8H\n"


def run(*args: str, input: str | None = None):
    return CliRunner().invoke(main, list(args), input=input)


# ---- general -------------------------------------------------------------------


def test_version():
    r = run("--version")
    assert r.exit_code == 0 and __version__ in r.output


COMMANDS = {
    "deal",
    "replay",
    "solve",
    "sweep",
    "escalate",
    "report",
    "plot",
    "bench",
    "compare",
    "view",
    "analyze",
}
BENCHMARKS = {"engine", "solver", "pruning", "layers", "players", "table", "view", "verify"}


def test_help_on_every_command():
    r = run("--help")
    assert r.exit_code == 0
    for name in COMMANDS:
        assert name in r.output
    assert set(main.list_commands(click.Context(main))) == COMMANDS
    for args in [[name] for name in COMMANDS] + [["bench", name] for name in BENCHMARKS]:
        r = run(*args, "--help")
        assert r.exit_code == 0, (args, r.output)
        assert "Usage:" in r.output and "--help" in r.output
    r = run("bench", "--help")
    assert all(name in r.output for name in BENCHMARKS)
    r = run("bench", "engine", "--help")
    assert r.exit_code == 0 and "--seconds" in r.output and "--out" in r.output


def test_unknown_command_is_one_line():
    assert_user_error(run("nosuch"), "No such command")


def test_bare_group_prints_help():
    for args in ([], ["bench"]):
        r = run(*args)
        assert "Usage:" in r.output and "Traceback" not in r.output


# ---- deal ----------------------------------------------------------------------


def test_deal_prints_the_test_vector():
    r = run("deal", "0")
    assert r.exit_code == 0
    assert r.output == DEAL0 + "\n"
    r = run("deal", str(2**63 - 1))
    assert r.output.split() == cards_str(deal_cards(2**63 - 1)).split()


def test_deal_show():
    r = run("deal", "0", "--show")
    assert r.exit_code == 0
    lines = r.output.splitlines()
    assert lines[0] == DEAL0
    assert "\n".join(lines[1:]) == Position.from_deal(0).show()
    assert "Canfield  strict  deal 0" in r.output


def test_deal_show_profiles():
    r = run("deal", "0", "--show", "--profile", "hevagames:draw=1")
    assert r.exit_code == 0 and "hevagames:draw=1" in r.output
    r = run("deal", "0", "--show", "-p", "selective", "--pick", "5h")
    assert r.exit_code == 0
    assert (
        "\n".join(r.output.splitlines()[1:])
        == Position.from_deal(0, "selective", pick=deal_cards(0)[16]).show()
    )


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["deal", "--", "-1"], "deal number"),
        # without "--" click reads -1 as an option: say what a deal number is
        (["deal", "-1"], "-1 is not an option; a deal number must be in 0..2^64-1"),
        (["solve", "-7"], "-7 is not an option; a deal number must be in 0..2^64-1"),
        # a command that takes no deal number keeps click's own words
        (["report", "-7"], "No such option '-7'"),
        (["deal", str(2**64)], "deal number"),
        (["deal", "abc"], "not a valid integer"),
        (["deal"], "Missing argument"),
        (["deal", "0", "--profile", "klondike"], "unknown profile 'klondike'"),
        (["deal", "0", "--profile", ""], "empty profile; presets are strict"),
        (["deal", "0", "--profile", "strict:draw=2"], "draw must be 1 or 3"),
        (["deal", "0", "--profile", "strict:colour=red"], "unknown profile option"),
        (["deal", "0", "--show", "--profile", "selective"], "selective needs a base pick"),
        (["deal", "0", "--show", "-p", "selective", "--pick", "XX"], "unknown card"),
        (["deal", "0", "--show", "-p", "selective", "--pick", "AS"], "not one of the five"),
        (["deal", "0", "--pick", "5H"], "only for the selective profile"),
    ],
)
def test_deal_bad_input(args, fragment):
    assert_user_error(run(*args), fragment)


# ---- replay --------------------------------------------------------------------


def test_replay_banks_cards(tmp_path):
    f = tmp_path / "moves.txt"
    f.write_text(BANK_TWO)
    r = run("replay", "--deal", "0", str(f))
    assert r.exit_code == 0, r.output
    assert r.output == "banked 3/52  playing\n"
    r = run("replay", "--profile", "strict", "--deal", "0", "-", input=BANK_TWO)
    assert r.output == "banked 3/52  playing\n"


def test_replay_empty_move_list():
    r = run("replay", "--deal", "0", "-", input="# nothing yet\n")
    assert r.exit_code == 0 and r.output == "banked 1/52  playing\n"


def test_replay_reports_blocked():
    # deal 4 with one pass: after the 12 draws nothing can move
    r = run("replay", "-p", "strict:passes=1", "--deal", "4", "-", input="draw\n" * 12)
    assert r.exit_code == 0, r.output
    assert r.output == "banked 1/52  blocked\n"


@pytest.mark.parametrize(
    ("larger", "pick"), [("superior", None), ("strict:draw=1", None), ("selective", "7D")]
)
def test_replay_as_writes_a_line_of_the_larger_profile(larger, pick):
    """--as: a strict win of deal 2, written out for a profile that contains
    strict, replays as it is to a win under that profile; its moves are the
    strict ones with moves added where the larger needs them (counted)."""
    solved = run("solve", "2", "--nodes", "200K")
    assert solved.exit_code == 0 and "# deal 2  profile strict  won" in solved.stdout
    r = run("replay", "-", "--as", larger, input=solved.stdout)
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    head = f"# deal 2  profile {larger}" + (f"  pick {pick}" if pick else "") + "  won"
    assert lines[0] == head + "  banked 52/52", lines[0]
    assert lines[-1] == f"# banked 52/52  won under {larger}"
    added = int(lines[1].rsplit(", ", 1)[1].split()[0])
    moves = [m.split(". ", 1)[1] for m in lines if not m.startswith("#")]
    strict = [m.split(". ", 1)[1] for m in solved.stdout.splitlines() if not m.startswith("#")]
    assert len(moves) == len(strict) + added
    assert (added > 0) == (larger != "selective"), added
    again = run("replay", "-", input=r.stdout)  # the header names deal, profile, pick
    assert again.exit_code == 0 and again.output == "banked 52/52  won\n", again.output


def test_replay_as_from_a_position_file_replays_as_it_is(tmp_path, monkeypatch):
    """--as on a solve of a position file: the output's header names the file
    and the larger profile, and replays (and views) as it is, the file read
    as a position of the larger profile; a header whose profile does not
    contain the file's is still refused."""
    from canfield.engine.formats import position_to_text

    monkeypatch.chdir(tmp_path)
    pos, rng = Position.from_deal(2), random.Random(1)
    for _ in range(25):
        pos = pos.apply(rng.choice(pos.legal_moves()))
    Path("pos.txt").write_text(position_to_text(pos))  # says profile strict
    solved = run("solve", "--position", "pos.txt", "--nodes", "1M")
    assert "# position pos.txt  profile strict  won" in solved.stdout, solved.stdout
    Path("s.txt").write_text(solved.stdout)
    for larger in ("superior", "strict:draw=1", "selective"):
        r = run("replay", "s.txt", "--as", larger)
        assert r.exit_code == 0, r.output
        assert r.output.startswith(f"# position pos.txt  profile {larger}  won"), r.output
        Path("o.txt").write_text(r.stdout)
        again = run("replay", "o.txt")
        assert again.exit_code == 0 and again.output == "banked 52/52  won\n", again.output
        assert run("view", "o.txt", "-o", "o.html").exit_code == 0
    unrelated = solved.stdout.replace("profile strict ", "profile solvitaire ")
    assert_user_error(
        run("replay", "-", input=unrelated), "the position says profile strict but solvitaire"
    )
    # no header: a profile option is the file's or an error, as before
    bare = "\n".join(ln for ln in solved.stdout.splitlines() if not ln.startswith("#"))
    assert_user_error(
        run("replay", "--position", "pos.txt", "-p", "superior", "-", input=bare),
        "the position says profile strict but superior",
    )


def test_replay_as_refuses_a_profile_that_does_not_contain_the_line():
    r = run("replay", "-p", "hevagames", "--deal", "0", "-", "--as", "strict", input="draw\n")
    assert_user_error(r, "hevagames is not contained in strict")


def test_replay_agrees_with_the_engine_on_random_play():
    rng = random.Random(3)
    pos = Position.from_deal(9, "hevagames")
    played = []
    for _ in range(60):
        m = rng.choice(pos.legal_moves())
        played.append(str(m))
        pos = pos.apply(m)
    text = "".join(f"{i}. {m}\n" for i, m in enumerate(played, 1))
    r = run("replay", "-p", "hevagames", "--deal", "9", "-", input=text)
    assert r.exit_code == 0, r.output
    assert r.output == f"banked {pos.banked}/52  {pos.status()}\n"


def test_replay_show_prints_every_position():
    r = run("replay", "--deal", "0", "--show", "-", input=BANK_TWO)
    assert r.exit_code == 0
    out = r.output
    assert out.count("Canfield  strict  deal 0") == 6  # start + 5 moves
    assert out.startswith("start\n")
    for i, m in enumerate(["draw", "draw", "draw", "W>F", "W>F"], 1):
        assert f"\n{i}. {m}\n" in out
    assert out.rstrip().endswith("banked 3/52  playing")


def test_replay_from_cards_and_file(tmp_path):
    r = run("replay", "--cards", DEAL0.lower(), "-", input=BANK_TWO)
    assert r.output == "banked 3/52  playing\n"
    deal_file = tmp_path / "deal.txt"
    deal_file.write_text("# deal 0\n" + DEAL0.replace(" ", "\n") + "\n")
    r = run("replay", "--file", str(deal_file), "-", input=BANK_TWO)
    assert r.exit_code == 0, r.output
    assert r.output == "banked 3/52  playing\n"


def test_replay_selective_pick_line_and_option():
    r = run("replay", "-p", "selective", "--deal", "0", "-", input="pick 5H\ndraw\n")
    assert r.exit_code == 0 and r.output == "banked 1/52  playing\n"
    r = run("replay", "-p", "selective", "--deal", "0", "--pick", "8C", "-", input="draw\n")
    assert r.exit_code == 0 and r.output == "banked 1/52  playing\n"
    r = run("replay", "-p", "selective", "--deal", "0", "--pick", "5H", "-", input="pick 5H\n")
    assert r.exit_code == 0


@pytest.mark.parametrize(
    "args, stdin, fragment",
    [
        (["--deal", "0"], "draw\nT2>T1\n", "error: move 2 (T2>T1): KH does not build on QS"),
        (["--deal", "0"], "T1>T2x2\n", "error: move 1 (T1>T2x2): column 1 has only 1 card"),
        (["--deal", "0"], "draw\nT1>Q\n", "line 2: cannot read move 'T1>Q'"),
        (["--deal", "0"], "FH>T1\n", "never come back"),
        (["--deal", "0"], "redeal\n", "move 1 (redeal): the stock is not empty"),
        (["--deal", str(2**64)], "draw\n", "deal number"),
        (["--cards", "AC 2C 3C"], "draw\n", "52 cards, got 3"),
        (["--cards", DEAL0.replace("TH", "8S")], "draw\n", "8S appears twice"),
        (["--cards", DEAL0.replace("TH", "1H")], "draw\n", "unknown card '1H'"),
        (["--deal", "0", "-p", "cardgames:worry=maybe"], "draw\n", "worry must be one of"),
        (["--deal", "0", "-p", "nope"], "draw\n", "unknown profile"),
        ([], "draw\n", "give one of"),
        (["--deal", "0", "--cards", DEAL0], "draw\n", "only one of"),
        (["--deal", "0", "-p", "selective"], "draw\n", "selective needs a base pick"),
        (["--deal", "0"], "pick 5H\ndraw\n", "only for the selective profile"),
        (
            ["--deal", "0", "-p", "selective"],
            "pick 5H\ndraw\npick 8C\n",
            "allowed only before the first move",
        ),
        (["--deal", "0", "-p", "selective", "--pick", "8C"], "pick 5H\n", "disagrees"),
        (["--deal", "0", "-p", "selective", "--pick", "KS"], "", "not one of the five"),
    ],
)
def test_replay_bad_input(args, stdin, fragment):
    assert_user_error(run("replay", *args, "-", input=stdin), fragment)


def test_replay_missing_files(tmp_path):
    assert_user_error(run("replay", "--deal", "0", str(tmp_path / "none.txt")), "no such file")
    assert_user_error(
        run("replay", "--file", str(tmp_path / "none.txt"), "-", input="draw\n"), "no such file"
    )
    assert_user_error(run("replay", "--deal", "0", str(tmp_path)), "is a directory")
    binary = tmp_path / "bin"
    binary.write_bytes(b"\xff\xfe\x00\x81")
    assert_user_error(run("replay", "--deal", "0", str(binary)), "not a text file")
    bad_deal = tmp_path / "deal.txt"
    bad_deal.write_text("AC 2C\n")
    assert_user_error(run("replay", "--file", str(bad_deal), "-", input=""), "52 cards, got 2")


def test_bench_bad_input():
    assert_user_error(run("bench", "engine", "--seconds", "0"), "--seconds")
    assert_user_error(run("bench", "nosuch"), "No such command")
    assert_user_error(run("bench", "pruning", "--off", "B9"), "unknown pruning rule")
    assert_user_error(run("bench", "pruning", "--deals", "9:3"), "--deals", "bad deal range")
    for bad in ("6,,12", "6,x", "0:2,5:5"):
        assert_user_error(run("bench", "solver", "--deals", bad), "--deals")
    assert_user_error(run("bench", "layers", "--deals", "3,-1"), "--deals", "bad deal range")
    assert_user_error(run("bench", "players", "--players", "greedy,bob"), "unknown player 'bob'")
    assert_user_error(run("bench", "layers", "--dfs-share", "1"), "--dfs-share")
    assert_user_error(run("bench", "layers", "--profile", "cardgames"), "worry=no")
    assert_user_error(run("bench", "solver", "--budget", "soon"), "time budget")


def test_bench_engine_smoke(tmp_path):
    out = tmp_path / "engine.csv"
    r = run(
        "bench",
        "engine",
        "--seconds",
        "0.05",
        "--pool",
        "20",
        "--reps",
        "1",
        "--no-reference",
        "--out",
        str(out),
    )
    assert r.exit_code == 0, r.output
    assert "numba core" in r.output and "Position.legal_moves" in r.output
    rows = out.read_text().splitlines()
    assert rows[0].startswith("profile,implementation,positions_per_s")
    assert len(rows) == 1 + 4  # strict and hevagames, numba and Python
    assert all(float(line.split(",")[2]) > 0 for line in rows[1:])


# ---- real processes --------------------------------------------------------------


def _proc(cmd: list[str], stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run(cmd, input=stdin, capture_output=True, text=True, cwd=ROOT, timeout=120)


def test_subprocess_module_entry():
    p = _proc([sys.executable, "-m", "canfield.experiments.cli", "deal", "0"])
    assert p.returncode == 0, p.stderr
    assert p.stdout == DEAL0 + "\n"
    p = _proc(
        [sys.executable, "-m", "canfield.experiments.cli", "replay", "--deal", "0", "-"],
        "draw\nT2>T1\n",
    )
    assert p.returncode == 2
    assert p.stdout == ""
    assert p.stderr == "error: move 2 (T2>T1): KH does not build on QS\n"


@pytest.mark.skipif(shutil.which("canfield") is None, reason="canfield script not installed")
def test_subprocess_console_script():
    p = _proc(["canfield", "deal", "1"])
    assert p.returncode == 0, p.stderr
    assert p.stdout.split() == cards_str(deal_cards(1)).split()
    p = _proc(["canfield", "deal", "0", "--profile", "nope"])
    assert p.returncode == 2 and p.stdout == ""
    assert len(p.stderr.splitlines()) == 1 and "Traceback" not in p.stderr
    p = _proc(["canfield", "replay", "--cards", "AC AC", "-"], "draw\n")
    assert p.returncode == 2 and p.stderr.startswith("error: ") and "Traceback" not in p.stderr


def test_solve_reads_a_node_budget_with_a_suffix_as_escalate_does():
    """``--nodes 2K`` is 2,000 positions; a count it cannot read, or zero,
    is one line and exit 2."""
    r = run("solve", "3", "--nodes", "2K", "--budget", "60s", "--json")
    assert r.exit_code == 0, r.output
    rows = json.loads(r.stdout)
    row = rows[0] if isinstance(rows, list) else rows
    assert 0 < row["nodes"] <= 2000
    assert_user_error(run("solve", "3", "--nodes", "2.5x"), "cannot read a node budget")
    assert_user_error(run("solve", "3", "--nodes", "0"), "positive whole number")


@pytest.mark.parametrize(
    ("line", "says"),
    [
        ("-1", "-1 is not a deal number (0 to 2^64-1"),
        ("+5", "+5 is not a deal number"),
        ("5.0", "5.0 is not a deal number"),
        ("nosuch.txt", "no such position file: nosuch.txt"),
    ],
)
def test_a_list_line_that_is_neither_deal_nor_file_says_which(tmp_path, line, says):
    """A line written as a number meant a deal: say what a deal number is, not
    that no file has that name."""
    listing = tmp_path / "list.txt"
    listing.write_text(f"3\n{line}\n")
    assert_user_error(run("solve", "--file", str(listing), "--nodes", "100"), "line 2:", says)
