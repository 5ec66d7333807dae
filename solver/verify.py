"""Re-prove a lost verdict with each pruning rule off in turn (``canfield solve --verify``).

A loss is a proof that rests on every pruning rule the search used
(``docs/solver.md``). This module solves the same deal again with one rule
off at a time, and with every rule off, within the same budgets, and says
which rules the proof *needed*: those without which the re-proof ran out of
budget. A re-proof that wins, or that is lost with another banked count,
contradicts the first proof: one of the two searches is wrong.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, field

from canfield.engine.profiles import UNLIMITED, Profile
from canfield.solver.pruning import PRUNING_RULES
from canfield.solver.search import SolveResult

#: The name of the re-proof with every rule off.
ALL_OFF = "all"


def applicable_rules(profile: Profile) -> list[str]:
    """The pruning rules that can change a search under ``profile``.

    The conditions are those of each rule's *Profiles* paragraph in
    ``docs/solver.md``; a rule that cannot fire would only repeat the proof.
    """
    no_worry = profile.worry == "no"
    if profile.packs == 2:
        # the two-pack search argues P1 again and uses no other rule
        # (docs/solver.md, "Two packs"): re-proving without E3 repeated the proof
        return ["P1"] if no_worry else []
    unlimited = profile.passes == UNLIMITED
    can = {
        "P1": no_worry,
        "E1": unlimited,
        # under draw=1 every pointer is on the cycle: E1 leaves E2 nothing
        "E2": unlimited and profile.draw > 1,
        "E3": not unlimited,
        "B1": no_worry
        and profile.moves == "whole"
        and profile.fill == "auto"
        and profile.space == "waste",
    }
    rank = profile.build == "rank"
    can["R1"] = rank and can["B1"]
    can["W1"] = rank and no_worry and profile.draw == 1
    return [name for name in PRUNING_RULES if can[name]]


@dataclass
class ReProof:
    """One re-proof: the verdict with ``off`` switched off."""

    off: str
    result: str
    banked: int
    nodes: int
    seconds: float
    stop_reason: str

    @property
    def needed(self) -> bool:
        """The rule (or the rules together) was needed: without it the budget ran out."""
        return self.result == "unknown"

    @property
    def contradicts(self) -> bool:
        """A decided re-proof that disagrees with the loss (won, or another banked)."""
        return self.result == "won"


@dataclass
class Verification:
    """Every re-proof of one lost verdict, and what they say."""

    banked: int
    reproofs: list[ReProof] = field(default_factory=list)

    @property
    def needed(self) -> list[str]:
        """The single rules without which the proof ran out of budget."""
        return [r.off for r in self.reproofs if r.off != ALL_OFF and r.needed]

    @property
    def contradictions(self) -> list[str]:
        """The re-proofs that contradict the loss: won, lost with another banked
        count, or unknown with a line (replayed) that banks more than the proof's
        exact most."""
        return [
            r.off
            for r in self.reproofs
            if r.contradicts
            or (r.result == "lost" and r.banked != self.banked)
            or r.banked > self.banked
        ]

    def to_json(self) -> dict:
        return {
            "banked": self.banked,
            "reproofs": [{**asdict(r), "needed": r.needed} for r in self.reproofs],
            "needed": self.needed,
            "all_off_needed": any(r.needed for r in self.reproofs if r.off == ALL_OFF),
            "contradictions": self.contradictions,
        }


def verify_loss(
    profile: Profile, banked: int, solve_with: Callable[[bool | list[str]], SolveResult]
) -> Verification:
    """Re-prove a loss with ``banked`` cards under ``profile``, each applicable rule off.

    Parameters
    ----------
    profile : Profile
        The profile of the lost solve (picks the rules that apply).
    banked : int
        The banked count of the loss: a re-proof must find the same.
    solve_with : callable
        Solves the same deal with the same budgets and the ``prune`` argument
        given (a list of rule names, or False for none); returns a
        :class:`~canfield.solver.search.SolveResult`.

    Returns
    -------
    Verification
        One re-proof per applicable rule, then one with every rule off.
    """
    rules = applicable_rules(profile)
    out = Verification(banked)
    offs: list[tuple[str, bool | list[str]]] = [
        (name, [r for r in PRUNING_RULES if r != name]) for name in rules
    ]
    offs.append((ALL_OFF, False))
    for name, prune in offs:
        r = solve_with(prune)
        out.reproofs.append(
            ReProof(name, r.result, r.banked, r.nodes, round(r.seconds, 3), r.stop_reason)
        )
    return out
