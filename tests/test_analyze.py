"""``canfield analyze``: where a played line's fate changed.

The hand-made game: a strict endgame (found by brute force and written out
here) where drawing buries the 10 of hearts for good (draw 3 always lands on
the same two cards), while playing it home still wins. The line plays a move
that keeps the win, then the losing draw. The test proves both sides itself
by brute force over the engine's positions, independent of the solver, and
checks that analyze names exactly that draw.
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from canfield.engine.cards import parse_cards
from canfield.engine.notation import parse_move
from canfield.engine.position import Position
from canfield.experiments.cli import main
from canfield.experiments.play import play_game
from canfield.experiments.players import GreedyPlayer
from canfield.experiments.view.decisions import decision_kind, kinds_table
from canfield.experiments.view.fate import Point, analyse, find_turn


def endgame() -> Position:
    return Position.from_parts(
        "strict",
        base=0,
        foundations=[12, 9, 9, 12],
        reserve=parse_cards("KC KH"),
        columns=[parse_cards("KS"), parse_cards("QD"), parse_cards("JD"), parse_cards("JH")],
        stock=parse_cards("KD QH"),
        waste=parse_cards("TD TH"),
    )


LINE = ["T1>F", "draw", "R>F"]  # KS home (KH fills T1), the losing draw, KC home


def winnable(pos: Position, seen: dict) -> bool:
    """Plain exhaustive search over the engine's moves: no solver, no pruning."""
    if pos.is_won():
        return True
    k = pos.key()
    if k not in seen:
        seen[k] = False
        seen[k] = any(winnable(pos.apply(m), seen) for m in pos.legal_moves())
    return seen[k]


def test_the_hand_made_line_is_what_the_test_says():
    seen: dict = {}
    line = [endgame()]
    for m in LINE:
        line.append(line[-1].apply(m))
    assert [winnable(p, seen) for p in line] == [True, True, False, False]


def test_analyze_names_the_losing_draw():
    moves = [parse_move(m) for m in LINE]
    a = analyse(endgame(), moves, nodes=100_000)
    assert [p.fate for p in a.points] == ["won", "won", "lost", "lost"]
    assert a.turn.kind == "move" and a.turn.move == 2 and a.turn.played == "draw"
    # the winning move it names wins: brute force agrees
    before = endgame().apply("T1>F")
    assert winnable(before.apply(a.turn.winning), {})
    # TH could have gone home from the waste: the draw covered a playable card
    assert any(m.src == "W" for m in before.legal_moves())
    assert decision_kind(parse_move("draw"), True) == "draw past a playable card"
    # exact most-bankable counts: 52 while winnable, less once lost
    assert [p.banked for p in a.points][:2] == [52, 52]
    assert all(p.exact and p.banked < 52 for p in a.points[2:])
    assert a.points[1].banked >= a.points[2].banked >= a.points[3].banked


def test_unknown_is_never_lost():
    """With a tiny budget a greedy game's positions stay unknown: never read as lost,
    and a losing move is named only between two proven positions."""
    game = play_game(0, "strict", GreedyPlayer())
    moves = [parse_move(m) for m in game.moves]
    a = analyse(Position.from_deal(0), moves, nodes=50)
    unknown = [p for p in a.points if p.fate == "unknown"]
    assert unknown, "budget large enough to decide everything: the test proves nothing"
    for p in a.points:
        if p.fate == "lost":
            assert p.how == "solved" and p.exact or p.how == "inferred"
    assert a.turn.kind != "move" or (
        a.points[a.turn.move - 1].fate == "won" and a.points[a.turn.move].fate == "lost"
    )


def _points(fates: str) -> list[Point]:
    word = {"w": "won", "l": "lost", "u": "unknown"}
    return [
        Point(i, word[c], 52 if c == "w" else 10, c != "u", "solved") for i, c in enumerate(fates)
    ]


@pytest.mark.parametrize(
    ("fates", "kind", "first", "last"),
    [
        ("wwll", "move", None, None),
        ("wuull", "between", 1, 3),
        ("uull", "between", 1, 2),
        ("llll", "dealt_lost", None, None),
        ("wuuw", "still_winnable", None, None),
        ("wwuu", "unknown", 2, None),
    ],
)
def test_turn_logic(fates, kind, first, last):
    moves = [f"m{i}" for i in range(1, len(fates))]
    t = find_turn(_points(fates), moves)
    assert t.kind == kind
    if kind == "between":
        assert (t.first, t.last) == (first, last)
        assert str(last) in t.text()
    if kind == "unknown":
        assert t.first == first
    if kind == "move":
        assert (t.move, t.played) == (2, "m2")


def test_decision_kinds():
    cases = {
        "W>T1": "waste play",
        "T1>T2": "column move",
        "R>F": "reserve play",
        "T3>F": "column to foundation",
        "FH>T2": "card back from a foundation",
        "redeal": "redeal",
        "draw": "draw",
    }
    for move, kind in cases.items():
        assert decision_kind(parse_move(move)) == kind


def test_analyze_cli_text_json_and_view(tmp_path):
    pos_file = tmp_path / "end.txt"
    from canfield.engine.formats import position_to_text

    pos_file.write_text(position_to_text(endgame()))
    moves = tmp_path / "line.txt"
    moves.write_text("\n".join(LINE) + "\n")
    r = CliRunner().invoke(main, ["analyze", str(moves), "--position", str(pos_file)])
    assert r.exit_code == 0, r.output
    assert "lost by move 2 (draw)" in r.stdout
    out = tmp_path / "a.html"
    r = CliRunner().invoke(
        main, ["analyze", str(moves), "--position", str(pos_file), "--json", "--view", str(out)]
    )
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["turn"]["move"] == 2 and d["profile"] == "strict" and d["budget_nodes"] == 200_000
    assert "version" in d
    text = out.read_text()
    assert '"fates":[{"result":"won"' in text and "lost by move 2" in text


def test_analyze_cli_bad_input(tmp_path):
    moves = tmp_path / "line.txt"
    moves.write_text("draw\n")
    r = CliRunner().invoke(main, ["analyze", str(moves), "--deal", "5", "--deals", "0:3"])
    assert r.exit_code == 2 and r.stderr.startswith("error: --deals is for a run folder")
    r = CliRunner().invoke(main, ["analyze", str(tmp_path)])
    assert r.exit_code == 2 and "not a sweep's run folder" in r.stderr


def test_sweep_stores_games_and_analyze_counts_losing_kinds(tmp_path):
    from canfield.experiments.report import build_report, load_runs
    from canfield.experiments.sweep.games import load_games

    run = tmp_path / "run"
    r = CliRunner().invoke(
        main,
        ["sweep", "--player", "greedy", "--deals", "0:4", "--out", str(run), "--workers", "1"]
        + ["--no-progress"],
    )
    assert r.exit_code == 0, r.output
    games = load_games(run)
    assert sorted(games["deal"].tolist()) == [0, 1, 2, 3]
    for g in games.itertuples():  # the stored moves replay the stored game
        replay = play_game(int(g.deal), "strict", GreedyPlayer())
        assert g.moves.split() == replay.moves and g.stop_reason == replay.result
    r = CliRunner().invoke(main, ["analyze", str(run), "--deals", "0:4", "--nodes", "20000"])
    assert r.exit_code == 0, r.output
    assert "greedy" in r.stdout and (run / "analysis.csv").is_file()
    rep = build_report(load_runs([run]))
    titles = [t for t, _ in rep.sections()]
    assert any("Where blind players lost" in t for t in titles)
    assert int(rep.decisions["games"].iloc[0]) == 4


def test_kinds_table_counts():
    import pandas as pd

    rows = pd.DataFrame(
        [
            {
                "profile": "strict",
                "player": "g",
                "stop_reason": "blocked",
                "turn": "move",
                "kind": "draw",
            },
            {
                "profile": "strict",
                "player": "g",
                "stop_reason": "blocked",
                "turn": "move",
                "kind": "waste play",
            },
            {
                "profile": "strict",
                "player": "g",
                "stop_reason": "won",
                "turn": "still_winnable",
                "kind": None,
            },
        ]
    )
    t = kinds_table(rows).iloc[0]
    assert (t["games"], t["won"], t["losing move named"], t["draw"], t["waste play"]) == (
        3,
        1,
        2,
        1,
        1,
    )
