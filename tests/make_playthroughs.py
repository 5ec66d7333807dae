"""Golden playthroughs: one seeded playout per preset profile, written as text.

``python tests/make_playthroughs.py`` (from the repository root) rewrites
``tests/playthroughs/<preset>.txt``; ``tests/test_playthroughs.py`` builds each
trace again in memory and compares it with the file, so any change in what the
engine deals, allows or does shows up as a diff of a readable game.

Each step prints the position in the documented text form (``docs/formats.md``,
so a block can be pasted into a position file), the sorted legal moves and the
move played; the trace ends with the final position, its status and how many
moves of each kind were played. The player is seeded and prefers a legal move
of a kind the trace has not shown yet, so a short game covers every rule the
profile allows; after that it prefers moves to unseen positions over stock
moves, so it does not just turn the stock round.
"""

from __future__ import annotations

import random
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

if __name__ == "__main__":
    # Run as a script, put this checkout first so it traces its own engine.
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from canfield.engine.cards import parse_card
from canfield.engine.formats import position_to_text
from canfield.engine.notation import Move
from canfield.engine.position import Position
from canfield.engine.profiles import PRESETS, Profile

GOLDEN_DIR = Path(__file__).resolve().parent / "playthroughs"
REGENERATE = "python tests/make_playthroughs.py"
MAX_MOVES = 100


@dataclass(frozen=True)
class Setup:
    """The fixed deal, player seed and (selective only) base pick of one trace."""

    deal: int
    seed: int
    pick: str | None = None


# Deals chosen so that MAX_MOVES moves show every kind the preset allows.
SETUPS: dict[str, Setup] = {
    "strict": Setup(2, 1),
    "hevagames": Setup(11, 1),
    "cardgames": Setup(25, 1),
    "cardgames-draw1": Setup(31, 2),
    "solvitaire": Setup(41, 2),
    "storehouse": Setup(53, 2),
    "rainbow": Setup(61, 1),
    "selective": Setup(71, 1, pick="6C"),
    "superior": Setup(81, 3),
    "double": Setup(91, 1),
}

AUTO_FILL = "reserve fills an empty column (auto)"


def move_kinds(before: Position, move: Move, after: Position) -> list[str]:
    """The kinds of rule one move exercises (a move can show several)."""
    if move.is_stock:
        return [move.src]
    kinds = []
    if move.src.startswith("F"):
        kinds.append("foundation to column (worry)")
    else:
        where = {"R": "reserve", "W": "waste"}.get(move.src, "column")
        target = "foundation" if move.dst == "F" else "column"
        kinds.append(f"{where} to {target}")
    if move.src.startswith("T") and move.dst.startswith("T"):
        length = len(before.columns()[int(move.src[1:]) - 1])
        if move.count > 1:
            kinds.append("run to column")
        if 1 < move.count < length:
            kinds.append("part of a run to column")
    if move.dst.startswith("T") and not before.columns()[int(move.dst[1:]) - 1]:
        kinds.append("to an empty column")
    played_from_reserve = 1 if move.src == "R" else 0
    if len(after.reserve()) < len(before.reserve()) - played_from_reserve:
        kinds.append(AUTO_FILL)
    return kinds


def expected_kinds(profile: Profile) -> set[str]:
    """Every kind of move ``profile`` allows, which a golden trace must show."""
    kinds = {
        "draw",
        "reserve to foundation",
        "waste to foundation",
        "column to foundation",
        "reserve to column",
        "waste to column",
        "column to column",
        "run to column",
    }
    if profile.passes != 1:
        kinds.add("redeal")
    if profile.moves == "any":
        kinds.add("part of a run to column")
    if profile.worry == "yes":
        kinds.add("foundation to column (worry)")
    if profile.fill == "auto":
        kinds.add(AUTO_FILL)
    else:
        kinds.add("to an empty column")
    return kinds


def _choose(
    pos: Position, moves: list[Move], rng: random.Random, shown: Counter, seen: set
) -> Move:
    outcomes = [(m, pos.apply(m)) for m in moves]
    fresh = [m for m, after in outcomes if not set(move_kinds(pos, m, after)) <= shown.keys()]
    if fresh:
        return rng.choice(fresh)
    new = [m for m, after in outcomes if not m.is_stock and after.key() not in seen]
    stock = [m for m in moves if m.is_stock]
    if new and (not stock or rng.random() < 0.75):
        return rng.choice(new)
    return rng.choice(stock or moves)


def start_position(preset: str) -> Position:
    """The dealt position a preset's trace starts from."""
    setup = SETUPS[preset]
    pick = parse_card(setup.pick) if setup.pick else None
    return Position.from_deal(setup.deal, preset, pick=pick)


def playthrough(preset: str) -> tuple[str, Counter]:
    """The golden text of ``preset``'s trace and the count of each move kind."""
    setup = SETUPS[preset]
    rng = random.Random(setup.seed)
    pos = start_position(preset)
    head = f"# Golden playthrough of {preset}: regenerate with `{REGENERATE}`"
    lines = [head, f"deal {setup.deal}", f"seed {setup.seed}"]
    if setup.pick:
        lines.append(f"pick {setup.pick}")
    shown: Counter = Counter()
    seen = {pos.key()}
    for step in range(1, MAX_MOVES + 1):
        if pos.status() != "playing":
            break
        moves = sorted(pos.legal_moves(), key=str)
        move = _choose(pos, moves, rng, shown, seen)
        after = pos.apply(move)
        shown.update(move_kinds(pos, move, after))
        lines += ["", f"step {step}", position_to_text(pos).rstrip("\n")]
        lines.append("legal " + " ".join(str(m) for m in moves))
        lines.append(f"play {move}")
        pos = after
        seen.add(pos.key())
    lines += ["", "final", position_to_text(pos).rstrip("\n"), f"status {pos.status()}"]
    lines.append("kinds " + ", ".join(f"{k}: {n}" for k, n in sorted(shown.items())))
    return "\n".join(lines) + "\n", shown


def golden_path(preset: str) -> Path:
    return GOLDEN_DIR / f"{preset}.txt"


def main() -> None:
    GOLDEN_DIR.mkdir(exist_ok=True)
    for preset in PRESETS:
        text, shown = playthrough(preset)
        missing = expected_kinds(PRESETS[preset]) - shown.keys()
        golden_path(preset).write_text(text)
        note = f"  MISSING {sorted(missing)}" if missing else ""
        print(f"{golden_path(preset).name}: {len(text)} bytes{note}")


if __name__ == "__main__":
    main()
