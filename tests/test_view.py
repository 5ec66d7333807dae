"""``canfield view``: frames computed by the engine, fills as their own step, one
self-contained HTML file.

Every preset is played through its golden playthrough's moves
(``tests/playthroughs/``); each frame's table must be the engine's position
after that many moves (a fill frame's predecessor the derived before-fill
position, which the engine's own ``auto_fill`` must turn into the engine's
position), ``double`` (two packs) included.
"""

from __future__ import annotations

import json
import re

import numpy as np
import pytest
from cli_errors import assert_user_error
from click.testing import CliRunner
from make_playthroughs import golden_path, start_position

from canfield.engine import core
from canfield.engine.cards import card_str
from canfield.engine.notation import Move, parse_move
from canfield.engine.position import Position
from canfield.engine.profiles import PRESETS
from canfield.experiments.cli import main
from canfield.experiments.view.frames import FillMismatch, frames, positions, split_fill, table
from canfield.experiments.view.html import page, view_page
from canfield.experiments.view.words import describe


def golden_moves(preset: str) -> list[Move]:
    """The moves of a preset's golden playthrough."""
    text = golden_path(preset).read_text()
    return [parse_move(line[5:]) for line in text.splitlines() if line.startswith("play ")]


def _engine_frames(start: Position, moves: list[Move]) -> list[tuple[str, dict]]:
    """(kind, table) per frame, straight from the engine: the fill's before-frame
    is the engine's position minus the filled cards, checked by auto_fill."""
    line = positions(start, moves)
    out = [("start", table(start))]
    for i, move in enumerate(moves):
        before, after = line[i], line[i + 1]
        split = split_fill(before, move, after)
        if split is None:
            out.append(("move", table(after)))
        else:
            out += [("move", table(split[0])), ("fill", table(after))]
    return out


@pytest.mark.parametrize("preset", list(PRESETS))
def test_frames_are_the_engines_positions(preset):
    start = start_position(preset)
    moves = golden_moves(preset)
    assert moves, f"no moves in {golden_path(preset)}"
    got = frames(start, moves)
    assert [(f.kind, f.table) for f in got] == _engine_frames(start, moves)
    # the last frame of each move is the engine's position after it
    line = positions(start, moves)
    last_of_move = {}
    for f in got:
        last_of_move[f.moves_played] = f.table
    for i, pos in enumerate(line):
        assert last_of_move[i] == table(pos)
        n_cols, n_found = len(pos.columns()), len(pos.foundations())
        assert len(last_of_move[i]["columns"]) == n_cols
        assert len(last_of_move[i]["foundations"]) == n_found


def test_fills_are_their_own_frames_in_every_auto_fill_preset():
    fills = 0
    for preset, prof in PRESETS.items():
        got = frames(start_position(preset), golden_moves(preset))
        for prev, f in zip(got, got[1:], strict=False):
            if f.kind != "fill":
                continue
            fills += 1
            assert prof.fill == "auto"
            assert prev.kind == "move" and prev.moves_played == f.moves_played
            before_cols, after_cols = prev.table["columns"], f.table["columns"]
            filled = [i for i, c in enumerate(before_cols) if not c and after_cols[i]]
            assert filled, "a fill frame fills no column"
            # each filled card came off the reserve's top, in column order
            n = len(filled)
            assert len(prev.table["reserve"]) == len(f.table["reserve"]) + n
            assert [after_cols[i][0] for i in filled] == prev.table["reserve"][::-1][:n]
            assert "the reserve fills" in f.words
    assert fills > 0, "no playthrough showed an automatic fill: the test proves nothing"


def test_fill_derivation_is_checked_by_the_engines_auto_fill(monkeypatch):
    # deal 5, strict: T1 holds TC alone, which goes home; the reserve's 2C fills T1
    start = Position.from_deal(5)
    move = parse_move("T1>F")
    after = start.apply(move)
    mid, fills = split_fill(start, move, after)
    assert fills == [(1, "2C")]
    assert mid.columns()[0] == [] and len(mid.reserve()) == 13
    s = mid.state.copy()
    core.auto_fill(s, mid.game.arr, mid.game.rules)
    assert np.array_equal(s, after.state)
    # a fill the engine would not make is caught
    monkeypatch.setattr(core, "auto_fill", lambda s, g, r: None)  # what game.core is
    with pytest.raises(FillMismatch):
        split_fill(start, move, after)


def test_words_read_the_position_before_the_move():
    start = Position.from_deal(5)
    assert describe(start, parse_move("T1>F")) == "TC from column 1 to its foundation"
    got = frames(start, [parse_move("T1>F")])
    assert got[2].words == (
        "the reserve fills the empty column: 2C into column 1 (12 left in the reserve)"
    )
    assert describe(start, parse_move("draw")).startswith("draw 3 cards from the stock; ")
    # a waste play names the waste top and the card it lands on
    pos = start_position("strict")
    for m in golden_moves("strict"):
        if m.src == "W" and m.dst.startswith("T") and pos.columns()[int(m.dst[1:]) - 1]:
            top = card_str(pos.card_at("W"))
            onto = card_str(pos.columns()[int(m.dst[1:]) - 1][-1])
            assert describe(pos, m) == f"{top} from the waste onto {onto} in column {m.dst[1:]}"
            break
        pos = pos.apply(m)
    else:
        pytest.fail("the strict playthrough plays no card from the waste onto a column")


def test_page_is_self_contained_and_carries_the_frames():
    start = start_position("superior")
    moves = golden_moves("superior")[:30]
    text = view_page(start, moves, "superior </script> test")
    assert not re.search(r"https?://|<link|\bsrc=|@import|url\(", text)
    data = re.search(r'<script id="data" type="application/json">(.*?)</script>', text, re.S)
    parsed = json.loads(data.group(1))
    assert [f["table"] for f in parsed["frames"]] == [f.table for f in frames(start, moves)]
    assert parsed["moves"] == 30
    # superior deals the reserve face up: the table says so, the JS just draws it
    assert parsed["frames"][0]["table"]["reserve_face_up"] == 13
    assert "superior &lt;/script&gt; test" in text


def test_page_strip_carries_the_fates():
    start = Position.from_deal(5)
    moves = [parse_move("T1>F")]
    fates = [{"result": "won", "text": "a"}, {"result": "lost", "text": "b"}]
    text = page("t", frames(start, moves), 1, fates)
    assert '"fates":[{"result":"won"' in text


def _run(*args):
    return CliRunner().invoke(main, list(args))


def test_view_cli_writes_the_solution(tmp_path):
    sol = tmp_path / "sol.txt"
    sol.write_text("# deal 5  profile strict  won  banked 52/52\n   1. T1>F\n   2. draw\n")
    out = tmp_path / "v.html"
    r = _run("view", str(sol), "-o", str(out))
    assert r.exit_code == 0, r.output
    assert "wrote" in r.stderr and out.stat().st_size > 0
    parsed = json.loads(
        re.search(r'type="application/json">(.*?)</script>', out.read_text(), re.S).group(1)
    )
    assert [f["kind"] for f in parsed["frames"]] == ["start", "move", "fill", "move"]


@pytest.mark.parametrize(
    ("moves", "args", "fragment"),
    [
        ("T1>T2\n", ["--deal", "5"], "move 1 (T1>T2)"),
        ("flip\n", ["--deal", "5"], "cannot read move"),
        ("draw\n", [], "give one of --deal"),
        ("draw\n", ["--deal", "5", "--profile", "nosuch"], "unknown profile"),
    ],
)
def test_view_cli_bad_input_is_one_error_line(tmp_path, moves, args, fragment):
    f = tmp_path / "m.txt"
    f.write_text(moves)
    r = _run("view", str(f), *args, "-o", str(tmp_path / "v.html"))
    assert_user_error(r, fragment)
    assert not (tmp_path / "v.html").exists()


def test_solve_view_writes_the_line(tmp_path):
    out = tmp_path / "s.html"
    r = _run("solve", "5", "--nodes", "200000", "--view", str(out))
    assert r.exit_code == 0, r.output
    n = len([ln for ln in r.stdout.splitlines() if re.match(r"\s*\d+\. ", ln)])
    text = out.read_text()
    assert f'"moves":{n}' in text
    r = _run("solve", "5", "-p", "selective", "--view", str(tmp_path / "x.html"))
    assert r.exit_code == 2 and "needs --pick" in r.stderr
