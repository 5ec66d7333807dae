"""Rule profiles: a preset name plus option overrides (docs/rules.md section 3).

A profile is written ``preset`` or ``preset:opt=val,opt=val``. Its canonical
string names only the options that differ from the preset, in a fixed order,
so ``parse_profile(p.canonical()) == p`` and equal profiles print equally.
``Profile.full()`` spells every option out, for result files.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace

# Option order is part of the canonical string: never reorder.
OPTION_ORDER = ("draw", "passes", "moves", "space", "fill", "worry", "build", "wrap")

CHOICES: dict[str, tuple[str, ...]] = {
    "moves": ("whole", "any"),
    "space": ("waste", "any"),
    "fill": ("auto", "free"),
    "worry": ("no", "yes"),
    "build": ("alt", "suit", "rank"),
    "wrap": ("ak", "base"),
}
UNLIMITED = 0  # ``passes`` value meaning no limit; written ``inf``
MAX_PASSES = 15  # the packed position holds the redeal count in 4 bits


class ProfileError(ValueError):
    """An unknown preset, option or option value."""


@dataclass(frozen=True)
class Profile:
    preset: str = "strict"
    draw: int = 3
    passes: int = UNLIMITED
    moves: str = "whole"
    space: str = "waste"
    fill: str = "auto"
    worry: str = "no"
    build: str = "alt"
    wrap: str = "ak"

    @property
    def layout(self) -> str:
        return _LAYOUT.get(self.preset, "standard")

    @property
    def packs(self) -> int:
        """Packs of cards in the deal: 2 for ``double``, else 1."""
        return 2 if self.layout == "double" else 1

    @property
    def cards(self) -> int:
        """Cards in play, all banked when won: 52, or 104 for two packs."""
        return 52 * self.packs

    @property
    def reserve_visible(self) -> bool:
        """Superior Canfield deals the whole reserve face up."""
        return self.preset == "superior"

    def options(self) -> dict[str, object]:
        return {name: getattr(self, name) for name in OPTION_ORDER}

    def canonical(self) -> str:
        base = PRESETS[self.preset]
        diffs = [
            f"{name}={_fmt(name, getattr(self, name))}"
            for name in OPTION_ORDER
            if getattr(self, name) != getattr(base, name)
        ]
        return self.preset + (":" + ",".join(diffs) if diffs else "")

    def full(self) -> str:
        """Every option spelled out; parses back to an equal profile."""
        opts = ",".join(f"{n}={_fmt(n, getattr(self, n))}" for n in OPTION_ORDER)
        return f"{self.preset}:{opts}"

    def __str__(self) -> str:
        return self.canonical()


def _fmt(name: str, value: object) -> str:
    if name == "passes" and value == UNLIMITED:
        return "inf"
    return str(value)


_STRICT = Profile()
PRESETS: dict[str, Profile] = {
    "strict": _STRICT,
    "hevagames": replace(_STRICT, preset="hevagames", moves="any", space="any"),
    "cardgames": replace(_STRICT, preset="cardgames", moves="any", space="any", worry="yes"),
    "cardgames-draw1": replace(
        _STRICT, preset="cardgames-draw1", draw=1, moves="any", space="any", worry="yes"
    ),
    "solvitaire": replace(_STRICT, preset="solvitaire", moves="any", space="any", wrap="base"),
    "storehouse": replace(_STRICT, preset="storehouse", build="suit", draw=1, passes=3),
    "rainbow": replace(_STRICT, preset="rainbow", build="rank", draw=1, passes=1),
    "selective": replace(_STRICT, preset="selective"),
    "superior": replace(_STRICT, preset="superior", fill="free"),
    "double": replace(_STRICT, preset="double", moves="any", passes=3),
}
_LAYOUT = {"storehouse": "storehouse", "selective": "selective", "double": "double"}
#: Options the two-pack kernels (engine/core_double.py) play only one way.
DOUBLE_FIXED = {"fill": "auto", "worry": "no", "build": "alt"}


def _parse_value(name: str, text: str) -> object:
    text = text.strip().lower()
    if name == "draw":
        if text not in ("1", "3"):
            raise ProfileError(f"draw must be 1 or 3, got {text!r}")
        return int(text)
    if name == "passes":
        if text in ("inf", "unlimited", "0"):
            return UNLIMITED
        if not text.isdigit() or not 1 <= int(text) <= MAX_PASSES:
            raise ProfileError(f"passes must be 1..{MAX_PASSES} or inf, got {text!r}")
        return int(text)
    allowed = CHOICES[name]
    if text not in allowed:
        raise ProfileError(f"{name} must be one of {', '.join(allowed)}, got {text!r}")
    return text


def parse_profile(text: str | Profile | None = None) -> Profile:
    """Read ``preset[:opt=val,...]``; ``None`` gives ``strict``.

    An empty or blank string is refused: it most often is a profile meant and
    lost (an unset shell variable), and a sweep under ``strict`` in its place
    would look like an answer to the question asked.
    """
    if isinstance(text, Profile):
        return text
    if text is not None and not str(text).strip():
        raise ProfileError(f"empty profile; presets are {', '.join(PRESETS)}")
    text = (text or "strict").strip()
    preset_txt, _, opts_txt = text.partition(":")
    preset_txt = preset_txt.strip().lower()
    if preset_txt not in PRESETS:
        raise ProfileError(f"unknown profile {preset_txt!r}; presets are {', '.join(PRESETS)}")
    profile = PRESETS[preset_txt]
    changes: dict[str, object] = {}
    for item in filter(None, (s.strip() for s in opts_txt.split(","))):
        name, eq, value = item.partition("=")
        name = name.strip().lower()
        if not eq or name not in OPTION_ORDER:
            raise ProfileError(
                f"unknown profile option {item!r}; options are {', '.join(OPTION_ORDER)}"
            )
        if name in changes:
            # a string that says two things names no one profile: refuse
            # rather than let the last value win unseen
            raise ProfileError(f"profile option {name!r} given twice in {text!r}")
        changes[name] = _parse_value(name, value)
    profile = replace(profile, **changes)
    if profile.layout == "double":
        for name, value in DOUBLE_FIXED.items():
            if getattr(profile, name) != value:
                raise ProfileError(f"double is played only with {name}={value}")
    return profile


assert tuple(f.name for f in fields(Profile))[1:] == OPTION_ORDER
