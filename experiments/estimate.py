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

A third phase (``canfield escalate --residue``) draws a simple random
sub-subsample of ``l`` of the subsample's ``m_r`` residual unknowns and solves
it with a much bigger budget: within the hard stratum the subsample is then
itself stratified (decided at budget 2 / residual), and the hard stratum's
mean is estimated by the same double-sampling estimator one level down
(:func:`stratum_moments`, applied twice by :func:`three_phase_moments`). What
stays unknown after phase 3 is carried as the two cases, as above. Without a
third phase every figure is the two-phase one (the same code).

When every value the study saw is the same extreme (every deal won, or every
deal lost), every variance above is 0 and the normal interval is a point,
which claims a certainty the samples do not give. :func:`estimate` and
:func:`estimate3` then give instead an exact one-sided interval
(:func:`no_event_bound`): each stratum that saw no deal of the other kind
bounds that kind's share by Clopper-Pearson (``1 - beta**(1/k)`` for ``k``
deals), the strata's weights by Wilson intervals, all at ``(1 - conf)/J``
for ``J`` bounds (Bonferroni), and the worst weighting of the strata's
bounds is the interval's far end (docs/statistics.md).

Pure numpy: :func:`two_phase_moments` and :func:`three_phase_moments` take
arrays and are vectorised, so simulations run thousands of studies at once.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from canfield.experiments.stats import normal_quantile, wilson

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
        estimated (a subsample of one deal from a larger hard stratum).
    """
    n_d, n_k, m = (np.asarray(x, dtype=float) for x in (n_d, n_k, m))
    mean_d, s2_d, mean_k, s2_k = (np.asarray(x, dtype=float) for x in (mean_d, s2_d, mean_k, s2_k))
    n = n_d + n_k
    w_d, w_k = n_d / n, n_k / n
    hard = n_k > 0
    mean_k = np.where(hard, mean_k, 0.0)
    # a subsample of one deal leaves the stratum's spread unknown, unless it
    # is the whole stratum: one deal has none (as ``s2_d`` of one decided deal)
    s2_k = np.where(hard, np.where(m >= 2, s2_k, np.where(m >= n_k, 0.0, np.nan)), 0.0)
    s2_d = np.where(n_d >= 2, s2_d, 0.0)
    mean_d = np.where(n_d > 0, mean_d, 0.0)
    estimate = w_d * mean_d + w_k * mean_k
    s2 = w_d * s2_d + w_k * s2_k + w_d * (mean_d - estimate) ** 2 + w_k * (mean_k - estimate) ** 2
    with np.errstate(divide="ignore", invalid="ignore"):
        phase2 = np.where(hard, w_k**2 * (1 / m - 1 / n_k) * s2_k, 0.0)
    return estimate, s2 / n + phase2


def stratum_moments(
    n_d: np.ndarray | int,
    mean_d: np.ndarray | float,
    s2_d: np.ndarray | float,
    n_k: np.ndarray | int,
    mean_k: np.ndarray | float,
    s2_k: np.ndarray | float,
    var_k: np.ndarray | float,
    population: np.ndarray | float = np.inf,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One level of double sampling for stratification (docs/statistics.md, 2b).

    A simple random sample of ``n = n_d + n_k`` units from a population of
    ``population`` units (infinite: all shuffles) splits into ``n_d`` units of
    known value and ``n_k`` hard ones, whose mean is estimated by ``mean_k``
    with variance ``var_k`` and unit variance ``s2_k`` (from a sample inside
    the hard units: a plain one, or another level of this).

    Returns
    -------
    estimate, s2, variance : ndarray
        The stratified mean ``w_d mean_d + w_k mean_k``; the estimated
        variance of one unit's value, ``s2 = sum_h w_h s2_h + sum_h w_h
        (mean_h - estimate)**2``; and the estimate's variance ``(1/n -
        1/population) s2 + w_k**2 var_k``. NaN where it cannot be estimated.
    """
    n_d, n_k, population = (np.asarray(x, dtype=float) for x in (n_d, n_k, population))
    mean_d, s2_d, mean_k, s2_k, var_k = (
        np.asarray(x, dtype=float) for x in (mean_d, s2_d, mean_k, s2_k, var_k)
    )
    n = n_d + n_k
    w_d, w_k = n_d / n, n_k / n
    hard = n_k > 0
    mean_k = np.where(hard, mean_k, 0.0)
    s2_k = np.where(hard, s2_k, 0.0)
    var_k = np.where(hard, var_k, 0.0)
    s2_d = np.where(n_d >= 2, s2_d, 0.0)
    mean_d = np.where(n_d > 0, mean_d, 0.0)
    value = w_d * mean_d + w_k * mean_k
    s2 = w_d * s2_d + w_k * s2_k + w_d * (mean_d - value) ** 2 + w_k * (mean_k - value) ** 2
    return value, s2, (1 / n - 1 / population) * s2 + w_k**2 * var_k


def three_phase_moments(
    n_d: np.ndarray | int,
    mean_d: np.ndarray | float,
    s2_d: np.ndarray | float,
    n_k: np.ndarray | int,
    m_d: np.ndarray | int,
    mean_2: np.ndarray | float,
    s2_2: np.ndarray | float,
    m_r: np.ndarray | int,
    l_3: np.ndarray | int,
    mean_3: np.ndarray | float,
    s2_3: np.ndarray | float,
) -> tuple[np.ndarray, np.ndarray]:
    """The three-phase estimate and its estimated variance (docs/statistics.md, 2b).

    Phase 1: ``n_d`` decided and ``n_k`` hard deals. Phase 2: a simple random
    subsample of ``m_d + m_r`` hard deals, ``m_d`` decided (mean ``mean_2``,
    variance ``s2_2``, ``ddof=1``) and ``m_r`` residual. Phase 3: a simple
    random sample of ``l_3`` of the residual deals (``1 <= l_3 <= m_r`` when
    ``m_r > 0``), mean ``mean_3`` and variance ``s2_3``.

    Returns
    -------
    estimate, variance : ndarray
        ``variance = s2/n + w_k**2 [(1/m - 1/n_k) s2_K + r**2 (1/l - 1/m_r) s2_3]``
        with ``r = m_r/m`` and ``s2_K`` the hard stratum's unit variance
        estimated from the two inner strata. NaN when a sample of one deal
        leaves a variance unknown.
    """
    m_r, l_3 = np.asarray(m_r, dtype=float), np.asarray(l_3, dtype=float)
    s2_3 = np.where(l_3 >= 2, np.asarray(s2_3, dtype=float), np.nan)
    with np.errstate(divide="ignore", invalid="ignore"):
        leaf = (1 / l_3 - 1 / m_r) * s2_3
    mean_k, s2_k, var_k = stratum_moments(m_d, mean_2, s2_2, m_r, mean_3, s2_3, leaf, n_k)
    m = np.asarray(m_d, dtype=float) + m_r
    # one subsample deal: its unit variance (hence the phase-2 term) is unknown
    s2_k = np.where(m >= 2, s2_k, np.nan)
    var_k = np.where(m >= 2, var_k, np.nan)
    value, _, var = stratum_moments(n_d, mean_d, s2_d, n_k, mean_k, s2_k, var_k)
    return value, var


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
    decided: np.ndarray,
    n_hard: int,
    subsample: np.ndarray,
    conf: float = 0.95,
    span: tuple[float, float] | None = None,
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
    span : (float, float), optional
        The least and the most a deal's value can be: when every value seen
        is one of them, the interval is :func:`no_event_bound`'s, not a point.

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
    value, var = two_phase_moments(*_moments(decided, 0.0), n_hard, *_moments(subsample, np.nan))
    edge = _extreme(span, decided, subsample)  # every value at one end: every variance 0
    if edge is not None:
        stratum = (m, None, None) if n_hard else None
        return _edge_interval(edge, span, no_event_bound(len(decided), n_hard, stratum, conf))
    return _interval(value, var, conf)


def _extreme(span: tuple[float, float] | None, *samples: np.ndarray) -> float | None:
    """The end of ``span`` that every value of ``samples`` equals, if one does."""
    if span is None:
        return None
    values = np.concatenate([np.asarray(x, dtype=float) for x in samples])
    for end in span:
        if len(values) and (values == end).all():
            return end
    return None


def _edge_interval(edge: float, span: tuple[float, float], share: float) -> Estimate:
    """The interval from ``edge`` reaching ``share`` of ``span`` inwards."""
    width = (span[1] - span[0]) * share
    low, high = (edge - width, edge) if edge == span[1] else (edge, edge + width)
    return Estimate(float(edge), float(low), float(high), float("nan"))


def _no_event_upper(k: int, beta: float) -> float:
    """Exact (Clopper-Pearson) upper bound, at confidence ``1 - beta``, of a
    share of which ``k`` independent draws showed none: ``1 - beta**(1/k)``
    (1 when ``k == 0``: nothing was seen)."""
    return 1.0 - beta ** (1.0 / k) if k > 0 else 1.0


def no_event_bound(
    n_d: int,
    n_k: int,
    sample: tuple[int, int | None, int | None] | None,
    conf: float = 0.95,
) -> float:
    """Upper bound, at confidence ``conf``, of the share of all deals of the
    kind the study never saw (a loss, when every deal seen was won).

    Parameters
    ----------
    n_d, n_k : int
        Decided and hard deals of phase 1.
    sample : (m, m_r, l) or None
        The hard stratum's sample: ``m`` subsample deals, and with a third
        phase ``m_r`` of them left unknown by phase 2 and ``l`` residue deals
        solved (``m_r`` and ``l`` None for two phases); None when
        ``n_k == 0``.
    conf : float
        Confidence of the bound.

    Returns
    -------
    float
        ``max over w in W of (1 - w) U_d + w U_k``: ``U_d`` bounds the share
        among deals like the decided ones (``n_d`` draws, none of the kind),
        ``U_k`` among hard ones (the subsample, or one level down the same
        form over its decided deals and the residue sample), and ``W`` is the
        Wilson interval of the hard share ``n_k / n``. Every bound is taken
        at ``(1 - conf) / J`` for the ``J`` bounds used, so all hold at once
        with probability at least ``conf``.
    """
    if sample is None:
        return _no_event_upper(n_d, 1 - conf)
    m, m_r, l_3 = sample
    third = m_r is not None and m_r > 0
    beta = (1 - conf) / (5 if third else 3)
    conf_w = 1 - 2 * beta  # two-sided Wilson: each end fails with beta at most
    u_d = _no_event_upper(n_d, beta)
    if third:
        u_k = _mix(m - m_r, m_r, _no_event_upper(m - m_r, beta), _no_event_upper(l_3, beta), conf_w)
    else:
        u_k = _no_event_upper(m, beta)
    return _mix(n_d, n_k, u_d, u_k, conf_w)


def _mix(n_a: int, n_b: int, u_a: float, u_b: float, conf: float) -> float:
    """The largest ``(1 - w) u_a + w u_b`` over the Wilson interval of ``w = n_b / (n_a + n_b)``."""
    lo, hi = wilson(n_b, n_a + n_b, conf)
    return max((1 - w) * u_a + w * u_b for w in (lo, hi))


def _moments(values: np.ndarray, too_few: float) -> tuple[int, float, float]:
    """Count, mean (0 when empty) and variance (``ddof=1``; ``too_few`` under two values)."""
    k = len(values)
    return k, values.mean() if k else 0.0, values.var(ddof=1) if k >= 2 else too_few


def _interval(value: np.ndarray, var: np.ndarray, conf: float) -> Estimate:
    """The normal interval of an estimate with its variance."""
    se = float(np.sqrt(var))
    z = normal_quantile(0.5 + conf / 2)
    return Estimate(float(value), float(value - z * se), float(value + z * se), se)


def estimate3(
    decided: np.ndarray,
    n_hard: int,
    sub_decided: np.ndarray,
    n_residual: int,
    residue: np.ndarray,
    conf: float = 0.95,
    span: tuple[float, float] | None = None,
) -> Estimate:
    """The three-phase estimate of the mean value over all deals, with its interval.

    Parameters
    ----------
    decided : array
        The values of the deals phase 1 decided.
    n_hard : int
        How many deals phase 1 left unknown.
    sub_decided : array
        The values of the subsample deals phase 2 decided.
    n_residual : int
        How many subsample deals phase 2 left unknown (its residue).
    residue : array
        The values of the phase-3 sample of the residue.
    conf : float
        Confidence of the interval.
    span : (float, float), optional
        As for :func:`estimate`.

    Raises
    ------
    ValueError
        If a sample is larger than what it is drawn from, or empty while there
        is something to draw from.
    """
    decided, sub_decided, residue = (
        np.asarray(x, dtype=float) for x in (decided, sub_decided, residue)
    )
    m, l_3 = len(sub_decided) + n_residual, len(residue)
    if m > n_hard or m == 0:
        raise ValueError(f"a subsample of {m} from a hard stratum of {n_hard} deals")
    if l_3 > n_residual or (n_residual > 0 and l_3 == 0):
        raise ValueError(f"a residue sample of {l_3} from a residue of {n_residual} deals")
    value, var = three_phase_moments(
        *_moments(decided, 0.0),
        n_hard,
        *_moments(sub_decided, 0.0),
        n_residual,
        *_moments(residue, np.nan),
    )
    edge = _extreme(span, decided, sub_decided, residue)
    if edge is not None:
        sample = (m, n_residual, l_3)
        return _edge_interval(edge, span, no_event_bound(len(decided), n_hard, sample, conf))
    return _interval(value, var, conf)


@dataclass(frozen=True)
class TwoPhase:
    """What the estimator says of one quantity for one profile (two or three phases).

    Attributes
    ----------
    deals : int
        Deals of the range (phase 1).
    decided, hard : int
        Deals decided by the sweep and the ladder, and left unknown.
    subsample : int
        Hard deals drawn into the subsample and solved (0: no subsample).
    residual : int
        Deals of the last phase's sample still unknown after its budget: the
        subsample's (two phases) or the residue sample's (three phases).
    bounds : (float, float)
        The value over the range's deals with every deal still unknown at its
        worst and at its best: bounds, not an interval.
    low_case, high_case : Estimate or None
        The estimate over all deals with residual unknowns at their worst and
        at their best (equal when there are none); None without a subsample
        while hard deals exist.
    residue_sample : int
        Residue deals drawn into phase 3 and solved (0: two phases).
    """

    deals: int
    decided: int
    hard: int
    subsample: int
    residual: int
    bounds: tuple[float, float]
    low_case: Estimate | None
    high_case: Estimate | None
    residue_sample: int = 0

    @property
    def phases(self) -> int:
        """1 (no hard deal), 2 or 3: the phases the estimate used."""
        return 3 if self.residue_sample else 2 if self.hard else 1

    @property
    def union(self) -> tuple[float, float] | None:
        """The conservative interval: low of the low case .. high of the high case."""
        if self.low_case is None or self.high_case is None:
            return None
        return self.low_case.low, self.high_case.high


@dataclass(frozen=True)
class Values:
    """The values of one stratum or sample in the worst and the best case of
    its deals still unknown (equal arrays when every value is known)."""

    low: np.ndarray
    high: np.ndarray

    @classmethod
    def of(cls, low: np.ndarray, high: np.ndarray, mask: np.ndarray) -> Values:
        return cls(np.asarray(low, float)[mask], np.asarray(high, float)[mask])

    def __len__(self) -> int:
        return len(self.low)


def two_phase(
    decided: Values,
    n_hard: int,
    sub: Values,
    bounds: tuple[float, float],
    residual: int,
    conf: float = 0.95,
    residue: tuple[int, Values] | None = None,
    span: tuple[float, float] | None = None,
) -> TwoPhase:
    """:class:`TwoPhase` from the values of the decided deals and of the subsample.

    ``sub`` empty while ``n_hard > 0`` means no subsample: no estimate. With
    ``residue = (n_residual, sample)`` (phase 3), ``sub`` holds the subsample
    deals phase 2 decided and ``sample`` the residue sample's values. ``span``
    as for :func:`estimate`.
    """
    n_d, m = len(decided), len(sub)
    if residue is not None and len(residue[1]):
        n_res, third = residue
        low = estimate3(decided.low, n_hard, sub.low, n_res, third.low, conf, span)
        high = estimate3(decided.high, n_hard, sub.high, n_res, third.high, conf, span)
        return TwoPhase(
            n_d + n_hard, n_d, n_hard, m + n_res, residual, bounds, low, high, len(third)
        )
    if n_hard > 0 and m == 0:
        low = high = None
    else:
        low = estimate(decided.low, n_hard, sub.low, conf, span)
        high = estimate(decided.high, n_hard, sub.high, conf, span)
    return TwoPhase(n_d + n_hard, n_d, n_hard, m, residual, bounds, low, high)


def _phases(
    phase1: np.ndarray,
    phase2: np.ndarray | None,
    final: np.ndarray,
    subsampled: np.ndarray,
    residue: np.ndarray | None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None, np.ndarray | None]:
    """Masks: the hard stratum, the subsample's values in the estimate, and with
    a third phase the subsample's residue and the residue sample (else None)."""
    hard = phase1 == "unknown"
    sub = np.asarray(subsampled, dtype=bool) & hard
    if residue is None or phase2 is None:
        return hard, sub, None, None
    left = sub & (np.asarray(phase2) == "unknown")
    third = np.asarray(residue, dtype=bool) & left
    if not third.any():
        return hard, sub, None, None
    return hard, sub & ~left, left, third


def win_share(
    phase1: np.ndarray,
    final: np.ndarray,
    subsampled: np.ndarray,
    conf: float = 0.95,
    phase2: np.ndarray | None = None,
    residue: np.ndarray | None = None,
) -> TwoPhase:
    """The share of all deals won (see the module doc).

    Parameters
    ----------
    phase1 : array of str
        Each deal's result after the sweep and the ladder: ``won``, ``lost``
        or ``unknown`` (the hard stratum).
    final : array of str
        Each deal's result after every phase.
    subsampled : array of bool
        The hard deals of the subsample whose big solve is done.
    conf : float
        Confidence of the intervals.
    phase2 : array of str, optional
        Each deal's result after the subsample (phase 2); needed with ``residue``.
    residue : array of bool, optional
        The subsample's residual deals of the phase-3 sample whose solve is
        done. None (or none set): the two-phase estimate.
    """
    phase1, final = np.asarray(phase1), np.asarray(final)
    hard, sub, left, third = _phases(phase1, phase2, final, subsampled, residue)
    won_final, unknown_final = (final == "won").sum(), (final == "unknown").sum()
    n = len(final)
    bounds = (won_final / n, (won_final + unknown_final) / n) if n else (np.nan, np.nan)
    low, high = (final == "won").astype(float), (final != "lost").astype(float)
    last = sub if third is None else third
    return two_phase(
        Values.of(low, high, ~hard),
        int(hard.sum()),
        Values.of(low, high, sub),
        bounds,
        int((final[last] == "unknown").sum()),
        conf,
        None if third is None else (int(left.sum()), Values.of(low, high, third)),
        (0.0, 1.0),
    )


def mean_banked(
    phase1: np.ndarray,
    final: np.ndarray,
    banked: np.ndarray,
    subsampled: np.ndarray,
    upper: np.ndarray | None = None,
    conf: float = 0.95,
    phase2: np.ndarray | None = None,
    residue: np.ndarray | None = None,
) -> TwoPhase:
    """The mean number of cards banked over all deals (see the module doc).

    ``banked`` is exact on a decided deal and, on a deal still unknown, the
    most banked on any line found (its worst case). ``upper`` (a proven
    upper bound of every deal's banked) is its best case where given, else
    :data:`ALL_CARDS` on a deal still unknown; a decided deal's ``upper``
    equals its ``banked`` except where the verdict came from a related
    profile (docs/relations.md: a settled loss bounds banked from above
    only). Other arguments as for :func:`win_share`.
    """
    phase1, final = np.asarray(phase1), np.asarray(final)
    banked = np.asarray(banked, dtype=float)
    hard, sub, left, third = _phases(phase1, phase2, final, subsampled, residue)
    unknown = final == "unknown"
    if upper is None:
        high_values = np.where(unknown, float(ALL_CARDS), banked)
    else:
        high_values = np.asarray(upper, dtype=float)
    n = len(final)
    bounds = (banked.mean(), high_values.mean()) if n else (np.nan, np.nan)
    last = sub if third is None else third
    return two_phase(
        Values.of(banked, high_values, ~hard),
        int(hard.sum()),
        Values.of(banked, high_values, sub),
        bounds,
        int((unknown & last).sum()),
        conf,
        None if third is None else (int(left.sum()), Values.of(banked, high_values, third)),
        # a won deal banks every card: 52, or 104 for two packs
        (0.0, float(max(ALL_CARDS, high_values.max()))) if n else None,
    )


__all__ = [
    "ALL_CARDS",
    "Estimate",
    "TwoPhase",
    "Values",
    "estimate",
    "estimate3",
    "mean_banked",
    "no_event_bound",
    "stratum_moments",
    "three_phase_moments",
    "two_phase",
    "two_phase_moments",
    "win_share",
]
