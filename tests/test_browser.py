"""The HTML view in a real browser: headless Chromium, driven over the DevTools
protocol (a websocket; no browser download, no driver).

The test writes a view of the strict golden playthrough (fills included),
opens it from a ``file://`` URL, steps forward and back with the arrow keys,
reads from the DOM what is on the table at given steps and compares it with
the engine's position there, and takes a screenshot. Without Chromium it
skips, except in CI (``CI=true``), where ``.ci/run`` installs it and a missing
browser fails.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest
from make_playthroughs import start_position
from test_view import golden_moves

from canfield.engine.cards import card_str
from canfield.engine.position import Position
from canfield.experiments.view.frames import frames, positions, split_fill
from canfield.experiments.view.html import view_page, write

FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--remote-debugging-port=0",
    "--window-size=1200,900",
]
#: Seconds to wait for the browser to start and the page to load.
START_TIMEOUT = 20.0

READ_TABLE = """(() => {
  const cards = sel => [...document.querySelectorAll(sel)].map(e => e.dataset.card);
  return JSON.stringify({
    step: +document.getElementById('step').dataset.step,
    reserve: cards('#reserve .card'),
    reserve_down: [...document.querySelectorAll('#reserve .card')].map(e => !!e.dataset.down),
    stock: +document.getElementById('stock').dataset.count,
    waste: cards('#waste .card'),
    foundations: [...document.querySelectorAll('#foundations .pile')]
      .map(p => p.dataset.top || null),
    columns: [...document.querySelectorAll('#columns .column')]
      .map(c => [...c.querySelectorAll('.card')].map(e => e.dataset.card)),
    move: document.getElementById('move').textContent,
  });
})()"""


def chromium() -> str:
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if path is None:
        if os.environ.get("CI") == "true":
            pytest.fail("chromium is missing in CI: .ci/run must install it")
        pytest.skip("chromium is not installed (apt-get install chromium); CI installs it")
    return path


class DevTools:
    """A page of a headless Chromium, driven over its DevTools websocket."""

    def __init__(self, url: str, profile_dir: Path) -> None:
        websocket = pytest.importorskip("websocket", reason="pip install websocket-client")
        self.proc = subprocess.Popen(
            [chromium(), *FLAGS, f"--user-data-dir={profile_dir}", url],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        port_file = profile_dir / "DevToolsActivePort"
        deadline = time.monotonic() + START_TIMEOUT
        while not port_file.is_file() or not port_file.read_text().strip():
            if time.monotonic() > deadline or self.proc.poll() is not None:
                self.close()
                pytest.fail("chromium did not start its DevTools endpoint")
            time.sleep(0.1)
        port = int(port_file.read_text().split()[0])
        pages = []
        while not pages:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=5) as r:
                pages = [p for p in json.load(r) if p.get("type") == "page"]
            if not pages:
                time.sleep(0.1)
        self.ws = websocket.create_connection(
            pages[0]["webSocketDebuggerUrl"], timeout=10, suppress_origin=True
        )
        self.next_id = 0

    def call(self, method: str, **params) -> dict:
        self.next_id += 1
        self.ws.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            msg = json.loads(self.ws.recv())
            if msg.get("id") == self.next_id:
                if "error" in msg:
                    raise RuntimeError(f"{method}: {msg['error']}")
                return msg["result"]

    def evaluate(self, expression: str):
        return self.call("Runtime.evaluate", expression=expression, returnByValue=True)[
            "result"
        ].get("value")

    def key(self, key: str, code: int) -> None:
        for kind in ("keyDown", "keyUp"):
            self.call(
                "Input.dispatchKeyEvent", type=kind, key=key, code=key, windowsVirtualKeyCode=code
            )

    def close(self) -> None:
        if getattr(self, "ws", None) is not None:
            self.ws.close()
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def engine_view(pos: Position) -> dict:
    """What the DOM must show for ``pos``: the same fields as READ_TABLE."""
    res = pos.reserve()
    up = len(res) if pos.profile.reserve_visible else min(1, len(res))
    tops = []
    for su, n in enumerate(pos.foundations()):
        tops.append(card_str(su * 13 + (pos.game.base + n - 1) % 13) if n else None)
    return {
        "reserve": [card_str(c) for c in res],
        "reserve_down": [i < len(res) - up for i in range(len(res))],
        "stock": len(pos.stock()),
        "waste": [card_str(c) for c in pos.waste()[-3:]],
        "foundations": tops,
        "columns": [[card_str(c) for c in col] for col in pos.columns()],
    }


def test_view_in_chromium(tmp_path):
    chromium()
    start = start_position("strict")
    moves = golden_moves("strict")
    steps = frames(start, moves)
    line = positions(start, moves)
    # the engine's position at each step: a move's frame before its fill is the
    # engine's position less the fill (checked by auto_fill in split_fill)
    expected = []
    for i, f in enumerate(steps):
        nxt = steps[i + 1] if i + 1 < len(steps) else None
        if f.kind == "move" and nxt is not None and nxt.kind == "fill":
            n = f.moves_played
            expected.append(split_fill(line[n - 1], moves[n - 1], line[n])[0])
        else:
            expected.append(line[f.moves_played])
    fill_steps = [i for i, f in enumerate(steps) if f.kind == "fill"]
    assert fill_steps, "the playthrough shows no fill"
    page = tmp_path / "view.html"
    write(page, view_page(start, moves, "strict playthrough"))

    browser = DevTools(page.as_uri(), tmp_path / "profile")
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while browser.evaluate("document.getElementById('step')?.dataset.step") != "0":
            assert time.monotonic() < deadline, "the view did not render"
            time.sleep(0.1)

        def shown() -> dict:
            return json.loads(browser.evaluate(READ_TABLE))

        def check(step: int) -> None:
            got = shown()
            assert got["step"] == step
            want = engine_view(expected[step])
            assert {k: got[k] for k in want} == want, f"step {step}"

        check(0)
        targets = sorted({3, fill_steps[0] - 1, fill_steps[0], fill_steps[-1], len(steps) - 1})
        at = 0
        for target in targets:
            for _ in range(target - at):
                browser.key("ArrowRight", 39)
            at = target
            check(at)
        for _ in range(5):
            browser.key("ArrowLeft", 37)
        check(at - 5)
        assert (
            shown()["move"].startswith(f"{steps[at - 5].moves_played}.")
            or steps[at - 5].kind == "fill"
        )
        # stepping past the end stays on the last frame
        for _ in range(8):
            browser.key("ArrowRight", 39)
        check(len(steps) - 1)
        # the reveal switch shows the face-down reserve cards (drawn, not computed)
        down = "document.querySelectorAll('#reserve .card[data-down]').length"
        peek = "document.querySelectorAll('#reserve .card.peek').length"
        browser.key("Home", 36)
        check(0)
        assert browser.evaluate(down) == 12 and browser.evaluate(peek) == 0
        browser.evaluate("document.getElementById('reveal').click()")
        assert browser.evaluate(peek) == 12
        shot = tmp_path / "view.png"
        shot.write_bytes(base64.b64decode(browser.call("Page.captureScreenshot")["data"]))
        assert shot.stat().st_size > 0
    finally:
        browser.close()
