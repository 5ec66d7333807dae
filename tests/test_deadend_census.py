"""experiments/deadend_census.py: its B1 twin equals the kernel, and its
sound reading never caps below what the brute force banks."""

from __future__ import annotations

from test_bound import tangled
from test_solver import brute_force

from canfield.experiments.deadend_census import census_bound, kernel_bound, positions


def test_census_b1_is_the_kernel_bound_and_the_readings_nest():
    sample = positions(1)
    below_52 = fired = 0
    for pos in sample:
        b1 = census_bound(pos, "b1")
        assert b1 == kernel_bound(pos), pos.show()
        sound, pattern, optimistic = (
            census_bound(pos, m) for m in ("sound", "pattern", "optimistic")
        )
        # each reading claims at most what the next, looser one claims
        assert optimistic <= pattern <= b1 and optimistic <= sound <= b1, pos.show()
        below_52 += b1 < 52
        fired += optimistic < b1
    assert below_52 >= 1 and fired >= 1, "no position froze a card: the census proves nothing"


def test_the_sound_reading_fires_and_keeps_the_brute_force_best():
    # seed 1381: every column is shut, and the sound reading caps at the
    # brute force's best (10), under B1's 13
    pos = tangled("strict", 1381)
    truth = brute_force(pos, 200_000)
    assert truth is not None
    best = 52 if truth[0] == "won" else truth[1]
    sound = census_bound(pos, "sound")
    assert sound < census_bound(pos, "b1")
    assert sound >= best
