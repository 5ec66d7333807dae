"""What an escalation runs, as ``escalate.json`` records it: the ladder's rungs,
the subsample, the residue sample (the third phase) and the first rung that
settles rows from related profiles (see :mod:`.escalation`), and the reading
of ``--ladder``.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, replace
from pathlib import Path

from canfield.engine.version import __version__
from canfield.experiments.sweep.errors import SweepError
from canfield.experiments.sweep.files import write_atomically

# parse_nodes is read where the other budgets are (one check for the command
# line and the Python API) and re-exported here, where escalate reads it
from canfield.experiments.sweep.spec import json_kind, parse_budget, parse_nodes

__all__ = [
    "ESCALATE_JSON",
    "Budget",
    "EscalationSpec",
    "Retry",
    "Subsample",
    "check_same_version",
    "merged_spec",
    "parse_ladder",
    "parse_nodes",
    "parse_sizes",
    "read_escalation",
    "write_escalation",
]

#: The file of a run folder that records the escalation.
ESCALATE_JSON = "escalate.json"


def nodes_text(nodes: int) -> str:
    """``1000000`` -> ``'1M'``, ``20000`` -> ``'20K'``, ``1500`` -> ``'1500'``."""
    for suffix, scale in (("G", 10**9), ("M", 10**6), ("K", 10**3)):
        if nodes % scale == 0:
            return f"{nodes // scale}{suffix}"
    return str(nodes)


@dataclass(frozen=True)
class Budget:
    """One solve's budget: nodes (reproducible) or seconds, and the table size."""

    nodes: int | None
    seconds: float | None
    memory: int

    def text(self) -> str:
        """``'1M nodes'`` or ``'10s'``."""
        return f"{nodes_text(self.nodes)} nodes" if self.nodes else f"{self.seconds:g}s"


def parse_ladder(text: str, memory: int) -> list[Budget]:
    """The rungs of ``--ladder``: node budgets (``1M,20M``) or times (``10s``).

    Raises
    ------
    SweepError
        If a rung cannot be read, or is not larger than the rung before it
        (of the same kind).
    """
    rungs = []
    for piece in (p.strip() for p in text.split(",")):
        if not piece:
            raise SweepError(f"empty rung in --ladder {text!r} (write it like 1M,20M)")
        if piece[-1:].lower() == "s":
            rungs.append(Budget(None, parse_budget(piece, "a --ladder rung"), memory))
        else:
            rungs.append(Budget(parse_nodes(piece), None, memory))
    check_rising(rungs)
    return rungs


def check_rising(rungs: list[Budget], before: Budget | None = None) -> None:
    """Each rung must be larger than the one before it (the first, than
    ``before``, the sweep's budget) when both count the same thing."""
    previous = before
    for rung in rungs:
        if previous is not None:
            if rung.nodes and previous.nodes and rung.nodes <= previous.nodes:
                raise SweepError(
                    f"ladder rung {rung.text()} is not larger than {previous.text()} before it"
                )
            if rung.seconds and previous.seconds and rung.seconds <= previous.seconds:
                raise SweepError(
                    f"ladder rung {rung.text()} is not larger than {previous.text()} before it"
                )
        previous = rung


def parse_sizes(texts: tuple[str, ...] | list[str]) -> int | dict[str, int]:
    """The sizes of ``--subsample`` or ``--residue``: one number for every
    profile (``['200']``), or one per profile (``['strict=1720',
    'hevagames=100']``; split at the last ``=``, so a profile string with
    options of its own reads too: ``storehouse:passes=2=50``).

    Raises
    ------
    SweepError
        If a size is not a positive whole number, a profile is named twice, or
        one number is mixed with named ones.
    """
    sizes: dict[str, int] = {}
    plain: list[int] = []
    for text in texts:
        name, _, number = text.rpartition("=")
        try:
            size = int(number)
        except ValueError:
            raise SweepError(
                f"cannot read a sample size from {text!r} (write 200, or PROFILE=200)"
            ) from None
        if size <= 0:
            raise SweepError(f"a sample size must be positive, got {text!r}")
        if not name:
            plain.append(size)
        elif name.strip() in sizes:
            raise SweepError(f"the sample size of {name.strip()!r} is given twice")
        else:
            sizes[name.strip()] = size
    if plain and (sizes or len(plain) > 1):
        raise SweepError(
            "give one sample size for every profile (200) or one per profile "
            "(strict=200 hevagames=50), not both"
        )
    return plain[0] if plain else sizes


@dataclass(frozen=True)
class Retry:
    """A sample's rows still unknown, solved again with a bigger node budget
    or in another order (``canfield escalate --retry``, ``--turn``). The
    sample stays the one drawn, so the estimator's design does not change:
    only fewer of its rows stay unknown. ``version`` is the toolkit that
    began the retry: only it adds attempts. ``turn`` is the depth-first
    search's turned order (``Solver(turn=...)``; 0: the usual one)."""

    budget: Budget
    version: str = __version__
    turn: int = 0


@dataclass(frozen=True)
class Subsample:
    """The second phase: ``size`` rows per profile (one number for all, or
    one per profile; a profile not named draws none) drawn with ``seed`` from
    the rows unknown after the ladder, solved with ``budget``; ``deals`` once
    drawn. The third phase (the residue sample) is one too, drawn from the
    subsample's rows still unknown after its solve. ``version`` is the
    toolkit that began the phase: only it adds attempts to it. ``retries``
    solve the rows still unknown again with bigger budgets, in order (rung
    ``k`` of the phase's attempts is retry ``k``; the first solve is rung 0)."""

    size: int | dict[str, int]
    seed: int
    budget: Budget
    deals: dict[str, list[int]] | None = None
    version: str = __version__
    retries: tuple[Retry, ...] = ()

    def size_for(self, profile: str) -> int:
        """Rows to draw for ``profile``."""
        if isinstance(self.size, int):
            return self.size
        return self.size.get(profile, 0)

    def size_text(self) -> str:
        """``'200'`` or ``'strict=1720 hevagames=100'``."""
        if isinstance(self.size, int):
            return str(self.size)
        return " ".join(f"{p}={n}" for p, n in self.size.items())

    def same_draw(self, other: Subsample) -> bool:
        """Whether ``other`` asks for the draw this one recorded (size, seed, budget)."""
        return (self.size, self.seed, self.budget) == (other.size, other.seed, other.budget)


@dataclass(frozen=True)
class EscalationSpec:
    """What ``escalate.json`` records (see the module doc). ``version`` is the
    toolkit that began the ladder; the subsample and the residue sample record
    their own."""

    ladder: tuple[Budget, ...] = ()
    subsample: Subsample | None = None
    version: str = __version__
    residue: Subsample | None = None
    #: the first rung whose rows a related profile's decided row may settle
    #: (None: never); rungs already begun when ``--settle`` was first given
    #: are finished without it, so a resume never changes what they did
    settle_from: int | None = None

    def to_json(self) -> dict:
        return asdict(self)

    @classmethod
    def from_json(cls, fields: dict) -> EscalationSpec:
        if not isinstance(fields, dict):
            # read_escalation reports it as unreadable, as it does a truncated file
            raise TypeError(f"it holds a JSON {json_kind(fields)}, not an object of fields")
        # files written before the residue and settling existed lack their keys
        # a sample recorded before samples kept their own version is the ladder's
        settle = fields.get("settle_from")
        version = str(fields.get("version", __version__))
        return cls(
            ladder=tuple(Budget(**r) for r in fields["ladder"]),
            subsample=_sample_from_json(fields.get("subsample"), version),
            version=version,
            residue=_sample_from_json(fields.get("residue"), version),
            settle_from=None if settle is None else int(settle),
        )


def _sample_from_json(sub: dict | None, version: str) -> Subsample | None:
    if sub is None:
        return None
    size = sub["size"]
    return Subsample(
        {str(p): int(n) for p, n in size.items()} if isinstance(size, dict) else int(size),
        int(sub["seed"]),
        Budget(**sub["budget"]),
        None if sub.get("deals") is None else dict(sub["deals"]),
        str(sub.get("version", version)),
        # files written before retries (or their turns) existed lack the key
        tuple(
            Retry(Budget(**r["budget"]), str(r["version"]), int(r.get("turn", 0)))
            for r in sub.get("retries", ())
        ),
    )


def read_escalation(run: str | os.PathLike) -> EscalationSpec | None:
    """The ``escalate.json`` of ``run``, or None when it was never escalated.

    Raises
    ------
    SweepError
        If the file cannot be read.
    """
    path = Path(run) / ESCALATE_JSON
    if not path.exists():
        return None
    try:
        return EscalationSpec.from_json(json.loads(path.read_text()))
    except (ValueError, KeyError, TypeError) as exc:
        raise SweepError(f"{path} is unreadable: {exc}") from None


def write_escalation(run: Path, spec: EscalationSpec) -> None:
    """Write ``spec`` as the ``escalate.json`` of ``run``, atomically."""
    text = json.dumps(spec.to_json(), indent=2) + "\n"
    write_atomically(run / ESCALATE_JSON, lambda fh: fh.write(text.encode()))


def merged_spec(
    stored: EscalationSpec | None,
    ladder: list[Budget],
    subsample: Subsample | None,
    sweep_budget: Budget,
    residue: Subsample | None = None,
    retry: tuple[int, int | None, int] | None = None,
) -> EscalationSpec:
    """The escalation to run: the stored one with this command's additions.

    ``retry`` is ``(nodes, memory, turn)`` of ``--retry`` (memory None: the
    sample's own table; turn 0: the usual order): it retries the residue
    sample when one is recorded, else the subsample.

    Raises
    ------
    SweepError
        If the command contradicts what ``escalate.json`` recorded: other
        rungs, rungs added to a ladder another toolkit version began, rungs
        added after a subsample was drawn, another subsample or residue
        sample, a residue sample without a subsample, a retry with no sample
        drawn, or one that neither raises the budget nor tries a new order.
    """
    before = stored or EscalationSpec()
    old = list(before.ladder)
    if ladder:
        shared = ladder[: len(old)]
        if len(ladder) < len(old) or any(a != b for a, b in zip(old, shared, strict=True)):
            raise SweepError(
                "--ladder must repeat the recorded ladder "
                f"{','.join(_rung_word(r) for r in old)} and may only add rungs after it"
            )
    new_rungs = ladder[len(old) :]
    if new_rungs and old:
        check_same_version(before.version, f"the ladder of its {ESCALATE_JSON}")
    if new_rungs and before.subsample is not None:
        raise SweepError(
            "a subsample was drawn from the rows unknown after the recorded ladder; a new rung "
            "would change that stratum (escalate a copy of the sweep's run folder instead)"
        )
    check_rising(old + new_rungs, sweep_budget)
    sub = before.subsample
    if subsample is not None:
        if sub is not None and not sub.same_draw(subsample):
            raise SweepError(
                f"this run's subsample was made with size {sub.size_text()}, seed {sub.seed} and "
                f"{sub.budget.text()}: repeat those to resume"
            )
        sub = sub or subsample
    res = before.residue
    if residue is not None:
        if sub is None:
            raise SweepError(
                "--residue samples the subsample's rows still unknown: there is no subsample "
                "yet (draw and solve one with --subsample first)"
            )
        if res is not None and not res.same_draw(residue):
            raise SweepError(
                f"this run's residue sample was made with size {res.size_text()}, seed "
                f"{res.seed} and "
                f"{res.budget.text()}: repeat those to resume"
            )
        res = res or residue
    if retry is not None:
        if res is not None:
            res = _with_retry(res, "residue sample", *retry)
        elif sub is not None:
            sub = _with_retry(sub, "subsample", *retry)
        else:
            raise SweepError(
                "--retry solves a sample's rows still unknown again: no subsample was drawn yet"
            )
    # a fresh escalation is this version's; a recorded one keeps its ladder's
    version = before.version if stored is not None and (old or sub) else __version__
    return EscalationSpec(
        tuple(old + new_rungs),
        sub,
        version=version,
        residue=res,
        settle_from=before.settle_from,
    )


def _with_retry(
    sample: Subsample, name: str, nodes: int, memory: int | None, turn: int = 0
) -> Subsample:
    """``sample`` with a retry of ``nodes`` in order ``turn`` (a new one, or
    the last one resumed).

    A retry in an order this toolkit version already solved the sample in
    must raise the largest node budget it had in that order (the first solve
    is the usual order, turn 0); one in an order not tried yet, or by a
    version that has not solved the sample yet, may spend any budget
    (another order searches the same tree another way, and another version
    may search it with other rules or probes: either can win early where the
    last search is still deep in a losing branch).

    Raises
    ------
    SweepError
        If the sample is not drawn yet, or the retry is neither larger than
        this version's last budget in that order, nor in a new order, nor by
        a new version (it would decide nothing new).
    """
    if sample.deals is None:
        raise SweepError(f"--retry: the {name} is not drawn yet (draw and solve it first)")
    solves = (Retry(sample.budget, sample.version), *sample.retries)
    last = solves[-1]
    if sample.retries and (nodes, turn, __version__) == (
        last.budget.nodes,
        last.turn,
        last.version,
    ):
        return sample  # the last retry again: resume it
    # the first solve searched in the usual order (turn 0)
    same = [
        r.budget
        for r in solves
        if r.turn == turn and r.version == __version__ and r.budget.nodes is not None
    ]
    most = max(same, key=lambda b: b.nodes, default=None)
    if most is not None and nodes <= most.nodes:
        order = f"turn {turn}" if turn else "the usual order"
        raise SweepError(
            f"--retry {nodes_text(nodes)} is not larger than the {name}'s budget in "
            f"{order} with toolkit {__version__}, {most.text()}: raise the budget or give "
            "a --turn not yet tried"
        )
    budget = Budget(nodes, None, sample.budget.memory if memory is None else memory)
    return replace(sample, retries=(*sample.retries, Retry(budget, turn=turn)))


def check_same_version(version: str, where: str) -> None:
    """Refuse to add attempts to a phase another toolkit version began.

    A ladder, subsample or residue sample is one experiment: its rows must
    come from one solver, or a resumed study would mix two searches without
    saying so (every row carries its version, but a finished phase is read
    as one). A phase not yet begun may be begun by any version: it records
    its own, as the sweep and each phase of the study do.

    Raises
    ------
    SweepError
        If ``version`` is not this toolkit's version.
    """
    if version != __version__:
        raise SweepError(
            f"this run was escalated with toolkit {version} ({where}); this is {__version__}: "
            f"resume or extend that phase with {version}, or escalate a copy of the sweep's "
            f"run folder without its attempts/ and {ESCALATE_JSON}"
        )


def _rung_word(rung: Budget) -> str:
    return nodes_text(rung.nodes) if rung.nodes else f"{rung.seconds:g}s"
