"""docs/rules.md section 6: reading and writing moves."""

from __future__ import annotations

import random

import pytest
from cli_errors import assert_user_error
from test_cli import run

from canfield.engine.cards import parse_card
from canfield.engine.notation import Move, NotationError, Pick, parse_move, read_moves
from canfield.engine.position import IllegalMove, Position


def all_move_texts() -> list[str]:
    cols = [f"T{i}" for i in range(1, 5)]
    out = ["draw", "redeal", "R>F", "W>F"]
    out += [f"{c}>F" for c in cols]
    for d in cols:
        out += [f"R>{d}", f"W>{d}"]
        out += [f"F{s}>{d}" for s in "CDHS"]
        for c in cols:
            if c != d:
                out += [f"{c}>{d}", f"{c}>{d}x2", f"{c}>{d}x13", f"{c}>{d}x40"]
    return out


@pytest.mark.parametrize("text", all_move_texts())
def test_every_move_form_round_trips(text):
    m = parse_move(text)
    assert isinstance(m, Move)
    assert str(m) == text
    assert parse_move(str(m)) == m
    # the core's integer code round-trips too
    assert Move.from_code(m.code()) == m


def test_move_fields():
    assert parse_move("T1>T2x4") == Move("T1", "T2", 4)
    assert parse_move("T3>F") == Move("T3", "F", 1)
    assert parse_move("FH>T2") == Move("FH", "T2", 1)
    assert parse_move("draw") == Move("draw", "", 0)
    assert parse_move("redeal").is_stock and not parse_move("W>F").is_stock


@pytest.mark.parametrize(
    "text, canonical",
    [
        ("w>f", "W>F"),
        ("t1>t2X3", "T1>T2x3"),
        ("  T1 > T2 x 3 ", "T1>T2x3"),
        ("T1>T2x1", "T1>T2"),
        ("fh>t4", "FH>T4"),
        ("DRAW", "draw"),
        (" Redeal ", "redeal"),
    ],
)
def test_case_and_spacing(text, canonical):
    assert str(parse_move(text)) == canonical


def test_pick():
    p = parse_move("pick 7H")
    assert p == Pick(parse_card("7H"))
    assert str(p) == "pick 7H"
    assert parse_move("pick 10♥") == Pick(parse_card("TH"))


@pytest.mark.parametrize(
    "text",
    [
        "",
        "drawx",
        "deal",
        "W>W",
        "R>R",
        "T1>R",
        "T2>W",
        "T6>T1",
        "T0>T1",
        "T1>T1",
        "T1>T2x0",
        "W>T2x2",
        "R>Fx2",
        "T1>Fx2",
        "FH>F",
        "FX>T1",
        "F>T1",
        "T1>T2x",
        "T1-T2",
        "pick XX",
        "pick",
    ],
)
def test_unreadable_moves(text):
    with pytest.raises(NotationError):
        parse_move(text)


def test_read_moves_comments_blank_lines_and_numbers():
    text = """# a solution
pick 7H
1. draw          # three cards
2. W>F  # 7C

3) T1>T2x3
4: R>T1
5 redeal
   T4>F   # no number
"""
    got = read_moves(text)
    assert [str(m) for _, _, m in got] == [
        "pick 7H",
        "draw",
        "W>F",
        "T1>T2x3",
        "R>T1",
        "redeal",
        "T4>F",
    ]
    assert [ln for ln, _, _ in got] == [2, 3, 4, 6, 7, 8, 9]
    assert got[3][1] == "T1>T2x3"


def test_read_write_round_trip_of_a_list():
    moves = [parse_move(t) for t in all_move_texts()]
    text = "\n".join(str(m) for m in moves) + "\n"
    assert [m for _, _, m in read_moves(text)] == moves


def test_read_moves_empty():
    assert read_moves("") == []
    assert read_moves("# only a comment\n\n   \n") == []


def test_read_moves_error_names_the_line():
    with pytest.raises(NotationError, match=r"line 3: cannot read move 'T1>Q'"):
        read_moves("draw\n# comment\nT1>Q\nW>F\n")


def test_bad_move_line_on_the_command_line_is_one_error_line():
    """``canfield replay`` names the unreadable line in one ``error:`` line,
    exit code 2, never a traceback."""
    moves = "draw\n# comment\nT1>Q\nW>F\n"
    with pytest.raises(NotationError) as raised:
        read_moves(moves)
    line = assert_user_error(run("replay", "--deal", "1", "-", input=moves))
    assert line == f"error: {raised.value}"


@pytest.mark.parametrize("text", ["T5>T1", "W>T5", "T2>T5x2"])
def test_fifth_column_reads_but_exists_only_under_double(text):
    move = parse_move(text)
    assert str(move) == text
    with pytest.raises(IllegalMove, match="no column 5 under strict"):
        Position.from_deal(0).apply(move)


def test_fifth_column_plays_under_double():
    """Moves from and to column 5 are offered, read back and play under double."""
    pos = Position.from_deal(91, "double")
    rng = random.Random(5)
    seen = set()
    for _ in range(300):
        moves = pos.legal_moves()
        for move in (m for m in moves if "T5" in str(m)):
            assert parse_move(str(move)) == move
            pos.apply(str(move))
            seen.add("from" if move.src == "T5" else "to")
        pos = pos.apply(rng.choice(moves))
        if seen == {"from", "to"}:
            break
    assert seen == {"from", "to"}, seen
