"""Golden playthroughs: every preset's seeded game must replay to its stored text.

A mismatch means the engine now deals, allows or does something else: if that
is intended, regenerate with ``python tests/make_playthroughs.py`` and review
the diff of ``tests/playthroughs/`` like any other change.
"""

from __future__ import annotations

import pytest
from make_playthroughs import (
    REGENERATE,
    SETUPS,
    expected_kinds,
    golden_path,
    playthrough,
    start_position,
)

from canfield.engine.notation import parse_move
from canfield.engine.profiles import PRESETS


def _first_difference(expected: str, actual: str) -> str:
    old, new = expected.splitlines(), actual.splitlines()
    for n, (a, b) in enumerate(zip(old, new, strict=False), 1):
        if a != b:
            return f"line {n}:\n  golden: {a}\n  now:    {b}"
    n = min(len(old), len(new)) + 1
    return f"line {n}: the golden has {len(old)} lines, the replay {len(new)}"


def test_every_preset_has_a_golden():
    assert set(SETUPS) == set(PRESETS)


@pytest.mark.parametrize("preset", list(PRESETS))
def test_playthrough_matches_golden(preset):
    path = golden_path(preset)
    assert path.is_file(), f"{path} is missing: run `{REGENERATE}`"
    actual, _ = playthrough(preset)
    expected = path.read_text()
    if actual != expected:
        pytest.fail(
            f"{path.name} differs at {_first_difference(expected, actual)}\n"
            f"if the change is intended, run `{REGENERATE}` and review the diff",
            pytrace=False,
        )


@pytest.mark.parametrize("preset", list(PRESETS))
def test_playthrough_covers_every_kind_of_move_the_profile_allows(preset):
    _, shown = playthrough(preset)
    missing = expected_kinds(PRESETS[preset]) - shown.keys()
    assert not missing, f"{preset}'s trace never shows: {', '.join(sorted(missing))}"


@pytest.mark.parametrize("preset", list(PRESETS))
def test_golden_replays_through_the_public_api(preset):
    """The stored moves, read back with the notation reader, are each legal
    where they were played and reach the stored final status."""
    text = golden_path(preset).read_text()
    plays = [line[5:] for line in text.splitlines() if line.startswith("play ")]
    pos = start_position(preset)
    for move in plays:
        pos = pos.apply(parse_move(move))
    assert f"status {pos.status()}" in text.splitlines()
