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
    mean_banked,
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
