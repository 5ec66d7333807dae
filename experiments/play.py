"""Play a player through a deal, one atomic move at a time, and record it.

:func:`play_game` owns the true :class:`Position`; the player sees only
:func:`engine.observation.observe` of it and returns a move, which the runner
checks against the legal moves and applies with the engine.

A game ends with one of these results:

- ``won``: all 52 cards banked;
- ``blocked``: ``Position.status() == 'blocked'`` (docs/rules.md section 4: no
  sequence of draws and column moves reaches a move that banks a card or takes
  one from the reserve or the waste);
- ``stalled``: the same position (``Position.key()``, which includes the stock
  position) has come up more than ``max_repeats`` times. Without worry every
  card move but column-to-column is irreversible, so a repeat means the player
  drew round the whole stock without playing, or shuffled a card back and
  forth. A player who only draws while card moves exist would otherwise never
  stop: the cap ends it after ``max_repeats`` fruitless cycles;
- ``max_moves``: ``max_moves`` atomic moves were played.

Stock knowledge: with ``stock_known=True`` (default) the player knows the stock
order from the start (seed 003's free look pass, possible under unlimited
passes). With ``stock_known=False`` the not-yet-turned stock is hidden until
the stock has been emptied once; from then on every card of it has been seen.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import asdict, dataclass, field

from canfield.engine.notation import Move
from canfield.engine.observation import observe
from canfield.engine.position import Position
from canfield.engine.profiles import Profile, parse_profile


def player_refusal(profile: str | Profile) -> str | None:
    """Why the players cannot play ``profile``, or None if they can.

    One rule for every command that plays games (``sweep --player``, ``bench
    players``, ``bench view``), checked before the first game: a selective deal
    is no position until its base card is picked, which no player does, and
    the observation a player sees counts the unseen cards as a set of
    distinct cards, which two packs are not.
    """
    prof = parse_profile(profile)
    if prof.layout == "selective":
        return "the blind players do not pick a base card yet (selective)"
    if prof.packs == 2:
        return "the blind players do not play two packs (double) yet"
    return None


class IllegalPlayerMove(RuntimeError):
    """A player returned a move that is not legal in the observed position."""


@dataclass
class GameRecord:
    deal: int
    profile: str
    player: str
    result: str  # won, blocked, stalled, max_moves
    banked: int
    reserve_left: int
    moves: list[str]
    trace: list[dict] = field(default_factory=list)
    seconds: float = 0.0
    stock_known: bool = True

    @property
    def won(self) -> bool:
        return self.result == "won"

    def row(self) -> dict:
        """A flat dict for CSV tables (no moves, no trace)."""
        d = asdict(self)
        d.pop("trace")
        d["moves"] = len(self.moves)
        d["seconds"] = round(self.seconds, 4)
        return d


def play_game(
    deal: int,
    profile: str = "strict",
    player=None,
    max_moves: int = 2000,
    seed: int = 0,
    stock_known: bool = True,
    max_repeats: int = 3,
) -> GameRecord:
    """Play ``player`` through ``deal`` under ``profile`` (see module doc).

    ``seed`` goes to ``player.reset`` so that a player's randomness depends on
    (its own seed, this seed); the deal itself is fixed by its number.
    """
    if player is None:
        raise ValueError("play_game needs a player")
    prof = parse_profile(profile)
    refusal = player_refusal(prof)
    if refusal is not None:
        raise ValueError(refusal)
    t0 = time.perf_counter()
    if hasattr(player, "reset"):
        player.reset(seed * 1_000_003 + deal)
    pos = Position.from_deal(deal, prof)
    seen: Counter[tuple[int, ...]] = Counter()
    moves: list[str] = []
    trace: list[dict] = []
    known = stock_known
    while True:
        status = pos.status()
        if status != "playing":
            result = status
            break
        if len(moves) >= max_moves:
            result = "max_moves"
            break
        key = pos.key()
        seen[key] += 1
        if seen[key] > max_repeats:
            result = "stalled"
            break
        obs = observe(pos, stock_known=known)
        if getattr(player, "reveal", False):
            player.peek(pos)
        move = player.choose(obs)
        if not isinstance(move, Move) or move not in obs.moves:
            raise IllegalPlayerMove(f"{player.name} chose {move} on deal {deal}, not legal")
        pos = pos.apply(move)
        moves.append(str(move))
        entry = {"move": str(move), "banked": pos.banked}
        entry.update(getattr(player, "last_trace", None) or {})
        trace.append(entry)
        if not known and not pos.stock():
            known = True
    return GameRecord(
        deal=deal,
        profile=prof.canonical(),
        player=player.name,
        result=result,
        banked=pos.banked,
        reserve_left=len(pos.reserve()),
        moves=moves,
        trace=trace,
        seconds=time.perf_counter() - t0,
        stock_known=stock_known,
    )
