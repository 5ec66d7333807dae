"""The two-phase estimator (experiments/estimate.py) on simulated studies with a
known truth: its 95% interval covers the truth about 95% of the time, also
when the hard stratum is much less winnable than the rest, where the naive
"win share of decided deals" misses it.

Each study: ``N`` deals drawn from an infinite population of shuffles; a deal
is hard (unknown after phase 1) with probability ``H``; decided deals are won
with probability ``P_EASY``, hard ones with ``P_HARD``; a simple random
subsample of ``M`` hard deals is solved. Thousands of studies run at once
(vectorised), so the file takes about a second.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from canfield.experiments.estimate import (
    estimate,
    estimate3,
    mean_banked,
    no_event_bound,
    stratum_moments,
    three_phase_moments,
    two_phase_moments,
    win_share,
)
from canfield.experiments.stats import wilson

STUDIES = 4000
N, H, M = 1000, 0.25, 80
P_EASY, P_HARD = 0.75, 0.30  # biased: hard deals are much less winnable
Z = 1.959963984540054


def simulate_wins(rng, p_easy, p_hard, studies=STUDIES, n=N, h=H, m=M):
    """Sufficient statistics of ``studies`` simulated studies of a win share."""
    n_k = rng.binomial(n, h, studies)
    n_d = n - n_k
    won_d = rng.binomial(n_d, p_easy)
    won_k = rng.binomial(n_k, p_hard)  # wins in the whole hard stratum (never seen)
    m_k = np.minimum(m, n_k)
    won_sub = rng.hypergeometric(won_k, n_k - won_k, m_k)
    return n_d, won_d, n_k, m_k, won_sub


def binary_moments(k, n):
    with np.errstate(divide="ignore", invalid="ignore"):
        p = k / n
        return p, p * (1 - p) * n / (n - 1)


def coverage(rng, p_easy, p_hard):
    n_d, won_d, n_k, m_k, won_sub = simulate_wins(rng, p_easy, p_hard)
    mean_d, s2_d = binary_moments(won_d, n_d)
    mean_k, s2_k = binary_moments(won_sub, m_k)
    est, var = two_phase_moments(n_d, mean_d, s2_d, n_k, m_k, mean_k, s2_k)
    truth = (1 - H) * p_easy + H * p_hard
    half = Z * np.sqrt(var)
    covered = (est - half <= truth) & (truth <= est + half)
    return covered.mean(), est, truth, (n_d, won_d)


@pytest.mark.parametrize(
    "p_easy, p_hard", [(P_EASY, P_HARD), (0.6, 0.6), (0.9, 0.05)], ids=["biased", "even", "skewed"]
)
def test_interval_covers_the_truth_95_percent_of_the_time(p_easy, p_hard):
    rng = np.random.default_rng(20261130)
    share, est, truth, _ = coverage(rng, p_easy, p_hard)
    assert 0.93 <= share <= 0.97, share
    assert abs(est.mean() - truth) < 0.002  # unbiased: the mean of 4000 estimates


def test_naive_decided_share_is_fooled_where_the_estimator_is_not():
    rng = np.random.default_rng(7)
    share, est, truth, (n_d, won_d) = coverage(rng, P_EASY, P_HARD)
    naive_covers = [
        lo <= truth <= hi
        for lo, hi in (wilson(int(k), int(n)) for k, n in zip(won_d, n_d, strict=True))
    ]
    assert np.mean(naive_covers) < 0.01  # the decided share's own interval misses it
    assert (won_d / n_d).mean() - truth > 0.08  # by about H * (P_EASY - P_HARD)
    assert 0.93 <= share <= 0.97


def test_mean_banked_coverage_with_continuous_values():
    """Deal values like banked: 52 when won, else 0..30 (decided) or 5..25 (hard)."""
    rng = np.random.default_rng(11)
    studies, n, m = 2000, 600, 60
    hard = rng.random((studies, n)) < H
    won = rng.random((studies, n)) < np.where(hard, P_HARD, P_EASY)
    lost_value = np.where(
        hard, rng.integers(5, 26, (studies, n)), rng.integers(0, 31, (studies, n))
    )
    values = np.where(won, 52.0, lost_value)
    # the subsample: the m hard deals with the smallest random keys
    keys = np.where(hard, rng.random((studies, n)), np.inf)
    rank = keys.argsort(axis=1).argsort(axis=1)
    picked = hard & (rank < m)
    n_k = hard.sum(axis=1)
    n_d = n - n_k
    m_k = picked.sum(axis=1)
    mean_d = np.where(~hard, values, 0).sum(axis=1) / n_d
    s2_d = (np.where(~hard, (values - mean_d[:, None]) ** 2, 0)).sum(axis=1) / (n_d - 1)
    mean_k = np.where(picked, values, 0).sum(axis=1) / m_k
    s2_k = (np.where(picked, (values - mean_k[:, None]) ** 2, 0)).sum(axis=1) / (m_k - 1)
    est, var = two_phase_moments(n_d, mean_d, s2_d, n_k, m_k, mean_k, s2_k)
    truth = (1 - H) * (P_EASY * 52 + (1 - P_EASY) * 15) + H * (P_HARD * 52 + (1 - P_HARD) * 15)
    covered = np.abs(est - truth) <= Z * np.sqrt(var)
    assert 0.93 <= covered.mean() <= 0.97, covered.mean()


def test_no_hard_deal_is_the_one_stage_interval():
    values = np.array([1, 0, 1, 1, 0, 1, 1, 1, 0, 1], float)
    e = estimate(values, 0, np.array([]))
    se = values.std(ddof=1) / math.sqrt(len(values))
    assert e.value == pytest.approx(0.7)
    assert e.se == pytest.approx(se)
    assert (e.low, e.high) == pytest.approx((0.7 - Z * se, 0.7 + Z * se))


def test_whole_hard_stratum_subsampled_has_no_phase_2_error():
    decided = np.array([1, 1, 0, 1, 0, 1], float)
    hard = np.array([0, 0, 1, 0], float)
    both = np.concatenate([decided, hard])
    e = estimate(decided, len(hard), hard)
    assert e.value == pytest.approx(both.mean())
    # s2 here is the population-weighted variance, close to the one-stage one
    assert e.se == pytest.approx(both.std(ddof=0) / math.sqrt(len(both)), rel=0.1)
    assert e.se > estimate(both, 0, np.array([])).se * 0.9


def test_a_hard_stratum_of_one_deal_solved_has_an_interval():
    # the ladder leaves one deal and the subsample solves it (hevagames
    # 1000-4999: 1250): every value is known, the interval is the one-stage
    # spread of all deals, not "unknown" for want of a second subsample deal
    decided = np.array([1, 1, 0, 1, 0, 1, 1, 1, 0], float)
    e = estimate(decided, 1, np.array([1.0]))
    n, w_d, w_k, mean_d = 10, 9 / 10, 1 / 10, 6 / 9
    y = w_d * mean_d + w_k * 1.0
    s2 = w_d * decided.var(ddof=1) + w_d * (mean_d - y) ** 2 + w_k * (1.0 - y) ** 2
    assert e.value == pytest.approx(0.7)
    assert e.se == pytest.approx(math.sqrt(s2 / n))
    # one deal drawn from a stratum of two: its spread is still unknown
    assert math.isnan(estimate(decided, 2, np.array([1.0])).se)


def test_estimate_by_hand():
    """The formula of docs/statistics.md with plain arithmetic."""
    decided = np.array([1, 1, 1, 0, 1, 1, 0, 1], float)  # n_d = 8, 6 won
    sub = np.array([0, 1, 0, 0], float)  # m = 4 of n_k = 12, 1 won
    e = estimate(decided, 12, sub)
    n, w_d, w_k = 20, 8 / 20, 12 / 20
    y = w_d * 6 / 8 + w_k * 1 / 4
    s2_d = (6 * (1 - 0.75) ** 2 + 2 * 0.75**2) / 7
    s2_k = (1 * 0.75**2 + 3 * 0.25**2) / 3
    s2 = w_d * s2_d + w_k * s2_k + w_d * (0.75 - y) ** 2 + w_k * (0.25 - y) ** 2
    v = s2 / n + w_k**2 * (1 / 4 - 1 / 12) * s2_k
    assert e.value == pytest.approx(y)
    assert e.se == pytest.approx(math.sqrt(v))
    assert e.low == pytest.approx(y - Z * math.sqrt(v))


def test_residual_unknowns_are_bounds_never_guesses():
    phase1 = np.array(["won"] * 6 + ["lost"] * 2 + ["unknown"] * 12)
    final = phase1.copy()
    subsampled = np.zeros(20, bool)
    subsampled[8:12] = True
    final[8:12] = ["won", "lost", "unknown", "lost"]
    r = win_share(phase1, final, subsampled)
    assert (r.hard, r.subsample, r.residual) == (12, 4, 1)
    assert r.low_case.value == pytest.approx(0.4 * 0.75 + 0.6 * 0.25)
    assert r.high_case.value == pytest.approx(0.4 * 0.75 + 0.6 * 0.5)
    assert r.union == (r.low_case.low, r.high_case.high)
    assert r.bounds == pytest.approx((7 / 20, 16 / 20))  # 7 won, 9 still unknown
    banked = np.array([52] * 6 + [20, 10] + [52, 15, 30, 12] + [9] * 8, float)
    b = mean_banked(phase1, final, banked, subsampled)
    assert b.low_case.value == pytest.approx(
        0.4 * banked[:8].mean() + 0.6 * (52 + 15 + 30 + 12) / 4
    )
    assert b.high_case.value == pytest.approx(
        0.4 * banked[:8].mean() + 0.6 * (52 + 15 + 52 + 12) / 4
    )


def test_no_subsample_gives_bounds_only():
    phase1 = np.array(["won", "lost", "unknown", "unknown"])
    r = win_share(phase1, phase1, np.zeros(4, bool))
    assert r.low_case is None and r.high_case is None and r.union is None
    assert r.bounds == (0.25, 0.75)
    with pytest.raises(ValueError):
        estimate(np.array([1.0]), 3, np.array([]))


# --------------------------------------------------------------------------- three phases
#
# A hard deal is *residual* (still unknown at the subsample's budget) with
# probability R; a simple random subsample of M3 hard deals is solved, then a
# simple random sample of L3 of its residual deals (phase 3). In the biased
# population residual deals are far less winnable than the other hard deals,
# which are less winnable than the decided ones.

N3, M3, L3, R = 100_000, 200, 20, 0.3


def simulate_three(rng, p_easy, p_hard, p_res, studies=STUDIES):
    """Sufficient statistics of ``studies`` simulated three-phase studies."""
    n_k = rng.binomial(N3, H, studies)
    n_d = N3 - n_k
    won_d = rng.binomial(n_d, p_easy)
    k_r = rng.binomial(n_k, R)  # residual deals in the whole hard stratum
    k_2 = n_k - k_r
    w_r, w_2 = rng.binomial(k_r, p_res), rng.binomial(k_2, p_hard)
    m = np.minimum(M3, n_k)
    m_r = rng.hypergeometric(k_r, k_2, m)
    m_d = m - m_r
    won_2 = rng.hypergeometric(w_2, k_2 - w_2, m_d)
    won_r = rng.hypergeometric(w_r, k_r - w_r, m_r)  # never seen: only phase 3 is
    l_3 = np.minimum(L3, m_r)
    won_3 = rng.hypergeometric(won_r, m_r - won_r, l_3)
    truth = (1 - H) * p_easy + H * ((1 - R) * p_hard + R * p_res)
    return (n_d, won_d, n_k, m_d, won_2, m_r, l_3, won_3), truth


def three_phase_coverage(rng, p_easy, p_hard, p_res):
    (n_d, won_d, n_k, m_d, won_2, m_r, l_3, won_3), truth = simulate_three(
        rng, p_easy, p_hard, p_res
    )
    mean_d, s2_d = binary_moments(won_d, n_d)
    mean_2, s2_2 = binary_moments(won_2, m_d)
    mean_3, s2_3 = binary_moments(won_3, l_3)
    est, var = three_phase_moments(
        n_d, mean_d, s2_d, n_k, m_d, mean_2, s2_2, m_r, l_3, mean_3, s2_3
    )
    half = Z * np.sqrt(var)
    return ((est - half <= truth) & (truth <= est + half)).mean(), est, truth


@pytest.mark.parametrize(
    "p_easy, p_hard, p_res",
    [(0.8, 0.5, 0.1), (0.6, 0.6, 0.6), (0.9, 0.3, 0.02)],
    ids=["biased-residue", "even", "skewed"],
)
def test_three_phase_interval_covers_the_truth_95_percent_of_the_time(p_easy, p_hard, p_res):
    share, est, truth = three_phase_coverage(np.random.default_rng(1213), p_easy, p_hard, p_res)
    assert 0.93 <= share <= 0.97, share
    assert abs(est.mean() - truth) < 0.002


def test_ignoring_the_biased_residue_misses_the_truth():
    """Estimating the hard stratum from the subsample's decided deals only (as if
    the residue were like them) misses in the biased population: the third
    phase is what brings the residue in."""
    rng = np.random.default_rng(5)
    (n_d, won_d, n_k, m_d, won_2, *_), truth = simulate_three(rng, 0.8, 0.5, 0.1)
    mean_d, s2_d = binary_moments(won_d, n_d)
    mean_2, s2_2 = binary_moments(won_2, m_d)
    est, var = two_phase_moments(n_d, mean_d, s2_d, n_k, m_d, mean_2, s2_2)
    covered = np.abs(est - truth) <= Z * np.sqrt(var)
    assert covered.mean() < 0.3 and est.mean() - truth > 0.025  # H * R * (0.5 - 0.1) = 0.03


def test_three_phase_mean_banked_coverage_with_continuous_values():
    """Banked-like values, the residue much poorer than the other hard deals."""
    rng = np.random.default_rng(17)
    studies, n, m, l_3 = 1500, 800, 80, 16
    hard = rng.random((studies, n)) < H
    residual = hard & (rng.random((studies, n)) < 0.4)
    p_won = np.where(residual, 0.1, np.where(hard, 0.4, 0.8))
    won = rng.random((studies, n)) < p_won
    lost_value = np.where(
        residual, rng.integers(5, 16, (studies, n)), rng.integers(0, 31, (studies, n))
    )
    values = np.where(won, 52.0, lost_value)

    def first(mask, k):
        """The ``k`` deals of ``mask`` with the smallest random keys: a simple random sample."""
        keys = np.where(mask, rng.random(mask.shape), np.inf)
        return mask & (keys.argsort(axis=1).argsort(axis=1) < k)

    picked = first(hard, m)
    third = first(picked & residual, l_3)

    def moments(mask):
        k = mask.sum(axis=1)
        mean = np.where(mask, values, 0).sum(axis=1) / k
        s2 = np.where(mask, (values - mean[:, None]) ** 2, 0).sum(axis=1) / (k - 1)
        return k, mean, s2

    n_d, mean_d, s2_d = moments(~hard)
    m_d, mean_2, s2_2 = moments(picked & ~residual)
    l_k, mean_3, s2_3 = moments(third)
    est, var = three_phase_moments(
        n_d, mean_d, s2_d, hard.sum(axis=1), m_d, mean_2, s2_2,
        (picked & residual).sum(axis=1), l_k, mean_3, s2_3,
    )  # fmt: skip
    lost_mean = {True: 10.0, False: 15.0}
    truth = (1 - H) * (0.8 * 52 + 0.2 * 15) + H * (
        0.6 * (0.4 * 52 + 0.6 * lost_mean[False]) + 0.4 * (0.1 * 52 + 0.9 * lost_mean[True])
    )
    covered = np.abs(est - truth) <= Z * np.sqrt(var)
    assert 0.93 <= covered.mean() <= 0.97, covered.mean()


def test_three_phase_estimate_by_hand():
    """docs/statistics.md, 2b, in plain arithmetic."""
    decided = np.array([1, 1, 1, 0, 1, 1, 0, 1, 1, 0], float)  # n_d = 10, 7 won
    sub2 = np.array([1, 0, 1], float)  # m_d = 3 decided in a subsample of m = 8 of n_k = 15
    res = np.array([0, 1, 0], float)  # l = 3 of the m_r = 5 residual
    e = estimate3(decided, 15, sub2, 5, res)
    n, w_d, w_k, r = 25, 10 / 25, 15 / 25, 5 / 8
    s2_d = (7 * 0.3**2 + 3 * 0.7**2) / 9
    s2_2 = (2 * (1 / 3) ** 2 + (2 / 3) ** 2) / 2
    s2_3 = s2_2  # the same spread, one win of three
    y_k = (1 - r) * 2 / 3 + r * 1 / 3
    s2_big_k = (1 - r) * s2_2 + r * s2_3 + (1 - r) * (2 / 3 - y_k) ** 2 + r * (1 / 3 - y_k) ** 2
    y = w_d * 0.7 + w_k * y_k
    s2 = w_d * s2_d + w_k * s2_big_k + w_d * (0.7 - y) ** 2 + w_k * (y_k - y) ** 2
    v = s2 / n + w_k**2 * ((1 / 8 - 1 / 15) * s2_big_k + r**2 * (1 / 3 - 1 / 5) * s2_3)
    assert e.value == pytest.approx(y)
    assert e.se == pytest.approx(math.sqrt(v))
    assert (e.low, e.high) == pytest.approx((y - Z * math.sqrt(v), y + Z * math.sqrt(v)))
    # the whole residue solved: no phase-3 term; a residue of one: no variance
    whole = estimate3(decided, 15, sub2, 3, res)
    assert whole.value == pytest.approx(w_d * 0.7 + w_k * (3 / 6 * 2 / 3 + 3 / 6 * 1 / 3))
    assert math.isnan(estimate3(decided, 15, sub2, 5, res[:1]).se)
    for bad in (
        (decided, 15, sub2, 5, res[:0]),
        (decided, 4, sub2, 5, res),
        (decided, 15, sub2, 2, res),
    ):
        with pytest.raises(ValueError):
            estimate3(*bad)


def test_one_level_is_the_two_phase_formula():
    """stratum_moments with a plain subsample below it is two_phase_moments."""
    rng = np.random.default_rng(3)
    n_d, n_k, m = rng.integers(20, 200, 50), rng.integers(5, 100, 50), rng.integers(2, 5, 50)
    mean_d, s2_d, mean_k, s2_k = rng.random((4, 50))
    est, var = two_phase_moments(n_d, mean_d, s2_d, n_k, m, mean_k, s2_k)
    est1, _, var1 = stratum_moments(n_d, mean_d, s2_d, n_k, mean_k, s2_k, (1 / m - 1 / n_k) * s2_k)
    np.testing.assert_allclose(est1, est, rtol=1e-13)
    np.testing.assert_allclose(var1, var, rtol=1e-13)


def test_without_a_third_phase_nothing_changes():
    """No residue sample (none drawn, or none of it solved): exactly the two-phase
    figures, the same floats."""
    phase1 = np.array(["won"] * 6 + ["lost"] * 2 + ["unknown"] * 12)
    final = phase1.copy()
    subsampled = np.zeros(20, bool)
    subsampled[8:12] = True
    final[8:12] = ["won", "lost", "unknown", "lost"]
    banked = np.array([52] * 6 + [20, 10] + [52, 15, 30, 12] + [9] * 8, float)
    before = win_share(phase1, final, subsampled), mean_banked(phase1, final, banked, subsampled)
    for residue in (None, np.zeros(20, bool)):
        after = (
            win_share(phase1, final, subsampled, phase2=final, residue=residue),
            mean_banked(phase1, final, banked, subsampled, phase2=final, residue=residue),
        )
        assert after == before
        assert after[0].phases == 2 and after[0].residue_sample == 0
    # and the two-phase figures are the formula's (test_residual_unknowns_...)
    assert before[0].low_case == estimate(
        (phase1[:8] == "won").astype(float), 12, np.array([1.0, 0.0, 0.0, 0.0])
    )


def test_third_phase_in_win_share_and_mean_banked():
    """Phase 3 on rows: the residue sample replaces the subsample's residue; what
    it leaves unknown is carried as the two cases."""
    phase1 = np.array(["won"] * 6 + ["lost"] * 2 + ["unknown"] * 12)
    subsampled = np.zeros(20, bool)
    subsampled[8:14] = True
    phase2 = phase1.copy()
    phase2[8:14] = ["won", "lost", "unknown", "unknown", "unknown", "unknown"]
    residue = np.zeros(20, bool)
    residue[[10, 11, 13]] = True  # 3 of the 4 residual rows
    final = phase2.copy()
    final[[10, 11, 13]] = ["won", "lost", "unknown"]
    r = win_share(phase1, final, subsampled, phase2=phase2, residue=residue)
    assert (r.phases, r.subsample, r.residue_sample, r.residual) == (3, 6, 3, 1)
    d = (phase1[:8] == "won").astype(float)
    assert r.low_case == estimate3(d, 12, np.array([1.0, 0.0]), 4, np.array([1.0, 0.0, 0.0]))
    assert r.high_case == estimate3(d, 12, np.array([1.0, 0.0]), 4, np.array([1.0, 0.0, 1.0]))
    banked = np.arange(20, dtype=float) + 10
    upper = np.where(final == "unknown", 52.0, banked)
    upper[9] = 40.0  # a loss settled from a related profile: banked bounded, not known
    b = mean_banked(phase1, final, banked, subsampled, upper, phase2=phase2, residue=residue)
    assert b.low_case == estimate3(banked[:8], 12, banked[[8, 9]], 4, banked[[10, 11, 13]])
    assert b.high_case == estimate3(
        banked[:8], 12, np.array([18.0, 40.0]), 4, np.array([20.0, 21.0, 52.0])
    )


# ------------------------------------------------- every deal seen of one kind


def test_all_won_is_an_exact_one_sided_interval_not_a_point():
    """Every deal seen won (or every one lost) makes every variance 0: the
    interval is then the no-event bound's, from the edge inwards, in two and
    three phases, for the win share and for mean banked (a won deal banks
    every card); one loss anywhere brings the normal interval back."""
    won = np.ones(1883)
    r = estimate(won, 117, np.ones(40), span=(0.0, 1.0))
    bound = no_event_bound(1883, 117, (40, None, None))
    assert 0.005 < bound < 0.02
    assert (r.value, r.low, r.high) == (1.0, 1.0 - bound, 1.0)
    # by hand: Clopper-Pearson at 0.05/3 for 1883 and 40 draws, Wilson for w
    beta = 0.05 / 3
    u_d, u_k = 1 - beta ** (1 / 1883), 1 - beta ** (1 / 40)
    w_hi = wilson(117, 2000, 1 - 2 * beta)[1]
    assert bound == pytest.approx((1 - w_hi) * u_d + w_hi * u_k, rel=1e-12)
    lost = estimate(np.zeros(1883), 117, np.zeros(40), span=(0.0, 1.0))
    assert (lost.value, lost.low, lost.high) == (0.0, 0.0, bound)
    # without a span (or with a loss seen) it is the normal interval
    assert estimate(won, 117, np.ones(40)).low == 1.0
    one_loss = estimate(won, 117, np.r_[np.ones(39), 0.0], span=(0.0, 1.0))
    assert 0 < one_loss.se and one_loss.low < one_loss.value < one_loss.high
    three = estimate3(won, 117, np.ones(30), 10, np.ones(6), span=(0.0, 1.0))
    b3 = no_event_bound(1883, 117, (40, 10, 6))
    assert (three.value, three.low, three.high) == (1.0, 1.0 - b3, 1.0) and b3 > bound
    # on rows: win share and mean banked (52 a won deal) both take it
    phase1 = np.array(["won"] * 1883 + ["unknown"] * 117)
    subsampled = np.zeros(2000, bool)
    subsampled[1883:1923] = True
    final = np.where(subsampled, "won", phase1)
    w = win_share(phase1, final, subsampled)
    assert (w.low_case.low, w.high_case.low) == (1.0 - bound, 1.0 - bound)
    banked = np.where(final == "won", 52.0, 20.0)
    b = mean_banked(phase1, final, banked, subsampled)
    assert b.low_case.low == pytest.approx(52 * (1 - bound))


def test_no_event_bound_covers_where_the_point_does_not():
    """Studies of a population almost always won (losses: 0.03% of deals
    like the decided ones, 1% of the hard ones, which are 5%): in many no
    loss is seen at all. There the point interval [1, 1] always misses the
    truth; the no-event bound misses it in at most 5% of all studies, which
    is what its Bonferroni construction promises."""
    rng = np.random.default_rng(2031)
    studies, n, h, m = 2000, 2000, 0.05, 40
    q_d, q_k = 0.0003, 0.01
    truth = 1 - ((1 - h) * q_d + h * q_k)
    n_k = rng.binomial(n, h, studies)
    n_d = n - n_k
    lost_d = rng.binomial(n_d, q_d)
    lost_k = rng.binomial(n_k, q_k)
    lost_sub = rng.hypergeometric(lost_k, n_k - lost_k, np.minimum(m, n_k))
    none_seen = (lost_d == 0) & (lost_sub == 0)
    assert none_seen.mean() > 0.2  # the case under test occurs, often
    missed = 0
    for i in np.flatnonzero(none_seen):
        r = estimate(np.ones(n_d[i]), int(n_k[i]), np.ones(min(m, n_k[i])), span=(0.0, 1.0))
        assert r.high == 1.0 and r.value == 1.0
        missed += not r.low <= truth
    # the point interval misses every one of these studies (truth < 1)
    assert none_seen.mean() > 0.2 and missed / studies <= 0.05
