"""Pictures of positions: the layout of the cards drawn, not the pixels.

The drawing records each card's rectangle (:class:`CardBox`); the tests
compare them with the layout the engine's position implies, and check the
PNG and SVG files ``canfield deal N --png/--svg`` write.
"""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from canfield.engine.cards import card_str
from canfield.engine.notation import parse_move
from canfield.engine.position import Position
from canfield.engine.profiles import PRESETS
from canfield.experiments import draw
from canfield.experiments.cli import main
from canfield.experiments.view.table import table_of

STEP = draw.CARD_W + draw.GAP
LEFT = 3 * STEP + 2 * draw.FAN_STEP + draw.GAP  # where the foundations start
COL_Y = -draw.CARD_H - 0.5


def expected_boxes(pos: Position) -> set[tuple]:
    """(card, where, x, y, face up) of every card the picture must show."""
    out = set()
    res = pos.reserve()
    for i, c in enumerate(res):
        up = pos.profile.reserve_visible or i == len(res) - 1
        if not pos.profile.reserve_visible:
            out.add((card_str(c), "reserve", 0.0, 0.0, up))
    if pos.stock():
        out.add((card_str(pos.stock()[0]), "stock", STEP, 0.0, False))
    for i, c in enumerate(pos.waste()[-3:]):
        out.add((card_str(c), "waste", 2 * STEP + i * draw.FAN_STEP, 0.0, True))
    for su, n in enumerate(pos.foundations()):
        if n:
            top = su * 13 + (pos.game.base + n - 1) % 13
            out.add((card_str(top), f"F{su + 1}", LEFT + su * STEP, 0.0, True))
    for i, col in enumerate(pos.columns()):
        for h, c in enumerate(col):
            out.add((card_str(c), f"T{i + 1}", LEFT + i * STEP, COL_Y - h * draw.COLUMN_STEP, True))
    return out


def _got(d) -> set[tuple]:
    return {(b.card, b.where, round(b.x, 9), round(b.y, 9), b.face_up) for b in d.boxes}


def _round(boxes: set[tuple]) -> set[tuple]:
    return {(c, w, round(x, 9), round(y, 9), u) for c, w, x, y, u in boxes}


def test_dealt_position_layout():
    pos = Position.from_deal(5)
    d = pos.draw()
    assert _got(d) == _round(expected_boxes(pos))
    # the reserve: 13 cards, one face up (2C), the top
    reserve = [b for b in d.boxes if b.where == "reserve"]
    assert len(reserve) == 13 and [b.card for b in reserve if b.face_up] == ["2C"]


def test_layout_mid_game_with_long_columns_and_waste():
    pos = Position.from_deal(5)
    for m in ["T1>F", "draw", "draw", "draw"]:
        pos = pos.apply(parse_move(m))
    # play on until some column holds three cards or more
    from canfield.solver.search import solve

    moves = solve(pos, nodes=200_000).moves
    for m in moves:
        if max(len(c) for c in pos.columns()) >= 3 and pos.waste():
            break
        pos = pos.apply(m)
    assert max(len(c) for c in pos.columns()) >= 3, "no long column reached"
    assert _got(pos.draw()) == _round(expected_boxes(pos))


def test_superior_reserve_is_drawn_face_up():
    pos = Position.from_deal(3, "superior")
    boxes = [b for b in pos.draw().boxes if b.where == "reserve"]
    assert len(boxes) == 13 and all(b.face_up for b in boxes)
    assert [b.card for b in boxes] == [card_str(c) for c in pos.reserve()]
    xs = [b.x for b in boxes]
    assert xs == sorted(xs) and len(set(xs)) == 13  # fanned, bottom card first


@pytest.mark.parametrize("preset", [p for p in PRESETS if p != "selective"])
def test_every_preset_draws(preset):
    pos = Position.from_deal(7, preset)
    d = pos.draw()
    shown = {b.card for b in d.boxes if b.face_up}
    for col in pos.columns():
        assert card_str(col[-1]) in shown


def test_layout_follows_the_table_not_four_of_each():
    """Five columns and eight foundations (as a two-pack game would have) draw in place."""
    snap = {
        "base": 0,
        "foundations": [1, 0, 0, 0, 1, 0, 0, 0],
        "reserve": [5, 6],
        "columns": [[13], [14], [15], [16], [17]],
        "stock": [20],
        "waste": [21],
        "redeals": 0,
    }
    d = draw.draw_table(table_of(snap))
    found = sorted((b.where, b.x) for b in d.boxes if b.where.startswith("F"))
    assert found == [("F1", LEFT), ("F5", LEFT + 4 * STEP)]
    cols = sorted(b.x for b in d.boxes if b.where.startswith("T"))
    assert cols == pytest.approx([LEFT + i * STEP for i in range(5)])


def test_deal_png_and_svg(tmp_path):
    png, svg = tmp_path / "d.png", tmp_path / "d.svg"
    r = CliRunner().invoke(main, ["deal", "5", "--png", str(png), "--svg", str(svg)])
    assert r.exit_code == 0, r.output
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert b"<svg" in svg.read_bytes()[:2000]
    r = CliRunner().invoke(main, ["deal", "5", "--png", str(tmp_path)])
    assert r.exit_code == 2 and r.stderr.startswith("error: cannot write to --png")


def test_a_notebook_shows_the_drawing_as_png():
    png = Position.from_deal(5).draw()._repr_png_()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
