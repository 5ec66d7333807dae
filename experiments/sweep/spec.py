"""What a sweep runs: deals, profiles, player, budgets, as a :class:`SweepSpec`.

:func:`make_spec` reads the command line's strings into a spec; the run folder
stores it as ``run.json``, and a resumed sweep must bring the same one.
"""

from __future__ import annotations

import math
import numbers
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass
from typing import TypeVar

from canfield.engine.profiles import ProfileError, parse_profile
from canfield.engine.version import __version__
from canfield.experiments.play import player_refusal
from canfield.experiments.players import DEFAULT_PIMC_K
from canfield.experiments.sweep.errors import SweepError
from canfield.solver.budgets import bytes_of, seconds_of
from canfield.solver.config import DEFAULT_MEMORY, QUARTER_RAM
from canfield.solver.search import ONE_CORE_STRATEGIES, PRUNING_RULES, search_refusal
from canfield.solver.search import prune_mask as solver_prune_mask

#: ``--player`` values; ``solver`` plays with perfect information.
PLAYERS: tuple[str, ...] = ("solver", "greedy", "random", "pimc")
#: The players that run the solver (and so need its kernels compiled).
SEARCHING_PLAYERS: tuple[str, ...] = ("solver", "pimc")
#: PIMC's default node budget per sample (its samples per decision: players.DEFAULT_PIMC_K).
DEFAULT_PIMC_NODES = 2000
#: Default transposition-table memory per solve: ``solve``'s own default, fixed
#: (not derived from the worker count) because it can change a verdict.
DEFAULT_SWEEP_MEMORY: int = DEFAULT_MEMORY
#: Wall-clock budget per solve when the command line gives neither budget.
DEFAULT_BUDGET_SECONDS = 10.0
#: Deal numbers are 64-bit: the last deal is ``MAX_DEAL - 1``.
MAX_DEAL = 1 << 64
#: Most deals a comma-separated list may name (a list is held in memory).
MAX_LISTED_DEALS = 10_000_000


def parse_deals(text: str) -> range:
    """Read ``'A:B'`` (deals A..B-1) or ``'N'`` (deal N alone).

    Raises
    ------
    SweepError
        If the text is not a non-empty range of deal numbers in ``0..2**64-1``.
    """
    start_text, colon, stop_text = text.strip().partition(":")
    try:
        start = int(start_text)
        stop = int(stop_text) if colon else start + 1
    except ValueError:
        raise SweepError(f"cannot read a deal range from {text!r} (try 0:200)") from None
    if start < 0 or stop > MAX_DEAL or stop <= start:
        raise SweepError(
            f"bad deal range {text!r}: need 0 <= A < B <= 2**64 in A:B (B is excluded)"
        )
    return range(start, stop)


def parse_deal_list(text: str) -> Sequence[int]:
    """Read deals as :func:`parse_deals` does, or several such pieces joined
    by commas (``'0:10,35,64'``): those deals in the order given, each once.

    Raises
    ------
    SweepError
        If a piece is not a deal or a range of deals (see :func:`parse_deals`),
        or the pieces name more than ``MAX_LISTED_DEALS`` deals.
    """
    pieces = text.split(",")
    if len(pieces) == 1:
        return parse_deals(text)  # a range stays a range: it may be long
    ranges = []
    for piece in pieces:
        if not piece.strip():
            raise SweepError(f"cannot read deals from {text!r} (try 0:200 or 6,12,35)")
        ranges.append(parse_deals(piece))
    if sum(len(r) for r in ranges) > MAX_LISTED_DEALS:
        raise SweepError(f"{text!r} lists more than {MAX_LISTED_DEALS:,} deals: use one range A:B")
    return list(dict.fromkeys(d for r in ranges for d in r))


def split_profiles(texts: str | Iterable[str]) -> list[str]:
    """Split ``--profiles`` (one text or the texts of a repeated option) into profiles.

    ``;`` always separates profiles. A comma does too, except that a piece
    without ``:`` that contains ``=`` continues the previous profile's option
    list: ``'strict,hevagames:draw=1,worry=yes,cardgames'`` gives three
    profiles, as does ``'strict;hevagames:draw=1,worry=yes;cardgames'``.
    Returns canonical strings, duplicates removed, order kept.

    Raises
    ------
    SweepError
        If a profile is unknown or malformed, or none is given.
    """
    groups = [texts] if isinstance(texts, str) else list(texts)
    pieces: list[str] = []
    for group in groups:
        for text in group.split(";"):
            start = len(pieces)  # an option list never continues across ';'
            for raw in text.split(","):
                piece = raw.strip()
                if not piece:
                    continue
                if "=" in piece and ":" not in piece and len(pieces) > start:
                    sep = "," if pieces[-1].partition(":")[2] else ""
                    pieces[-1] += sep + piece
                else:
                    pieces.append(piece)
    if not pieces:
        raise SweepError("no profile given (try --profiles strict,hevagames)")
    canonical: list[str] = []
    for piece in pieces:
        try:
            name = parse_profile(piece).canonical()
        except ProfileError as exc:
            raise SweepError(str(exc)) from None
        if name not in canonical:
            canonical.append(name)
    return canonical


#: The smallest memory budget a solve accepts (``--memory``, ``memory=``):
#: every search's smallest table fits in it (the depth-first table at least
#: 1024 slots of 20-28 bytes, and each probe's slice at least 64 KiB, since
#: ``solver.budgets.slice_limits`` never gives less; the two-pack table at
#: least 4096 slots of 97 bytes; the layered search's first arrays a quarter
#: of the budget), so below it a solve would take more memory than it was
#: given, and say so only in ``peak_table_bytes``.
MIN_MEMORY = 1 << 20
#: :data:`MIN_MEMORY` as the option's help and the error messages write it.
MIN_MEMORY_TEXT = "1MiB"
#: The most a memory budget may be: a table of more than half of this
#: machine's RAM would swap.
MAX_MEMORY = 2 * QUARTER_RAM

_NODES_RE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([kKmMgG]?)\s*$")
_SCALE = {"": 1, "k": 10**3, "m": 10**6, "g": 10**9}


T = TypeVar("T")


def _is_number(value: object) -> bool:
    """Whether ``value`` is a real number (numpy's too), not a bool: True is an
    int to Python, but ``nodes=True`` is a mistake, not one node."""
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def _from_text(
    value: object, name: str | None, what: str, wanted: str, parse: Callable[[str], T]
) -> T | None:
    """What ``parse`` reads from ``value`` when it is text (its error prefixed
    by ``name``), or None when it is a number: the type check that
    :func:`read_seconds` and :func:`read_bytes` share.

    Raises
    ------
    TypeError
        If ``value`` is neither text nor a number (``wanted`` says what is).
    """
    if isinstance(value, str):
        try:
            return parse(value)
        except ValueError as exc:
            raise ValueError(f"{name}: {exc}" if name else str(exc)) from None
    if not _is_number(value):
        raise TypeError(f"{what} must be {wanted}; not {type(value).__name__} {value!r}")
    return None


def _whole(value: numbers.Real) -> int | None:
    """``value`` as an int when it is a whole number (``2e4``), else None
    (``1.5``, NaN, infinity)."""
    if isinstance(value, numbers.Integral):
        return int(value)
    number = float(value)
    return int(number) if number.is_integer() else None


def read_seconds(value: str | float, name: str | None = None) -> float:
    """Seconds of a time budget: the one check of ``--budget`` and ``budget=``.

    Parameters
    ----------
    value : str or float
        Text as the command line writes it, with its unit (``'10s'``,
        ``'500ms'``, ``'2m'``: a bare ``'10'`` might be a node count), or a
        number of seconds. ``inf`` (``'inf'``, ``float('inf')``) is no time
        budget.
    name : str, optional
        The argument's name in messages (``'budget'``); None for a message
        that names what it is (``'a time budget'``), as a click option's is
        prefixed with the option's name already.

    Returns
    -------
    float
        Seconds, positive; infinite for no time budget.

    Raises
    ------
    TypeError
        If ``value`` is neither text nor a number.
    ValueError
        If the text cannot be read or has no unit, or the budget is not a
        positive duration (zero, negative or NaN).
    """
    what = name or "a time budget"
    wanted = "a duration such as '10s' or '500ms', or a number of seconds"
    seconds = _from_text(value, name, what, wanted, seconds_of)
    if seconds is None:
        seconds = float(value)
    # NaN passes the parser (every comparison with it is false): it would run
    # as no budget at all, and be written to run.json as NaN, which is not JSON
    if not seconds > 0:
        raise ValueError(
            f"{what} must be a positive duration, got {value!r} (write it like 10s or 500ms)"
        )
    return seconds


def read_bytes(value: str | int, name: str | None = None) -> int:
    """Bytes of a memory budget: the one check of ``--memory`` and ``memory=``.

    Parameters
    ----------
    value : str or int
        Text as the command line writes it, with its unit (``'256MB'``,
        ``'2GB'``; binary: 1MB is 2**20 bytes), or a number of bytes (a float
        only when whole, such as ``1.5e8``).
    name : str, optional
        The argument's name in messages (``'memory'``); None for ``'a memory
        size'`` (see :func:`read_seconds`).

    Returns
    -------
    int
        Bytes, from :data:`MIN_MEMORY` to :data:`MAX_MEMORY`.

    Raises
    ------
    TypeError
        If ``value`` is neither text nor a number.
    ValueError
        If the text cannot be read or has no unit, the number is not whole,
        or the size is below :data:`MIN_MEMORY` (the smallest table every
        search keeps within) or above :data:`MAX_MEMORY`.
    """
    what = name or "a memory size"
    wanted = "a size such as '256MB' or '2GB', or a number of bytes"
    nbytes = _from_text(value, name, what, wanted, bytes_of)
    if nbytes is None:
        whole = _whole(value)
        if whole is None:
            raise ValueError(f"{what} must be a whole number of bytes, got {value!r}")
        nbytes = whole
    if nbytes < MIN_MEMORY:
        raise ValueError(
            f"{what} must be at least {MIN_MEMORY_TEXT} (the smallest table every search "
            f"keeps within), got {value!r}"
        )
    if nbytes > MAX_MEMORY:
        raise ValueError(
            f"{what} {value!r} is more than half of this machine's RAM; pick a smaller table"
        )
    return nbytes


def read_nodes(value: str | int, name: str | None = None) -> int:
    """A node budget: the one check of ``--nodes`` and ``nodes=``.

    Parameters
    ----------
    value : str or int
        A count of positions: a whole number (a float only when whole, such
        as ``2e4``), or text as the command line writes it, bare or with K, M
        or G (thousands, millions, billions): ``'50000'``, ``'20K'``, ``'1.5M'``.
    name : str, optional
        The argument's name in messages (``'nodes'``); None for ``'a node
        budget'`` (see :func:`read_seconds`).

    Returns
    -------
    int
        Positions, at least 1.

    Raises
    ------
    TypeError
        If ``value`` is neither text nor a number.
    ValueError
        If the text cannot be read, or the count is not a positive whole number.
    """
    what = name or "a node budget"
    if isinstance(value, str):
        match = _NODES_RE.match(value)
        if not match:
            raise ValueError(
                f"{name + ': ' if name else ''}cannot read a node budget from {value!r} "
                "(write it like 200K or 20M)"
            )
        number = float(match.group(1)) * _SCALE[match.group(2).lower()]
        nodes = int(number) if number.is_integer() else None
    elif _is_number(value):
        nodes = _whole(value)
    else:
        raise TypeError(
            f"{what} must be a whole number of positions, or text such as '20K'; "
            f"not {type(value).__name__} {value!r}"
        )
    if nodes is None or nodes <= 0:
        raise ValueError(f"{what} must be a positive whole number, got {value!r}")
    return nodes


def parse_nodes(text: str) -> int:
    """A node budget such as ``'50000'``, ``'20K'``, ``'1M'`` or ``'1.5M'``
    (:func:`read_nodes`).

    Raises
    ------
    SweepError
        If the text is not a positive whole number of nodes.
    """
    try:
        return read_nodes(text)
    except (TypeError, ValueError) as exc:
        raise SweepError(str(exc)) from None


def parse_budget(
    text: str | float | None, name: str = "--budget", unlimited: bool = False
) -> float | None:
    """A wall-clock budget such as ``'10s'`` or ``'500ms'`` (:func:`read_seconds`);
    ``None`` passes through.

    Parameters
    ----------
    text : str, float or None
        The budget: text with its unit, or seconds.
    name : str
        The option's name in messages.
    unlimited : bool
        Whether ``inf`` (no time budget) is allowed: it is then returned as
        None, as ``run.json`` and the rows record no time budget (JSON has no
        infinity). Otherwise it is refused, as a ladder rung or a sample must
        end.

    Raises
    ------
    SweepError
        If the text is not a positive duration, or is ``inf`` where a budget
        must be finite.
    """
    if text is None:
        return None
    try:
        seconds = read_seconds(text, name)
    except (TypeError, ValueError) as exc:
        raise SweepError(str(exc)) from None
    if math.isinf(seconds):
        if unlimited:
            return None
        raise SweepError(f"{name} must be a finite duration here, got {text!r} (e.g. 120s)")
    return seconds


def parse_memory(text: str | int, name: str = "--memory") -> int:
    """A table size such as ``'256MB'``, in bytes (:func:`read_bytes`).

    Raises
    ------
    SweepError
        If the text is not a memory size with its unit, or is below
        :data:`MIN_MEMORY` or above :data:`MAX_MEMORY`.
    """
    try:
        return read_bytes(text, name)
    except (TypeError, ValueError) as exc:
        raise SweepError(str(exc)) from None


#: What ``--prune``, ``--probes`` and ``--strategy`` mean when not given: the solver's defaults.
DEFAULT_SOLVER_OPTIONS = "prune=all,probes=on,strategy=dfs"


def solver_options(
    prune: str = "all", probes: bool = True, strategy: str = "dfs", turn: int = 0
) -> str:
    """The canonical ``solver_options`` string of a run and its rows.

    ``prune`` is ``all``, ``none`` or rule names (``'P1,E1'``), stored in the
    order of ``docs/solver.md`` joined by ``+``: ``prune=P1+E1,probes=off,strategy=dfs``.
    A turned order (``Solver(turn=...)``) adds ``,turn=T``; the usual order
    (0) adds nothing, so the strings of earlier rows stay what they were.

    Raises
    ------
    SweepError
        If a pruning rule or the strategy is unknown.
    """
    word = prune.strip().lower()
    try:
        mask = solver_prune_mask({"all": True, "none": False}.get(word, prune))
    except ValueError as exc:
        raise SweepError(str(exc)) from None
    if strategy not in ONE_CORE_STRATEGIES:
        raise SweepError(
            f"unknown strategy {strategy!r} for a sweep (one of {', '.join(ONE_CORE_STRATEGIES)}: "
            "a sweep runs one process a core)"
        )
    if mask == solver_prune_mask(True):
        rules = "all"
    elif mask == 0:
        rules = "none"
    else:
        rules = "+".join(n for n, bit in PRUNING_RULES.items() if mask & bit)
    if not 0 <= turn < 256 or (turn and strategy != "dfs"):
        raise SweepError(f"turn={turn}: 0-255, and only the depth-first search (dfs) turns")
    text = f"prune={rules},probes={'on' if probes else 'off'},strategy={strategy}"
    return f"{text},turn={turn}" if turn else text


def parse_solver_options(text: str) -> dict:
    """Inverse of :func:`solver_options`, as keyword arguments of
    :func:`canfield.solver.search.solve_deal` (``prune``, ``probes``,
    ``strategy``, ``turn``)."""
    pieces = (text or DEFAULT_SOLVER_OPTIONS).split(",")
    fields = dict(piece.partition("=")[::2] for piece in pieces)
    rules = fields["prune"]
    prune = {"all": True, "none": False}.get(rules, rules.replace("+", ","))
    return {
        "prune": prune,
        "probes": fields["probes"] == "on",
        "strategy": fields["strategy"],
        "turn": int(fields.get("turn", 0)),
    }


def with_turn(text: str, turn: int) -> str:
    """The solver options ``text`` with the search turned by ``turn`` (0: the usual order)."""
    o = parse_solver_options(text)
    prune = {True: "all", False: "none"}.get(o["prune"], o["prune"])
    return solver_options(prune, o["probes"], o["strategy"], turn)


def format_options(options: dict[str, int]) -> str:
    """``{'k': 16, 'nodes': 2000}`` -> ``'k=16,nodes=2000'`` (keys sorted)."""
    return ",".join(f"{key}={options[key]}" for key in sorted(options))


def parse_options(text: str) -> dict[str, int]:
    """Inverse of :func:`format_options`."""
    options: dict[str, int] = {}
    for piece in filter(None, (t.strip() for t in text.split(","))):
        key, _, value = piece.partition("=")
        options[key] = int(value)
    return options


@dataclass(frozen=True)
class SweepSpec:
    """The arguments that define a run; stored as ``run.json``.

    Attributes
    ----------
    profiles : tuple of str
        Canonical profile strings.
    deal_start, deal_stop : int
        Deals ``deal_start .. deal_stop - 1``.
    budget_seconds : float or None
        Wall-clock budget per (deal, profile); ``None`` means none.
    budget_nodes : int or None
        Node budget per (deal, profile); ``None`` means none.
    memory : int
        Transposition-table bytes per solve.
    version : str
        Toolkit version that made the rows.
    player : str
        Who plays: ``solver`` (perfect information) or a blind player, see
        :data:`PLAYERS`. A ``run.json`` without it is the solver's.
    player_options : str
        The player's options, canonical ``key=value`` pairs joined by commas
        (``k=16,nodes=2000`` for pimc, empty for the solver and greedy).
    solver_options : str
        The solver's options (:func:`solver_options`) for the solver and pimc,
        empty for greedy and random. A ``run.json`` without it used the defaults.
    """

    profiles: tuple[str, ...]
    deal_start: int
    deal_stop: int
    budget_seconds: float | None
    budget_nodes: int | None
    memory: int
    version: str = __version__
    player: str = "solver"
    player_options: str = ""
    solver_options: str = DEFAULT_SOLVER_OPTIONS

    @property
    def deals(self) -> range:
        """The deal numbers of the run."""
        return range(self.deal_start, self.deal_stop)

    def to_json(self) -> dict:
        """The spec as ``run.json`` holds it (with ``deals`` as ``'A:B'`` for people)."""
        fields = asdict(self)
        fields["profiles"] = list(self.profiles)
        fields["deals"] = f"{self.deal_start}:{self.deal_stop}"
        return fields

    @classmethod
    def from_json(cls, fields: dict) -> SweepSpec:
        """Inverse of :meth:`to_json`; a ``run.json`` without a player is the
        solver's, one without solver options used the defaults.

        Raises
        ------
        TypeError
            If ``fields`` is not a JSON object (a list, a number, a string):
            :meth:`.store.RunFolder.read_spec` reports it as an unreadable
            ``run.json``, as it does a truncated one.
        KeyError, ValueError
            If a field is missing or malformed.
        """
        if not isinstance(fields, dict):
            raise TypeError(f"it holds a JSON {json_kind(fields)}, not an object of fields")
        player = str(fields.get("player", "solver"))
        return cls(
            profiles=tuple(fields["profiles"]),
            deal_start=int(fields["deal_start"]),
            deal_stop=int(fields["deal_stop"]),
            budget_seconds=(
                None if fields["budget_seconds"] is None else float(fields["budget_seconds"])
            ),
            budget_nodes=None if fields["budget_nodes"] is None else int(fields["budget_nodes"]),
            memory=int(fields["memory"]),
            version=str(fields["version"]),
            player=player,
            player_options=str(fields.get("player_options", "")),
            solver_options=str(fields.get("solver_options", default_solver_options(player))),
        )

    def differences(self, stored: SweepSpec) -> list[str]:
        """Human-readable ``field: stored != this`` for each field that differs
        from ``stored`` (the spec of ``run.json``)."""
        now, before = self.to_json(), stored.to_json()
        keys = (
            "player",
            "player_options",
            "solver_options",
            "profiles",
            "deals",
            "budget_seconds",
            "budget_nodes",
            "memory",
            "version",
        )
        return [
            f"{key} {before[key]!r} (run.json) vs {now[key]!r} (now)"
            for key in keys
            if now[key] != before[key]
        ]


def json_kind(value: object) -> str:
    """What JSON calls the type of ``value``, for a message."""
    # bool first: True is an int to Python but a boolean to JSON
    kinds = ((bool, "boolean"), ((int, float), "number"), (str, "string"), (list, "array"))
    return next((name for kind, name in kinds if isinstance(value, kind)), "null")


def default_solver_options(player: str) -> str:
    """The solver options a ``player`` runs with when none are given: the
    solver's defaults for the players that search, none for the others."""
    return DEFAULT_SOLVER_OPTIONS if player in SEARCHING_PLAYERS else ""


def make_spec(
    profiles: str | Iterable[str],
    deals: str,
    budget: str | float | None = None,
    nodes: int | str | None = None,
    memory: str | int | None = None,
    player: str = "solver",
    pimc_k: int | None = None,
    pimc_nodes: int | None = None,
    prune: str | None = None,
    probes: bool | None = None,
    strategy: str | None = None,
    stored: SweepSpec | None = None,
) -> SweepSpec:
    """Build a :class:`SweepSpec` from command-line strings.

    With neither ``budget`` nor ``nodes`` the budget is
    :data:`DEFAULT_BUDGET_SECONDS` per solve; with ``nodes`` alone there is no
    wall-clock limit, so rows are deterministic.

    A blind ``player`` has no per-deal budget (``budget`` and ``nodes`` are
    refused) and no solver options (``prune``, ``probes``, ``strategy``);
    ``pimc`` takes ``pimc_k`` samples per decision (default
    :data:`DEFAULT_PIMC_K`) and solves each under ``pimc_nodes`` nodes (default
    :data:`DEFAULT_PIMC_NODES`) and ``memory``. Other players record memory 0.

    ``memory``, ``prune``, ``probes`` and ``strategy`` left out (None) take the
    value of ``stored``, the spec of the run folder being resumed, so a folder
    made under an older default resumes; without one, the defaults
    (:data:`DEFAULT_SWEEP_MEMORY`, :data:`DEFAULT_SOLVER_OPTIONS`).

    Raises
    ------
    SweepError
        If any argument is unknown, malformed or not allowed with ``player``.
    """
    if player not in PLAYERS:
        raise SweepError(f"unknown player {player!r} (one of {', '.join(PLAYERS)})")
    deal_range = parse_deals(deals)
    profile_names = tuple(split_profiles(profiles))
    memory_bytes = parse_memory(memory) if memory is not None else None
    if player != "pimc" and (pimc_k is not None or pimc_nodes is not None):
        raise SweepError("--pimc-k and --pimc-nodes are options of --player pimc")
    if player != "solver" and (prune, probes, strategy) != (None, None, None):
        raise SweepError("--prune, --probes and --strategy are options of --player solver")
    if stored is not None and stored.player == player:
        if memory_bytes is None:
            memory_bytes = stored.memory
        if player == "solver":
            before = parse_solver_options(stored.solver_options)
            prune = prune if prune is not None else _prune_text(before["prune"])
            probes = probes if probes is not None else before["probes"]
            strategy = strategy or before["strategy"]
    if memory_bytes is None:
        memory_bytes = DEFAULT_SWEEP_MEMORY
    options = ""
    searching = default_solver_options(player)
    if player == "solver":
        if nodes is not None:
            try:
                nodes = read_nodes(nodes, "--nodes")
            except (TypeError, ValueError) as exc:
                raise SweepError(str(exc)) from None
        # --budget inf is no time budget: None, as JSON has no infinity
        seconds = parse_budget(budget, unlimited=True)
        if budget is None and nodes is None:
            seconds = DEFAULT_BUDGET_SECONDS
        searching = solver_options(prune or "all", probes is not False, strategy or "dfs")
        chosen = parse_solver_options(searching)["strategy"]
        for name in profile_names:
            refusal = search_refusal(parse_profile(name), chosen)
            if refusal is not None:
                raise SweepError(f"--strategy {chosen}: {refusal}")
    else:
        if budget is not None or nodes is not None:
            raise SweepError(
                f"--budget and --nodes are budgets of --player solver; a {player} game has none"
                + (" (use --pimc-nodes for pimc's samples)" if player == "pimc" else "")
            )
        for name in profile_names:
            refusal = player_refusal(name)
            if refusal is not None:
                raise SweepError(f"{refusal}: {name} needs --player solver")
        seconds = None
        if player == "pimc":
            k = DEFAULT_PIMC_K if pimc_k is None else pimc_k
            sample_nodes = DEFAULT_PIMC_NODES if pimc_nodes is None else pimc_nodes
            if k <= 0 or sample_nodes <= 0:
                raise SweepError(
                    f"--pimc-k and --pimc-nodes must be positive, got {k} and {sample_nodes}"
                )
            options = format_options({"k": k, "nodes": sample_nodes})
        else:
            memory_bytes = 0  # no solver: the table size cannot change a game
    return SweepSpec(
        profiles=profile_names,
        deal_start=deal_range.start,
        deal_stop=deal_range.stop,
        budget_seconds=seconds,
        budget_nodes=nodes,
        memory=memory_bytes,
        player=player,
        player_options=options,
        solver_options=searching,
    )


def _prune_text(prune: bool | str) -> str:
    """A parsed ``prune`` option as ``--prune`` spells it."""
    if isinstance(prune, bool):
        return "all" if prune else "none"
    return prune
