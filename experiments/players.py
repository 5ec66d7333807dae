"""Players who cannot see the reserve: they choose moves from an Observation.

Every player implements the :class:`Player` protocol: a ``name`` and
``choose(obs) -> Move``. A player sees only an :class:`engine.observation.
Observation` (the information barrier); optional hooks used by
:func:`experiments.play.play_game`:

- ``reset(seed)``: called once before each game (players keep per-game memory:
  their own last move, how long they have only drawn);
- ``last_trace``: a dict describing the last decision, copied into the record;
- ``reveal``/``peek(position)``: test-only, :class:`PimcPlayer` with
  ``reveal=True`` is handed the true position before each decision.

Players:

- :class:`RandomPlayer`: a uniform legal move, preferring card moves to
  draws, and never drawing round and round while a card move exists;
- :class:`GreedyPlayer`: the rules of thumb of seeds 001 and 003, each a small
  named scoring function; the legal move with the highest total wins;
- :class:`PimcPlayer`: perfect-information Monte Carlo. Sample positions
  consistent with the observation, solve each with the solver, vote.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from canfield.engine.notation import Move
from canfield.engine.observation import Observation
from canfield.engine.position import Position
from canfield.engine.profiles import parse_profile
from canfield.solver.search import solve

#: PIMC samples of the hidden reserve per decision (the sweep's default too).
DEFAULT_PIMC_K = 16


@runtime_checkable
class Player(Protocol):
    name: str

    def choose(self, obs: Observation) -> Move: ...


# ---- shared helpers ---------------------------------------------------------------
def cycle_length(obs: Observation) -> int:
    """Stock moves needed to go once round the stock and waste (plus a redeal)."""
    draw = parse_profile(obs.profile).draw
    cards = obs.stock_count + len(obs.waste)
    return -(-cards // draw) + 1


def moved_card(obs: Observation, move: Move) -> int | None:
    """The bottom card of what ``move`` carries (the card that must build)."""
    if move.is_stock:
        return None
    if move.src.startswith("T"):
        col = obs.columns[int(move.src[1:]) - 1]
        return col[-move.count]
    if move.src.startswith("F"):
        su = "CDHS".index(move.src[1])
        n = obs.foundations[su]
        return su * 13 + (obs.base + n - 1) % 13
    return obs.top(move.src)


def empties_column(obs: Observation, move: Move) -> bool:
    """A column move that lifts the whole column."""
    if not move.src.startswith("T"):
        return False
    return move.count == len(obs.columns[int(move.src[1:]) - 1])


def is_reverse(move: Move, previous: Move | None) -> bool:
    """``move`` carries the same cards straight back (T1>T2 then T2>T1)."""
    return (
        previous is not None
        and previous.src.startswith("T")
        and previous.dst.startswith("T")
        and move.src == previous.dst
        and move.dst == previous.src
        and move.count == previous.count
    )


class _StockCounter:
    """How many stock moves in a row a player has made this game."""

    def __init__(self) -> None:
        self.run = 0
        self.previous: Move | None = None

    def record(self, move: Move) -> None:
        self.run = self.run + 1 if move.is_stock else 0
        if not move.is_stock:
            self.previous = move


# ---- random ------------------------------------------------------------------------------
class RandomPlayer:
    """A uniform legal move; card moves preferred with probability ``p_card``.

    Draw-loop guard: once it has made a full cycle of stock moves in a row, it
    plays a card move if one exists.
    """

    def __init__(self, seed: int = 0, p_card: float = 0.75) -> None:
        self.name = "random"
        self.seed = seed
        self.p_card = p_card
        self.reset(0)

    def reset(self, seed: int) -> None:
        self.rng = random.Random(f"random/{self.seed}/{seed}")
        self.counter = _StockCounter()
        self.last_trace: dict = {}

    def choose(self, obs: Observation) -> Move:
        legal = obs.legal_moves()
        cards = [m for m in legal if not m.is_stock]
        stuck = self.counter.run >= cycle_length(obs)
        if cards and (stuck or self.rng.random() < self.p_card):
            move = self.rng.choice(cards)
        else:
            move = self.rng.choice(legal)
        self.counter.record(move)
        self.last_trace = {"legal": len(legal)}
        return move


# ---- greedy: the rules of thumb ------------------------------------------------------
@dataclass
class Context:
    """What a preference may look at besides the observation and the move."""

    previous: Move | None  # the player's own last card move
    stuck: bool  # a full cycle of draws went by without a card move
    reserve_moves_before: int
    after: Position | None  # the move played on a sampled position (None for stock moves)


Preference = Callable[[Observation, Move, Context], float]


def reserve_first(obs: Observation, move: Move, ctx: Context) -> float:
    """Seed 001: 'Work on the reserve above all'; a reserve card beats a waste card."""
    return 100.0 if move.src == "R" else 0.0


def column_emptied(obs: Observation, move: Move, ctx: Context) -> float:
    """Seed 001: 'Empty columns are reserve moves': emptying one pulls the next reserve card."""
    if obs.reserve_count and empties_column(obs, move):
        return 80.0
    return 0.0


def foundation(obs: Observation, move: Move, ctx: Context) -> float:
    """Bank what can be banked (worry moves back down are left alone)."""
    if move.dst == "F":
        return 50.0
    if move.src.startswith("F"):
        return -60.0
    return 0.0


def enables_reserve(obs: Observation, move: Move, ctx: Context) -> float:
    """Seed 001: 'Join columns together ... so that a column empties and pulls the
    next reserve card out', or so that the reserve top finds a place."""
    if ctx.after is None or move.src == "R" or empties_column(obs, move):
        return 0.0
    after = [m for m in ctx.after.legal_moves() if m.src == "R"]
    return 40.0 if len(after) > ctx.reserve_moves_before else 0.0


def exposes_foundation_card(obs: Observation, move: Move, ctx: Context) -> float:
    """Taking a column's top card off uncovers a card that goes to a foundation."""
    if not move.src.startswith("T") or empties_column(obs, move):
        return 0.0
    col = obs.columns[int(move.src[1:]) - 1]
    return 30.0 if obs.goes_to_foundation(col[-move.count - 1]) else 0.0


def last_rank_kept_back(obs: Observation, move: Move, ctx: Context) -> float:
    """Seed 001: 'Know which rank goes last': the rank below the base is banked only
    at the very end, so don't bury columns under it (unless that empties a column)."""
    card = moved_card(obs, move)
    if card is None or move.dst == "F" or empties_column(obs, move):
        return 0.0
    return -30.0 if obs.is_last_rank(card) else 0.0


def waste_sparingly(obs: Observation, move: Move, ctx: Context) -> float:
    """Seed 003: every card taken off the waste shifts the rest on the next pass.

    So a waste card goes to a column only when nothing better is on: it scores
    below every other useful card move. It still scores just above a draw:
    scoring it below a draw (-10, played only after a fruitless full cycle)
    measured worse, 10.67 against 12.26 mean banked on strict deals 100-199.
    """
    return 1.0 if move.src == "W" and move.dst != "F" else 0.0


def no_shuffle(obs: Observation, move: Move, ctx: Context) -> float:
    """Column-to-column moves that neither empty a column nor help are shuffles;
    one that undoes the previous move is worst."""
    if not (move.src.startswith("T") and move.dst.startswith("T")):
        return 0.0
    if is_reverse(move, ctx.previous):
        return -200.0
    return 0.0 if empties_column(obs, move) else -5.0


def draw_when_stuck(obs: Observation, move: Move, ctx: Context) -> float:
    """Drawing costs nothing until a whole cycle has gone by; after that, any
    reasonable card move beats another pass."""
    if not move.is_stock:
        return 0.0
    return -60.0 if ctx.stuck else 0.0


PREFERENCES: tuple[Preference, ...] = (
    reserve_first,
    column_emptied,
    foundation,
    enables_reserve,
    exposes_foundation_card,
    last_rank_kept_back,
    waste_sparingly,
    no_shuffle,
    draw_when_stuck,
)


class GreedyPlayer:
    """The highest summed preference score; ties go to the earlier legal move.

    Stock moves score 0 from every preference but :func:`draw_when_stuck`, so a
    card move is played only when the rules of thumb like it better than
    drawing. Deterministic.
    """

    def __init__(self, preferences: tuple[Preference, ...] = PREFERENCES, seed: int = 0) -> None:
        self.name = "greedy"
        self.preferences = preferences
        self.seed = seed
        self.reset(0)

    def reset(self, seed: int) -> None:
        self.rng = random.Random(f"greedy/{self.seed}/{seed}")
        self.counter = _StockCounter()
        self.last_trace: dict = {}

    def scores(self, obs: Observation, rng: random.Random | None = None) -> dict[Move, dict]:
        """Each legal move's score from each preference (by function name)."""
        legal = obs.legal_moves()
        sample = obs.sample(rng or self.rng) if any(not m.is_stock for m in legal) else None
        ctx_base = dict(
            previous=self.counter.previous,
            stuck=self.counter.run >= cycle_length(obs),
            reserve_moves_before=sum(1 for m in legal if m.src == "R"),
        )
        out: dict[Move, dict] = {}
        for m in legal:
            after = sample.apply(m) if sample is not None and not m.is_stock else None
            ctx = Context(after=after, **ctx_base)
            out[m] = {f.__name__: f(obs, m, ctx) for f in self.preferences}
        return out

    def choose(self, obs: Observation) -> Move:
        scored = self.scores(obs)
        totals = {m: sum(s.values()) for m, s in scored.items()}
        move = max(totals, key=lambda m: totals[m])  # first maximum: legal order
        self.counter.record(move)
        self.last_trace = {
            "score": totals[move],
            "why": {k: v for k, v in scored[move].items() if v},
        }
        return move


# ---- perfect-information Monte Carlo -------------------------------------------------
class PimcPlayer:
    """Perfect-information Monte Carlo.

    At each decision with a real choice (at least one card move), sample ``k``
    positions consistent with the observation, solve each under a small budget
    (``seconds_per_sample``, optionally ``nodes_per_sample`` for reproducible
    runs; ``memory`` caps each sample's table), and vote for the first atomic
    move of each won sample's solution (a solution that starts by drawing votes
    ``draw``). With no won sample, play
    the first move of the best line with the highest mean banked; if no sample
    found any progress, ask the greedy player. The trace records the votes.

    ``reveal=True`` (tests only): the runner hands the true position to
    :meth:`peek` and that single position is solved instead of samples: the
    player then plays with full information, like the solver.
    """

    def __init__(
        self,
        k: int = DEFAULT_PIMC_K,
        seconds_per_sample: float = 0.05,
        seed: int = 0,
        nodes_per_sample: int | None = None,
        reveal: bool = False,
        memory: int | None = None,
    ) -> None:
        self.name = "pimc-reveal" if reveal else f"pimc{k}"
        self.k = k
        self.seconds = seconds_per_sample
        self.nodes = nodes_per_sample
        self.memory = memory
        self.seed = seed
        self.reveal = reveal
        self._true: Position | None = None
        self.greedy = GreedyPlayer()
        self.reset(0)

    def reset(self, seed: int) -> None:
        self.rng = random.Random(f"pimc/{self.seed}/{seed}")
        self.greedy.reset(seed)
        self.last_trace: dict = {}
        self._true = None

    def peek(self, position: Position) -> None:
        """Test-only: the true position (used only when ``reveal`` is set)."""
        if not self.reveal:
            raise RuntimeError("peek is only for a PimcPlayer built with reveal=True")
        self._true = position

    def _samples(self, obs: Observation) -> list[Position]:
        if self.reveal:
            if self._true is None:
                raise RuntimeError("reveal=True but the runner gave no position")
            return [self._true]
        return [obs.sample(self.rng) for _ in range(self.k)]

    def choose(self, obs: Observation) -> Move:
        legal = obs.legal_moves()
        if all(m.is_stock for m in legal):
            move = legal[0]
            self.greedy.counter.record(move)
            self.last_trace = {"how": "forced"}
            return move
        by_text = {str(m): m for m in legal}
        votes: Counter[str] = Counter()
        banked: dict[str, list[int]] = defaultdict(list)
        targets: Counter[str] = Counter()
        samples = self._samples(obs)
        for pos in samples:
            r = solve(pos, seconds=self.seconds, nodes=self.nodes, memory=self.memory)
            if r.result == "won" and r.moves:
                votes[r.moves[0]] += 1
                first_card = next((m for m in r.moves if m not in ("draw", "redeal")), None)
                if first_card:
                    targets[first_card] += 1
            elif r.best_line:
                banked[r.best_line[0]].append(r.banked)
        trace: dict = {"samples": len(samples), "won": sum(votes.values())}
        if votes:
            # most votes; ties go to the earlier legal move
            best = max(votes.values())
            text = next(t for t in by_text if votes.get(t) == best)
            trace.update(how="vote", votes=dict(votes), targets=dict(targets))
            move = by_text[text]
        elif banked:
            means = {t: sum(v) / len(v) for t, v in banked.items()}
            text = max(means, key=lambda t: (means[t], len(banked[t])))
            trace.update(how="banked", banked={t: round(v, 2) for t, v in means.items()})
            move = by_text[text]
        else:
            move = self.greedy.choose(obs)  # records the move in its own counter
            trace.update(how="greedy")
        if move not in legal:  # the solver only plays legal moves, so never
            raise RuntimeError(f"pimc chose {move}, not legal here")
        if trace["how"] != "greedy":
            self.greedy.counter.record(move)
        trace["move"] = str(move)
        self.last_trace = trace
        return move
