"""Small, dependency-free statistics for win-rate tables.

Wilson score intervals for proportions, McNemar's test for paired verdicts
(exact binomial and chi-square with continuity correction), a paired
difference of proportions with its interval, and Student-t intervals for
means. Only the standard library and numpy are used.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

#: Two-sided 95% normal quantile.
Z95 = 1.959963984540054


def normal_quantile(p: float) -> float:
    """Inverse of the standard normal CDF (Acklam's algorithm, refined once).

    Parameters
    ----------
    p : float
        Probability in (0, 1).
    """
    if not 0.0 < p < 1.0:
        raise ValueError(f"p must be in (0, 1), got {p}")
    a = (
        -3.969683028665376e01,
        2.209460984245205e02,
        -2.759285104469687e02,
        1.383577518672690e02,
        -3.066479806614716e01,
        2.506628277459239e00,
    )
    b = (
        -5.447609879822406e01,
        1.615858368580409e02,
        -1.556989798598866e02,
        6.680131188771972e01,
        -1.328068155288572e01,
    )
    c = (
        -7.784894002430293e-03,
        -3.223964580411365e-01,
        -2.400758277161838e00,
        -2.549732539343734e00,
        4.374664141464968e00,
        2.938163982698783e00,
    )
    d = (7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e00, 3.754408661907416e00)
    lo = 0.02425
    if p < lo:
        q = math.sqrt(-2 * math.log(p))
        x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / (
            (((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1
        )
    elif p > 1 - lo:
        q = math.sqrt(-2 * math.log(1 - p))
        x = -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / (
            (((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1
        )
    else:
        q = p - 0.5
        r = q * q
        x = (
            (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5])
            * q
            / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1)
        )
    # One Halley step against erfc brings it to full double precision.
    e = 0.5 * math.erfc(-x / math.sqrt(2)) - p
    u = e * math.sqrt(2 * math.pi) * math.exp(x * x / 2)
    return x - u / (1 + x * u / 2)


def wilson(k: int, n: int, conf: float = 0.95) -> tuple[float, float]:
    """Wilson score interval for a proportion ``k / n``.

    Parameters
    ----------
    k : int
        Successes, ``0 <= k <= n``.
    n : int
        Trials; ``n == 0`` gives ``(nan, nan)``.
    conf : float
        Two-sided confidence level.

    Returns
    -------
    (low, high) : tuple of float
        Bounds as proportions in [0, 1].
    """
    if not 0 <= k <= n:
        raise ValueError(f"need 0 <= k <= n, got k={k}, n={n}")
    if n == 0:
        return (math.nan, math.nan)
    z = Z95 if conf == 0.95 else normal_quantile(0.5 + conf / 2)
    p = k / n
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z / denom * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    # the interval always holds k / n; rounding can put a bound a hair inside
    # it (k = n gives 0.9999999999999999), which plots read as a negative error
    return (max(0.0, min(centre - half, p)), min(1.0, max(centre + half, p)))


def mcnemar_exact(b: int, c: int) -> float:
    """Two-sided exact McNemar p-value for discordant counts ``b`` and ``c``.

    Under the null each discordant pair is a fair coin: the p-value is
    ``min(1, 2 * P(X <= min(b, c)))`` for ``X ~ Binomial(b + c, 1/2)``.
    """
    if b < 0 or c < 0:
        raise ValueError("counts must be non-negative")
    n = b + c
    if n == 0:
        return 1.0
    k = min(b, c)
    tail = sum(math.comb(n, i) for i in range(k + 1))
    # integer division: 2.0**n overflows a float past about 1,000 discordant pairs
    return min(1.0, (2 * tail) / (1 << n))


def mcnemar_chi2(b: int, c: int) -> tuple[float, float]:
    """McNemar chi-square with continuity correction and its p-value (1 df).

    Returns
    -------
    (statistic, p) : tuple of float
        ``(max(0, |b - c| - 1))**2 / (b + c)``; ``(0, 1)`` when ``b + c == 0``.
    """
    n = b + c
    if n == 0:
        return (0.0, 1.0)
    stat = max(0.0, abs(b - c) - 1.0) ** 2 / n
    return (stat, math.erfc(math.sqrt(stat / 2.0)))


def _betacf(a: float, b: float, x: float) -> float:
    # Continued fraction for the incomplete beta function (Lentz's method).
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 400):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-15:
            break
    return h


def _betainc(a: float, b: float, x: float) -> float:
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    lbeta = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
    front = math.exp(lbeta + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1.0 - x) / b


def t_cdf(t: float, df: float) -> float:
    """Student-t cumulative distribution function."""
    x = df / (df + t * t)
    tail = 0.5 * _betainc(df / 2.0, 0.5, x)
    return 1.0 - tail if t > 0 else tail


def t_quantile(p: float, df: float) -> float:
    """Inverse Student-t CDF, by bisection on :func:`t_cdf`."""
    if not 0.0 < p < 1.0:
        raise ValueError(f"p must be in (0, 1), got {p}")
    if p == 0.5:
        return 0.0
    if p < 0.5:
        return -t_quantile(1.0 - p, df)
    lo, hi = 0.0, 1.0
    while t_cdf(hi, df) < p:
        hi *= 2.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if t_cdf(mid, df) < p:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-12:
            break
    return 0.5 * (lo + hi)


def mean_ci(values: Sequence[float] | np.ndarray, conf: float = 0.95) -> tuple[float, float, float]:
    """Mean with a Student-t confidence interval.

    Returns
    -------
    (mean, low, high) : tuple of float
        ``nan`` bounds for fewer than two values; zero width if all are equal.
    """
    x = np.asarray(values, dtype=float)
    n = x.size
    if n == 0:
        return (math.nan, math.nan, math.nan)
    m = float(x.mean())
    if n < 2:
        return (m, math.nan, math.nan)
    se = float(x.std(ddof=1)) / math.sqrt(n)
    half = t_quantile(0.5 + conf / 2.0, n - 1) * se
    return (m, m - half, m + half)


def paired_diff_ci(
    only_a: int, only_b: int, n: int, conf: float = 0.95
) -> tuple[float, float, float]:
    """Difference of two paired proportions ``p_A - p_B`` with a Wald interval.

    Method: each of ``n`` deals is scored under both A and B. With ``only_a``
    deals won by A alone and ``only_b`` by B alone (the discordant pairs), the
    difference is ``d = (only_a - only_b) / n``. Its standard error uses the
    pairing: only the discordant counts enter it (not the two margins, as for
    independent samples):

        se = sqrt(only_a + only_b - (only_a - only_b)**2 / n) / n

    (the Wald interval for matched pairs, as in Agresti's *Categorical Data
    Analysis*; the same discordant counts drive McNemar's test). The interval
    is ``d -+ z * se`` with ``z`` the normal quantile, clipped to [-1, 1].
    With no discordant pair it has zero width; for few discordant pairs prefer
    McNemar's exact test for the p-value.

    Returns
    -------
    (diff, low, high) : tuple of float
        As proportions; ``nan`` for ``n == 0``.
    """
    if only_a < 0 or only_b < 0 or only_a + only_b > n:
        raise ValueError(f"need 0 <= only_a + only_b <= n, got {only_a}, {only_b}, {n}")
    if n == 0:
        return (math.nan, math.nan, math.nan)
    z = Z95 if conf == 0.95 else normal_quantile(0.5 + conf / 2)
    d = (only_a - only_b) / n
    se = math.sqrt(max(0.0, only_a + only_b - (only_a - only_b) ** 2 / n)) / n
    return (d, max(-1.0, d - z * se), min(1.0, d + z * se))
