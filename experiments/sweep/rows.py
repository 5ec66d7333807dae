"""The rows of a sweep: one (deal, profile) solved by the solver or played by a
blind player, as a dict with the columns of :mod:`.schema`.

Every row is a pure function of (deal, profile, budgets, player) except its
timing fields (``seconds``, ``peak_table_bytes``) and, with a wall-clock
budget, a deal that finishes close to the budget. Node budgets are
deterministic: rows then never depend on the number of workers or on dask.

Players (``--player greedy|random|pimc``; the default ``solver`` is the
perfect-information solver). A player row is one game of
:func:`canfield.experiments.play.play_game`: ``result`` is ``won`` or ``lost``
(every game the player did not win), ``stop_reason`` keeps how the game ended
(``won``, ``blocked``, ``stalled``, ``max_moves``), ``moves`` counts the atomic
moves played, ``player_options`` holds the player's options (``k=16,nodes=2000``
for pimc). Each game is seeded from its deal number alone and pimc solves its
samples under a node budget only, so player rows are deterministic too.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Sequence

from canfield.engine.position import Position
from canfield.engine.profiles import parse_profile
from canfield.engine.version import __version__
from canfield.experiments.play import play_game
from canfield.experiments.players import GreedyPlayer, PimcPlayer, Player, RandomPlayer
from canfield.experiments.sweep.errors import SolveFailed
from canfield.experiments.sweep.games import GAME_KEY
from canfield.experiments.sweep.spec import (
    DEFAULT_PIMC_K,
    DEFAULT_PIMC_NODES,
    DEFAULT_SOLVER_OPTIONS,
    SEARCHING_PLAYERS,
    default_solver_options,
    parse_options,
    parse_solver_options,
)
from canfield.solver.beam_run import beam_profile
from canfield.solver.search import solve_deal, warm_up


@functools.cache
def warm_up_once(strategy: str = "dfs", packs: int = 1, beam: bool = False) -> None:
    """Compile (or load) the kernels of the solver's ``strategy`` for games
    of ``packs`` packs (with ``beam``, the one-pack beam probe too) once per
    process, so that no row's ``seconds`` (nor its time budget) pays for it."""
    warm_up(strategy, packs, beam)


def warm_up_for(
    player: str, solver_options: str, packs: Iterable[int] = (1,), beam: bool = False
) -> None:
    """Compile what ``player`` runs on games of each of ``packs`` packs: the
    solver's kernels for the players that search (``SEARCHING_PLAYERS``),
    nothing for greedy and random; ``beam`` when a profile runs the beam
    probe (``solver.beam_run.beam_profile``; a solve warms it itself, before
    its clock, when this did not)."""
    if player in SEARCHING_PLAYERS:
        strategy = parse_solver_options(solver_options)["strategy"]
        for n in sorted(set(packs)):
            warm_up_once(strategy, n, beam)


def solve_row(
    deal: int,
    profile: str,
    budget_seconds: float | None,
    budget_nodes: int | None,
    memory: int,
    solver_options: str = DEFAULT_SOLVER_OPTIONS,
) -> dict:
    """Solve one (deal, profile) with the solver's ``solver_options`` (see
    :func:`.spec.solver_options`) and return its row (see :data:`.schema.COLUMNS`)."""
    seconds = math.inf if budget_seconds is None else budget_seconds
    options = parse_solver_options(solver_options)
    result = solve_deal(
        deal, profile, seconds=seconds, nodes=budget_nodes, memory=memory, **options
    )
    prof = parse_profile(profile)
    return {
        "deal": deal,
        "profile": prof.canonical(),
        "profile_full": prof.full(),
        "result": result.result,
        "banked": result.banked,
        "seconds": result.seconds,
        "nodes": result.nodes,
        "peak_table_bytes": result.peak_table_bytes,
        "base_rank": result.base_rank,
        "reserve_left": result.reserve_left,
        "solution_length": len(result.moves) if result.result == "won" else 0,
        "budget_seconds": budget_seconds,
        "budget_nodes": budget_nodes,
        "budget_memory": memory,
        "version": result.version,
        "pick": result.pick,
        "stop_reason": result.stop_reason,
        "player": "solver",
        "player_options": "",
        "moves": None,
        "cleared_reserve": result.reserve_left == 0,
        "solver_options": solver_options,
    }


def blind_player(
    name: str,
    *,
    k: int = DEFAULT_PIMC_K,
    nodes_per_sample: int | None = DEFAULT_PIMC_NODES,
    seconds_per_sample: float = math.inf,
    memory: int | None = None,
    seed: int = 0,
) -> Player:
    """A fresh blind player by name: ``greedy``, ``random`` or ``pimc``.

    Parameters
    ----------
    name : str
        The player.
    k, nodes_per_sample, seconds_per_sample, memory : optional
        PIMC's samples per decision and each sample's budgets. The defaults
        (a node budget and no clock) make its games deterministic.
    seed : int
        The random and pimc players' own seed (``play_game`` adds the game's).

    Raises
    ------
    ValueError
        If ``name`` is not a blind player.
    """
    if name == "greedy":
        return GreedyPlayer()
    if name == "random":
        return RandomPlayer(seed=seed)
    if name == "pimc":
        return PimcPlayer(
            k=k,
            seconds_per_sample=seconds_per_sample,
            nodes_per_sample=nodes_per_sample,
            memory=memory,
            seed=seed,
        )
    raise ValueError(f"unknown player {name!r} (one of greedy, random, pimc)")


def play_row(deal: int, profile: str, player: str, options: str, memory: int) -> dict:
    """Play one game of ``player`` on (deal, profile) and return its row.

    The game is seeded from the deal number alone (``play_game`` resets the
    player with it), so the row never depends on the batch or the worker.
    """
    prof = parse_profile(profile)
    pimc_options = parse_options(options)
    game = play_game(
        deal,
        profile,
        blind_player(
            player,
            k=pimc_options.get("k", DEFAULT_PIMC_K),
            nodes_per_sample=pimc_options.get("nodes", DEFAULT_PIMC_NODES),
            memory=memory or None,
        ),
        seed=0,
    )
    won = game.result == "won"
    return {
        "deal": deal,
        "profile": prof.canonical(),
        "profile_full": prof.full(),
        "result": "won" if won else "lost",
        "banked": game.banked,
        "seconds": game.seconds,
        "nodes": None,
        "peak_table_bytes": None,
        "base_rank": int(Position.from_deal(deal, prof).game.base),
        "reserve_left": game.reserve_left,
        "solution_length": len(game.moves) if won else 0,
        "budget_seconds": None,
        "budget_nodes": None,
        "budget_memory": memory or None,
        "version": __version__,
        "pick": None,
        "stop_reason": game.result,
        "player": player,
        "player_options": options,
        "moves": len(game.moves),
        "cleared_reserve": game.reserve_left == 0,
        "solver_options": default_solver_options(player),
        GAME_KEY: " ".join(game.moves),  # stored apart by .games.store_games
    }


def run_batch(
    profile: str,
    deals: Sequence[int],
    budget_seconds: float | None,
    budget_nodes: int | None,
    memory: int,
    player: str = "solver",
    player_options: str = "",
    solver_options: str = DEFAULT_SOLVER_OPTIONS,
) -> list[dict]:
    """Solve (or play) a batch of deals under one profile: the unit of work
    sent to workers.

    Raises
    ------
    SolveFailed
        If the solver or the player raised on a deal (named in the message).
    """
    prof = parse_profile(profile)
    warm_up_for(player, solver_options, (prof.packs,), beam_profile(prof))
    rows = []
    for deal in deals:
        try:
            if player == "solver":
                rows.append(
                    solve_row(
                        int(deal), profile, budget_seconds, budget_nodes, memory, solver_options
                    )
                )
            else:
                rows.append(play_row(int(deal), profile, player, player_options, memory))
        except Exception as exc:
            raise SolveFailed(
                f"deal {deal} profile {profile}: {type(exc).__name__}: {exc}"
            ) from exc
    return rows
