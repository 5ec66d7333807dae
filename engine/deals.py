"""Deal numbers: SplitMix64 driving a Fisher-Yates shuffle (docs/rules.md section 1).

A deal number never changes meaning; the four test vectors in docs/rules.md are
tests in ``tests/test_deals.py``.
"""

from __future__ import annotations

MASK64 = (1 << 64) - 1
MAX_DEAL = 1 << 64


class DealNumberError(ValueError):
    """A deal number outside ``0 <= N < 2**64``."""


def splitmix64(seed: int):
    """Yield the SplitMix64 sequence for ``seed``."""
    state = seed & MASK64
    while True:
        state = (state + 0x9E3779B97F4A7C15) & MASK64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        yield z ^ (z >> 31)


def deal_cards(number: int, packs: int = 1) -> list[int]:
    """The deck of deal ``number``, top card first.

    With ``packs=2`` (``double``, docs/rules.md "Deal numbers for double") the
    deck ``0..103`` is shuffled the same way and each index is read as the
    card ``index % 52``: the two copies of a card are written alike.
    """
    if not 0 <= number < MAX_DEAL:
        raise DealNumberError(f"deal number must be in 0..2^64-1, got {number}")
    size = 52 * packs
    deck = list(range(size))
    rng = splitmix64(number)
    for i in range(size - 1, 0, -1):
        j = next(rng) % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return [c % 52 for c in deck]
