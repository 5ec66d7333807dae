"""docs/rules.md section 3: profiles, presets, overrides and canonical strings."""

from __future__ import annotations

import itertools
from dataclasses import replace

import pytest
from cli_errors import assert_user_error
from test_cli import run

from canfield.engine.profiles import (
    CHOICES,
    MAX_PASSES,
    OPTION_ORDER,
    PRESETS,
    UNLIMITED,
    Profile,
    ProfileError,
    parse_profile,
)


def test_rules_md_preset_table():
    s, h, c = (parse_profile(n) for n in ("strict", "hevagames", "cardgames"))
    assert (s.draw, s.passes, s.moves, s.space, s.fill, s.worry, s.wrap) == (
        3,
        UNLIMITED,
        "whole",
        "waste",
        "auto",
        "no",
        "ak",
    )
    assert (h.draw, h.passes, h.moves, h.space, h.fill, h.worry, h.wrap) == (
        3,
        UNLIMITED,
        "any",
        "any",
        "auto",
        "no",
        "ak",
    )
    assert (c.draw, c.passes, c.moves, c.space, c.fill, c.worry, c.wrap) == (
        3,
        UNLIMITED,
        "any",
        "any",
        "auto",
        "yes",
        "ak",
    )
    assert parse_profile("cardgames-draw1") == replace(c, preset="cardgames-draw1", draw=1)


def test_default_profile_is_strict():
    assert parse_profile() == parse_profile(None) == PRESETS["strict"]
    for blank in ("", "  "):
        with pytest.raises(ProfileError, match="empty profile"):
            parse_profile(blank)
    assert parse_profile("strict") == Profile()


def test_variant_presets():
    st = parse_profile("storehouse")
    assert (st.build, st.draw, st.passes, st.layout) == ("suit", 1, 3, "storehouse")
    # the literal reading of seed 003's "only twice" stays available
    assert parse_profile("storehouse:passes=2").passes == 2
    rb = parse_profile("rainbow")
    assert (rb.build, rb.draw, rb.passes, rb.layout) == ("rank", 1, 1, "standard")
    assert parse_profile("rainbow:passes=3").passes == 3
    se = parse_profile("selective")
    assert se.layout == "selective" and replace(se, preset="strict") == Profile()
    su = parse_profile("superior")
    assert su.fill == "free" and su.reserve_visible
    assert not parse_profile("strict").reserve_visible
    assert replace(su, preset="strict", fill="auto") == Profile()


def test_solvitaire_is_hevagames_with_wrap_base():
    sv = parse_profile("solvitaire")
    assert replace(sv, preset="hevagames") == parse_profile("hevagames:wrap=base")


def test_wrap_is_ak_in_every_other_preset():
    for p in PRESETS.values():
        assert p.wrap == ("base" if p.preset == "solvitaire" else "ak")


@pytest.mark.parametrize("name", list(PRESETS))
def test_every_preset_parses_and_round_trips(name):
    p = parse_profile(name)
    assert p.preset == name
    assert p.canonical() == name
    assert str(p) == name
    assert parse_profile(p.canonical()) == p
    assert parse_profile(p.full()) == p
    assert parse_profile(name.upper()) == p


def test_overrides():
    p = parse_profile("strict:draw=1")
    assert p.draw == 1 and p.preset == "strict" and p.canonical() == "strict:draw=1"
    p = parse_profile("cardgames:worry=no")
    assert p.worry == "no" and p.canonical() == "cardgames:worry=no"
    p = parse_profile("strict:worry=yes")
    assert p.worry == "yes"
    # order of overrides on input does not matter; canonical order is fixed
    a = parse_profile("strict:wrap=base,draw=1,moves=any")
    b = parse_profile(" strict : moves=any , draw=1, wrap=base ")
    assert a == b
    assert a.canonical() == "strict:draw=1,moves=any,wrap=base"
    # an override equal to the preset's value disappears from the canonical string
    assert parse_profile("hevagames:moves=any").canonical() == "hevagames"
    # an option given twice is refused (test_bad_profiles_raise): a profile
    # string names one game, and one that says two things names none


def test_passes_spellings():
    for text in ("inf", "unlimited", "0", "INF"):
        assert parse_profile(f"storehouse:passes={text}").passes == UNLIMITED
    assert parse_profile("strict:passes=1").passes == 1
    assert parse_profile(f"strict:passes={MAX_PASSES}").passes == MAX_PASSES
    assert parse_profile("storehouse:passes=inf").canonical() == "storehouse:passes=inf"
    assert "passes=inf" in parse_profile("strict").full()


def _override_combos():
    values = {
        "draw": ["1", "3"],
        "passes": ["inf", "1", "2", "3", str(MAX_PASSES)],
        **{k: list(v) for k, v in CHOICES.items()},
    }
    names = list(OPTION_ORDER)
    for r in (1, 2, 3):
        for combo in itertools.combinations(names, r):
            for vals in itertools.product(*(values[n] for n in combo)):
                yield ",".join(f"{n}={v}" for n, v in zip(combo, vals, strict=True))


def test_canonical_round_trip_over_many_overrides():
    count = 0
    for preset in PRESETS:
        for overrides in _override_combos():
            try:
                p = parse_profile(f"{preset}:{overrides}")
            except ProfileError:
                # double refuses the options its kernels do not play (DOUBLE_FIXED)
                assert preset == "double", overrides
                continue
            assert parse_profile(p.canonical()) == p
            assert parse_profile(p.full()) == p
            assert parse_profile(p.canonical()).canonical() == p.canonical()
            count += 1
    assert count > 5_000


def test_equal_profiles_print_equally():
    a = parse_profile("hevagames:wrap=base")
    b = parse_profile("hevagames:wrap=base,moves=any,space=any")
    assert a == b and a.canonical() == b.canonical() == "hevagames:wrap=base"
    # but a different preset is a different profile even with equal options
    assert parse_profile("solvitaire") != a


@pytest.mark.parametrize(
    "text, match",
    [
        ("klondike", "unknown profile 'klondike'"),
        ("strict:colour=red", "unknown profile option"),
        ("strict:draw", "unknown profile option"),
        ("strict:draw=2", "draw must be 1 or 3"),
        ("strict:draw=three", "draw must be 1 or 3"),
        ("strict:passes=-1", "passes must be"),
        ("strict:passes=16", "passes must be"),
        ("strict:passes=x", "passes must be"),
        ("strict:moves=some", "moves must be one of whole, any"),
        ("strict:space=column", "space must be one of"),
        ("strict:fill=manual", "fill must be one of"),
        ("strict:worry=maybe", "worry must be one of"),
        ("strict:build=colour", "build must be one of"),
        ("strict:wrap=none", "wrap must be one of"),
        ("strict:draw=1,draw=3", "'draw' given twice"),
        ("rainbow:passes=3,PASSES=3", "'passes' given twice"),
    ],
)
def test_bad_profiles_raise(text, match):
    with pytest.raises(ProfileError, match=match):
        parse_profile(text)


@pytest.mark.parametrize(
    "text", ["nosuch", "strict:draw=2", "cardgames:colour=red", "strict:draw=1,draw=3"]
)
def test_bad_profile_on_the_command_line_is_one_error_line(text):
    """``-p`` with a bad profile gives the parser's reason as one ``error:``
    line and exit code 2, never a traceback."""
    with pytest.raises(ProfileError) as raised:
        parse_profile(text)
    assert assert_user_error(run("deal", "1", "-p", text)) == f"error: {raised.value}"


def test_profile_passes_through():
    p = parse_profile("rainbow")
    assert parse_profile(p) is p


def test_the_cores_option_codes_are_the_choices_indices():
    """The kernels compare rule codes with named constants; each must be the
    index of its choice in ``CHOICES``, which ``Position`` packs the rules by."""
    from canfield.engine import core
    from canfield.engine.profiles import CHOICES

    named = {
        "moves": {"whole": core.MOVES_WHOLE, "any": core.MOVES_ANY},
        "space": {"waste": core.SPACE_WASTE, "any": core.SPACE_ANY},
        "wrap": {"ak": core.WRAP_AK, "base": core.WRAP_BASE},
    }
    for option, codes in named.items():
        for choice, code in codes.items():
            assert CHOICES[option].index(choice) == code, (option, choice)
