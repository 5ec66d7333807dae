"""The self-contained HTML step-through of a line of moves.

One file, no network and no external assets: the cards are drawn with CSS,
the frames (every table computed by the engine, see :mod:`.frames`) are
written into the file as JSON, and the JavaScript only renders a frame and
handles the buttons, the arrow keys, the slider and the reveal switch. It
holds no rule of the game.

The DOM names what is on the table, for tests and for people: every card is
an element with ``data-card="7H"`` (``data-down`` when face down), inside
``#reserve``, ``#waste``, ``#foundations`` (one ``.pile`` per foundation,
``data-top``), ``#columns`` (one ``.column`` per column) and ``#stock``
(``data-count``); ``#step`` holds ``data-step``.
"""

from __future__ import annotations

import html
import json
import os
from pathlib import Path

from canfield.engine.notation import Move
from canfield.engine.position import Position
from canfield.experiments.view.frames import Frame, frames

_CSS = """
body{font-family:system-ui,sans-serif;background:#0b5d2a;color:#f4f4f4;margin:0;padding:12px}
h1{font-size:18px;margin:0 0 8px}
#table{display:grid;grid-template-columns:auto 1fr;gap:14px;align-items:start}
.row{display:flex;gap:10px;align-items:flex-start;flex-wrap:wrap}
.pile{min-width:58px;min-height:80px;border:1px dashed #9c9;border-radius:6px;position:relative}
.label{font-size:11px;color:#cfc;margin-top:2px}
.card{width:54px;height:76px;border-radius:6px;background:#fff;color:#111;border:1px solid #333;
 box-sizing:border-box;font-weight:bold;font-size:17px;padding:3px 4px;position:relative}
.card.red{color:#c00}
.card .s{position:absolute;right:4px;bottom:2px;font-size:24px}
.card.down{background:repeating-linear-gradient(45deg,#234 0 6px,#457 6px 12px);color:transparent}
.card.down.peek{background:repeating-linear-gradient(45deg,#bcd 0 6px,#dde 6px 12px);color:#335}
.column{display:flex;flex-direction:column;min-width:58px;min-height:80px;
 border:1px dashed #9c9;border-radius:6px}
.column .card:not(:first-child){margin-top:-52px}
.fan{display:flex}
.fan .card:not(:first-child){margin-left:-36px}
#reserve .fan .card:not(:first-child){margin-left:-46px}
#controls{margin:12px 0;display:flex;gap:8px;align-items:center;flex-wrap:wrap}
#slider{width:min(720px,90vw)}
#strip{display:flex;height:10px;width:min(720px,90vw);margin:2px 0 8px}
#strip span{flex:1}
.won{background:#3c3}.lost{background:#d33}.unknown{background:#999}.none{background:transparent}
#move{font-size:16px;min-height:22px}
#fate{font-size:14px;color:#ffd}
button{font-size:15px}
"""

_JS = r"""
const D = JSON.parse(document.getElementById('data').textContent);
const F = D.frames;
let at = 0;
const SUIT = {C: '\u2663', D: '\u2666', H: '\u2665', S: '\u2660'};
function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}
function card(c, down) {
  const e = el('div', 'card');
  e.dataset.card = c;
  const rank = c[0] === 'T' ? '10' : c[0];
  if (c[1] === 'H' || c[1] === 'D') e.classList.add('red');
  e.append(rank, el('span', 's', SUIT[c[1]]));
  if (down) {
    e.classList.add('down');
    e.dataset.down = '1';
    if (document.getElementById('reveal').checked) e.classList.add('peek');
  }
  return e;
}
function pile(id, label) {
  const box = el('div');
  const p = el('div', 'pile');
  p.id = id;
  box.append(p, el('div', 'label', label));
  return [box, p];
}
function render() {
  const f = F[at], t = f.table;
  const tb = document.getElementById('table');
  tb.replaceChildren();
  const left = el('div'), right = el('div');
  // reserve: face-down cards below the face-up top (the whole reserve face up in superior)
  const [rb, r] = pile('reserve', 'reserve (' + t.reserve.length + ')');
  const fan = el('div', 'fan');
  const up = t.reserve.length - t.reserve_face_up;
  t.reserve.forEach((c, i) => fan.append(card(c, i < up)));
  r.append(fan);
  const [sb, s] = pile('stock', 'stock (' + t.stock.length + ')');
  s.dataset.count = t.stock.length;
  if (t.stock.length) s.append(card(t.stock[0], true));
  const [wb, w] = pile('waste', 'waste (' + t.waste.length + ')');
  const wf = el('div', 'fan');
  t.waste.slice(-3).forEach(c => wf.append(card(c, false)));
  w.append(wf);
  const top = el('div', 'row');
  top.append(rb, sb, wb);
  left.append(top);
  const fd = el('div', 'row');
  fd.id = 'foundations';
  t.foundations.forEach((x, i) => {
    const [b, p] = pile('foundation-' + i, x.suit + ' ' + x.count);
    p.dataset.suit = x.suit;
    p.dataset.count = x.count;
    if (x.top) { p.dataset.top = x.top; p.append(card(x.top, false)); }
    fd.append(b);
  });
  const cols = el('div', 'row');
  cols.id = 'columns';
  t.columns.forEach((col, i) => {
    const c = el('div', 'column');
    c.id = 'column-' + i;
    col.forEach(x => c.append(card(x, false)));
    const b = el('div');
    b.append(c, el('div', 'label', 'column ' + (i + 1)));
    cols.append(b);
  });
  right.append(fd, cols);
  tb.append(left, right);
  const st = document.getElementById('step');
  st.dataset.step = at;
  st.textContent = 'step ' + at + ' of ' + (F.length - 1) + ' \u00b7 move ' + f.moves +
    ' of ' + D.moves + ' \u00b7 base ' + 'A23456789TJQK'[t.base] +
    ' \u00b7 banked ' + t.banked + '/' + t.cards + ' \u00b7 ' + t.status +
    (t.passes ? ' \u00b7 pass ' + (t.redeals + 1) + ' of ' + t.passes : '');
  document.getElementById('move').textContent =
    f.kind === 'start' ? 'the deal' : (f.kind === 'fill' ? 'automatic fill: ' : f.moves + '. ' +
    f.notation + ': ') + (f.kind === 'start' ? '' : f.words);
  document.getElementById('slider').value = at;
  const fate = D.fates ? D.fates[f.moves] : null;
  document.getElementById('fate').textContent = fate ? fate.text : '';
}
function go(i) { at = Math.max(0, Math.min(F.length - 1, i)); render(); }
document.getElementById('back').onclick = () => go(at - 1);
document.getElementById('fwd').onclick = () => go(at + 1);
document.getElementById('first').onclick = () => go(0);
document.getElementById('last').onclick = () => go(F.length - 1);
document.getElementById('reveal').onchange = render;
const sl = document.getElementById('slider');
sl.max = F.length - 1;
sl.oninput = () => go(parseInt(sl.value, 10));
document.addEventListener('keydown', e => {
  if (e.key === 'ArrowRight') { go(at + 1); e.preventDefault(); }
  else if (e.key === 'ArrowLeft') { go(at - 1); e.preventDefault(); }
  else if (e.key === 'Home') go(0);
  else if (e.key === 'End') go(F.length - 1);
});
if (D.fates) {
  const strip = document.getElementById('strip');
  F.forEach(f => {
    const x = D.fates[f.moves];
    const s = el('span', x ? x.result : 'none');
    s.title = x ? x.text : '';
    strip.append(s);
  });
}
render();
"""

_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>{title}</title>
<style>{css}</style></head>
<body>
<h1>{title}</h1>
<div id="controls">
<button id="first" title="first (Home)">|&#x25C0;</button>
<button id="back" title="back (left arrow)">&#x25C0;</button>
<button id="fwd" title="forward (right arrow)">&#x25B6;</button>
<button id="last" title="last (End)">&#x25B6;|</button>
<label><input type="checkbox" id="reveal"> reveal face-down reserve cards</label>
</div>
<input type="range" id="slider" min="0" max="0" value="0" aria-label="step">
<div id="strip"></div>
<p id="turn" class="label">{summary}</p>
<div id="step"></div>
<div id="move"></div>
<div id="fate"></div>
<div id="table"></div>
<script id="data" type="application/json">{data}</script>
<script>{js}</script>
</body></html>
"""


def page(
    title: str, steps: list[Frame], moves: int, fates: list[dict] | None = None, summary: str = ""
) -> str:
    """The HTML text of the view.

    Parameters
    ----------
    title : str
        The heading (deal, profile).
    steps : list of Frame
        From :func:`.frames.frames`.
    moves : int
        Moves in the line.
    fates : list of dict, optional
        Per count of moves played (0 .. ``moves``): ``{"result": won|lost|unknown,
        "text": ...}``, drawn as the strip along the slider (see :mod:`.fate`).
    summary : str
        A line under the table (e.g. where the fate changed).
    """
    data = {"frames": [f.to_json() for f in steps], "moves": moves, "fates": fates}
    # '</' would end the script element early
    text = json.dumps(data, separators=(",", ":")).replace("</", "<\\/")
    return _PAGE.format(
        title=html.escape(title),
        css=_CSS,
        js=_JS,
        data=text,
        summary=html.escape(summary),
    )


def view_page(
    start: Position,
    moves: list[Move],
    title: str,
    fates: list[dict] | None = None,
    summary: str = "",
) -> str:
    """The view of ``moves`` played from ``start``: frames computed, page made."""
    return page(title, frames(start, moves), len(moves), fates, summary)


def write(path: str | os.PathLike, text: str) -> Path:
    """Write the page ``text`` to ``path``."""
    out = Path(path)
    out.write_text(text, encoding="utf-8")
    return out
