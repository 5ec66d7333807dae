"""The true win share (and mean banked) of all deals, from a sweep, its
escalation ladder and a subsample of what stayed unknown: a two-phase
(double sampling for stratification) estimator with a 95% interval.

The method, its assumptions and a worked example are in ``docs/statistics.md``.
In short, with ``n`` deals in the range (phase 1, a random sample of all
shuffles), split by the sweep and the ladder into ``n_d`` decided deals (value
known) and ``n_k`` hard deals (still unknown), and a simple random subsample of
``m`` hard deals solved with a big budget (phase 2):

- estimate ``y = w_d * mean_d + w_k * mean_k`` with ``w_h = n_h / n``, where
  ``mean_d`` is the mean over all decided deals and ``mean_k`` the mean over
  the subsample;
- variance ``v = s2 / n + w_k**2 * (1/m - 1/n_k) * s2_k`` (Cochran 1977, 12.2,
  for a population much larger than ``n``), where ``s2_k`` is the subsample's
  variance and ``s2 = sum_h w_h * s2_h + sum_h w_h * (mean_h - y)**2``
  estimates the variance of one deal's value over all shuffles;
- the interval ``y -+ z * sqrt(v)`` with ``z`` the normal quantile.

The first term is the phase-1 sampling error (which deals the range holds),
the second the phase-2 one (which hard deals were drawn). With no hard deal
the second term vanishes and the interval is the ordinary one-stage one.

A subsample row still unknown after the big budget (a *residual unknown*) is
never guessed: every estimate is made twice, with residual unknowns at their
worst (lost; the cards banked on the best line found) and at their best (won;
52 cards, or a proven upper bound), and the union of the two intervals is the
conservative answer. Without a subsample only the bounds are given.

Pure numpy: :func:`two_phase_moments` takes arrays and is vectorised, so
simulations run thousands of studies at once.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from canfield.experiments.stats import normal_quantile

#: Cards a won deal banks: the best case of a residual unknown's banked.
ALL_CARDS = 52


def two_phase_moments(
    n_d: np.ndarray | int,
    mean_d: np.ndarray | float,
    s2_d: np.ndarray | float,
    n_k: np.ndarray | int,
    m: np.ndarray | int,
    mean_k: np.ndarray | float,
    s2_k: np.ndarray | float,
) -> tuple[np.ndarray, np.ndarray]:
    """The two-phase estimate and its estimated variance (see the module doc).

    Parameters
    ----------
    n_d : int or array
        Decided deals (phase 1): their values are all known.
    mean_d, s2_d : float or array
        Mean and variance (``ddof=1``) of the decided deals' values; ``s2_d``
        is ignored (taken as 0) when ``n_d < 2``.
    n_k : int or array
        Hard deals (unknown after phase 1).
    m : int or array
        Hard deals in the subsample (phase 2), ``1 <= m <= n_k`` when
        ``n_k > 0``.
    mean_k, s2_k : float or array
        Mean and variance (``ddof=1``) of the subsample's values; ignored when
        ``n_k == 0``.

    Returns
    -------
    estimate, variance : ndarray
        Broadcast over the arguments. The variance is NaN when it cannot be
        estimated (a subsample of one deal).
    """
    n_d, n_k, m = (np.asarray(x, dtype=float) for x in (n_d, n_k, m))
    mean_d, s2_d, mean_k, s2_k = (np.asarray(x, dtype=float) for x in (mean_d, s2_d, mean_k, s2_k))
    n = n_d + n_k
    w_d, w_k = n_d / n, n_k / n
    hard = n_k > 0
    mean_k = np.where(hard, mean_k, 0.0)
    s2_k = np.where(hard, np.where(m >= 2, s2_k, np.nan), 0.0)
    s2_d = np.where(n_d >= 2, s2_d, 0.0)
    mean_d = np.where(n_d > 0, mean_d, 0.0)
    estimate = w_d * mean_d + w_k * mean_k
    s2 = w_d * s2_d + w_k * s2_k + w_d * (mean_d - estimate) ** 2 + w_k * (mean_k - estimate) ** 2
    with np.errstate(divide="ignore", invalid="ignore"):
        phase2 = np.where(hard, w_k**2 * (1 / m - 1 / n_k) * s2_k, 0.0)
    return estimate, s2 / n + phase2


@dataclass(frozen=True)
class Estimate:
    """A point estimate with its interval.

    Attributes
    ----------
    value : float
        The estimate.
    low, high : float
        The interval (normal, at the confidence asked).
    se : float
        Its standard error.
    """

    value: float
    low: float
    high: float
    se: float


def estimate(
    decided: np.ndarray, n_hard: int, subsample: np.ndarray, conf: float = 0.95
) -> Estimate:
    """The two-phase estimate of the mean value over all deals, with its interval.

    Parameters
    ----------
    decided : array
        The values of the decided deals (phase 1).
    n_hard : int
        How many deals phase 1 left unknown.
    subsample : array
        The values of the subsample of the hard deals (phase 2); empty when
        ``n_hard == 0``.
    conf : float
        Confidence of the interval.

    Returns
    -------
    Estimate

    Raises
    ------
    ValueError
        If the subsample is larger than the hard stratum, or empty while
        hard deals exist.
    """
    decided = np.asarray(decided, dtype=float)
    subsample = np.asarray(subsample, dtype=float)
    m = len(subsample)
    if m > n_hard or (n_hard > 0 and m == 0):
        raise ValueError(f"a subsample of {m} from a hard stratum of {n_hard} deals")
    if len(decided) + n_hard == 0:
        raise ValueError("no deals")
    value, var = two_phase_moments(
        len(decided),
        decided.mean() if len(decided) else 0.0,
        decided.var(ddof=1) if len(decided) >= 2 else 0.0,
        n_hard,
        m,
        subsample.mean() if m else 0.0,
        subsample.var(ddof=1) if m >= 2 else np.nan,
    )
    se = float(np.sqrt(var))
    z = normal_quantile(0.5 + conf / 2)
    return Estimate(float(value), float(value - z * se), float(value + z * se), se)


@dataclass(frozen=True)
class TwoPhase:
    """What the estimator says of one quantity for one profile.

    Attributes
    ----------
    deals : int
        Deals of the range (phase 1).
    decided, hard : int
        Deals decided by the sweep and the ladder, and left unknown.
    subsample : int
        Hard deals drawn into the subsample and solved (0: no subsample).
    residual : int
        Subsample deals still unknown after the big budget.
    bounds : (float, float)
        The value over the range's deals with every deal still unknown at its
        worst and at its best: bounds, not an interval.
    low_case, high_case : Estimate or None
        The estimate over all deals with residual unknowns at their worst and
        at their best (equal when there are none); None without a subsample
        while hard deals exist.
    """

    deals: int
    decided: int
    hard: int
    subsample: int
    residual: int
    bounds: tuple[float, float]
    low_case: Estimate | None
    high_case: Estimate | None

    @property
    def union(self) -> tuple[float, float] | None:
        """The conservative interval: low of the low case .. high of the high case."""
        if self.low_case is None or self.high_case is None:
            return None
        return self.low_case.low, self.high_case.high


def two_phase(
    decided_values: np.ndarray,
    n_hard: int,
    sub_low: np.ndarray,
    sub_high: np.ndarray,
    bounds: tuple[float, float],
    residual: int,
    conf: float = 0.95,
) -> TwoPhase:
    """:class:`TwoPhase` from the decided values and the subsample's values in
    the worst and the best case of its residual unknowns.

    ``sub_low`` empty while ``n_hard > 0`` means no subsample: no estimate.
    """
    n_d = len(decided_values)
    m = len(sub_low)
    if n_hard > 0 and m == 0:
        low = high = None
    else:
        low = estimate(decided_values, n_hard, sub_low, conf)
        high = estimate(decided_values, n_hard, sub_high, conf)
    return TwoPhase(n_d + n_hard, n_d, n_hard, m, residual, bounds, low, high)


def win_share(
    phase1: np.ndarray,
    final: np.ndarray,
    subsampled: np.ndarray,
    conf: float = 0.95,
) -> TwoPhase:
    """The share of all deals won (see the module doc).

    Parameters
    ----------
    phase1 : array of str
        Each deal's result after the sweep and the ladder: ``won``, ``lost``
        or ``unknown`` (the hard stratum).
    final : array of str
        Each deal's result after the subsample too.
    subsampled : array of bool
        The hard deals of the subsample whose big solve is done.
    conf : float
        Confidence of the intervals.
    """
    phase1, final = np.asarray(phase1), np.asarray(final)
    subsampled = np.asarray(subsampled, dtype=bool)
    hard = phase1 == "unknown"
    sub = final[subsampled & hard]
    won_final, unknown_final = (final == "won").sum(), (final == "unknown").sum()
    n = len(final)
    bounds = (won_final / n, (won_final + unknown_final) / n) if n else (np.nan, np.nan)
    return two_phase(
        (phase1[~hard] == "won").astype(float),
        int(hard.sum()),
        (sub == "won").astype(float),
        (sub != "lost").astype(float),
        bounds,
        int((sub == "unknown").sum()),
        conf,
    )


def mean_banked(
    phase1: np.ndarray,
    final: np.ndarray,
    banked: np.ndarray,
    subsampled: np.ndarray,
    upper: np.ndarray | None = None,
    conf: float = 0.95,
) -> TwoPhase:
    """The mean number of cards banked over all deals (see the module doc).

    ``banked`` is exact on a decided deal and, on a deal still unknown, the
    most banked on any line found (its worst case); its best case is
    ``upper`` (a proven upper bound) when given, else :data:`ALL_CARDS`.
    Other arguments as for :func:`win_share`.
    """
    phase1, final = np.asarray(phase1), np.asarray(final)
    banked = np.asarray(banked, dtype=float)
    subsampled = np.asarray(subsampled, dtype=bool)
    best = np.full(len(banked), float(ALL_CARDS)) if upper is None else np.asarray(upper, float)
    unknown = final == "unknown"
    high_values = np.where(unknown, best, banked)
    hard = phase1 == "unknown"
    picked = subsampled & hard
    n = len(final)
    bounds = (banked.mean(), high_values.mean()) if n else (np.nan, np.nan)
    return two_phase(
        banked[~hard],
        int(hard.sum()),
        banked[picked],
        high_values[picked],
        bounds,
        int((unknown & picked).sum()),
        conf,
    )


__all__ = [
    "ALL_CARDS",
    "Estimate",
    "TwoPhase",
    "estimate",
    "mean_banked",
    "two_phase",
    "two_phase_moments",
    "win_share",
]
