"""Statistics against values computed by hand (and standard tables)."""

from __future__ import annotations

import math

import pytest

from canfield.experiments.stats import (
    Z95,
    mcnemar_chi2,
    mcnemar_exact,
    mean_ci,
    normal_quantile,
    t_quantile,
    wilson,
)


def wilson_by_hand(k: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    # (p + z^2/2n -+ z sqrt(p(1-p)/n + z^2/4n^2)) / (1 + z^2/n), written out once more.
    p = k / n
    a = p + z * z / (2 * n)
    b = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    c = 1 + z * z / n
    return ((a - b) / c, (a + b) / c)


def test_wilson_hand_values():
    # 8 of 10: p=0.8, z^2=3.8415; centre=(0.8+0.19207)/1.38415=0.71673,
    # half=1.95996*sqrt(0.016+0.0096036)/1.38415=0.22658 -> [0.4902, 0.9433]
    lo, hi = wilson(8, 10)
    assert lo == pytest.approx(0.4901625, abs=1e-6)
    assert hi == pytest.approx(0.9433178, abs=1e-6)
    # 0 of 10: [0, z^2/(n+z^2)] = [0, 3.8415/13.8415] = [0, 0.27753]
    assert wilson(0, 10) == pytest.approx((0.0, 3.8414588 / 13.8414588), abs=1e-6)
    # 10 of 10 mirrors 0 of 10
    assert wilson(10, 10)[0] == pytest.approx(1 - 3.8414588 / 13.8414588, abs=1e-6)
    assert wilson(10, 10)[1] == pytest.approx(1.0)
    # 50 of 100: centre 0.5, half = 1.96*sqrt(0.0025+0.0000960)/1.038415 = 0.0961685
    lo, hi = wilson(50, 100)
    assert (lo, hi) == pytest.approx((0.5 - 0.0961685, 0.5 + 0.0961685), abs=1e-6)
    for k, n in [(1, 3), (17, 40), (119, 142)]:
        assert wilson(k, n) == pytest.approx(wilson_by_hand(k, n), abs=1e-12)


def test_wilson_edges():
    assert all(math.isnan(x) for x in wilson(0, 0))
    with pytest.raises(ValueError):
        wilson(3, 2)
    lo90, hi90 = wilson(8, 10, conf=0.90)
    lo95, hi95 = wilson(8, 10)
    assert lo95 < lo90 < 0.8 < hi90 < hi95
    # the interval holds k / n exactly, even where rounding would cut it
    # (1962 of 1962 gave an upper bound of 0.9999999999999999)
    for n in (1, 7, 1948, 1962, 10_000):
        assert wilson(n, n)[1] == 1.0 and wilson(0, n)[0] == 0.0
        for k in range(0, n + 1, max(1, n // 50)):
            lo, hi = wilson(k, n)
            assert lo <= k / n <= hi


def test_mcnemar_exact_hand_values():
    # b=1, c=9: n=10, P(X<=1) = (1 + 10)/1024; two-sided 22/1024
    assert mcnemar_exact(1, 9) == pytest.approx(22 / 1024, abs=0)
    assert mcnemar_exact(9, 1) == mcnemar_exact(1, 9)
    # b=0, c=5: 2/32
    assert mcnemar_exact(0, 5) == 2 / 32
    # b=2, c=3: 2*(1+5+10)/32 = 1 -> capped at 1
    assert mcnemar_exact(2, 3) == 1.0
    assert mcnemar_exact(0, 0) == 1.0
    # b=3, c=12: 2*(1+15+105+455)/32768 = 1152/32768
    assert mcnemar_exact(3, 12) == pytest.approx(1152 / 32768)


def test_mcnemar_chi2_hand_values():
    # (|1-9|-1)^2/10 = 4.9; p = P(chi2_1 > 4.9) = 0.026857
    stat, p = mcnemar_chi2(1, 9)
    assert stat == pytest.approx(4.9)
    assert p == pytest.approx(0.0268567, abs=1e-6)
    # (|3-12|-1)^2/15 = 64/15 = 4.2667; p = 0.038867
    stat, p = mcnemar_chi2(3, 12)
    assert stat == pytest.approx(64 / 15)
    assert p == pytest.approx(0.0388671, abs=1e-6)
    assert mcnemar_chi2(4, 4) == (0.0, 1.0)
    assert mcnemar_chi2(0, 0) == (0.0, 1.0)


def test_quantiles_against_tables():
    assert normal_quantile(0.975) == pytest.approx(Z95, abs=1e-12)
    assert normal_quantile(0.01) == pytest.approx(-2.3263478740, abs=1e-9)
    # Student t, two-sided 95%: the textbook table
    for df, t in [
        (1, 12.7062),
        (2, 4.3027),
        (5, 2.5706),
        (10, 2.2281),
        (30, 2.0423),
        (120, 1.9799),
    ]:
        assert t_quantile(0.975, df) == pytest.approx(t, abs=1e-4)
    assert t_quantile(0.025, 10) == pytest.approx(-2.2281, abs=1e-4)


def test_mean_ci_hand_values():
    # 1..5: mean 3, sd sqrt(2.5), se sqrt(0.5), t_4 = 2.776445
    m, lo, hi = mean_ci([1, 2, 3, 4, 5])
    assert m == 3
    assert hi - m == pytest.approx(2.776445 * math.sqrt(0.5), abs=1e-6)
    assert m - lo == pytest.approx(hi - m)
    assert mean_ci([7, 7, 7]) == (7.0, 7.0, 7.0)
    m, lo, hi = mean_ci([4])
    assert m == 4 and math.isnan(lo) and math.isnan(hi)
    assert all(math.isnan(x) for x in mean_ci([]))


def test_mcnemar_exact_with_thousands_of_discordant_pairs():
    # 2.0**n overflows a float past n = 1023; the answer must still come out
    assert mcnemar_exact(0, 2000) == 0.0 or mcnemar_exact(0, 2000) < 1e-300
    assert mcnemar_exact(1000, 1000) == 1.0
    p = mcnemar_exact(1000, 1100)
    assert 0.0 < p < 0.05
