"""Sample sizes for the second and third phases of a win-share study, at the
least CPU for a target interval width (``docs/statistics.md``, 2b).

With ``N`` deals, a share ``p`` of them won, a hard stratum of weight ``w``
(unknown after the sweep and the ladder), a subsample of ``m`` hard deals
solved at a budget costing ``c2`` CPU seconds a row, of which a share ``r``
stays unknown (the residue), and a sample of ``l`` of the residue solved at
a budget costing ``c3``, the estimate's variance is at most

    p (1 - p) / N + w^2 [ q (1 - q) / m + r^2 q3 (1 - q3) / l ]

with ``q`` and ``q3`` the win shares inside the subsample and inside the
residue, taken at their worst (1/2) unless known. The finite-population
corrections only narrow it and are left out. For a half-width ``h`` at the
normal quantile ``z`` the phase-2 and phase-3 terms share
``K = (h / z)^2 - p (1 - p) / N`` of variance; the CPU ``c2 m + c3 l`` is
least, by Lagrange's rule, at

    m = sqrt(a / c2) (sqrt(a c2) + sqrt(b c3)) / K
    l = sqrt(b / c3) (sqrt(a c2) + sqrt(b c3)) / K

with ``a = w^2 q (1 - q)`` and ``b = w^2 r^2 q3 (1 - q3)``. Neither may
exceed the rows there are: ``m`` the hard deals ``w N``, ``l`` the residue
``r m``. The whole sizes are then the cheapest near that optimum: for each
``l``, the least ``m`` that meets the target.

Once the subsample is solved, its size is spent and ``r`` and ``q`` are
measured: ``--subsample M`` then plans the residue sample alone, the least
``l`` that the variance left beside phase 2's term allows.

``python -m experiments.study_plan`` prints the plan for the figures given.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import click

from canfield.experiments.stats import normal_quantile

#: A share (0 to 1) and a positive number on the command line.
SHARE = click.FloatRange(0.0, 1.0)
POSITIVE = click.FloatRange(min=0.0, min_open=True)


@dataclass(frozen=True)
class Plan:
    """One profile's sample sizes and what they cost and give."""

    m: int
    l: int
    cpu_seconds: float
    half_width: float

    @property
    def cpu_hours(self) -> float:
        return self.cpu_seconds / 3600


def half_width(
    p: float,
    n: int,
    w: float,
    m: int,
    r: float,
    l: int,
    q: float = 0.5,
    q3: float = 0.5,
    conf: float = 0.95,
) -> float:
    """The interval's half-width (a share, not points) for these sizes: the
    bound of the module doc. ``l = 0`` with ``r > 0`` leaves the residue
    unsampled: no interval (infinite)."""
    var = p * (1 - p) / n
    if w > 0:
        if m <= 0:
            return math.inf
        var += w * w * q * (1 - q) / m
        if r > 0:
            if l <= 0:
                return math.inf
            var += w * w * r * r * q3 * (1 - q3) / l
    return normal_quantile(0.5 + conf / 2) * math.sqrt(var)


def plan(
    p: float,
    n: int,
    w: float,
    r: float,
    c2: float,
    c3: float,
    target: float,
    q: float = 0.5,
    q3: float = 0.5,
    conf: float = 0.95,
    m_fixed: int | None = None,
) -> Plan:
    """The cheapest ``(m, l)`` whose half-width is at most ``target``; with
    ``m_fixed`` (a subsample already solved) the least ``l`` beside it.

    Raises
    ------
    ValueError
        If the target cannot be met: phase 1 alone is wider, or even the
        whole hard stratum and its whole residue leave it wider.
    """
    z = normal_quantile(0.5 + conf / 2)
    k = (target / z) ** 2 - p * (1 - p) / n
    if k <= 0:
        raise ValueError(f"phase 1 alone is wider than +-{target:g} with {n} deals")
    hard = max(int(round(w * n)), 0)
    if hard == 0:
        return Plan(0, 0, 0.0, half_width(p, n, 0.0, 0, 0.0, 0, conf=conf))
    a = w * w * q * (1 - q)
    b = w * w * r * r * q3 * (1 - q3)
    if m_fixed is not None:
        # the subsample is solved: phase 2's term is spent, and the residue
        # sample gets what variance is left
        m = m_fixed
        rest = k - a / m
        if rest <= 0:
            raise ValueError(f"a subsample of {m} alone is wider than the target")
        l = math.ceil(b / rest) if b > 0 else 0
        if l > math.ceil(r * m):
            raise ValueError("the whole residue is still too wide")
        return Plan(m, l, c2 * m + c3 * l, half_width(p, n, w, m, r, l, q, q3, conf))
    if b == 0:
        m = math.ceil(a / k)
        if m > hard:
            raise ValueError("the whole hard stratum at budget 2 is still too wide")
        return Plan(m, 0, c2 * m, half_width(p, n, w, m, r, 0, q, q3, conf))
    # the continuous optimum, then the cheapest whole sizes near it: for each
    # l, the least m that meets the target (the cost is flat near the optimum,
    # so rounding both up can cost a little more than needed)
    s = math.sqrt(a * c2) + math.sqrt(b * c3)
    l0 = max(1, math.ceil(math.sqrt(b / c3) * s / k))
    best = None
    for l in range(1, 4 * l0 + 8):
        rest = k - b / l
        if rest <= 0:
            continue
        m = math.ceil(a / rest)
        if m > hard or l > math.ceil(r * m):
            continue
        cost = c2 * m + c3 * l
        if best is None or cost < best[0]:
            best = (cost, m, l)
    if best is None:
        raise ValueError("the whole hard stratum and its residue are still too wide")
    _, m, l = best
    width = half_width(p, n, w, m, r, l, q, q3, conf)
    return Plan(m, l, c2 * m + c3 * l, width)


@click.command()
@click.option(
    "--deals", "n", type=click.IntRange(min=1), required=True, help="Deals in the range (N)."
)
@click.option("--won", "p", type=SHARE, required=True, help="Share won, a guess (p).")
@click.option("--hard", "w", type=SHARE, required=True, help="Share unknown after the ladder (w).")
@click.option("--residue", "r", type=SHARE, required=True, help="Share of the subsample left (r).")
@click.option("--c2", type=POSITIVE, required=True, help="CPU seconds a subsample row.")
@click.option("--c3", type=POSITIVE, required=True, help="CPU seconds a residue row.")
@click.option("--target", type=POSITIVE, default=0.5, show_default=True, help="Half-width, points.")
@click.option(
    "--subsample",
    "m_fixed",
    type=click.IntRange(min=1),
    default=None,
    help="A subsample of this size is already solved: plan the residue sample alone.",
)
@click.option("--q", type=SHARE, default=0.5, show_default=True, help="Win share in the subsample.")
@click.option("--q3", type=SHARE, default=0.5, show_default=True, help="Win share in the residue.")
def main(
    n: int,
    p: float,
    w: float,
    r: float,
    c2: float,
    c3: float,
    target: float,
    m_fixed: int | None,
    q: float,
    q3: float,
) -> None:
    """Print the cheapest subsample and residue sizes for a target half-width."""
    try:
        got = plan(p, n, w, r, c2, c3, target / 100, q, q3, m_fixed=m_fixed)
    except ValueError as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(
        f"m = {got.m}, l = {got.l}: {got.cpu_hours:.2f} CPU hours, "
        f"half-width {100 * got.half_width:.3f} points"
    )


if __name__ == "__main__":
    main()
